#!/usr/bin/env bash
# The one build of zhbot for the images: docker/Dockerfile and docker/Dockerfile.cuda run it, and
# docker/verify.sh runs it unchanged in a chroot of the image's base.
#
#   docker/build.sh [--cuda] [--prefix DIR]     (default prefix /opt/zhbot)
#
# Installs the build packages (deploy/install-deps.sh --image), builds the `release` preset
# without tests, warnings not fatal (a newer compiler must not stop an operator's build), and
# installs with `cmake --install`: DIR/bin/zhbot, the probes DIR/bin/zhbot-healthcheck and
# DIR/bin/zhbot-gpu-probe, and DIR/share/zhbot/models/. With --cuda also DIR/lib/cudnn/: the
# cuDNN shared libraries (by their SONAME, no headers or static libraries) that nvidia-cudnn
# downloaded here, for the runtime stage, which does not download them again.
# Environment: ZH_ARCH (-march level, default x86-64-v3: AVX2/FMA, any x86-64 server of the last
# decade), ZH_BUILD_JOBS (parallel jobs, default all cores).
set -euo pipefail
cd "$(dirname "$0")/.."

cuda=0
prefix=/opt/zhbot
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cuda) cuda=1 ;;
    --prefix) prefix=${2:?--prefix needs a directory}; shift ;;
    *) echo "build.sh: unknown option '$1' (use --cuda, --prefix DIR)" >&2; exit 2 ;;
  esac
  shift
done

flavour=()
if [[ $cuda -eq 1 ]]; then flavour=(--cuda); fi
bash deploy/install-deps.sh --image "${flavour[@]}"

# No ccache: an image builds once. Also keeps the compile commands the same when verify.sh later
# installs the developer packages (ccache among them) into the same tree to build the tests, so
# zhbot's objects are not all rebuilt for a launcher change.
cmake_args=(-DZH_ARCH="${ZH_ARCH:-x86-64-v3}" -DZH_WERROR=OFF -DZH_BUILD_TESTS=OFF -DZH_CCACHE=OFF
  -DCMAKE_INSTALL_PREFIX="$prefix")
if [[ $cuda -eq 1 ]]; then
  # The image has no libcuda.so.1 (the host's driver is mounted in at run time), but LibTorch's
  # CUDA library needs it to link: point the linker at the CUDA toolkit's stub, under that name.
  if ! ldconfig -p | grep -q 'libcuda\.so\.1 '; then
    stub=$(find /usr/lib -path '*/stubs/libcuda.so' -print -quit)
    [[ -n $stub ]] || { echo "build.sh: no libcuda.so stub in the CUDA toolkit" >&2; exit 1; }
    stub_dir=$PWD/build/cuda-driver-stub
    mkdir -p "$stub_dir" && ln -sf "$stub" "$stub_dir/libcuda.so.1"
    cmake_args+=(-DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$stub_dir")
  fi
fi

cmake --preset release "${cmake_args[@]}"
cmake --build --preset release --target zhbot zhbot-healthcheck zhbot-gpu-probe \
  -j "${ZH_BUILD_JOBS:-$(nproc)}"
cmake --install build/release --prefix "$prefix"
if [[ $cuda -eq 1 ]]; then
  mkdir -p "$prefix/lib/cudnn"
  # libcudnn.so.9 loads its sub-libraries (libcudnn_ops.so.9, ...) by these names at run time.
  find /usr/lib -name 'libcudnn*.so.9' -exec cp -L -t "$prefix/lib/cudnn" {} +
  [[ -e $prefix/lib/cudnn/libcudnn.so.9 ]] ||
    { echo "build.sh: no libcudnn.so.9 under /usr/lib (nvidia-cudnn not installed?)" >&2; exit 1; }
fi
