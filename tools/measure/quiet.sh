#!/usr/bin/env bash
# Runs one command on a quiet machine: every lab job is paused (SIGSTOP to its whole process
# group: the script, its training, its teachers) while the command runs, and continued when it
# ends, also when it fails or is interrupted. A timed match needs this on a small machine: load
# steals clock from both sides unequally (training/README.md, "The lab").
#
#   tools/measure/quiet.sh python3 -m tools.measure.strength match --a ... --b ... --tc 1+1 --games 30
#
# Lab jobs are the process groups of the processes whose command line matches QUIET_PAUSE (an
# extended regular expression; default: the runs of `python3 -m tools.lab.next_network` (which
# tools/lab/lab_chunks.sh runs), `python3 -m tools.lab.teacher_budget`,
# `python3 -m tools.lab.relabel_games`, tools/lab/own_data.sh, the SPRT queue
# `python3 -m tools.lab.sprt_queue` (its games are bounded by nodes: a pause changes no move) and
# tools/measure/tactics_matrix.sh). A job
# started with `setsid nohup` is a group of its own; one started from this shell without it
# shares the shell's group, which is never paused.
#
#   tools/measure/quiet.sh --list    the process groups it would pause, one a line, and nothing else
set -euo pipefail
if [[ $# -eq 0 ]]; then
  echo "usage: tools/measure/quiet.sh COMMAND [ARG...] | --list" >&2
  exit 2
fi
pattern=${QUIET_PAUSE:-tools[/.](lab[/.](next_network|teacher_budget|lab_chunks|sprt_queue|relabel_games|own_data)|measure[/.]tactics_matrix)}
own_group=$(ps -o pgid= -p $$ | tr -d ' ')
groups=()
for pid in $(pgrep -f -- "$pattern" || true); do
  group=$(ps -o pgid= -p "$pid" | tr -d ' ') || continue  # it ended meanwhile
  [[ -n "$group" && "$group" != "$own_group" && " ${groups[*]} " != *" $group "* ]] \
    && groups+=("$group")
done

if [[ "$1" == --list ]]; then
  [[ ${#groups[@]} -eq 0 ]] || printf '%s\n' "${groups[@]}"
  exit 0
fi

resume() {
  local group
  for group in "${groups[@]}"; do
    kill -CONT -- "-$group" 2>/dev/null && echo "quiet: resumed process group $group" >&2
  done
  return 0
}
trap resume EXIT
trap 'exit 130' INT TERM
for group in "${groups[@]}"; do
  kill -STOP -- "-$group" && echo "quiet: paused process group $group" >&2
done
[[ ${#groups[@]} -gt 0 ]] || echo "quiet: no lab job is running" >&2
"$@"
