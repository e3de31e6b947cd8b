#!/usr/bin/env bash
# Builds an image's zhbot without Docker: debootstraps the image's Debian base into
# build/verify-<kind>/root, copies the build context in, and runs docker/build.sh there exactly
# as the Dockerfile does. `cpu` then builds and runs the test suite inside (ctest -LE slow);
# `cuda` checks that zhbot links LibTorch's CUDA library. A developer command (root, debootstrap,
# network to deb.debian.org, several GB for cuda), not part of CI.
#
#   docker/verify.sh cpu|cuda [--reuse]   --reuse: keep the chroot and its build/ (faster re-runs)
#
# --reuse rebuilds only what changed in content: a source file whose bytes are the same as the
# chroot's copy is left alone (its old mtime included), so a checkout, rebase or touch in the
# working tree does not make ninja recompile it. An interrupted run (Ctrl-C, SIGTERM, SIGHUP)
# stops every process it started inside the chroot before it unmounts; none keeps building.
#
# cuda: Debian's nvidia-cudnn is a downloader (it fetches cuDNN from NVIDIA while installing),
# which needs NVIDIA's servers. A local dummy package stands in for it here, with a stub
# libcudnn.so.9 that defines the symbols LibTorch imports (empty functions) so the link is still
# checked symbol by symbol. What that does not verify is printed in the summary.
# Environment: ZH_BUILD_JOBS (default 2), VERIFY_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
reuse=0
if [[ ${2:-} == --reuse ]]; then reuse=1; fi
case "$kind" in
  cpu | cuda) suite=trixie ;;  # both images are FROM debian:13
  *) echo "usage: docker/verify.sh cpu|cuda [--reuse]" >&2; exit 2 ;;
esac
[[ $(id -u) -eq 0 ]] || { echo "verify.sh: run as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "verify.sh: apt-get install debootstrap" >&2; exit 1; }

work=$(pwd -P)/build/verify-$kind  # physical: compared with /proc/<pid>/root
root=$work/root
summary=$work/summary.txt
mirror=${VERIFY_MIRROR:-http://deb.debian.org/debian}
build_flags=()
if [[ $kind == cuda ]]; then build_flags=(--cuda); fi
mkdir -p "$work"
: >"$summary"

note() { echo "verify[$kind]: $*" | tee -a "$summary" >&2; }

# Long steps run in the background and are waited for: bash runs a trap only between commands,
# so a foreground build would keep the script from reacting to SIGTERM until it finished.
step_pid=
run_step() {  # command...
  "$@" &
  step_pid=$!
  local rc=0
  wait "$step_pid" || rc=$?
  step_pid=
  return "$rc"
}
in_root() { run_step chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 OPENBLAS_NUM_THREADS=1 ZH_BUILD_JOBS="${ZH_BUILD_JOBS:-2}" bash -c "$1"; }

# The processes running inside the chroot (their root is it): a build's compilers, a test
# binary and whatever it started, however they grouped themselves.
chroot_pids() {
  local p
  while IFS= read -r p; do
    grep -q '^State:[[:space:]]*Z' "$p/status" 2>/dev/null || echo "${p#/proc/}"  # not zombies
  done < <(find /proc -mindepth 2 -maxdepth 2 -name root -lname "$root" -printf '%h\n' 2>/dev/null)
}
stop_started() {
  if [[ -n $step_pid ]]; then kill -TERM "$step_pid" 2>/dev/null || true; fi
  local pids=() _
  for _ in 1 2 3 4 5 6 7 8 9 10; do  # TERM, up to 5 s for them to go, then KILL
    mapfile -t pids < <(chroot_pids)
    [[ ${#pids[@]} -eq 0 ]] && return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    sleep 0.5
  done
  mapfile -t pids < <(chroot_pids)
  [[ ${#pids[@]} -eq 0 ]] || kill -KILL "${pids[@]}" 2>/dev/null || true
  sleep 0.5
}

# Every mount under the chroot, deepest first (also those a killed earlier run left behind).
unmount_all() {
  awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r |
    while read -r m; do umount -l "$m"; done
}
cleanup() {
  stop_started
  unmount_all
}
trap cleanup EXIT
# The messages go to the script's own stderr, not to the log a step has redirected it to.
exec {stderr}>&2
trap 'echo "verify.sh: interrupted; stopping what it started" >&"$stderr"; exit 130' INT
trap 'echo "verify.sh: terminated; stopping what it started" >&"$stderr"; exit 143' TERM HUP
mount_in_root() {  # type source target options
  mkdir -p "$root/$3"
  mount -t "$1" -o "$4" "$2" "$root/$3"
}

# What a killed earlier run (SIGKILL, a crash) may have left: processes in the chroot, mounts.
cleanup

# ---- 1. the image's base: Debian minbase, only the main component (as in debian:13) ----
start=$SECONDS
base="debootstrap --variant=minbase $suite"
if [[ $reuse -eq 1 && -x $root/usr/bin/apt-get ]]; then
  base="$base, reused from an earlier run (--reuse)"
else
  if awk -v r="$root/" 'index($2, r) == 1 {f = 1} END {exit !f}' /proc/mounts; then
    echo "verify.sh: still mounted under $root; not removing it" >&2
    exit 1
  fi
  rm -rf "$root"
  run_step debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
fi
note "base: $base ($((SECONDS - start)) s)"
mount_in_root proc proc /proc nodev,noexec,nosuid
mount_in_root devtmpfs dev /dev mode=0755
mount_in_root devpts devpts /dev/pts gid=5,mode=620
mount_in_root tmpfs tmpfs /dev/shm mode=1777
cp /etc/resolv.conf "$root/etc/resolv.conf"

# ---- 2. the build context: what `COPY . .` sends (tracked and untracked files, .dockerignore
# rules by git's ignore list, which excludes build/ and deploy/zhbot.env as well) ----
# --reuse keeps src/build and replaces only the files whose content differs (see the header).
context_files() {
  git ls-files -z --cached --others --exclude-standard |
    xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"'
}
if [[ $reuse -eq 1 && -d $root/src ]]; then
  stage=$work/context
  rm -rf "$stage" && mkdir -p "$stage"
  context_files | tar -c --null -T - | tar -x -C "$stage"
  changed=0
  while IFS= read -r -d '' f; do
    if [[ -L $stage/$f || -L $root/src/$f ]] || ! cmp -s "$stage/$f" "$root/src/$f"; then
      mkdir -p "$(dirname "$root/src/$f")"
      rm -rf "${root:?}/src/$f"
      cp -a "$stage/$f" "$root/src/$f"
      touch -h "$root/src/$f"  # newer than the objects built from the old content
      changed=$((changed + 1))
    fi
  done < <(cd "$stage" && find . \( -type f -o -type l \) -printf '%P\0')
  # Files gone from the context go from the copy too (src/build stays).
  while IFS= read -r -d '' f; do
    [[ -e $stage/$f || -L $stage/$f ]] || rm -f "${root:?}/src/$f"
  done < <(cd "$root/src" && find . -path ./build -prune -o \( -type f -o -type l \) -printf '%P\0')
  rm -rf "$stage"
  note "build context: $changed file(s) changed since the last run"
else
  rm -rf "$root/src"
  mkdir -p "$root/src"
  context_files | tar -c --null -T - | tar -x -C "$root/src"
fi

# ---- 3. cuda: the stand-in for the cuDNN downloader ----
if [[ $kind == cuda ]]; then
  pkg=$work/nvidia-cudnn-dummy
  rm -rf "$pkg" && mkdir -p "$pkg/DEBIAN"
  printf '%s\n' "Package: nvidia-cudnn" "Version: 9.0.0.312~cuda12+zhbot.dummy" \
    "Architecture: amd64" "Maintainer: zhbot verify <verify@localhost>" \
    "Description: verify.sh stand-in for the cuDNN downloader (no cuDNN inside)" \
    >"$pkg/DEBIAN/control"
  dpkg-deb --build "$pkg" "$root/tmp/nvidia-cudnn-dummy.deb" >/dev/null
  in_root "dpkg -i /tmp/nvidia-cudnn-dummy.deb >/dev/null"
  note "nvidia-cudnn: local dummy package installed (no cuDNN)"
  # The packages build.sh installs first, so that the stub can be made from LibTorch's imports.
  start=$SECONDS
  in_root "cd /src && bash deploy/install-deps.sh --image --cuda" >"$work/deps.log" 2>&1 ||
    { tail -30 "$work/deps.log" >&2; exit 1; }
  note "packages: install-deps.sh --image --cuda ($((SECONDS - start)) s)"
  # shellcheck disable=SC2016  # expanded inside the chroot
  in_root 'set -e
    lib=$(find /usr/lib -name "libtorch_cuda.so" -print -quit)
    syms=$(nm -D --undefined-only "$lib" | awk "{print \$2}" | grep "^cudnn" | sed "s/@.*//" | sort -u)
    printf "void %s(void) {}\n" $syms > /tmp/cudnn_stub.c
    # LibTorch imports them versioned (cudnnCreate@libcudnn.so.9): give the stub that version.
    echo "libcudnn.so.9 { global: *; };" > /tmp/cudnn_stub.map
    gcc -shared -fPIC -Wl,-soname,libcudnn.so.9 -Wl,--version-script,/tmp/cudnn_stub.map \
      -o /usr/lib/x86_64-linux-gnu/libcudnn.so.9 /tmp/cudnn_stub.c
    echo "$(echo "$syms" | wc -w) cudnn symbols stubbed"' | tee -a "$summary" >&2
fi

# ---- 4. exactly the Dockerfile's build step ----
start=$SECONDS
if in_root "cd /src && bash docker/build.sh ${build_flags[*]} --prefix /opt/zhbot" \
  >"$work/build.log" 2>&1; then
  note "docker/build.sh ${build_flags[*]}: OK ($((SECONDS - start)) s)"
else
  tail -40 "$work/build.log" >&2
  note "docker/build.sh ${build_flags[*]}: FAILED (log: $work/build.log)"
  exit 1
fi
in_root "ls -l /opt/zhbot/bin/zhbot; find /opt/zhbot/share -type f | sort" | tee -a "$summary" >&2
in_root "readelf -d /opt/zhbot/bin/zhbot | grep NEEDED | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' '" |
  sed 's/^/NEEDED: /' | tee -a "$summary" >&2
echo | tee -a "$summary" >&2

# ---- 5. run checks ----
if [[ $kind == cpu ]]; then
  in_root "/opt/zhbot/bin/zhbot --version" | tee -a "$summary" >&2
  # The rest of the suite: test packages, the same preset with tests, ctest as `make test` runs it.
  start=$SECONDS
  if in_root "cd /src && bash deploy/install-deps.sh \
      && cmake --preset release -DZH_BUILD_TESTS=ON \
      && cmake --build --preset release -j \$ZH_BUILD_JOBS \
      && cd build/release && ctest -LE slow -j2 --output-on-failure" >"$work/test.log" 2>&1; then
    note "tests: OK ($((SECONDS - start)) s): $(grep -E 'tests passed' "$work/test.log")"
  else
    { grep -E 'tests passed|\(Failed\)|\(Timeout\)|rror' "$work/test.log" || true; } | tail -30 |
      tee -a "$summary" >&2
    note "tests: FAILED (log: $work/test.log)"
    exit 1
  fi
else
  in_root "readelf -d /opt/zhbot/bin/zhbot | grep -q 'libtorch_cuda\.so'" ||
    { note "zhbot does not link libtorch_cuda.so: CUDA would be unavailable"; exit 1; }
  # Starting it without a GPU driver: libcuda.so.1 is missing here as in an image without the
  # NVIDIA Container Toolkit, so only the dynamic link can be listed, not run.
  in_root "ldd /opt/zhbot/bin/zhbot | grep 'not found' || true" |
    sed 's/^/unresolved at run time (expected: host driver): /' | tee -a "$summary" >&2
  note "zhbot compiled and linked against libtorch-cuda 2.6 (libtorch_cuda.so in NEEDED)"
  note "NOT verified: cuDNN itself (nvidia-cudnn downloads it from NVIDIA; a stub stood in),"
  note "  the nvidia-cudnn download and licence step, running zhbot (no libcuda.so.1 / GPU here),"
  note "  any CUDA kernel, the runtime stage of Dockerfile.cuda."
fi
note "summary: $summary"
