#!/usr/bin/env bash
# tools/measure/quiet.sh: a lab job (a process group of its own, found by its command line) is stopped
# while the command runs and running again after it, also after a command that fails; the
# command's exit status is passed on; a job that does not match is left alone; the default
# pattern finds the lab's scripts where they are.
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
for pid in "$lab" "$other"; do  # each has become its bash (setsid and bash exec'd)
  for _ in $(seq 50); do
    [[ $(ps -o args= -p "$pid") == "bash -c "* ]] && break
    sleep 0.1
  done
done

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

# The default pattern finds the lab's jobs where they are: a stand-in started under each one's
# path in the repository (a loop, in a folder of its own: a Python tool run as a module, a shell
# script by bash) is listed, and the tool is there. --list pauses nothing, so the real lab jobs
# of this machine are left alone.
stand_ins=$(mktemp -d)
jobs=()
for script in tools/lab/next_network.py tools/lab/lab_chunks.sh tools/lab/teacher_budget.py \
  tools/lab/relabel_games.py tools/lab/own_data.sh \
  tools/measure/tactics_matrix.sh; do
  check "$script is in the repository" "[[ -f '$root/$script' ]]"
  mkdir -p "$stand_ins/$(dirname "$script")"
  if [[ $script == *.py ]]; then
    printf 'import time\nwhile True:\n    time.sleep(0.2)\n' > "$stand_ins/$script"
    module=${script%.py} module=${module//\//.}
    command="/usr/bin/python3 -m $module"  # the interpreter itself, not a wrapper that execs it
  else
    printf 'while :; do sleep 0.2; done\n' > "$stand_ins/$script"
    command="bash $script"
  fi
  # shellcheck disable=SC2086  # the command's words
  (cd "$stand_ins" && exec setsid $command) &
  jobs+=("$command:$!")
done
for job in "${jobs[@]}"; do  # each stand-in has become its tool's process
  for _ in $(seq 50); do
    [[ $(ps -o args= -p "${job##*:}") == "${job%%:*}" ]] && break
    sleep 0.1
  done
done
listed=$(env -u QUIET_PAUSE bash "$root/tools/measure/quiet.sh" --list)
for job in "${jobs[@]}"; do
  check "the default pattern finds a run of ${job%%:*}" "grep -qx '${job##*:}' <<< '$listed'"
  kill -- "-${job##*:}" 2>/dev/null || true
done
rm -rf "$stand_ins"

echo "$failures failure(s)"
[[ $failures -eq 0 ]]
