#!/usr/bin/env bash
# The one list of system packages zhbot needs to build, run and test (Debian 12).
# Idempotent: checks first and only calls apt-get when something is missing.
# Works as root or through sudo. Used by the Makefile, CI and the Dockerfiles.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build make pkg-config git ccache
  # engine: LibTorch (CPU) and a fast BLAS for it
  libtorch-dev libopenblas0 python3-torch
  # bot: HTTP, JSON, logging, config, CLI, systemd notify
  libcurl4-openssl-dev ca-certificates nlohmann-json3-dev libspdlog-dev libfmt-dev
  libyaml-cpp-dev libcli11-dev libsystemd-dev
  # tests and benchmarks: emulator HTTP server, unit tests, benchmarks, reference engine,
  # systemd-analyze for the unit's hardening check
  libcpp-httplib-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev fairy-stockfish systemd
  # fuzzing (make fuzz): clang, libFuzzer and the sanitizer runtimes, llvm-symbolizer
  clang libclang-rt-14-dev llvm
  # scripts
  python3 procps curl
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
