#!/usr/bin/env bash
# The next network on a rented GPU server, in one run (docs/gpu-training.md): the recipe's
# teacher chunks (3 000 games at 3 000 nodes, from seeds the lab has not made) on all cores but
# two, while the next network trains on the GPU beside them, warm from the shipped network, on
# the chunks copied there, for the session's time. What is worth keeping lands in OUT_DIR
# within the size budget: the packed chunks, the checkpoint (weights alone), its export and the
# report; tools/lab/lab_import.sh takes them into the lab here.
#
#   tools/gpu/gpu_session.sh prepare        here: tools/gpu/gpu_check.sh's carry (headers,
#                                           teacher), a zhbot without LibTorch for the teacher
#                                           games, the chunks to train on, the seeds to make
#   (copy the checkout, with CARRY inside it, to the server)
#   tools/gpu/gpu_session.sh check          there (seconds): CUDA in PyTorch, the carried
#                                           headers, teacher, zhbot and chunks; then stops
#   tools/gpu/gpu_session.sh run OUT_DIR    there: the check again, then SESSION_SECONDS of work
#   (copy OUT_DIR back)
#   tools/lab/lab_import.sh OUT_DIR         here: the chunks and the network into the lab
#
# Budgets (environment; defaults for a server rented for an evening):
#   SESSION_SECONDS  the run's length, its checks and export included (10800: three hours)
#   TRAVEL_MB        what prepare lets the checkout and the carry weigh together (2048)
#   RETURN_MB        what OUT_DIR may hold in all (2048; 0: no limit)
#   RETURN_FILES     how many files OUT_DIR may hold (0: no limit)
#   FILE_MB          the largest file OUT_DIR may hold (0: no limit; the report flags one over)
#   DISK_GB          free disk the check asks for beside DIR (16; toy: 2)
# prepare's other settings: CARRY_CHUNKS (a folder of chunk-SEED.tar.xz to train on; default the
# shared folder's teacher-NODES), SEEDS (the seeds to make; default the recipe's, RECIPE_SEED and
# RECIPE_CHUNKS or else tools/lab/recipe.sh's SEED and CHUNKS, from the top down, passing over
# those the lab or the shared folder has: the lab makes them from the bottom up, so the two
# never meet), GPU_CHUNKS (how many seeds; default all the recipe's missing ones), DATAGEN_ZHBOT
# (a zhbot to carry instead of building one). run's: WORKERS (cores - 2), TRAIN_OPTS,
# TRAIN_ARCH (the shipped network's), MEASURE=1 (first the measuring stages of
# tools/gpu/gpu_check.sh, which build zhbot against PyTorch's LibTorch: minutes), SCALE (full;
# toy: the CI test's sizes on a CPU), DEVICE (cuda).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
source tools/lab/lab.sh
# recipe NAME: a setting of the next network's recipe, read apart from this script's own
# training settings (a session trains for its time, not the recipe's step count).
recipe() { (source tools/lab/recipe.sh && echo "${!1}"); }
DIR=${DIR:-build/gpu-session}
CARRY=${CARRY:-build/gpu-carry}
case "$CARRY" in /*) ;; *) CARRY=$root/$CARRY ;; esac
case "$DIR" in /*) ;; *) DIR=$root/$DIR ;; esac
DEVICE=${DEVICE:-cuda}
SCALE=${SCALE:-full}
PYTHON=${PYTHON:-python3}
SHIPPED_NET=${SHIPPED_NET:-$(tools/lab/shipped_model.sh)}
export OPENBLAS_NUM_THREADS=1
case "$SCALE" in
  full)  # the recipe's chunks and its training settings
    NODES=${NODES:-$(recipe NODES)}
    CHUNK_GAMES=${CHUNK_GAMES:-$(recipe CHUNK_GAMES)}
    DATAGEN_OPTS=${DATAGEN_OPTS:-}
    TRAIN_OPTS=${TRAIN_OPTS:---batch-size 512 --lr 0.02 --seed 1 --epoch-steps 2000}
    SESSION_SECONDS=${SESSION_SECONDS:-10800}
    DISK_GB=${DISK_GB:-16}
    EXPORT_SECONDS=${EXPORT_SECONDS:-40}   # the training's end, its export and the report
    TRAIN_START_SECONDS=${TRAIN_START_SECONDS:-30}  # PyTorch, CUDA and the data loaded: no step
    TRAIN_MIN_SECONDS=${TRAIN_MIN_SECONDS:-60}
    PACK_SECONDS=${PACK_SECONDS:-25}       # a chunk packed after its last game
    FIRST_CHUNK_SECONDS=${FIRST_CHUNK_SECONDS:-170}  # 14 workers at 3 000 nodes (H100: 1 000 in 80 s)
    ;;
  toy)  # the CI test (tests/tools/gpu_session_test.sh): every step for real, on a CPU
    NODES=${NODES:-50}
    CHUNK_GAMES=${CHUNK_GAMES:-1}
    DATAGEN_OPTS=${DATAGEN_OPTS:---max-plies 12}
    TRAIN_OPTS=${TRAIN_OPTS:---batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1}
    SESSION_SECONDS=${SESSION_SECONDS:-45}
    DISK_GB=${DISK_GB:-2}
    EXPORT_SECONDS=${EXPORT_SECONDS:-12}
    TRAIN_START_SECONDS=${TRAIN_START_SECONDS:-5}
    TRAIN_MIN_SECONDS=${TRAIN_MIN_SECONDS:-5}
    PACK_SECONDS=${PACK_SECONDS:-2}
    FIRST_CHUNK_SECONDS=${FIRST_CHUNK_SECONDS:-5}
    ;;
  *) echo "gpu_session: SCALE is full or toy, not '$SCALE'" >&2; exit 2 ;;
esac
TRAVEL_MB=${TRAVEL_MB:-2048}
RETURN_MB=${RETURN_MB:-2048} RETURN_FILES=${RETURN_FILES:-0} FILE_MB=${FILE_MB:-0}
die() { echo "gpu_session: $*" >&2; exit 1; }
seconds_since() { echo $((SECONDS - $1)); }

# ---- prepare (here) ----
# The checkout's size as a copy of its files counts it: tracked files and untracked ones not
# ignored (build/ is ignored: the carry is counted apart).
tree_bytes() {
  git -C "$root" ls-files -z --cached --others --exclude-standard |
    { cd "$root" && xargs -0 stat -c %s 2>/dev/null; } | awk '{ s += $1 } END { print s + 0 }'
}
prepare() {
  local data=${CARRY_CHUNKS:-$ZHBOT_SHARED_DATA/teacher-$NODES} budget used f seeds=() seed
  CARRY=$CARRY bash tools/gpu/gpu_check.sh prepare
  mkdir -p "$CARRY/bin" "$CARRY/chunks"
  # zhbot for the teacher games, without LibTorch (datagen needs no network): it runs there
  # at once, while a LibTorch build would take the first minutes of the session.
  if [[ -n ${DATAGEN_ZHBOT:-} ]]; then
    strip -o "$CARRY/bin/zhbot" "$DATAGEN_ZHBOT"
  else
    cmake -S . -B build/gpu-datagen -DCMAKE_BUILD_TYPE=Release -DZH_WITH_TORCH=OFF \
      -DZH_BUILD_BOT=OFF -DZH_BUILD_TESTS=OFF -DZH_ARCH=x86-64-v2 \
      -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" >/dev/null
    cmake --build build/gpu-datagen --target zhbot
    strip -o "$CARRY/bin/zhbot" build/gpu-datagen/engine/cli/zhbot
  fi
  # The chunks to train on: whole archives, while the tree and the carry stay under TRAVEL_MB
  # (less 1 MiB for what changes before the copy).
  budget=$(( (TRAVEL_MB - 1) * 1024 * 1024 - $(tree_bytes) ))
  used=$(du -sb "$CARRY" | cut -f1)
  ((used <= budget)) || die "the tree and the carry take $(((used + $(tree_bytes)) / 1048576)) MiB" \
    "before any chunk, over TRAVEL_MB $TRAVEL_MB less 1"
  for f in "$data"/chunk-*.tar.xz; do
    [[ -f $f ]] || continue
    ((used + $(stat -c %s "$f") <= budget)) || break
    cp "$f" "$CARRY/chunks/" && used=$((used + $(stat -c %s "$f")))
  done
  # The seeds to make: the recipe's, from the top, that neither the lab nor the shared folder has.
  if [[ -n ${SEEDS:-} ]]; then read -ra seeds <<<"$SEEDS"; else
    local first=${RECIPE_SEED:-$(recipe SEED)} count=${RECIPE_CHUNKS:-$(recipe CHUNKS)}
    for ((seed = first + count - 1; seed >= first && ${#seeds[@]} < ${GPU_CHUNKS:-count}; seed--)); do
      [[ -e $ZHBOT_LAB/data/teacher-$NODES/chunk-$seed.done ||
        -e $ZHBOT_SHARED_DATA/teacher-$NODES/chunk-$seed.tar.xz ]] || seeds+=("$seed")
    done
  fi
  printf '%s\n' "${seeds[@]}" >"$CARRY/seeds"
  echo "gpu_session: carry $CARRY: $(find "$CARRY/chunks" -name '*.tar.xz' | wc -l) chunk(s) to" \
    "train on, seeds to make: ${seeds[*]:-none}; with the tree $(((used + $(tree_bytes)) / 1048576))" \
    "MiB of $TRAVEL_MB: copy it to the server with the checkout"
}

# ---- check (there, first): everything the run needs, in seconds ----
check() {
  local failures=0 f
  item() {  # item WHAT COMMAND...: one line, ok or FAILED
    local out
    if out=$("${@:2}" 2>&1); then echo "ok      $1${out:+: $(tail -1 <<<"$out")}"
    else echo "FAILED  $1: $(tail -3 <<<"$out" | tr '\n' ' ')"; failures=$((failures + 1)); fi
  }
  # One interpreter start (seconds each): PyTorch with CUDA, numpy, and the shipped network
  # with its architecture, which the warm start must match.
  item "PyTorch, numpy, the shipped network" "$PYTHON" -c 'import json, sys, numpy, torch
if sys.argv[2].startswith("cuda"):
    assert torch.cuda.is_available(), "torch %s: no CUDA device" % torch.__version__
    x = torch.ones(256, 256, device="cuda")
    assert float((x @ x).sum()) == 256 ** 3, "a wrong product on the GPU"
    where = torch.cuda.get_device_name(0)
else:
    where = "the CPU (DEVICE=%s)" % sys.argv[2]
e = {"zhbot.json": ""}
torch.jit.load(sys.argv[1], map_location="cpu", _extra_files=e)
arch = json.loads(e["zhbot.json"])["architecture"].split()[0]
print("torch %s on %s; shipped network %s" % (torch.__version__, where, arch))' \
    "$SHIPPED_NET" "$DEVICE"
  for f in nlohmann/json.hpp CLI/CLI.hpp; do
    item "carried header $f" test -s "$CARRY/prefix/include/$f"
  done
  item "carried teacher" bash -c 'printf "uci\nquit\n" | timeout 10 "$1" | grep -m1 -o "var crazyhouse\|crazyhouse"' _ \
    "$CARRY/bin/fairy-stockfish"
  item "carried zhbot" "$CARRY/bin/zhbot" --version
  item "teacher games (zhbot datagen with the teacher, one short game)" bash -c \
    'rm -rf "$1" && "$2" datagen --out "$1" --teacher "$3" --workers 1 --games 1 --nodes 20 \
       --max-plies 6 --seed 1 | grep "^positions"' _ "$DIR/check-datagen" "$CARRY/bin/zhbot" \
    "$CARRY/bin/fairy-stockfish"
  item "seeds to make" bash -c '[[ -s "$1" ]] && echo $(cat "$1")' _ "$CARRY/seeds"
  for f in "$CARRY"/chunks/*.tar.xz; do
    [[ -e $f ]] || { item "chunks to train on" false; break; }
    item "chunk $(basename "$f")" xz -t "$f"
  done
  item "disk for the chunks ($DISK_GB GiB)" bash -c \
    '(( $(df -Pk "$1" | awk "NR == 2 { print \$4 }") > $2 * 1048576 ))' _ "$(dirname "$DIR")" "$DISK_GB"
  item "cores" nproc
  [[ $failures -eq 0 ]] || die "$failures check(s) failed: fix the carry before the run"
  echo "gpu_session: ready"
}

# ---- run (there) ----
train() {  # train SECONDS: warm from the shipped network on the unpacked carried chunks
  # (run in the background: exec, so that its process is the one the deadline stops)
  # shellcheck disable=SC2086  # TRAIN_OPTS is a list
  exec "$PYTHON" -m training.train --data "$DIR/carried" --out "$DIR/train" --arch "$TRAIN_ARCH" \
    --init-from "$SHIPPED_NET" --device "$([[ $DEVICE == cuda* ]] && echo cuda || echo cpu)" \
    --threads 2 --checkpoint-minutes 1 \
    --time-budget-minutes "$(awk -v s="$1" 'BEGIN { printf "%.3f", s / 60 }')" $TRAIN_OPTS
}
make_chunk() {  # make_chunk SEED SECONDS: the recipe's chunk, cut off after SECONDS
  rm -rf "$DIR/datagen/chunk-$1"
  echo "== $(date -u +%FT%TZ) zhbot datagen --nodes $NODES --games $CHUNK_GAMES --seed $1 $DATAGEN_OPTS"
  # shellcheck disable=SC2086  # DATAGEN_OPTS is a list
  timeout "$2" "$CARRY/bin/zhbot" datagen --out "$DIR/datagen/chunk-$1" \
    --teacher "$CARRY/bin/fairy-stockfish" --workers "$WORKERS" --nodes "$NODES" \
    --games "$CHUNK_GAMES" --seed "$1" --progress 30 $DATAGEN_OPTS
}
run() {
  local out=${1:?usage: tools/gpu/gpu_session.sh run OUT_DIR} started t trainer='' seeds seed
  local last=$FIRST_CHUNK_SECONDS deadline=$SESSION_SECONDS made=() packers=() timings=()
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  rm -rf "$DIR/carried" "$DIR/datagen" "$DIR/train" && mkdir -p "$DIR/carried" "$DIR/datagen"
  t=$SECONDS
  (check) >"$DIR/check.log" 2>&1 || { cat "$DIR/check.log"; cp "$DIR/check.log" "$out/"; exit 1; }
  timings+=("check: $(seconds_since "$t") s")
  if [[ ${MEASURE:-0} == 1 ]]; then
    t=$SECONDS
    OUT_DIR=$out CARRY=$CARRY DEVICE=$DEVICE SCALE=$SCALE PYTHON=$PYTHON SHIPPED_NET=$SHIPPED_NET \
      bash tools/gpu/gpu_check.sh build facts nnbench search games ||
      echo "gpu_session: a measuring stage failed (its section of the report says which)"
    timings+=("measuring stages (tools/gpu/gpu_check.sh): $(seconds_since "$t") s")
  fi
  WORKERS=${WORKERS:-$(($(nproc) > 4 ? $(nproc) - 2 : 2))}
  TRAIN_ARCH=${TRAIN_ARCH:-$(sed -n 's/.*; shipped network \(.*\)$/\1/p' "$DIR/check.log")}

  # The carried chunks unpacked, then the training on the GPU in the background.
  t=$SECONDS
  for f in "$CARRY"/chunks/*.tar.xz; do [[ -e $f ]] && tar -xJf "$f" -C "$DIR/carried" & done
  wait
  local positions
  positions=$(find "$DIR/carried" -name '*.zhrec' -printf '%s\n' | awk '{ s += ($1 - 128) / 440 } END { print s + 0 }')
  timings+=("carried chunks unpacked ($(find "$CARRY/chunks" -name '*.tar.xz' | wc -l), $positions positions): $(seconds_since "$t") s")
  local train_seconds=$((deadline - SECONDS - EXPORT_SECONDS - TRAIN_START_SECONDS))
  if ((positions > 0 && train_seconds >= TRAIN_MIN_SECONDS)); then
    train "$train_seconds" >"$DIR/train.log" 2>&1 &
    trainer=$!
    timings+=("training started: $train_seconds s of the session left to it")
  else
    timings+=("no training: $positions carried positions, $train_seconds s left")
  fi

  # The chunks, one seed at a time on every worker: a chunk is started only when the last one's
  # time (or FIRST_CHUNK_SECONDS) still fits, and packed for the way back while the next runs.
  # shellcheck disable=SC2207  # one seed a line
  seeds=($(if [[ -n ${SEEDS:-} ]]; then echo "$SEEDS"; else cat "$CARRY/seeds"; fi))
  # Room in OUT_DIR beside the checkpoint, the export (each about the shipped network's size)
  # and the report (and the measuring stages' report): files, and MiB at CHUNK_MB a chunk; a
  # budget of 0 sets no limit.
  local room=${#seeds[@]} chunk_mb=${CHUNK_MB:-11}
  local mb_left=$((RETURN_MB - 1 - 2 * $(stat -c %s "$SHIPPED_NET") / 1048576))
  ((RETURN_FILES == 0 || room <= RETURN_FILES - 3 - ${MEASURE:-0})) ||
    room=$((RETURN_FILES - 3 - ${MEASURE:-0}))
  ((RETURN_MB == 0 || room <= mb_left / chunk_mb)) || room=$((mb_left / chunk_mb))
  timings+=("room in OUT_DIR: $room chunk(s)")
  for seed in "${seeds[@]}"; do
    ((${#made[@]} < room)) || break
    ((SECONDS + last + PACK_SECONDS + EXPORT_SECONDS <= deadline)) || break
    started=$SECONDS
    if make_chunk "$seed" $((deadline - EXPORT_SECONDS - PACK_SECONDS - SECONDS)) \
        >"$DIR/datagen/chunk-$seed.log" 2>&1; then
      last=$(seconds_since "$started")
      made+=("$seed")
      timings+=("chunk-$seed: $last s ($(sed -n 's/^positions *\([0-9]*\) written.*/\1/p' "$DIR/datagen/chunk-$seed.log") positions)")
      XZ_OPT="-T2 -6" tar -cJf "$out/chunk-$seed.tar.xz" -C "$DIR/datagen" "chunk-$seed" "chunk-$seed.log" &
      packers+=($!)
    else
      timings+=("chunk-$seed: cut off or failed after $(seconds_since "$started") s (not handed back)")
      break
    fi
  done
  ((${#packers[@]} == 0)) || wait "${packers[@]}"

  # The training ends by its own budget; past the deadline it is stopped (it saves the step it
  # reached). Then its weights and their export.
  if [[ -n $trainer ]]; then
    while kill -0 "$trainer" 2>/dev/null && ((SECONDS < deadline - EXPORT_SECONDS + 10)); do sleep 1; done
    kill -TERM "$trainer" 2>/dev/null && timings+=("training stopped at the deadline")
    wait "$trainer" || echo "gpu_session: training ended with status $?"
    t=$SECONDS
    local name
    name=gpu-$TRAIN_ARCH-$(date -u +%Y%m%d-%H%M)
    if "$PYTHON" - "$DIR/train" "$out/$name.ckpt" <<'PY' >>"$DIR/train.log" 2>&1; then
import os, sys, torch
run, out = sys.argv[1], sys.argv[2]
best = os.path.join(run, "best.ckpt")
state = torch.load(best if os.path.exists(best) else os.path.join(run, "last.ckpt"), map_location="cpu")
# The weights alone (no optimizer state, no history): what the lab exports and measures.
torch.save({k: state[k] for k in ("model", "arch", "config", "step", "metrics", "torch_version")
            if k in state}, out)
PY
      "$PYTHON" -m training.export "$out/$name.ckpt" "$out/$name.pt" --data "$DIR/carried" \
        --no-check --name "$name" >>"$DIR/train.log" 2>&1 || echo "gpu_session: export failed"
    else
      echo "gpu_session: no checkpoint to hand back"
    fi
    timings+=("checkpoint and export: $(seconds_since "$t") s")
  fi
  report "$out" "${made[*]}" >"$out/gpu-session.md"
  cat "$out/gpu-session.md"
}

report() {  # report OUT MADE_SEEDS: what was made, how long each step took, what comes back
  local out=$1 file count=0 bytes=0
  echo "# GPU session $(date -u +%FT%TZ)"
  echo
  echo "$(sed -n 's/^ok      cores: //p' "$DIR/check.log") cores, $WORKERS teacher workers; training $TRAIN_ARCH warm from"
  echo "$(basename "$SHIPPED_NET") on $DEVICE (\`$TRAIN_OPTS\`); chunks of $CHUNK_GAMES games at $NODES nodes${DATAGEN_OPTS:+ ($DATAGEN_OPTS)}."
  echo
  echo "## Steps"
  echo
  printf -- '- %s\n' "${timings[@]}"
  echo
  echo "Seeds made (chunk-SEED.tar.xz, each with its datagen log): ${2:-none}"
  echo
  echo "## Training"
  echo
  echo '```'
  grep -E '^(warm start|precision|time budget|epoch |resumed|SIG|train:)' "$DIR/train.log" 2>/dev/null | tail -12 || true
  echo '```'
  echo
  echo "## Handed back"
  echo
  for file in "$out"/*; do
    [[ -f $file && $file != */gpu-session.md ]] || continue
    count=$((count + 1)) bytes=$((bytes + $(stat -c %s "$file")))
    echo "- $(basename "$file"): $(stat -c %s "$file") bytes"
    ((FILE_MB == 0 || $(stat -c %s "$file") <= FILE_MB * 1048576)) ||
      echo "  OVER the budget's $FILE_MB MiB a file"
  done
  echo "- and this report: $((count + 1)) file(s), $((bytes / 1048576)) MiB; the budget: RETURN_FILES"
  echo "  $RETURN_FILES, RETURN_MB $RETURN_MB (0: no limit)"
}

case "${1:-}" in
  prepare) prepare ;;
  check) mkdir -p "$DIR" && check ;;
  run) mkdir -p "$DIR" && run "${2:-}" ;;
  *) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
