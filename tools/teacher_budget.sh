#!/usr/bin/env bash
# The data question: for the same teacher time and the same training time, which makes the
# stronger network, a stronger teacher (10x the nodes a position, a tenth of the positions) or
# more data (the starter set's budget)?
#   1. two data sets, each from GEN_MINUTES of WORKERS teacher processes: 3 000 and 30 000 nodes;
#   2. a test set from separate games labelled at 100 000 nodes (neither network trains on it);
#   3. one network on each set, same architecture, seed and TRAIN_MINUTES;
#   4. both on the test set (agreement with the stronger teacher), and a match between them at
#      equal nodes a move, refereed by Fairy-Stockfish (tools/strength.py).
# Each step leaves a marker and is skipped when run again, so an interrupted run resumes (a data
# set cut off mid-way is made again, to keep its time budget exact).
# Usage: tools/teacher_budget.sh [DIR]   (default build/teacher-budget)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-build/teacher-budget}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
WORKERS=${WORKERS:-2}
GEN_MINUTES=${GEN_MINUTES:-12}
TRAIN_MINUTES=${TRAIN_MINUTES:-10}
ARCH=${ARCH:-resnet-6x64}
MATCH_GAMES=${MATCH_GAMES:-40}
MATCH_NODES=${MATCH_NODES:-400}
export OPENBLAS_NUM_THREADS=1
mkdir -p "$DIR"

source tools/steps.sh

generate() {  # generate NODES: GEN_MINUTES of teacher games; SIGTERM stops datagen cleanly
  rm -rf "$DIR/data-$1"
  local rc=0
  timeout --signal=TERM "${GEN_MINUTES}m" "$ZHBOT" datagen --out "$DIR/data-$1" --nodes "$1" \
    --workers "$WORKERS" --seed "$1" --shard-records 1000 --progress 60 || rc=$?
  [[ $rc == 0 || $rc == 124 ]]
}

for nodes in 3000 30000; do
  step "data-$nodes" generate "$nodes"
done
step test-set "$ZHBOT" datagen --out "$DIR/test-100000" --nodes 100000 \
  --games "${TEST_GAMES:-40}" --workers "$WORKERS" --seed 100000

for nodes in 3000 30000; do
  step "train-$nodes" "$PYTHON" -m training.train --data "$DIR/data-$nodes" --out "$DIR/run-$nodes" \
    --arch "$ARCH" --batch-size 512 --lr 0.1 --time-budget-minutes "$TRAIN_MINUTES" \
    --epoch-steps 100 --seed 1 --threads "$WORKERS"
  step "eval-$nodes" "$PYTHON" -m training.evaluate "$DIR/run-$nodes/best.ckpt" \
    --data "$DIR/test-100000" --test-set --positions 0 --threads "$WORKERS"
  step "export-$nodes" "$PYTHON" -m training.export "$DIR/run-$nodes/best.ckpt" \
    "$DIR/net-$nodes.pt" --data "$DIR/data-$nodes" --zhbot "$ZHBOT" --check-positions 64 \
    --name "teacher-$nodes"
done

step match "$PYTHON" tools/strength.py match --zhbot "$ZHBOT" \
  --a "zhbot:backend=torch,model=$DIR/net-30000.pt,nodes=$MATCH_NODES" \
  --b "zhbot:backend=torch,model=$DIR/net-3000.pt,nodes=$MATCH_NODES" \
  --games "$MATCH_GAMES" --out "$DIR/match.jsonl"

for nodes in 3000 30000; do
  echo "== teacher at $nodes nodes: $("$PYTHON" -c 'import sys; from training import data
d = data.Dataset(sys.argv[1:]); print(len(d), "positions from", d.games, "games")' "$DIR/data-$nodes")"
  grep -E '"(top1|top5|value_mse|value_sign_accuracy|positions)"' "$DIR/eval-$nodes.log"
done
tail -1 "$DIR/match.log"
