#!/usr/bin/env bash
# A training run stopped from outside keeps its work: SIGTERM (and SIGINT) save last.ckpt at
# the step reached and exit with 128 + the signal; --resume starts from that very step.
# Usage: stop_resume.sh PYTHON SHARD_DIR WORKDIR
set -euo pipefail
python=$1 shards=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if ! ls "$shards"/*.zhrec >/dev/null 2>&1; then echo "SKIP: no shards (run the toy pipeline first)"; exit 77; fi

# Waits (at most 120 s) until LOG shows a training step, then sends SIGNAL to PID (a child of
# this shell) and sets rc to the process's exit status.
stop_after_steps() {
  local pid=$1 log=$2 sig=$3
  for _ in $(seq 1200); do
    grep -q "\] step [1-9]" "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "FAIL: the run ended by itself"; exit 1; }
    sleep 0.1
  done
  grep -q "\] step [1-9]" "$log" || { cat "$log"; echo "FAIL: no training step within 120 s"; exit 1; }
  sleep 1
  kill "-$sig" "$pid"
  rc=0
  wait "$pid" || rc=$?
}

# Run in the background: exec makes $! the training process itself, not a subshell.
train() {
  exec "$python" -m training.train --data "$shards" --out "$work/run" --arch resnet-1x8 \
    --max-steps 10000000 --batch-size 8 --validation-permille 500 --threads 1 \
    --epoch-steps 10000000 --checkpoint-minutes 1000 "$@"
}

# The step last.ckpt holds.
saved_step() {
  "$python" -c 'import sys, torch; print(torch.load(sys.argv[1])["step"])' "$work/run/last.ckpt"
}

train > "$work/first.log" 2>&1 &
stop_after_steps $! "$work/first.log" TERM
cat "$work/first.log"
[[ "$rc" == 143 ]] || { echo "FAIL: SIGTERM: exit status $rc, expected 143"; exit 1; }
stopped=$(sed -n 's/^SIGTERM: stopped at step \([0-9]*\) of .*/\1/p' "$work/first.log")
[[ -n "$stopped" && "$stopped" -gt 0 ]] || { echo "FAIL: no 'stopped at step N' line"; exit 1; }
saved=$(saved_step)
[[ "$saved" == "$stopped" ]] || { echo "FAIL: last.ckpt holds step $saved, stopped at $stopped"; exit 1; }

train --resume > "$work/second.log" 2>&1 &
stop_after_steps $! "$work/second.log" INT
cat "$work/second.log"
grep -q "^resumed at step $stopped of 10000000$" "$work/second.log" \
  || { echo "FAIL: --resume did not start from step $stopped"; exit 1; }
[[ "$rc" == 130 ]] || { echo "FAIL: SIGINT: exit status $rc, expected 130"; exit 1; }
again=$(saved_step)
[[ "$again" -gt "$stopped" ]] || { echo "FAIL: the resumed run saved step $again, not past $stopped"; exit 1; }
echo "stop and resume: OK (stopped at $stopped, then at $again)"
