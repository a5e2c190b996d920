#!/usr/bin/env bash
# Sums every script a browser downloads on a first view of a page, lazily loaded chunks
# included (bench/page-weight.sh counts only the entry and its preloads), as the server sends
# them gzip- and brotli-compressed, one line per script below the total.
# Usage: bench/first-view.sh [path ...]   (default: /)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
echo "# $(date -u +%Y-%m-%dT%H:%MZ), bin/tribe $(bin/tribe version | cut -d' ' -f2)"
node bench/first-view.mjs "$base" "$@"
