#!/usr/bin/env bash
# Lighthouse scores of the public pages, as a phone sees them: the lighthouse npm package (from
# web/node_modules) with its default mobile settings (emulated mid-range phone, simulated slow 4G),
# driving the system Chromium headless, against bin/tribe on a free port with a fresh data dir.
# Each page is measured RUNS times and the median of every category is printed, because the
# performance score moves by a few points between runs on a busy 2-core machine.
# Usage: bench/lighthouse.sh [runs per page, default 3] [paths..., default / /about /booking /tribe /mcp
# /book/session-30 /book/group]
# TRIBE_BIN selects another binary (default bin/tribe); CHROME_PATH another Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
shift || true
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(/ /about /booking /tribe /mcp /book/session-30 /book/group)
bin="${TRIBE_BIN:-bin/tribe}"
chrome="${CHROME_PATH:-/usr/bin/chromium}"
lighthouse=web/node_modules/.bin/lighthouse
[ -x "$lighthouse" ] || { echo "lighthouse missing: run npm ci in web/" >&2; exit 1; }
[ -x "$bin" ] || make build

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/data" TRIBE_BASE_URL="http://127.0.0.1:$port" \
  "$bin" serve 2>"$work/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
curl -fs "$base/readyz" >/dev/null || { echo "server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $("$bin" version | cut -d' ' -f2), lighthouse $("$lighthouse" --version), mobile defaults, median of $runs"
for path in "${paths[@]}"; do
  name=$(echo "$path" | tr '/' '_')
  for i in $(seq 1 "$runs"); do
    "$lighthouse" "$base$path" --quiet --output=json --output-path="$work/lh$name-$i.json" \
      --only-categories=performance,accessibility,best-practices,seo \
      --chrome-path="$chrome" --chrome-flags="--headless=new --no-sandbox" >/dev/null 2>"$work/lh.log" ||
      { echo "lighthouse failed on $path:" >&2; tail -20 "$work/lh.log" >&2; exit 1; }
  done
done

node - "$work" "$runs" "${paths[@]}" <<'EOF'
const { readFileSync } = require('node:fs');
const [dir, runs, ...paths] = process.argv.slice(2);
const cats = ['performance', 'accessibility', 'best-practices', 'seo'];
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('page', 18)}${cats.map((c) => pad(c, 16)).join('')}LCP ms  TBT ms  CLS     (all runs of performance)`);
const problems = [];
for (const path of paths) {
  const reports = [];
  for (let i = 1; i <= Number(runs); i++) {
    reports.push(JSON.parse(readFileSync(`${dir}/lh${path.replaceAll('/', '_')}-${i}.json`, 'utf8')));
  }
  const score = (c) => median(reports.map((r) => Math.round((r.categories[c].score ?? 0) * 100)));
  const audit = (a) => median(reports.map((r) => r.audits[a].numericValue ?? 0));
  const perfRuns = reports.map((r) => Math.round(r.categories.performance.score * 100)).join(' ');
  console.log(
    `${pad(path, 18)}${cats.map((c) => pad(score(c), 16)).join('')}` +
      `${pad(Math.round(audit('largest-contentful-paint')), 8)}${pad(Math.round(audit('total-blocking-time')), 8)}` +
      `${pad(audit('cumulative-layout-shift').toFixed(3), 8)}(${perfRuns})`,
  );
  // Whatever kept a category below 100 in the last run, so it can be fixed.
  const last = reports.at(-1);
  for (const c of cats.slice(1)) {
    for (const ref of last.categories[c].auditRefs) {
      const a = last.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1) problems.push(`${path} ${c}: ${a.id} (${a.title})`);
    }
  }
}
if (problems.length) console.log(`\nfailing audits:\n  ${problems.join('\n  ')}`);
EOF
