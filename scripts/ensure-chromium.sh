#!/usr/bin/env bash
# The browser tests drive the system Chromium; install Debian's when missing.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "Chromium not found at $path: installing Debian's chromium package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
fi
echo "Chromium is needed for the browser tests: install it (e.g. 'sudo apt-get install chromium') or set CHROMIUM_PATH" >&2
exit 1
