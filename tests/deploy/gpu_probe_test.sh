#!/usr/bin/env bash
# zhbot-gpu-probe against a stand-in driver library (fake_libcuda.cpp): one line and exit 0 for a
# usable GPU; one line naming the missing piece and exit 1 for no driver library, a device cuInit
# cannot open, no GPU, and a driver older than the image's CUDA.
#   gpu_probe_test.sh PROBE FAKE_LIBCUDA
set -euo pipefail
probe=${1:?usage: gpu_probe_test.sh PROBE FAKE_LIBCUDA}
fake=${2:?usage: gpu_probe_test.sh PROBE FAKE_LIBCUDA}
failures=0
expect() {  # description, expected exit code, pattern of the one output line, env and args...
  local what=$1 code=$2 pattern=$3 out rc=0
  shift 3
  out=$(env "$@" 2>&1) || rc=$?
  echo "   [$rc] $out"
  if [[ $rc -eq $code && $(wc -l <<<"$out") -eq 1 && $out =~ $pattern ]]; then echo "ok: $what"
  else echo "FAIL: $what (expected exit $code and a line matching: $pattern)"; failures=$((failures + 1)); fi
}
expect "usable GPU: named, with its architecture and the driver's CUDA" 0 \
  '^1 GPU\(s\): cuda:0 Fake GPU \(sm_90\); driver CUDA 12\.4$' "$probe" --library "$fake"
expect "two GPUs" 0 '^2 GPU\(s\): cuda:0 .*, cuda:1 ' FAKE_CUDA_DEVICES=2 "$probe" --library "$fake"
expect "no driver library (no toolkit, or no --gpus)" 1 'no NVIDIA driver in reach: .*libcuda\.so\.1 not found' \
  "$probe" --library "$(dirname "$fake")/missing/libcuda.so.1"
expect "a device CUDA cannot open" 1 'cannot open a GPU: cuInit failed with CUDA_ERROR_NO_DEVICE \(100\)' \
  FAKE_CUDA_INIT=100 "$probe" --library "$fake"
expect "no GPU" 1 'sees no GPU' FAKE_CUDA_DEVICES=0 "$probe" --library "$fake"
expect "driver too old" 1 'supports CUDA 11\.8, older than the 12\.0 this image needs' \
  FAKE_CUDA_VERSION=11080 "$probe" --library "$fake" --min-cuda 12.0
expect "not a driver library" 1 'not an NVIDIA driver library' "$probe" --library libc.so.6
expect "a bad option" 2 '^usage: ' "$probe" --min-cuda twelve
[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
