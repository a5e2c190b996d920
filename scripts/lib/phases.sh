# Phase timing for .ci/run and scripts/run-tests.sh (sourced, not run).
#
# `phase NAME CMD...` runs CMD and appends "NAME START END STATUS CPU" to $TRIBE_PHASES (seconds
# since $TRIBE_PHASES_T0; CPU is the processor seconds CMD and its children used), so phases that
# run side by side each keep their own wall time. `phase_report` prints the table. The two
# variables are exported by the first script that sources this file, so a nested `make test`
# adds to the same table.
if [ -z "${TRIBE_PHASES:-}" ]; then
  TRIBE_PHASES=$(mktemp "${TMPDIR:-/tmp}/tribe-phases.XXXXXX")
  TRIBE_PHASES_T0=$(date +%s.%N)
  export TRIBE_PHASES TRIBE_PHASES_T0
fi

_phase_now() { awk -v t0="$TRIBE_PHASES_T0" -v t="$(date +%s.%N)" 'BEGIN { printf "%.1f", t - t0 }'; }

# _phase_cpu sets _cpu to the user+system seconds this shell's finished children have used so far.
# (`times` in a pipe or a $(…) would report that subshell's children: it writes to a file instead.)
_phase_cpu() {
  local f
  f=$(mktemp "${TMPDIR:-/tmp}/tribe-times.XXXXXX")
  times > "$f"
  _cpu=$(awk 'NR == 2 { split($1, u, /m|s/); split($2, s, /m|s/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$f")
  rm -f "$f"
}

phase() {
  local name=$1 start end rc cpu0 cpu1
  shift
  start=$(_phase_now)
  _phase_cpu
  cpu0=$_cpu
  "$@"
  rc=$?
  _phase_cpu
  cpu1=$_cpu
  end=$(_phase_now)
  echo "$name $start $end $rc $(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.0f", b - a }')" >> "$TRIBE_PHASES"
  return $rc
}

phase_report() {
  echo
  echo "== phases (seconds since the start of the run; phases on one line-range ran side by side) =="
  printf '%-14s %7s %7s %7s %7s  %s\n' phase start end wall cpu status
  sort -k2,2n "$TRIBE_PHASES" | while read -r name start end rc cpu; do
    printf '%-14s %7.0f %7.0f %7.0f %7s  %s\n' "$name" "$start" "$end" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$cpu" "$([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)")"
  done
  printf '%-14s %7s %7.0f\n' total "" "$(_phase_now)"
}
