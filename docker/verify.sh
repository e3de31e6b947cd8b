#!/usr/bin/env bash
# Builds an image's zhbot without Docker: debootstraps the image's Debian base into
# build/verify-<kind>/base, copies it to build/verify-<kind>/root, copies the build context in,
# and runs docker/build.sh there exactly as the Dockerfile does. `cpu` then builds and runs the
# test suite inside (ctest -LE slow). `cuda` checks that zhbot links LibTorch's CUDA library,
# lists the GPU architectures LibTorch's CUDA libraries carry code for (cuobjdump; fails without
# sm_80 and sm_90), then replays Dockerfile.cuda's runtime stage in a second copy of the base
# (build/verify-cuda/runtime): its packages, the files copied from the build stage, its build
# checks, its size and what it must not hold (headers, static libraries, compilers, dpkg-dev),
# and the entrypoint with the real binaries and no GPU: it must park with one line. A developer
# command (root, debootstrap, network to deb.debian.org, ~15 GB for cuda), not part of CI.
#
#   docker/verify.sh cpu|cuda [--reuse]   --reuse: keep the base, the chroot and its build/
#
# --reuse rebuilds only what changed in content: a source file whose bytes are the same as the
# chroot's copy is left alone (its old mtime included), so a checkout, rebase or touch in the
# working tree does not make ninja recompile it. An interrupted run (Ctrl-C, SIGTERM, SIGHUP)
# stops every process it started inside the chroots before it unmounts; none keeps building.
#
# cuda: Debian's nvidia-cudnn is a downloader (it fetches cuDNN from NVIDIA while installing),
# which needs NVIDIA's servers. A local package stands in for it here, with the real package's
# dependencies (so the build stage installs what the real one pulls in) and a stub libcudnn.so.9
# that defines the symbols LibTorch imports (empty functions) so the link is still checked symbol
# by symbol. The runtime stage's size therefore counts the stub, not cuDNN's ~0.9 GB of libraries.
# What that does not verify is printed in the summary.
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
base_root=$work/base  # the image's base as debootstrap made it; only ever copied
root=$work/root       # the build stage
runtime=$work/runtime # cuda: the runtime stage
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
in_chroot() { run_step chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 OPENBLAS_NUM_THREADS=1 ZH_BUILD_JOBS="${ZH_BUILD_JOBS:-2}" bash -c "$2"; }
in_root() { in_chroot "$root" "$1"; }
in_runtime() { in_chroot "$runtime" "$1"; }

# The processes running inside the chroots (their root is one of them): a build's compilers, a
# test binary and whatever it started, however they grouped themselves.
chroot_pids() {
  local p
  while IFS= read -r p; do
    grep -q '^State:[[:space:]]*Z' "$p/status" 2>/dev/null || echo "${p#/proc/}"  # not zombies
  done < <(find /proc -mindepth 2 -maxdepth 2 -name root \( -lname "$root" -o -lname "$runtime" \) \
    -printf '%h\n' 2>/dev/null)
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

# Every mount under the chroots, deepest first (also those a killed earlier run left behind).
unmount_all() {
  awk -v r="$root/" -v t="$runtime/" 'index($2, r) == 1 || index($2, t) == 1 {print $2}' \
    /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
}
still_mounted() {  # dir
  awk -v r="$1/" 'index($2, r) == 1 {f = 1} END {exit !f}' /proc/mounts
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
mount_in() {  # chroot type source target options
  mkdir -p "$1/$4"
  mount -t "$2" -o "$5" "$3" "$1/$4"
}
mount_system() {  # chroot: what a build or an apt run inside needs
  mount_in "$1" proc proc /proc nodev,noexec,nosuid
  mount_in "$1" devtmpfs dev /dev mode=0755
  mount_in "$1" devpts devpts /dev/pts gid=5,mode=620
  mount_in "$1" tmpfs tmpfs /dev/shm mode=1777
  cp /etc/resolv.conf "$1/etc/resolv.conf"
}

# What a killed earlier run (SIGKILL, a crash) may have left: processes in the chroot, mounts.
cleanup

# ---- 1. the image's base: Debian minbase, only the main component (as in debian:13) ----
start=$SECONDS
base="debootstrap --variant=minbase $suite"
if [[ $reuse -eq 1 && -x $base_root/usr/bin/apt-get ]]; then
  base="$base, reused from an earlier run (--reuse)"
else
  rm -rf "$base_root"
  run_step debootstrap --variant=minbase "$suite" "$base_root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
fi
if [[ $reuse -eq 0 || ! -x $root/usr/bin/apt-get ]]; then
  if still_mounted "$root"; then echo "verify.sh: still mounted under $root; not removing it" >&2; exit 1; fi
  rm -rf "$root"
  cp -a "$base_root" "$root"
fi
note "base: $base ($((SECONDS - start)) s)"
mount_system "$root"

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
# Served from a local apt repository under a higher version than Debian's, so that the build
# stage's apt picks it and installs the real package's dependencies with it.
if [[ $kind == cuda ]]; then
  sources=/etc/apt/sources.list.d/zhbot-contrib-non-free.sources  # as install-deps.sh writes it
  [[ -e $root/$sources ]] || printf '%s\n' "Types: deb" "URIs: $mirror" \
    "Suites: $suite $suite-updates" "Components: contrib non-free" \
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" >"$root/$sources"
  in_root "apt-get update -q >/dev/null"
  # The Depends of Debian's package (not of a stand-in an earlier run installed).
  depends=$(in_root "apt-cache show nvidia-cudnn | awk '/^Version:/ {v = \$2}
    /^Depends:/ && v !~ /zhbot/ {sub(/^Depends: /, \"\"); print; exit}'")
  [[ -n $depends ]] || { note "FAILED: no Depends of Debian's nvidia-cudnn (apt-cache show)"; exit 1; }
  pkg=$work/nvidia-cudnn-dummy
  repo=$root/opt/verify-cudnn-repo
  rm -rf "$pkg" "$repo" && mkdir -p "$pkg/DEBIAN" "$repo"
  printf '%s\n' "Package: nvidia-cudnn" "Version: 9.0.0.312~cuda12+zhbot.dummy2" \
    "Architecture: amd64" "Maintainer: zhbot verify <verify@localhost>" "Depends: $depends" \
    "Provides: libcudnn.so.9" \
    "Description: verify.sh stand-in for the cuDNN downloader (no cuDNN inside)" \
    >"$pkg/DEBIAN/control"
  dpkg-deb --build "$pkg" "$repo/nvidia-cudnn-dummy.deb" >/dev/null
  { cat "$pkg/DEBIAN/control"
    echo "Filename: ./nvidia-cudnn-dummy.deb"
    echo "Size: $(stat -c %s "$repo/nvidia-cudnn-dummy.deb")"
    echo "SHA256: $(sha256sum "$repo/nvidia-cudnn-dummy.deb" | cut -d' ' -f1)"; } >"$repo/Packages"
  echo "deb [trusted=yes] file:/opt/verify-cudnn-repo ./" \
    >"$root/etc/apt/sources.list.d/verify-cudnn.list"
  in_root "apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends nvidia-cudnn" >"$work/cudnn-dummy.log" 2>&1 ||
    { tail -20 "$work/cudnn-dummy.log" >&2; exit 1; }
  note "nvidia-cudnn: local stand-in installed with the real package's dependencies ($depends)"
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

  # ---- 6. the GPUs LibTorch has machine code for ----
  # cuobjdump (nvidia-cuda-toolkit, installed for the build) lists the cubins (machine code for
  # one architecture: runs as it is) and the PTX (compiled by the driver at first start, for
  # minutes) in the fat binaries of LibTorch's CUDA libraries.
  # shellcheck disable=SC2016  # expanded inside the chroot
  listing=$(in_root 'command -v cuobjdump >/dev/null || { echo "no cuobjdump" >&2; exit 1; }
    for lib in $(find /usr/lib -name "libtorch_cuda.so*" -o -name "libc10_cuda.so*" |
        xargs -r -n1 readlink -f | sort -u); do
      cuobjdump --list-elf "$lib" 2>/dev/null; cuobjdump --list-ptx "$lib" 2>/dev/null
    done') || { note "FAILED: cuobjdump could not read LibTorch's CUDA libraries"; exit 1; }
  sass=$(grep -o 'sm_[0-9]*[a-z]*\.cubin' <<<"$listing" | sed 's/\.cubin//' | sort -uV | tr '\n' ' ')
  ptx=$(grep -o 'sm_[0-9]*[a-z]*\.ptx' <<<"$listing" | sed 's/\.ptx//' | sort -uV | tr '\n' ' ')
  note "GPU code in LibTorch's CUDA libraries: machine code for ${sass:-nothing}; PTX for ${ptx:-nothing}"
  absent=
  for arch in sm_80 sm_90; do grep -qw "$arch" <<<"$sass" || absent+=" $arch"; done
  if [[ -n $absent ]]; then
    note "FAILED: no machine code for$absent (sm_80: A100, sm_90: H100/H200): such a GPU would"
    note "  compile PTX for minutes at every first start, or not run at all"
    exit 1
  fi
  # Other datacenter GPUs, named, not required: machine code for sm_XY runs on sm_XZ for Z >= Y.
  for arch in sm_86 sm_89; do  # A10/A40, L4/L40
    grep -qw "$arch" <<<"$sass" && continue
    runs=$(tr ' ' '\n' <<<"$sass" | awk -v a="${arch#sm_}" \
      '/^sm_[0-9]+$/ {v = substr($0, 4); if (int(v / 10) == int(a / 10) && v + 0 <= a + 0) b = $0}
       END {print b}')
    if [[ -n $runs ]]; then note "$arch (A10/A40 sm_86, L4/L40 sm_89): runs the $runs machine code"
    else note "$arch (A10/A40 sm_86, L4/L40 sm_89): PTX only (compiled at first start)"; fi
  done

  # ---- 7. Dockerfile.cuda's runtime stage, replayed in a fresh copy of the base ----
  start=$SECONDS
  if still_mounted "$runtime"; then echo "verify.sh: still mounted under $runtime" >&2; exit 1; fi
  rm -rf "$runtime"
  cp -a "$base_root" "$runtime"
  mount_system "$runtime"
  # The packages the build stage downloaded are not fetched again (a bind mount of its apt cache;
  # unmounted before the size is taken, and debian:13 itself keeps no .deb in its layers).
  mkdir -p "$runtime/var/cache/apt/archives"
  mount --bind "$root/var/cache/apt/archives" "$runtime/var/cache/apt/archives"
  cp deploy/install-deps.sh "$runtime/tmp/install-deps.sh"
  in_runtime "bash /tmp/install-deps.sh --runtime --cuda && rm -rf /var/lib/apt/lists/* \
    /tmp/install-deps.sh" >"$work/runtime-deps.log" 2>&1 ||
    { tail -30 "$work/runtime-deps.log" >&2; note "runtime: install-deps.sh --runtime --cuda FAILED"; exit 1; }
  umount "$runtime/var/cache/apt/archives"
  in_runtime "useradd --system --uid 10001 --user-group --home-dir /var/lib/zhbot \
    --shell /usr/sbin/nologin zhbot && install -d -o zhbot -g zhbot -m 700 /var/lib/zhbot"
  cp -a "$root/opt/zhbot" "$runtime/opt/zhbot"                       # COPY --from=build
  install -D -m 755 docker/entrypoint.sh "$runtime/usr/local/bin/zhbot-entrypoint"
  install -D -m 644 docker/zhbot-cuda.yaml "$runtime/etc/zhbot/zhbot.yaml"
  # The Dockerfile's own check: every library found but the host's libcuda.so.1.
  in_runtime "echo /opt/zhbot/lib/cudnn >/etc/ld.so.conf.d/zhbot-cudnn.conf && ldconfig \
    && for p in zhbot zhbot-healthcheck zhbot-gpu-probe; do ln -s /opt/zhbot/bin/\$p /usr/local/bin/\$p; done \
    && ! ldd /opt/zhbot/bin/zhbot | grep 'not found' | grep -v 'libcuda\\.so\\.1'" ||
    { note "runtime: FAILED: a library zhbot needs is missing (ldd above)"; exit 1; }
  note "runtime stage: install-deps.sh --runtime --cuda, files from the build stage, ldd check: OK ($((SECONDS - start)) s)"

  # Its size, its largest packages, and what a runtime must not carry.
  size=$(du -sx --block-size=1M "$runtime" | cut -f1)
  note "runtime image size: ${size} MB (du of the replayed stage; cuDNN is a stub here: add the"
  note "  size of cuDNN 9.0's shared libraries for the real image)"
  in_runtime "dpkg-query -W -f='\${Installed-Size}\t\${Package}\n' | sort -rn | head -8 |
    awk '{printf \"  %6.0f MB  %s\n\", \$1 / 1024, \$2}'; du -sh /opt/zhbot | sed 's/^/  zhbot: /'" |
    tee -a "$summary" >&2
  # shellcheck disable=SC2016  # expanded inside the chroot
  unwanted=$(in_runtime 'for p in dpkg-dev perl curl wget gcc g++ cpp make cmake nvidia-cuda-dev \
      nvidia-cuda-toolkit libtorch-cuda-dev libcudnn9-dev-cuda-12; do
      dpkg-query -W -f="\${Status}" "$p" 2>/dev/null | grep -q "install ok installed" && echo "package $p"
    done
    find / -xdev \( -name "*.a" -o -name "*.h" -o -name "*.hpp" -o -name "*.cuh" \) -type f |
      head -5 | sed "s/^/file /"
    true')
  if [[ -n $unwanted ]]; then
    note "runtime: FAILED: it carries build files:"
    tee -a "$summary" <<<"$unwanted" >&2
    exit 1
  fi
  note "runtime: no compiler, dpkg-dev, perl, curl, CUDA toolkit, headers or static libraries"

  # The entrypoint with the real binaries, as `docker run` without a GPU starts it: the GPU
  # probe first (what the image does), then zhbot alone (Debian's LibTorch loads the driver only
  # when CUDA is first used, so zhbot starts and stops on its own error: 78): each must park. The health probe must answer without LibTorch (no daemon: exit 1).
  # shellcheck disable=SC2016  # expanded inside the chroot
  in_runtime 'export PATH=/usr/local/bin:$PATH; cd /var/lib/zhbot
    parks() {  # label, env assignments: start the entrypoint, wait for its line, stop it
      rm -f /tmp/ep.err
      env "${@:2}" zhbot-entrypoint run --config /etc/zhbot/zhbot.yaml 2>/tmp/ep.err &
      local pid=$! i
      for i in $(seq 1 150); do grep -q "Not restarting" /tmp/ep.err && break; sleep 0.2; done
      if kill -0 "$pid" 2>/dev/null && grep -q "Not restarting" /tmp/ep.err; then
        echo "entrypoint, $1: parked: $(cat /tmp/ep.err)"
        kill -TERM "$pid"; wait "$pid"; echo "  stopped with exit $?"
      else
        echo "entrypoint, $1: FAILED to park: $(cat /tmp/ep.err)"; kill -KILL "$pid" 2>/dev/null
        return 1
      fi
    }
    echo "zhbot-gpu-probe: $(zhbot-gpu-probe)"
    parks "GPU probe (the image as built)" ZHBOT_GPU_PROBE=zhbot-gpu-probe &&
      parks "no probe, zhbot alone" ZHBOT_GPU_PROBE= &&
      echo "zhbot-healthcheck: $(zhbot-healthcheck --config /etc/zhbot/zhbot.yaml --timeout-ms 500 2>&1; echo "(exit $?)")" &&
      echo "zhbot-entrypoint bash -c ...: $(zhbot-entrypoint bash -c "echo passed through")"' |
    tee -a "$summary" >&2 || { note "runtime: FAILED: the entrypoint did not park without a GPU"; exit 1; }

  note "NOT verified: cuDNN itself (nvidia-cudnn downloads it from NVIDIA; a stub stood in, in"
  note "  both stages), the nvidia-cudnn download and licence step, zhbot on a GPU (no libcuda.so.1"
  note "  or GPU here), any CUDA kernel; Docker itself (the stages were replayed in chroots)."
fi
note "summary: $summary"
