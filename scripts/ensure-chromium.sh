#!/usr/bin/env bash
# The browser tests drive the system Chromium: Debian's headless shell (the same engine without the
# full browser's window layer, lighter on two cores), and the full browser, which Lighthouse and the
# first-view benchmark drive. Installs Debian's packages that are missing.
set -euo pipefail
want=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || want+=(chromium)
[ -n "${CHROMIUM_PATH:-}" ] || [ -x /usr/lib/chromium/chromium-headless-shell ] || want+=(chromium-headless-shell)
[ ${#want[@]} = 0 ] && exit 0
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "Installing Debian's ${want[*]} for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${want[@]}" >/dev/null ||
    { apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${want[@]}" >/dev/null; }
  exit 0
fi
echo "Chromium is needed for the browser tests: install it (e.g. 'sudo apt-get install chromium chromium-headless-shell') or set CHROMIUM_PATH" >&2
exit 1
