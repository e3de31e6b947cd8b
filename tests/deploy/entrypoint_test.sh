#!/usr/bin/env bash
# docker/entrypoint.sh with a stand-in `zhbot` on PATH (exits with a given code, or waits for
# SIGTERM): a configuration error (78) parks the container instead of exiting into a restart
# loop, SIGTERM still stops it at once, a clean exit passes 0 through at once, SIGTERM reaches
# zhbot, and other failures exit with their code after a pause. The CUDA image's cases, with
# stand-ins for the GPU probe, `ldd` and `nvidia-smi`: no usable GPU (the probe fails) or no
# libcuda.so.1 (zhbot exits 127) parks with one line naming the fix, and a command that is a
# program of the image (nvidia-smi, bash) runs as it is.
set -euo pipefail
entrypoint=${1:?usage: entrypoint_test.sh ENTRYPOINT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/zhbot" <<'FAKE'
#!/bin/sh
case "$1" in
  exit) exit "$2" ;;
  touch-and-exit) touch "$(dirname "$0")/started"; exit "$2" ;;
  stdin) read -r line && echo "$line" >"$2" ;;
  # Waits to be terminated, then says so and exits 0 like a drained daemon.
  serve) trap 'echo got-term >"$3"; exit 0' TERM; touch "$3.ready"; while :; do sleep 0.05; done ;;
esac
FAKE
# The loader's view of zhbot: FAKE_MISSING lists the libraries it cannot find.
cat >"$tmp/ldd" <<'FAKE'
#!/bin/sh
for lib in ${FAKE_MISSING:-}; do printf '\t%s => not found\n' "$lib"; done
FAKE
cat >"$tmp/nvidia-smi" <<'FAKE'
#!/bin/sh
echo "nvidia-smi stand-in: $*"
exit 4
FAKE
# The GPU probe: FAKE_GPU is its one line; FAKE_GPU_OK=0 makes it fail.
cat >"$tmp/gpu-probe" <<'FAKE'
#!/bin/sh
echo "$FAKE_GPU"
[ "${FAKE_GPU_OK:-1}" = 1 ]
FAKE
chmod +x "$tmp/zhbot" "$tmp/ldd" "$tmp/nvidia-smi" "$tmp/gpu-probe"
export PATH="$tmp:$PATH"
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

# A clean exit: 0, at once.
start=$SECONDS
sh "$entrypoint" exit 0 && rc=0 || rc=$?
check "exit 0 passes through" "[[ $rc -eq 0 ]]"
check "exit 0 is immediate" "[[ $((SECONDS - start)) -lt 3 ]]"

# A configuration error: still running after 2 s (no exit for a restart policy to loop on),
# with the reason in its output; SIGTERM ends it promptly with 78.
sh "$entrypoint" exit 78 2>"$tmp/parked.err" &
pid=$!
sleep 2
check "exit 78 parks (still running after 2 s)" "kill -0 $pid 2>/dev/null"
check "parked container says why" "grep -q 'configuration error' '$tmp/parked.err'"
start=$SECONDS
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "SIGTERM ends a parked container with 78" "[[ $rc -eq 78 ]]"
check "... at once" "[[ $((SECONDS - start)) -lt 3 ]]"

# SIGTERM is forwarded to zhbot, whose exit status (0 after a drain) is the container's.
sh "$entrypoint" serve x "$tmp/term" &
pid=$!
for _ in $(seq 1 200); do [[ -e $tmp/term.ready ]] && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "SIGTERM reaches zhbot" "grep -q got-term '$tmp/term'"
check "drained exit status 0" "[[ $rc -eq 0 ]]"

# Another failure (lichess unreachable, 69): not at once (no tight loop), then with its code.
sh "$entrypoint" exit 69 2>/dev/null &
pid=$!
sleep 2
check "exit 69 waits before leaving" "kill -0 $pid 2>/dev/null"
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "exit 69 is passed on" "[[ $rc -eq 69 ]]"

# stdin reaches zhbot (zhbot uci through `docker run -i`).
echo "uci" | sh "$entrypoint" stdin "$tmp/stdin"
check "stdin reaches zhbot" "grep -qx uci '$tmp/stdin'"

# Waits (bounded: 20 s) until FILE has a line matching PATTERN; the event a parked entrypoint
# signals by its message.
wait_for_line() {
  local _
  for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
# Runs the entrypoint in the background until it parks, then stops it: checks the one line it
# gave, that zhbot was (not) started, and the exit status SIGTERM leaves.
expect_parked() {  # description, expected status, started(yes/no), pattern..., -- args...
  local what=$1 code=$2 started=$3 pid rc
  shift 3
  local patterns=()
  while [[ $1 != -- ]]; do patterns+=("$1"); shift; done
  shift
  rm -f "$tmp/started" "$tmp/parked.err"
  sh "$entrypoint" "$@" 2>"$tmp/parked.err" &
  pid=$!
  if wait_for_line "$tmp/parked.err" "Not restarting"; then
    check "$what: parks (still running after its message)" "kill -0 $pid 2>/dev/null"
  else
    check "$what: parks with a message" false
  fi
  sed 's/^/   /' "$tmp/parked.err"
  check "$what: one line" "[[ \$(grep -c . '$tmp/parked.err') -eq 1 ]]"
  for p in "${patterns[@]}"; do check "$what: says '$p'" "grep -q -- '$p' '$tmp/parked.err'"; done
  if [[ $started == yes ]]; then check "$what: zhbot was started" "[[ -e '$tmp/started' ]]"
  else check "$what: zhbot was not started" "[[ ! -e '$tmp/started' ]]"; fi
  kill -TERM "$pid"
  wait "$pid" && rc=0 || rc=$?
  check "$what: SIGTERM ends it with $code" "[[ $rc -eq $code ]]"
}
gpu_fix=("NVIDIA Container Toolkit" "--gpus all" "compose.gpu.yaml")

# CUDA image, no usable GPU: the probe's line, the fix, zhbot never started.
ZHBOT_GPU_PROBE="$tmp/gpu-probe" FAKE_GPU_OK=0 \
  FAKE_GPU="no NVIDIA driver in reach: libcuda.so.1 not found" \
  expect_parked "no GPU (probe)" 78 no "no usable GPU (no NVIDIA driver in reach" "${gpu_fix[@]}" \
  -- touch-and-exit 0
ZHBOT_GPU_PROBE="$tmp/gpu-probe" FAKE_GPU_OK=0 \
  FAKE_GPU="the NVIDIA driver (CUDA 12.4) cannot open a GPU: cuInit failed with CUDA_ERROR_NO_DEVICE (100)" \
  expect_parked "device CUDA cannot open (probe)" 78 no "cuInit failed" "${gpu_fix[@]}" \
  -- touch-and-exit 0
# CUDA image with a GPU: the probe's line is logged and zhbot runs.
rc=0
ZHBOT_GPU_PROBE="$tmp/gpu-probe" FAKE_GPU="1 GPU(s): cuda:0 Fake GPU (sm_90); driver CUDA 12.4" \
  sh "$entrypoint" touch-and-exit 0 2>"$tmp/gpu.err" || rc=$?
check "GPU present: zhbot runs and exits 0" "[[ $rc -eq 0 && -e '$tmp/started' ]]"
check "GPU present: the GPU is named in the log" "grep -q 'zhbot: 1 GPU(s): cuda:0 Fake GPU' '$tmp/gpu.err'"
# The loader cannot find libcuda.so.1 (no probe configured): 127, parked with the GPU fix.
FAKE_MISSING="libcuda.so.1" expect_parked "no libcuda.so.1 (loader, exit 127)" 127 yes \
  "libcuda.so.1 not found" "${gpu_fix[@]}" -- touch-and-exit 127
# Another library missing: parked too (a restart cannot mend an image), named.
FAKE_MISSING="libfoo.so.2" expect_parked "another library missing (exit 127)" 127 yes \
  "missing: libfoo.so.2" "rebuild" -- touch-and-exit 127

# Not a zhbot subcommand: the image's program runs, with its output and exit status.
rm -f "$tmp/started"
rc=0; out=$(sh "$entrypoint" nvidia-smi -L 2>&1) || rc=$?
check "nvidia-smi runs as itself" "[[ '$out' == 'nvidia-smi stand-in: -L' && $rc -eq 4 ]]"
rc=0; sh "$entrypoint" bash -c 'exit 3' || rc=$?
check "bash runs as itself" "[[ $rc -eq 3 && ! -e '$tmp/started' ]]"
rc=0; sh "$entrypoint" zhbot touch-and-exit 0 || rc=$?
check "a leading 'zhbot' is dropped" "[[ $rc -eq 0 && -e '$tmp/started' ]]"

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
