#!/usr/bin/env bash
# The whole GPU check in one call of the GPU machine (a lent machine is held for minutes, and each
# start costs one): the measuring stages of tools/gpu_check.sh first, on an otherwise idle machine,
# then, until SESSION_SECONDS have passed since the start, teacher chunks on all cores but two
# while a larger network trains on the GPU beside them. Everything worth keeping lands in OUT_DIR:
# the report, the packed chunks (chunk-SEED.tar.xz), the build log if the build fails.
#
#   tools/gpu_check.sh prepare                         here first (CARRY_DATA: shards to train on)
#   tools/gpu_session.sh OUT_DIR                       there, within the call's limit
#
# Settings (environment), besides gpu_check.sh's own: SESSION_SECONDS (540), SEEDS (the chunks'
# seeds; default gpu_check.sh's), TRAIN_MINUTES (3).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/gpu_session.sh OUT_DIR}
export OUT_DIR=$out DIR=${DIR:-build/gpu-check} CARRY=${CARRY:-build/gpu-carry}
budget=${SESSION_SECONDS:-540}
check() { bash tools/gpu_check.sh "$@"; }

check build facts || { cp "$DIR/build.log" "$out/" 2>/dev/null || true; exit 1; }
# A shorter grid than the script's own: the call must leave time for the data.
BATCHES=${BATCHES:-1,8,32,128,512,1024} NNBENCH_OPTS=${NNBENCH_OPTS:---seconds 0.3 --runs 2} \
  check nnbench || echo "gpu_session: nnbench failed"
SEARCH_NODES=${SEARCH_NODES:-50000} check search || echo "gpu_session: search failed"
check games || echo "gpu_session: games failed"

# The rest of the call: training (the GPU and a core or two) beside the teacher games.
left=$((budget - SECONDS))
if ((left > 90)); then
  OUT_DIR='' TRAIN_DATA=${TRAIN_DATA:-$CARRY/data} TRAIN_MINUTES=${TRAIN_MINUTES:-3} \
    check train >"$DIR/train-stage.log" 2>&1 &
  trainer=$!
  WORKERS=${WORKERS:-$(($(nproc) > 4 ? $(nproc) - 2 : 2))} DATAGEN_SEEDS=${SEEDS:-} \
    DATAGEN_MINUTES=$(awk -v s="$left" 'BEGIN { printf "%.2f", (s - 20) / 60 }') \
    check datagen || echo "gpu_session: datagen failed"
  wait "$trainer" || { echo "gpu_session: train failed"; tail -20 "$DIR/train-stage.log"; }
fi
check report
