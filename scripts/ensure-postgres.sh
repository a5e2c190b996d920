#!/usr/bin/env bash
# Makes sure the PostgreSQL server the tests use answers: uses the one on
# 127.0.0.1:5432 if it runs, starts an installed cluster otherwise, installs
# Debian's postgresql as a last resort, and creates the database "test".
# With TEST_DATABASE_URL set it only checks that server.
set -euo pipefail
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  psql "$TEST_DATABASE_URL" -qtAc 'select 1' >/dev/null || { echo "TEST_DATABASE_URL does not answer" >&2; exit 1; }
  exit 0
fi
answers() { psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -qtAc 'select 1' >/dev/null 2>&1; }

if ! command -v psql >/dev/null || ! answers; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
      { echo "PostgreSQL is not running on 127.0.0.1:5432 and cannot be installed here; start one or set TEST_DATABASE_URL" >&2; exit 1; }
    echo "installing PostgreSQL from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n1)
  # Tests connect over TCP as "postgres" without a password, as on the CI machines.
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -q '^host all postgres 127.0.0.1/32 trust' "$hba"; then
    sed -i '1i host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null ||
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  for _ in $(seq 1 30); do answers && break; sleep 1; done
  answers || { echo "PostgreSQL did not come up on 127.0.0.1:5432" >&2; exit 1; }
fi
if [ "$(psql -h 127.0.0.1 -U postgres -d postgres -qtAc "select 1 from pg_database where datname = 'test'")" != 1 ]; then
  psql -h 127.0.0.1 -U postgres -d postgres -qc 'create database test'
fi
echo "PostgreSQL ready on 127.0.0.1:5432 (database test)"
