#!/usr/bin/env bash
# The one list of system packages zhbot needs to build, run and test, for Debian 12 (bookworm,
# LibTorch 1.13) and Debian 13 (trixie, LibTorch 2.6). Used by the Makefile, CI, the Dockerfiles
# (docker/build.sh) and docker/verify.sh.
#
#   install-deps.sh              everything a developer or CI needs (build, tests, tools)
#   install-deps.sh --image      only what building the zhbot binary needs (image build stage)
#   install-deps.sh --runtime    only the shared libraries zhbot loads (slim runtime image)
#   add --cuda                   LibTorch for CUDA instead of CPU (Debian 13 only: contrib and
#                                non-free are enabled for it; accepts NVIDIA's cuDNN licence;
#                                on a host with NVIDIA's own driver packages, keeps them)
#   add --print                  print the package list and exit (installs nothing)
#
# Idempotent: checks first and only calls apt-get when something is missing. Works as root or
# through sudo.
set -euo pipefail

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

mode=dev
cuda=0
print_only=0
for arg in "$@"; do
  case "$arg" in
    --image) mode=image ;;
    --runtime) mode=runtime ;;
    --cuda) cuda=1 ;;
    --print) print_only=1 ;;
    -h | --help) usage ;;
    *) echo "install-deps: unknown option '$arg'" >&2; usage ;;
  esac
done

# ---- which Debian ----
# shellcheck disable=SC1091
. /etc/os-release
case "${ID:-}:${VERSION_ID:-}" in
  debian:12) codename=bookworm ;;
  debian:13) codename=trixie ;;
  *)
    echo "install-deps: ${PRETTY_NAME:-this system} is not supported (Debian 12 or 13)" >&2
    exit 1
    ;;
esac
if [[ $cuda -eq 1 && $codename != trixie ]]; then
  echo "install-deps: --cuda needs Debian 13: Debian 12 has no CUDA LibTorch package" >&2
  exit 1
fi

# ---- package groups: one function per concern, so each can change on its own ----

# Compiler and build tools.
toolchain_packages() {
  echo g++ cmake ninja-build make pkg-config git
}

# LibTorch for the engine's torch evaluator, and OpenBLAS as the BLAS behind it. The CUDA
# LibTorch (contrib) replaces the CPU one (they conflict); nvidia-cuda-toolkit (non-free) gives
# the CUDA headers and CMake modules that LibTorch's CMake package looks for.
torch_build_packages() {
  if [[ $cuda -eq 1 ]]; then
    echo libtorch-cuda-dev nvidia-cuda-toolkit libopenblas0
  else
    echo libtorch-dev libopenblas0
  fi
}

# The bot's libraries: HTTP client and server (health/metrics), JSON, logging, config, CLI.
bot_build_packages() {
  echo libcurl4-openssl-dev ca-certificates nlohmann-json3-dev libspdlog-dev libfmt-dev \
    libyaml-cpp-dev libcli11-dev libcpp-httplib-dev libssl-dev libsystemd-dev
}

# Tests and benchmarks: unit tests, benchmarks, the reference engine, TorchScript test models
# (python3-torch must match the LibTorch flavour: the CPU and CUDA builds conflict),
# systemd-analyze for the unit's hardening check, headless Chromium for the status page's
# end-to-end test.
test_packages() {
  echo libgtest-dev libgmock-dev libbenchmark-dev fairy-stockfish systemd chromium
  if [[ $cuda -eq 1 ]]; then echo python3-torch-cuda; else echo python3-torch; fi
}

# Fuzzing (make fuzz): clang, libFuzzer and the sanitizer runtimes of the release's default
# clang, llvm-symbolizer.
fuzz_packages() {
  case "$codename" in
    bookworm) echo clang libclang-rt-14-dev llvm ;;
    trixie) echo clang libclang-rt-19-dev llvm ;;
  esac
}

# Developer tools: ccache (the build uses it when it is there; the images build once and do
# without), the demo and the Python tools of tools/, process tools the e2e tests use,
# docker-compose (v1) so the compose test can validate docker/compose*.yaml, the style
# checks of `make lint` (clang-format, flake8), and dpkg-dev, whose dpkg-source unpacks the
# Fairy-Stockfish source the lab's teacher build compiles (tools/lab/teacher_build.py).
tool_packages() {
  echo ccache python3 procps curl docker-compose clang-format flake8 dpkg-dev
}

# What the zhbot binary loads at run time (its readelf NEEDED entries, by package); the names
# carry the library's ABI version, so they differ between releases. The CUDA LibTorch's own
# dependencies are libraries too, except nvidia-cudnn (the cuDNN downloader, which needs
# nvidia-cuda-dev, dpkg-dev and curl): the runtime image takes cuDNN's libraries from the build
# stage instead (install_cudnn_placeholder below, docker/Dockerfile.cuda).
runtime_packages() {
  echo ca-certificates libopenblas0 libsystemd0
  case "$codename" in
    bookworm) echo libcurl4 libspdlog1.10 libfmt9 libyaml-cpp0.7 libcpp-httplib0.11 libtorch1.13 ;;
    trixie)
      echo libcurl4t64 libspdlog1.15 libfmt10 libyaml-cpp0.8 libcpp-httplib0.18
      if [[ $cuda -eq 1 ]]; then echo libtorch-cuda-2.6; else echo libtorch2.6; fi
      ;;
  esac
}

case "$mode" in
  dev)
    groups=(toolchain_packages torch_build_packages bot_build_packages test_packages fuzz_packages
      tool_packages)
    ;;
  image) groups=(toolchain_packages torch_build_packages bot_build_packages) ;;
  runtime) groups=(runtime_packages) ;;
esac
packages=()
for group in "${groups[@]}"; do
  read -ra words <<<"$("$group" | tr '\n' ' ')"
  packages+=("${words[@]}")
done

if [[ $print_only -eq 1 ]]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi

# The CUDA packages live in contrib (LibTorch CUDA) and non-free (CUDA toolkit, cuDNN). Add those
# components in a file of our own rather than editing the system's sources.
enable_contrib_non_free() {
  local list=/etc/apt/sources.list.d/zhbot-contrib-non-free.sources
  if [[ -e $list ]]; then return 0; fi
  echo "install-deps: enabling contrib and non-free in $list (CUDA packages)" >&2
  printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" \
    "Suites: $codename $codename-updates" "Components: contrib non-free" \
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
    "${sudo_cmd[@]}" tee "$list" >/dev/null
}

# nvidia-cudnn downloads cuDNN from NVIDIA when it is configured, after asking whether the NVIDIA
# cuDNN licence is accepted. --cuda means yes: say it here, where it is decided, not through a
# silent non-interactive default.
accept_cudnn_licence() {
  echo "install-deps: --cuda accepts the NVIDIA cuDNN License Agreement (nvidia-cudnn)" >&2
  echo "nvidia-cudnn nvidia-cudnn/question select I Agree" | "${sudo_cmd[@]}" debconf-set-selections
}

# In a container the NVIDIA driver's libraries (libcuda.so.1, libnvidia-ml.so.1) must be the
# host's: the NVIDIA Container Toolkit mounts them in at run time, matched to the host's kernel
# module. Debian's packages of them in the image would be a second, possibly different driver
# version beside those. So in the images (--image, --runtime) a placeholder package satisfies the
# CUDA packages' dependencies on them instead (they ask for driver >= 550); the build links
# against the CUDA toolkit's libcuda stub (docker/build.sh).
install_host_driver_placeholder() {
  install_placeholder zhbot-host-nvidia-driver \
    "Provides: libcuda.so.1 (= 550), libcuda-12.4-1, libcuda1-any, libnvidia-ml.so.1 (= 550)" \
    "Description: placeholder: the NVIDIA driver libraries come from the host" \
    " Mounted into the container by the NVIDIA Container Toolkit at run time, or installed on the" \
    " host from NVIDIA's own packages."
}

# An empty package NAME whose control fields (the remaining arguments) say what it stands for.
install_placeholder() {
  local name=$1 dir
  shift
  if dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed"; then
    return 0
  fi
  dir=$(mktemp -d)
  mkdir -p "$dir/pkg/DEBIAN"
  printf '%s\n' "Package: $name" "Version: 1.0" "Architecture: all" \
    "Maintainer: zhbot <zhbot@localhost>" "$@" >"$dir/pkg/DEBIAN/control"
  dpkg-deb --build "$dir/pkg" "$dir/$name.deb" >/dev/null
  "${sudo_cmd[@]}" dpkg -i "$dir/$name.deb" >/dev/null
  rm -rf "$dir"
}

# The runtime image needs cuDNN's shared libraries, not the downloader that installs them with
# the CUDA toolkit's headers, static libraries and dpkg-dev. The build stage has already fetched
# cuDNN (docker/build.sh --cuda copies its libraries next to zhbot), so here a placeholder
# stands for nvidia-cudnn: cuDNN is downloaded once, in the build stage.
install_cudnn_placeholder() {
  install_placeholder zhbot-cudnn-from-build \
    "Provides: nvidia-cudnn (= $cudnn_version), libcudnn.so.9" \
    "Description: placeholder: cuDNN's libraries come from the image's build stage" \
    " docker/build.sh --cuda copies them to /opt/zhbot/lib/cudnn."
}
# The version of Debian 13's nvidia-cudnn (the cuDNN it downloads).
cudnn_version=9.0.0.312~cuda12

# On a GPU server (not an image) the driver is whatever the operator installed: Debian's
# (nvidia-driver, libcuda1) or NVIDIA's own packages (cuda-drivers, libnvidia-compute-NNN from
# NVIDIA's repository, or the .run installer). libtorch-cuda-2.6 asks for "libcuda1 (>= 525) |
# libcuda.so.1 (>= 525)"; with NVIDIA's driver installed, apt would satisfy that with Debian's
# libcuda1 and replace or conflict with NVIDIA's. So when libcuda.so.1 is already there and no
# Debian package owns it, keep it: the placeholder stands for it, as in the images.
host_has_foreign_driver() {
  local lib
  lib=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
  [[ -n $lib ]] || return 1
  if dpkg-query -S "$(readlink -f "$lib")" 2>/dev/null | grep -q '^libcuda1'; then
    return 1  # Debian's own driver: apt keeps it as it is
  fi
  echo "install-deps: libcuda.so.1 from a driver outside Debian's packages ($lib): keeping it" >&2
}

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [[ $cuda -eq 1 ]]; then
  enable_contrib_non_free
  if [[ $mode != runtime ]]; then accept_cudnn_licence; fi
  if [[ $mode != dev ]] || host_has_foreign_driver; then install_host_driver_placeholder; fi
  if [[ $mode == runtime ]]; then install_cudnn_placeholder; fi
fi
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
