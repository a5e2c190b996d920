#!/usr/bin/env bash
# Installs stripe-mock, the official Stripe API mock the billing tests run
# against, when it is missing (from the Go module proxy, with go install).
# The version must match billingtest.StripeMockVersion.
set -euo pipefail
# One install at a time: .ci/run starts it beside the build, and `make test` calls it again, then
# waits here for that install to finish instead of compiling the same tree twice.
exec 9>"${TMPDIR:-/tmp}/tribe-ensure-stripe-mock.lock"
flock 9
version=v0.203.0
bin=$(go env GOBIN)
[ -n "$bin" ] || bin="$(go env GOPATH | cut -d: -f1)/bin"
if command -v stripe-mock >/dev/null || [ -x "$bin/stripe-mock" ]; then
  exit 0
fi
echo "installing stripe-mock $version into $bin"
go install "github.com/stripe/stripe-mock@$version"
