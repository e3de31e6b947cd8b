#!/usr/bin/env bash
# A data question: for the same teacher budget and the same training, which makes the stronger
# network, labels from a deeper teacher search (NODES_B nodes a position) or more positions from
# a shallower one (NODES_A)?
#   1. two data sets: POSITIONS_B positions at NODES_B and POSITIONS_B x NODES_B / NODES_A at
#      NODES_A (the same teacher nodes), each with the CPU seconds it took (teacher processes
#      included); then the costlier set is cut, shard by shard in the order they were written,
#      to the other's CPU time, so both get the same teacher time (CPU time, not wall clock: a
#      wall-clock budget would be unfair on a machine that other work shares, and a node costs
#      more CPU in a shallow search, where every position pays the same fixed overhead);
#   2. the lab's test set: separate games labelled at TEST_NODES (neither teacher labels it);
#   3. one network on each set, same architecture, seed and number of training steps
#      (TRAIN_STEPS, by default 1.5 passes over the smaller set: the regime of a network trained
#      on the bulk data, which it sees about once);
#   4. both on the test set (agreement with the stronger teacher), and a match between them at
#      equal nodes a move, refereed by Fairy-Stockfish (tools/measure/strength).
# Everything lives in the lab (tools/lab/lab.sh); each step leaves a marker and is skipped when run
# again, so an interrupted run resumes (a data set cut off mid-way is made again from its seed).
# The 3 000 against 30 000 question (docs/history/models-log.md) ran an earlier form of this script, with
# 12 minutes of wall clock per set on a quiet machine and 10 minutes of training each.
# Usage: tools/lab/teacher_budget.sh [DIR]   (default LAB/teacher-budget-NODES_A-NODES_B)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
NODES_A=${NODES_A:-1000}
NODES_B=${NODES_B:-3000}
DIR=${1:-$ZHBOT_LAB/teacher-budget-$NODES_A-$NODES_B}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
WORKERS=${WORKERS:-2}
POSITIONS_B=${POSITIONS_B:-150000}
POSITIONS_A=$((POSITIONS_B * NODES_B / NODES_A))
TEST_NODES=${TEST_NODES:-100000}
TEST_GAMES=${TEST_GAMES:-40}
TEST_SET=${TEST_SET:-$ZHBOT_LAB/data/test-$TEST_NODES}
ARCH=${ARCH:-resnet-6x64}
BATCH=${BATCH:-512}
TRAIN_STEPS=${TRAIN_STEPS:-$((POSITIONS_B * 3 / 2 / BATCH))}
MATCH_GAMES=${MATCH_GAMES:-40}
MATCH_NODES=${MATCH_NODES:-400}
export OPENBLAS_NUM_THREADS=1
[[ -x "$ZHBOT" ]] || { echo "ZHBOT $ZHBOT: not built (make build)" >&2; exit 2; }
mkdir -p "$DIR" "$TEST_SET"
source tools/lab/steps.sh

generate() {  # generate NODES POSITIONS: the teacher's labels, with the CPU time they took
  rm -rf "$DIR/data-$1"
  /usr/bin/time -f "cpu_seconds %U %S wall_seconds %e" -o "$DIR/data-$1.time" \
    "$ZHBOT" datagen --out "$DIR/data-$1" --nodes "$1" --positions "$2" --workers "$WORKERS" \
    --seed "$1" --progress 60
}

test_set() {  # the same test set tools.lab.next_network measures networks on
  rm -rf "$TEST_SET/shards"
  "$ZHBOT" datagen --out "$TEST_SET/shards" --nodes "$TEST_NODES" --games "$TEST_GAMES" \
    --workers "$WORKERS" --seed "$TEST_NODES" --progress 60
}

# equal_cpu: DIR/train-data-N for each set: the set itself, or for the costlier one its first
# shards up to the other's CPU time.
equal_cpu() {
  rm -rf "$DIR"/train-data-*
  "$PYTHON" - "$DIR" "$NODES_A" "$NODES_B" <<'PY'
import glob, os, struct, sys
root, nodes = sys.argv[1], sys.argv[2:]
def cpu(n):
    words = open(os.path.join(root, "data-%s.time" % n)).read().split()
    return float(words[1]) + float(words[2])
budget = min(cpu(n) for n in nodes)
for n in nodes:
    shards = sorted(glob.glob(os.path.join(root, "data-%s" % n, "*.zhrec")))
    counts = [struct.unpack_from("<Q", open(f, "rb").read(24), 16)[0] for f in shards]
    keep = round(sum(counts) * budget / cpu(n))
    out = os.path.join(root, "train-data-%s" % n)
    os.makedirs(out, exist_ok=True)
    total = 0
    for f, c in zip(shards, counts):
        if total >= keep:
            break
        os.symlink(os.path.abspath(f), os.path.join(out, os.path.basename(f)))
        total += c
    print("%s nodes: %d of %d positions, %.0f of %.0f CPU seconds"
          % (n, total, sum(counts), cpu(n) * total / sum(counts), cpu(n)))
PY
}

step "data-$NODES_A" generate "$NODES_A" "$POSITIONS_A"
step "data-$NODES_B" generate "$NODES_B" "$POSITIONS_B"
step equal-cpu equal_cpu
DIR=$TEST_SET step test-set test_set

for nodes in "$NODES_A" "$NODES_B"; do
  step "train-$nodes" "$PYTHON" -m training.train --data "$DIR/train-data-$nodes" --out "$DIR/run-$nodes" \
    --arch "$ARCH" --batch-size "$BATCH" --lr 0.1 --max-steps "$TRAIN_STEPS" \
    --epoch-steps 100 --seed 1 --threads "$WORKERS"
  step "eval-$nodes" "$PYTHON" -m training.evaluate "$DIR/run-$nodes/best.ckpt" \
    --data "$TEST_SET/shards" --test-set --positions 0 --threads "$WORKERS"
  step "export-$nodes" "$PYTHON" -m training.export "$DIR/run-$nodes/best.ckpt" \
    "$DIR/net-$nodes.pt" --data "$DIR/train-data-$nodes" --zhbot "$ZHBOT" --check-positions 64 \
    --name "teacher-$nodes"
done

step match "$PYTHON" -m tools.measure.strength match --zhbot "$ZHBOT" \
  --a "zhbot:backend=torch,model=$DIR/net-$NODES_A.pt,nodes=$MATCH_NODES" \
  --b "zhbot:backend=torch,model=$DIR/net-$NODES_B.pt,nodes=$MATCH_NODES" \
  --games "$MATCH_GAMES" --out "$DIR/match.jsonl" --concurrency "$WORKERS"

for nodes in "$NODES_A" "$NODES_B"; do
  echo "== teacher at $nodes nodes: $("$PYTHON" -c 'import sys; from training import data
d = data.Dataset(sys.argv[1:]); print(len(d), "positions from", d.games, "games")' "$DIR/train-data-$nodes")," \
    "of $(cat "$DIR/data-$nodes.time")"
  grep -E '"(top1|top5|value_mse|value_sign_accuracy|positions)"' "$DIR/eval-$nodes.log"
done
tail -1 "$DIR/match.log"
