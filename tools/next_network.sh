#!/usr/bin/env bash
# The next network in one resumable command, measured the way every shipped network is:
#   1. more teacher games at the starter set's budget (3 000 nodes: at equal teacher and training
#      time, more data beat a stronger teacher; models/README.md, "The data question"), made in
#      chunks of CHUNK_GAMES games, each with its own seed (SEED + chunk number);
#   2. a network trained from scratch on BASE_DATA plus those chunks (plus EXTRA_DATA), for
#      TRAIN_MINUTES;
#   3. its held-out accuracy on BASE_DATA's held-out games (the split the shipped network is
#      measured on), and the shipped network's (PREVIOUS, the model file) on the same positions;
#   4. the TorchScript export, checked against zhbot's evaluator;
#   5. a colour-balanced match against the shipped network PREVIOUS at MATCH_TC, one core a
#      side, refereed by Fairy-Stockfish (tools/strength.py), MATCH_CONCURRENCY games at once
#      (a game keeps one core busy: give each a core).
# Every step leaves a marker (tools/steps.sh) and is skipped when run again, so after an
# interruption the same command goes on: a data chunk cut off is made again from its seed, the
# training resumes from its last checkpoint, the match from its last finished game.
# Shipping is then a decision, not a step: copy DIR/NAME.pt to models/ and update the card.
# Usage: tools/next_network.sh [DIR]   (default build/next-network; settings from the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-build/next-network}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
NAME=${NAME:-zhbot-net-3}
WORKERS=${WORKERS:-2}
CHUNKS=${CHUNKS:-10}
CHUNK_GAMES=${CHUNK_GAMES:-3000}
NODES=${NODES:-3000}
SEED=${SEED:-20010}
DATAGEN_OPTS=${DATAGEN_OPTS:-}
BASE_DATA=${BASE_DATA:-build/data/starter}
EXTRA_DATA=${EXTRA_DATA:-}
ARCH=${ARCH:-resnet-6x64}
TRAIN_MINUTES=${TRAIN_MINUTES:-240}
TRAIN_OPTS=${TRAIN_OPTS:---batch-size 512 --lr 0.1 --epoch-steps 1500 --seed 1}
EVAL_POSITIONS=${EVAL_POSITIONS:-50000}
EVAL_PERMILLE=${EVAL_PERMILLE:-50}
PREVIOUS=${PREVIOUS:-models/zhbot-net-2.pt}
MATCH_GAMES=${MATCH_GAMES:-40}
MATCH_TC=${MATCH_TC:-1+1}
MATCH_MAX_PLIES=${MATCH_MAX_PLIES:-400}
MATCH_CONCURRENCY=${MATCH_CONCURRENCY:-1}
export OPENBLAS_NUM_THREADS=1
[[ -d "$BASE_DATA" ]] || { echo "BASE_DATA $BASE_DATA: no such directory (training/README.md, section 1, imports the starter set)" >&2; exit 2; }
[[ -f "$PREVIOUS" ]] || { echo "PREVIOUS $PREVIOUS: no such file" >&2; exit 2; }
mkdir -p "$DIR"
source tools/steps.sh

chunk() {  # chunk I: CHUNK_GAMES teacher games from seed SEED+I; one cut off is made again
  rm -rf "$DIR/data/chunk-$1"
  # shellcheck disable=SC2086  # DATAGEN_OPTS is a list of options
  "$ZHBOT" datagen --out "$DIR/data/chunk-$1" --nodes "$NODES" --games "$CHUNK_GAMES" \
    --workers "$WORKERS" --seed $((SEED + $1)) --progress 60 $DATAGEN_OPTS
}

train() {  # from scratch, or from the last checkpoint of an interrupted attempt
  local resume=()
  [[ -e "$DIR/run/last.ckpt" ]] && resume=(--resume)
  # shellcheck disable=SC2086  # EXTRA_DATA and TRAIN_OPTS are lists
  "$PYTHON" -m training.train --data "$BASE_DATA" "$DIR/data" $EXTRA_DATA --out "$DIR/run" \
    --arch "$ARCH" --time-budget-minutes "$TRAIN_MINUTES" --threads "$WORKERS" $TRAIN_OPTS \
    "${resume[@]}"
}

evaluate() {  # evaluate NET OUT: held-out metrics on BASE_DATA's held-out games, as JSON
  "$PYTHON" -m training.evaluate "$1" --data "$BASE_DATA" --positions "$EVAL_POSITIONS" \
    --validation-permille "$EVAL_PERMILLE" --threads "$WORKERS" > "$2.tmp"
  mv "$2.tmp" "$2"
}

for ((i = 0; i < CHUNKS; i++)); do
  step "chunk-$i" chunk "$i"
done
step train train
step eval evaluate "$DIR/run/best.ckpt" "$DIR/eval.json"
step eval-previous evaluate "$PREVIOUS" "$DIR/eval-previous.json"
step export "$PYTHON" -m training.export "$DIR/run/best.ckpt" "$DIR/$NAME.pt" \
  --data "$BASE_DATA" --zhbot "$ZHBOT" --check-positions 256 --name "$NAME"
step match "$PYTHON" tools/strength.py match --zhbot "$ZHBOT" \
  --a "zhbot:model=$DIR/$NAME.pt" --b "zhbot:model=$PREVIOUS" \
  --games "$MATCH_GAMES" --tc "$MATCH_TC" --max-plies "$MATCH_MAX_PLIES" --out "$DIR/match.jsonl" \
  --concurrency "$MATCH_CONCURRENCY"

echo "== $NAME: $("$PYTHON" -c 'import sys; from training import data
d = data.Dataset(sys.argv[1:]); print(len(d), "new positions from", d.games, "games")' "$DIR/data")"
for f in eval eval-previous; do
  [[ -e "$DIR/$f.json" ]] || continue
  summary=$("$PYTHON" -c 'import json, sys; m = json.load(open(sys.argv[1]))
pct = lambda x: "n/a" if x is None else "%.1f%%" % (100 * x)
print("top-1 %s, top-5 %s, value MSE %.3f, sign %s, mate-in-one %s (%d positions)" % (
    pct(m["top1"]), pct(m["top5"]), m["value_mse"], pct(m["value_sign_accuracy"]),
    pct(m["mate_in_one_top1"]), m["positions"]))' "$DIR/$f.json")
  echo "$f: $summary"
done
tail -1 "$DIR/match.log"
