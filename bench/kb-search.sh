#!/usr/bin/env bash
# Knowledge-base search latency: 10,000 chunks with 1,536-dimension vectors on
# SQLite and PostgreSQL (TEST_DATABASE_URL), full text and hybrid, the
# labelled relevance questions as queries. Runs the Go benchmark test
# TestSearchLatency and appends its numbers to bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=(go test ./internal/kb -run '^TestSearchLatency$' -count=1 -v -timeout 30m)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(KB_BENCH=1 "${cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
lines=$(grep -E 'setup:|latency:' <<<"$out" | sed -E 's/^ +bench_test\.go:[0-9]+: //')
echo "$lines"
block=$(
  echo "## Knowledge-base search (\`bench/kb-search.sh\`)"
  echo
  echo "Command: \`KB_BENCH=1 ${cmd[*]}\`. In-process calls to \`kb.Service.Search\` (limit 5), each of the"
  echo "44 relevance questions 10 times; hybrid query vectors come from an in-process stand-in, so an embedding"
  echo "API's own round trip is not included (query vectors are cached; result caching is bypassed). cpu/query is this process's processor"
  echo "time per search (PostgreSQL's own work runs in its server and is not in it)."
  echo
  echo '```'
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$lines"
  echo '```'
)
# Newest first: the block goes before the first section of RESULTS.md.
BLOCK="$block" python3 - <<'PY'
import os
p = "bench/RESULTS.md"
s = open(p).read()
i = s.index("\n## ")
open(p, "w").write(s[:i] + "\n\n" + os.environ["BLOCK"] + "\n" + s[i:])
PY
