#!/usr/bin/env bash
# Sums the JavaScript and CSS a first visit to a page downloads before it can
# render (the entry script, its modulepreloads and stylesheets, as served
# gzip- and brotli-compressed). Lazy chunks loaded later are not counted.
# Usage: bench/page-weight.sh [path ...]   (default: /)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
size() { curl -fs -H "Accept-Encoding: $2" "$base$1" | wc -c; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ), bin/tribe $(bin/tribe version | cut -d' ' -f2)"
for page in "${@:-/}"; do
  html=$(curl -fs "$base$page")
  js_gz=0 js_br=0 css_gz=0
  for asset in $(echo "$html" | grep -oE '/assets/[^"]+\.(js|css)' | sort -u); do
    case "$asset" in
      *.js) js_gz=$((js_gz + $(size "$asset" gzip))) js_br=$((js_br + $(size "$asset" br))) ;;
      *.css) css_gz=$((css_gz + $(size "$asset" gzip))) ;;
    esac
  done
  awk -v p="$page" -v a="$js_gz" -v b="$js_br" -v c="$css_gz" -v h="$(size "$page" gzip)" 'BEGIN {
    printf "%-10s JS %6.1f KB gzip (%6.1f KB brotli), CSS %5.1f KB gzip, HTML %5.1f KB\n", p, a/1024, b/1024, c/1024, h/1024 }' 
done
