# Shared by the bench scripts that run a Go benchmark test and record it:
#   bench_go_test ENV_FLAG PATTERN -- go test args...
# runs the test with ENV_FLAG=1, keeps the lines matching PATTERN (without the
# test file's prefix) in $bench_lines and prints them, and remembers the load
# average around the run. bench_record TITLE DESCRIPTION then puts a section
# with the command, the machine, the commit and those lines at the top of
# bench/RESULTS.md (newest first).
bench_go_test() {
  local flag=$1 pattern=$2
  shift 3
  bench_cmd=("$@")
  bench_cmd_text="$flag=1 ${bench_cmd[*]}"
  bench_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  local out
  out=$(env "$flag=1" "${bench_cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
  bench_lines=$(grep -E "$pattern" <<<"$out" | sed -E 's/^ +[a-z_]+_test\.go:[0-9]+: //')
  echo "$bench_lines"
}

bench_record() {
  local title=$1 description=$2 block
  block=$(
    echo "## $title"
    echo
    echo "Command: \`$bench_cmd_text\`. $description"
    echo
    echo '```'
    echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $bench_load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$bench_lines"
    echo '```'
  )
  BLOCK="$block" python3 - <<'PY'
import os
p = "bench/RESULTS.md"
s = open(p).read()
i = s.index("\n## ")
open(p, "w").write(s[:i] + "\n" + os.environ["BLOCK"] + "\n" + s[i:])
PY
}
