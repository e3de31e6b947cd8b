#!/usr/bin/env bash
# Runs every libFuzzer target (or those named) for SECONDS each, one after the other, and
# prints one line per target: executions, time, findings. Seeds come from
# tests/fuzz/corpus/<target>/ (read only); what the fuzzer learns goes to <build>/corpus/.
# A crash leaves <build>/artifacts/<target>-crash-*; the script then exits 1.
# Usage: tools/ci/fuzz.sh BUILD_DIR SECONDS [TARGET...]
set -uo pipefail
build=$1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(fuzz_events fuzz_fen fuzz_move_text fuzz_config fuzz_model_metadata fuzz_state_file
    fuzz_training_record fuzz_book)
fi
failed=0
summary=()
for t in "${targets[@]}"; do
  bin=$build/tests/fuzz/$t
  work=$build/corpus/$t
  mkdir -p "$work" "$build/artifacts" "$build/logs"
  log=$build/logs/$t.log
  echo "fuzz: $t for ${seconds} s" >&2
  # -timeout: an input that takes 10 s is a finding too; -rss_limit_mb: so is a memory blow-up.
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$work" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  if [[ $rc -ne 0 ]]; then
    failed=1
    summary+=("$t: FAILED (exit $rc) after ${runs:-?} executions; see $log and $build/artifacts/")
    tail -30 "$log" >&2
  else
    summary+=("$t: ${runs:-?} executions in ${took:-$seconds} s, no finding")
  fi
done
printf '%s\n' "${summary[@]}"
exit $failed
