#!/usr/bin/env bash
# Installs versitygw, the S3 gateway whose posix backend the storage tests
# run as a real S3 server over a temporary folder, when it is missing (from
# the Go module proxy, with go install; it compiles a large module tree, so
# once). The version must match storagetest.VersityGWVersion.
set -euo pipefail
# One install at a time: .ci/run starts it beside the build, and `make test` calls it again, then
# waits here for that install to finish instead of compiling the same tree twice.
exec 9>"${TMPDIR:-/tmp}/tribe-ensure-s3.lock"
flock 9
version=v1.8.0
bin=$(go env GOBIN)
[ -n "$bin" ] || bin="$(go env GOPATH | cut -d: -f1)/bin"
if command -v versitygw >/dev/null || [ -x "$bin/versitygw" ]; then
  exit 0
fi
echo "installing versitygw $version into $bin"
go install "github.com/versity/versitygw/cmd/versitygw@$version"
