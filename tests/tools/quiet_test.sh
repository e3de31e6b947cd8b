#!/usr/bin/env bash
# tools/measure/quiet.sh: a lab job (a process group of its own, found by its command line) is stopped
# while the command runs and running again after it, also after a command that fails; the
# command's exit status is passed on; a job that does not match is left alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
marker=quiet-test-job-$$
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }
state() { ps -o stat= -p "$1" | cut -c1; }

# Two stand-in jobs, each a group of its own (as `setsid nohup` starts the lab's); only the
# first matches the pattern. Each is a shell loop, so a stopped one shows state T.
setsid bash -c 'while :; do sleep 0.2; done' "$marker-lab" &
lab=$!
setsid bash -c 'while :; do sleep 0.2; done' "other-$marker" &
other=$!
trap 'kill -CONT -- "-$lab" "-$other" 2>/dev/null; kill -- "-$lab" "-$other" 2>/dev/null' EXIT
export QUIET_PAUSE="^bash -c .* $marker-lab\$"

# The command sees the lab job stopped (within 5 s: SIGSTOP is delivered asynchronously).
seen=$(bash "$root/tools/measure/quiet.sh" bash -c "
  for i in \$(seq 50); do [[ \$(ps -o stat= -p $lab | cut -c1) == T ]] && break; sleep 0.1; done
  echo \$(ps -o stat= -p $lab | cut -c1) \$(ps -o stat= -p $other | cut -c1)" 2>/dev/null)
check "the lab job is stopped during the command, the other is not" "[[ '$seen' == 'T '[SR] ]]"
check "the lab job runs again after the command" "[[ \$(state $lab) != T ]]"

set +e
bash "$root/tools/measure/quiet.sh" bash -c 'exit 7' 2>/dev/null
status=$?
set -e
check "the command's exit status is passed on" "[[ $status == 7 ]]"
check "the lab job runs again after a failing command" "[[ \$(state $lab) != T ]]"

bash "$root/tools/measure/quiet.sh" >/dev/null 2>&1 && usage=0 || usage=$?
check "no command: a usage error" "[[ $usage == 2 ]]"

echo "$failures failure(s)"
[[ $failures -eq 0 ]]
