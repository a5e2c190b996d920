#!/usr/bin/env bash
# The two-instance test (cmd/tribe TestTwoInstancesBehindNginx) and bench/two-instances.sh put the
# site behind a real nginx; install Debian's nginx-light when nginx is missing. The test runs nginx
# itself, from a temporary prefix, so the package's own service is neither needed nor started.
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then exit 0; fi
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "nginx not found: installing Debian's nginx-light package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 nginx-light >/dev/null ||
    { apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=300 nginx-light >/dev/null; }
  { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } && exit 0
fi
echo "nginx is needed for the two-instance test: install it (e.g. 'sudo apt-get install nginx-light')" >&2
exit 1
