#!/usr/bin/env bash
# A change to the GPU path, measured against what it replaces on the same GPU in one run: the
# engine is built from this checkout (B) and from an exported older tree (A), then nnbench and
# zhbot selfplay (one game alone, eight at once) alternate A, B, A, B. Prints the figures; with
# OUT_DIR set, a copy lands there.
#
#   git archive REF | (mkdir -p build/ab-old && tar -x -C build/ab-old)   # here: the old tree
#   tools/gpu/gpu_check.sh prepare                                          # here: headers, teacher
#   tools/gpu/gpu_ab.sh build/ab-old                                        # there
#
# Settings (environment): BATCHES (32,128,512,1024), PRECISION (fp16), PLIES (80), ROUNDS (2),
# CARRY (build/gpu-carry), DEVICE (cuda), PYTHON (python3), MODEL (the shipped network).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
old=$(cd "${1:?usage: tools/gpu/gpu_ab.sh OLD_TREE}" && pwd)
export CARRY=${CARRY:-$root/build/gpu-carry} PYTHON=${PYTHON:-python3}
device=${DEVICE:-cuda} batches=${BATCHES:-32,128,512,1024} precision=${PRECISION:-fp16}
out=${OUT_DIR:-}
model=${MODEL:-$(tools/lab/shipped_model.sh)}
log=$root/build/gpu-ab.log
mkdir -p build && : >"$log"

# Both builds at once: each tree's own gpu_check.sh, its own build folder.
(cd "$old" && DIR=$root/build/ab-a bash tools/gpu/gpu_check.sh build >/dev/null) &
DIR=$root/build/ab-b bash tools/gpu/gpu_check.sh build >/dev/null
wait $! || { echo "gpu_ab: the old tree did not build (build/ab-a/build.log)"; exit 1; }
declare -A zhbot=([A]=$root/build/ab-a/build/engine/cli/zhbot [B]=$root/build/ab-b/build/engine/cli/zhbot)

say() { echo "$*" | tee -a "$log"; }
say "gpu_ab: A = ${old#"$root"/}, B = this checkout; $device, $precision"
for round in $(seq "${ROUNDS:-2}"); do
  for side in A B; do
    z=${zhbot[$side]}
    say "== round $round, $side: nnbench --batch $batches"
    "$z" nnbench --model "$model" --batch "$batches" --device "$device" \
      --precision "$precision" --seconds 0.3 --runs 2 2>&1 | grep -E '^ +[0-9]+ ' | tee -a "$log"
    for games in 1 8; do
      say "== round $round, $side: selfplay --games $games --threads 4 --plies ${PLIES:-80}"
      "$z" selfplay --games "$games" --threads 4 --nodes 800 --plies "${PLIES:-80}" \
        -o "device=$device" -o "precision=$precision" -o model="$model" 2>&1 |
        grep -E '^(nodes|batch fill|queue wait|capacity)' | tee -a "$log"
    done
  done
done
if [[ -n $out ]]; then cp "$log" "$out/gpu-ab.log"; fi
