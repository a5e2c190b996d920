#!/usr/bin/env bash
# Says clearly which required tool is missing or too old.
set -euo pipefail
for tool in "$@"; do
  case "$tool" in
    go)
      command -v go >/dev/null || { echo "Go is not installed: get Go 1.26 or newer from https://go.dev/dl/" >&2; exit 1; } ;;
    node)
      command -v node >/dev/null && command -v npm >/dev/null || { echo "Node.js 20.19+ with npm is not installed: see https://nodejs.org/" >&2; exit 1; }
      node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
        { echo "Node.js $(node --version) is too old: the web build needs 20.19 or newer" >&2; exit 1; } ;;
  esac
done
