#!/usr/bin/env bash
# Runs a test command of a sanitizer preset, then fails if any sanitizer report was written.
# Usage: tools/ci/sanitizer_reports.sh REPORT_DIR COMMAND...
# The asan and tsan test presets send ASan, LSan and TSan reports to files under REPORT_DIR
# (log_path), also those of the programs the tests start (the zhbot daemon, the emulator): a test
# may not look at how such a child exits, so a finding there would otherwise pass unseen.
# (GCC 12's UBSan ignores log_path and prints to stderr; with -fno-sanitize-recover its finding
# ends the process, which fails the test, or the game that child was playing.)
set -uo pipefail
shopt -s nullglob

report_dir=$1
shift
rm -rf "$report_dir"
mkdir -p "$report_dir"  # the sanitizer runtimes do not create it

"$@"
status=$?

reports=("$report_dir"/*)
for report in "${reports[@]}"; do
  echo "==== sanitizer report: $report"
  cat "$report"
done
if ((${#reports[@]} > 0)); then
  echo "sanitizer_reports: ${#reports[@]} report(s) in $report_dir" >&2
  status=1
fi
exit "$status"
