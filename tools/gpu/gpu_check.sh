#!/usr/bin/env bash
# The GPU check: what a new machine with an NVIDIA GPU runs to measure zhbot there, in a few
# commands of minutes each. That machine needs a CUDA PyTorch (pip), a C++20 compiler
# and CMake (pip's cmake/ninja do); nothing of zhbot's dependencies: the header-only libraries
# and the teacher engine travel with the tree (the `prepare` stage, run on the machine that has
# them). Every stage writes its part of one report, DIR/report.md (docs/gpu-deployment.md says
# where its figures go).
#
#   tools/gpu/gpu_check.sh prepare        here, on a zhbot machine: copies nlohmann/json, CLI11 (with
#                                     their CMake files) and Fairy-Stockfish to CARRY
#   tools/gpu/gpu_check.sh build          there: engine-only zhbot against python3's LibTorch
#   tools/gpu/gpu_check.sh facts          GPU, driver, CUDA, PyTorch, CPU, compiler
#   tools/gpu/gpu_check.sh nnbench        nnbench at batch 1..1024, fp32 and fp16, the shipped network
#                                     and a random 10x128 one
#   tools/gpu/gpu_check.sh search         one game's search (a middlegame, SEARCH_FEN): nodes/s at 1, 2,
#                                     4, 8, 16 search threads
#   tools/gpu/gpu_check.sh games          one game, then eight at once (zhbot selfplay): batch fill,
#                                     queue wait, nodes/s
#   tools/gpu/gpu_check.sh report         DIR/report.md from the stages' sections (also after each)
#   optional, resumable (run again after an interruption: they go on where they stopped):
#   tools/gpu/gpu_check.sh datagen        teacher games on every core (the carried Fairy-Stockfish),
#                                     chunk by chunk (DATAGEN_SEEDS), for DATAGEN_MINUTES per command
#   tools/gpu/gpu_check.sh train          a larger network trained on the GPU from the carried and the
#                                     new data (or TRAIN_DATA), exported; its checkpoint re-exports
#                                     elsewhere
#
# The first four measuring commands, on the GPU machine (a few minutes each):
#   tools/gpu/gpu_check.sh build && tools/gpu/gpu_check.sh facts
#   tools/gpu/gpu_check.sh nnbench
#   tools/gpu/gpu_check.sh search && tools/gpu/gpu_check.sh games
# Settings (environment): DIR (build/gpu-check), CARRY (build/gpu-carry), DEVICE (cuda), SCALE
# (full; toy: the CI test's sizes on a CPU), ZHBOT (default: the build stage's binary), PYTHON
# (python3), OUT_DIR (where the report and the trained network are copied too).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
DIR=${DIR:-build/gpu-check}
CARRY=${CARRY:-build/gpu-carry}
DEVICE=${DEVICE:-cuda}
SCALE=${SCALE:-full}
PYTHON=${PYTHON:-python3}
OUT_DIR=${OUT_DIR:-}
ZHBOT=${ZHBOT:-$DIR/build/engine/cli/zhbot}
SHIPPED_NET=${SHIPPED_NET:-$(tools/lab/shipped_model.sh)}
case "$CARRY" in /*) ;; *) CARRY=$root/$CARRY ;; esac
export OPENBLAS_NUM_THREADS=1
case "$SCALE" in
  full)
    BATCHES=${BATCHES:-1,2,4,8,16,32,64,128,256,512,1024}
    PRECISIONS=${PRECISIONS:-fp32 fp16}
    NNBENCH_OPTS=${NNBENCH_OPTS:---seconds 0.5 --runs 3}
    RANDOM_ARCH=${RANDOM_ARCH:-resnet-10x128}
    SEARCH_THREADS=${SEARCH_THREADS:-1 2 4 8 16}
    SEARCH_NODES=${SEARCH_NODES:-100000}
    GAME_RUNS=${GAME_RUNS:-1x4 1x16 8x4}
    GAME_NODES=${GAME_NODES:-800}
    DATAGEN_OPTS=${DATAGEN_OPTS:---nodes 3000}
    CHUNK_GAMES=${CHUNK_GAMES:-400}
    TRAIN_ARCH=${TRAIN_ARCH:-resnet-10x128}
    TRAIN_MINUTES=${TRAIN_MINUTES:-8}
    TRAIN_OPTS=${TRAIN_OPTS:---batch-size 1024 --lr 0.1 --checkpoint-minutes 1 --seed 1}
    ;;
  toy)  # the CI test (tests/tools/gpu_check_test.sh): every stage for real, in seconds, on a CPU
    BATCHES=${BATCHES:-1,4}
    PRECISIONS=${PRECISIONS:-fp32}
    NNBENCH_OPTS=${NNBENCH_OPTS:---seconds 0.05 --runs 1}
    RANDOM_ARCH=${RANDOM_ARCH:-resnet-1x8}
    SEARCH_THREADS=${SEARCH_THREADS:-1 2}
    SEARCH_NODES=${SEARCH_NODES:-200}
    GAME_RUNS=${GAME_RUNS:-1x1 2x1}
    GAME_NODES=${GAME_NODES:-50}
    DATAGEN_OPTS=${DATAGEN_OPTS:---nodes 50 --max-plies 30}
    CHUNK_GAMES=${CHUNK_GAMES:-1}
    TRAIN_ARCH=${TRAIN_ARCH:-resnet-1x8}
    TRAIN_MINUTES=${TRAIN_MINUTES:-0.01}
    TRAIN_OPTS=${TRAIN_OPTS:---batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1}
    ;;
  *) echo "gpu_check: SCALE is full or toy, not '$SCALE'" >&2; exit 2 ;;
esac
SEARCH_FEN=${SEARCH_FEN:-r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[Pnp] w KQkq - 0 8}
WORKERS=${WORKERS:-$(nproc)}
DATAGEN_MINUTES=${DATAGEN_MINUTES:-8}
DATAGEN_CHUNKS=${DATAGEN_CHUNKS:-1000}
sections=$DIR/sections
mkdir -p "$DIR" "$sections"

die() { echo "gpu_check: $*" >&2; exit 1; }
# A section of the report: NAME (its order and file), then its text on stdin.
section() { cat >"$sections/$1.md"; }
need_zhbot() {
  [[ -x $ZHBOT ]] || die "no zhbot at $ZHBOT: run 'tools/gpu/gpu_check.sh build' first (or set ZHBOT)"
}
tool() {  # the first of the names found: on PATH or beside python3 (pip's cmake and ninja)
  local name bin_dir
  bin_dir=$(dirname "$(command -v "$PYTHON" 2>/dev/null || echo /nonexistent)")
  for name in "$@"; do
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    if [[ -x $bin_dir/$name ]]; then echo "$bin_dir/$name"; return 0; fi
  done
  return 1
}
versions() {  # one line per tool, or "missing"
  local t path
  for t in g++ c++ cmake ninja nvcc nvidia-smi; do
    if path=$(tool "$t"); then echo "- $t: $("$path" --version 2>&1 | grep -m1 -E '[0-9]+\.[0-9]+') ($path)"
    else echo "- $t: missing"; fi
  done
}

# ---- prepare (on a machine with zhbot's dependencies) ----
prepare() {
  local prefix=$CARRY/prefix dir found lib teacher=${TEACHER:-/usr/games/fairy-stockfish}
  rm -rf "$CARRY" && mkdir -p "$prefix/include" "$prefix/share/cmake" "$CARRY/bin"
  for lib in nlohmann:nlohmann_json CLI:CLI11; do
    [[ -d /usr/include/${lib%%:*} ]] || die "/usr/include/${lib%%:*} missing (deploy/install-deps.sh)"
    cp -a "/usr/include/${lib%%:*}" "$prefix/include/"
    found=
    for dir in /usr/share/cmake /usr/lib/cmake /usr/lib/x86_64-linux-gnu/cmake; do
      if [[ -d $dir/${lib#*:} ]]; then cp -a "$dir/${lib#*:}" "$prefix/share/cmake/"; found=1; break; fi
    done
    [[ -n $found ]] || die "no CMake package files for ${lib#*:}"
  done
  [[ -x $teacher ]] || die "no teacher engine at $teacher (apt-get install fairy-stockfish)"
  cp "$teacher" "$CARRY/bin/fairy-stockfish"
  if [[ -n ${CARRY_DATA:-} ]]; then  # training shards, up to CARRY_DATA_MB (default 32)
    mkdir -p "$CARRY/data"
    local budget=$((${CARRY_DATA_MB:-32} * 1024 * 1024)) used=0 size f
    while IFS= read -r f; do
      size=$(stat -c %s "$f")
      ((used + size <= budget)) || break
      cp "$f" "$CARRY/data/" && used=$((used + size))
    done < <(find "$CARRY_DATA" -name '*.zhrec' | sort)
  fi
  echo "gpu_check: $CARRY holds $(du -sh "$CARRY" | cut -f1): copy it to the GPU machine with the checkout"
}

# ---- build (on the GPU machine) ----
build() {
  local torch_dir abi cmake generator=() log=$DIR/build.log
  cmake=$(tool cmake) || die "no cmake (pip install cmake, or apt-get install cmake)"
  if ninja=$(tool ninja); then generator=(-G Ninja -DCMAKE_MAKE_PROGRAM="$ninja"); fi
  torch_dir=$("$PYTHON" -c 'import torch; print(torch.utils.cmake_prefix_path)') ||
    die "$PYTHON has no torch"
  # A LibTorch built with the old C++ ABI needs every object built with it.
  abi=$("$PYTHON" -c 'import torch; print(int(torch.compiled_with_cxx11_abi()))')
  [[ -d $CARRY/prefix ]] || echo "gpu_check: no $CARRY/prefix (prepare stage): using the system's headers" >&2
  # shellcheck disable=SC2086  # GPU_CHECK_CMAKE_ARGS is a list
  if "$cmake" -S . -B "$DIR/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DZH_BUILD_BOT=OFF -DZH_BUILD_TESTS=OFF -DZH_CCACHE=OFF -DZH_WERROR=OFF \
      -DCMAKE_PREFIX_PATH="$CARRY/prefix;$torch_dir" \
      -DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES="$CARRY/prefix/include" \
      -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$abi" ${GPU_CHECK_CMAKE_ARGS:-} >"$log" 2>&1 &&
    { [[ ${CONFIGURE_ONLY:-0} == 1 ]] ||
      "$cmake" --build "$DIR/build" --target zhbot -j "$(nproc)" >>"$log" 2>&1; }; then
    status="built: $("$ZHBOT" --version 2>&1 | head -1)"
    [[ ${CONFIGURE_ONLY:-0} != 1 ]] || status="configured (CONFIGURE_ONLY=1: not compiled)"
  else
    status="FAILED (the last lines of $log below)"
  fi
  { echo "## Build"
    echo
    echo "Engine-only zhbot (-DZH_BUILD_BOT=OFF) against $("$PYTHON" -c 'import torch; print("PyTorch", torch.__version__)')'s LibTorch ($torch_dir, C++11 ABI $abi): $status"
    echo
    versions
    if [[ $status == FAILED* ]]; then echo; echo '```'; tail -25 "$log"; echo '```'; fi
    # Paths inside the checkout are shown relative to it: the report goes into the docs.
    echo "- header-only libraries: ${CARRY#"$root"/}/prefix/include (nlohmann_json from $(sed -n \
      's/^nlohmann_json_DIR:[^=]*=//p' "$DIR/build/CMakeCache.txt" 2>/dev/null | sed "s|^$root/||"))"
  } | section 10-build
  report
  [[ $status != FAILED* ]] || die "build failed (log: $log)"
}

# ---- facts ----
facts() {
  need_zhbot
  { echo "## Device"
    echo
    if smi=$(tool nvidia-smi); then
      echo '```'
      "$smi" --query-gpu=name,driver_version,memory.total,compute_cap,power.limit,clocks.max.sm \
        --format=csv 2>&1 || true
      echo '```'
    else
      echo "nvidia-smi: not found"
    fi
    "$PYTHON" - <<'PY' 2>&1 || true
import torch
print("- PyTorch %s, CUDA %s, cuDNN %s" % (torch.__version__, torch.version.cuda,
      torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else "none"))
if torch.cuda.is_available():
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        print("- cuda:%d %s, sm_%d%d, %d SMs, %.1f GiB" % (i, p.name, p.major, p.minor,
              p.multi_processor_count, p.total_memory / 2**30))
    print("- architectures this PyTorch carries code for: %s" % " ".join(torch.cuda.get_arch_list()))
else:
    print("- torch.cuda.is_available(): False")
PY
    echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
    echo "- memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "- zhbot: $("$ZHBOT" --version 2>&1)"
  } | section 20-facts
  report
}

# ---- nnbench ----
nnbench() {
  need_zhbot
  local net random=$DIR/random-$RANDOM_ARCH.pt precision out
  [[ -e $random ]] || "$PYTHON" -m training.make_random_net "$random" --arch "$RANDOM_ARCH" --seed 1 \
    >/dev/null
  { echo "## nnbench ($DEVICE)"
    echo
    echo "Positions/s at each batch size: (a) the raw forward pass, (b) evaluate() with encoding"
    echo "and priors, (c) the InferenceService fed by producer threads (zhbot nnbench)."
    for net in "$SHIPPED_NET" "$random"; do
      for precision in $PRECISIONS; do
        echo
        echo "### $(basename "$net" .pt), $precision"
        echo
        echo "\`zhbot nnbench --model $net --batch $BATCHES --device $DEVICE --precision $precision $NNBENCH_OPTS\`"
        echo
        echo '```'
        # shellcheck disable=SC2086  # NNBENCH_OPTS is a list
        out=$("$ZHBOT" nnbench --model "$net" --batch "$BATCHES" --device "$DEVICE" \
          --precision "$precision" $NNBENCH_OPTS 2>&1) || out+=$'\n(nnbench failed)'
        echo "$out"
        echo '```'
      done
    done
  } | section 30-nnbench
  report
}

# ---- one game's search ----
search() {
  need_zhbot
  local t line
  { echo "## One game's search ($DEVICE, shipped network)"
    echo
    echo "\`zhbot analyse --fen '$SEARCH_FEN' --nodes $SEARCH_NODES -o threads=T -o device=$DEVICE\`;"
    echo "the other search options are the device's defaults. A middlegame with drops: from the"
    echo "start position the network's prior is almost all on one move, and a tree that narrow"
    echo "leaves the threads' mini-batches little to spread over."
    echo
    echo "| search threads | nodes/s | network evaluations | time |"
    echo "| ---: | ---: | ---: | ---: |"
    for t in $SEARCH_THREADS; do
      if line=$("$ZHBOT" analyse --fen "$SEARCH_FEN" --nodes "$SEARCH_NODES" -o "threads=$t" \
          -o "device=$DEVICE" -o "model=$SHIPPED_NET" 2>&1 | grep '^nodes'); then
        # "nodes      N in T ms (X nodes/s), E network evaluations"
        sed -E 's/^nodes +([0-9]+) in ([0-9]+) ms \(([0-9]+) nodes\/s\), ([0-9]+) network.*/| '"$t"' | \3 | \4 | \2 ms |/' <<<"$line"
      else
        echo "| $t | failed | | |"
      fi
    done
  } | section 40-search
  report
}

# ---- eight games at once ----
games() {
  need_zhbot
  local out run n t
  { echo "## Games at once ($DEVICE)"
    echo
    echo "\`zhbot selfplay --games N --threads T --nodes $GAME_NODES -o device=$DEVICE\` for each N x T"
    echo "of $GAME_RUNS: one game alone shows what a single game's search leaves of the device"
    echo "(batch fill, queue wait), more games what the device gives when batches are full."
    for run in $GAME_RUNS; do
      n=${run%x*} t=${run#*x}
      echo
      echo "### $n game(s), $t search thread(s) each"
      echo
      echo '```'
      out=$("$ZHBOT" selfplay --games "$n" --threads "$t" --nodes "$GAME_NODES" \
        -o "device=$DEVICE" -o "model=$SHIPPED_NET" 2>&1) || out+=$'\n(selfplay failed)'
      grep -v '^\[info\]' <<<"$out" | tail -12
      echo '```'
    done
  } | section 50-games
  report
}

# ---- optional: teacher data on every core, chunk by chunk (resumable) ----
# DATAGEN_SEEDS names the chunks' seeds (default 30000 up); a chunk is not started when the last
# one's time would carry it past DATAGEN_MINUTES (a chunk cut off by a deadline is lost).
# With OUT_DIR set, each finished chunk goes back packed (chunk-SEED.tar.xz, a tenth of its size).
datagen() {
  need_zhbot
  local teacher=$CARRY/bin/fairy-stockfish seed deadline started last=0 made=0
  [[ -x $teacher ]] || teacher=/usr/games/fairy-stockfish
  [[ -x $teacher ]] || die "no teacher engine: run the prepare stage (it carries Fairy-Stockfish)"
  local gen=$DIR/datagen seeds=${DATAGEN_SEEDS:-$(seq 30000 $((30000 + DATAGEN_CHUNKS - 1)))}
  # shellcheck source=tools/lab/steps.sh
  source tools/lab/steps.sh
  mkdir -p "$gen"
  deadline=$((SECONDS + $(awk -v m="$DATAGEN_MINUTES" 'BEGIN { printf "%d", m * 60 }')))
  for seed in $seeds; do
    ((made < DATAGEN_CHUNKS && SECONDS + last < deadline)) || break
    started=$SECONDS
    # A chunk cut off is made again from its seed: its folder goes first.
    # shellcheck disable=SC2086,SC2016  # DATAGEN_OPTS is a list; $1 is the inner shell's
    DIR=$gen step "chunk-$seed" bash -c 'rm -rf "$1" && shift && exec "$@"' _ "$gen/chunk-$seed" \
      "$ZHBOT" datagen --out "$gen/chunk-$seed" --teacher "$teacher" --workers "$WORKERS" \
      --games "$CHUNK_GAMES" --seed "$seed" $DATAGEN_OPTS
    last=$((SECONDS - started)) made=$((made + 1))
    if [[ -n $OUT_DIR && ! -e $OUT_DIR/chunk-$seed.tar.xz ]]; then
      XZ_OPT=-T0 tar -cJf "$OUT_DIR/chunk-$seed.tar.xz" -C "$gen" "chunk-$seed" "chunk-$seed.log"
    fi
  done
  local done_chunks
  done_chunks=$(find "$DIR/datagen" -name 'chunk-*.done' | wc -l)
  { echo "## Teacher data (optional)"
    echo
    echo "$done_chunks chunk(s) of $CHUNK_GAMES games ($DATAGEN_OPTS, $WORKERS workers, Fairy-Stockfish"
    echo "carried with the tree); the last: \`$(grep -h 'throughput' "$DIR"/datagen/chunk-*.log 2>/dev/null | tail -1)\`"
    echo
    grep -h '^time\|^throughput' "$DIR"/datagen/chunk-*.log 2>/dev/null | sed 's/^/    /' || true
  } | section 60-datagen
  report
}

# ---- optional: a larger network trained on the GPU (resumable), exported ----
train() {
  need_zhbot
  local data=() run=$DIR/train resume=()
  # TRAIN_DATA (folders) trains beside a datagen stage that is still writing its chunks.
  if [[ -n ${TRAIN_DATA:-} ]]; then read -ra data <<<"$TRAIN_DATA"; else
    [[ -d $CARRY/data ]] && data+=("$CARRY/data")
    [[ -d $DIR/datagen ]] && data+=("$DIR/datagen")
  fi
  [[ ${#data[@]} -gt 0 ]] || die "no training data: carry some (CARRY_DATA at prepare) or run datagen"
  [[ -e $run/last.ckpt ]] && resume=(--resume)
  # shellcheck disable=SC2086  # TRAIN_OPTS is a list
  "$PYTHON" -m training.train --data "${data[@]}" --out "$run" --arch "$TRAIN_ARCH" \
    --device "$([[ $DEVICE == cuda* ]] && echo cuda || echo cpu)" \
    --time-budget-minutes "$TRAIN_MINUTES" $TRAIN_OPTS "${resume[@]}" >>"$DIR/train.log" 2>&1 ||
    { tail -20 "$DIR/train.log" >&2; die "training failed (log: $DIR/train.log)"; }
  "$PYTHON" -m training.export "$run/best.ckpt" "$DIR/gpu-$TRAIN_ARCH.pt" --data "${data[@]}" \
    --zhbot "$ZHBOT" --name "gpu-check-$TRAIN_ARCH" >"$DIR/export.log" 2>&1 ||
    { tail -20 "$DIR/export.log" >&2; die "export failed (log: $DIR/export.log)"; }
  { echo "## A $TRAIN_ARCH network trained here (optional)"
    echo
    echo "Data: ${data[*]}. The checkpoint (best.ckpt, a plain state dict) re-exports for"
    echo "LibTorch 1.13 on the CPU machine: \`python3 -m training.export best.ckpt OUT.pt --data DIR\`."
    echo
    echo '```'
    tail -5 "$DIR/train.log"
    tail -3 "$DIR/export.log"
    echo '```'
  } | section 70-train
  if [[ -n $OUT_DIR ]]; then cp "$run/best.ckpt" "$OUT_DIR/gpu-$TRAIN_ARCH.ckpt"; fi
  report
}

report() {
  { echo "# zhbot GPU check"
    echo
    echo "$(date -u +%FT%TZ), \`tools/gpu/gpu_check.sh\` (SCALE=$SCALE, DEVICE=$DEVICE)."
    local f
    for f in "$sections"/*.md; do
      [[ -e $f ]] || continue
      echo
      cat "$f"
    done
  } >"$DIR/report.md"
  if [[ -n $OUT_DIR ]]; then cp "$DIR/report.md" "$OUT_DIR/gpu-check-report.md"; fi
  echo "gpu_check: report: $DIR/report.md"
}

[[ $# -ge 1 ]] || { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
for stage in "$@"; do
  case "$stage" in
    prepare | build | facts | nnbench | search | games | datagen | train | report) "$stage" ;;
    *) die "unknown stage '$stage' (prepare, build, facts, nnbench, search, games, datagen, train, report)" ;;
  esac
done
