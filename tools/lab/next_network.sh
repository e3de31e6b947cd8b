#!/usr/bin/env bash
# The next network in one resumable command, measured the way every shipped network is:
#   1. more teacher games at 3 000 nodes a position (NODES: at small scale 3 000 beat 30 000
#      and tied 1 000 at equal teacher time, but zhbot-net-3's 13 M positions at 1 000 nodes made
#      no better network than zhbot-net-2's 3.9 M at 3 000; docs/history/models-log.md), made in chunks
#      of CHUNK_GAMES games, each with its own seed (SEED + chunk number);
#   2. a network trained on BASE_DATA plus those chunks (plus EXTRA_DATA), for TRAIN_MINUTES
#      (the step count set from the first steps' speed), or for a fixed step count with
#      TRAIN_MINUTES=0 and --max-steps in TRAIN_OPTS (the same length on a loaded machine);
#      from scratch, or warm from a model file with --init-from in TRAIN_OPTS;
#   3. its held-out accuracy on BASE_DATA's held-out games (the split the shipped network is
#      measured on), and the shipped network's (PREVIOUS, the model file) on the same positions;
#   4. the TorchScript export, checked against zhbot's evaluator, and its int8 file
#      (training/quantize.py), checked the same way;
#   5. a colour-balanced match against the shipped network PREVIOUS at MATCH_TC, one core a
#      side, refereed by Fairy-Stockfish (tools/measure/strength), MATCH_CONCURRENCY games at once
#      (a game keeps one core busy: give each a core); first a gate of GATE_GAMES games at
#      GATE_NODES nodes a move (minutes, not an hour), and no timed match when the new network
#      scores under GATE_MIN there (zhbot-net-3 scored 41 % at 800 nodes; GATE_GAMES=0: no gate).
# Everything lives in the lab (tools/lab/lab.sh: $ZHBOT_LAB, default /var/tmp/zhbot-lab), outside
# the checkout: the teacher chunks in LAB/data/teacher-NODES (shared by every run that uses the
# same seeds, so a later network reuses them), the held-out test set in LAB/data/test-TEST_NODES,
# the run in DIR. A chunk that the shared folder holds ($ZHBOT_SHARED_DATA/teacher-NODES/
# chunk-SEED.tar.xz, tools/lab/lab.sh) is imported and checked instead of made; a damaged one is
# refused with its name and made from its seed. Every step leaves a marker (tools/lab/steps.sh) and
# is skipped when run again, so after an interruption (or a new checkout) the same command goes
# on: a data chunk cut off is taken up where it stopped, the training resumes from its last
# checkpoint, the match from its last finished game. A lab that is gone is made again from the
# seeds (and the shared folder).
# Shipping is then a decision, not a step (the end of training/README.md's lab section says how).
# DATA_ONLY=1 stops after the chunks and the test set: how the bulk of the data is made, a
# chunk at a time, whenever the machine is free (the chunks are then shared by every run).
# Usage: tools/lab/next_network.sh [DIR]   (default LAB/NAME; settings from the environment, the
# next network's from tools/lab/recipe.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
source tools/lab/recipe.sh  # NAME, NODES, CHUNK_GAMES, SEED, CHUNKS, TRAIN_MINUTES, TRAIN_OPTS
DIR=${1:-$ZHBOT_LAB/$NAME}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
WORKERS=${WORKERS:-2}
DATAGEN_OPTS=${DATAGEN_OPTS:-}
DATA_DIR=${DATA_DIR:-$ZHBOT_LAB/data/teacher-$NODES}
TEST_NODES=${TEST_NODES:-100000}
TEST_GAMES=${TEST_GAMES:-40}
TEST_SET=${TEST_SET:-$ZHBOT_LAB/data/test-$TEST_NODES}
BASE_DATA=${BASE_DATA:-$ZHBOT_LAB/data/starter}
EXTRA_DATA=${EXTRA_DATA:-}
ARCH=${ARCH:-resnet-6x64}
EVAL_POSITIONS=${EVAL_POSITIONS:-50000}
EVAL_PERMILLE=${EVAL_PERMILLE:-50}
PREVIOUS=${PREVIOUS:-$(tools/lab/shipped_model.sh)}
MATCH_GAMES=${MATCH_GAMES:-40}
MATCH_TC=${MATCH_TC:-1+1}
MATCH_MAX_PLIES=${MATCH_MAX_PLIES:-400}
MATCH_CONCURRENCY=${MATCH_CONCURRENCY:-1}
GATE_GAMES=${GATE_GAMES:-40}
GATE_NODES=${GATE_NODES:-800}
GATE_MIN=${GATE_MIN:-0.5}
export OPENBLAS_NUM_THREADS=1
[[ -x "$ZHBOT" ]] || { echo "ZHBOT $ZHBOT: not built (make build)" >&2; exit 2; }
[[ -f "$PREVIOUS" ]] || { echo "PREVIOUS $PREVIOUS: no such file" >&2; exit 2; }
# The starter set joins the training data when the lab has it or can import it
# ($ZHBOT_TEACHER_SET); without it the network learns from the lab's own chunks alone. A base
# set named explicitly must exist.
if [[ "$BASE_DATA" == "$ZHBOT_LAB/data/starter" ]]; then
  if ! lab_import_starter "$BASE_DATA"; then
    echo "no starter set (set ZHBOT_TEACHER_SET to import it): training on the lab's chunks only"
    BASE_DATA=
  fi
elif [[ -n "$BASE_DATA" && ! -d "$BASE_DATA" ]]; then
  echo "BASE_DATA $BASE_DATA: no such directory" >&2
  exit 2
fi
mkdir -p "$DIR" "$DATA_DIR" "$TEST_SET"
source tools/lab/steps.sh
exec 3>&1  # the terminal: a step's output goes to its log, a chunk's import verdict to both

chunk() {  # chunk SEED: CHUNK_GAMES teacher games from that seed; one cut off is taken up
  # A chunk of the shared folder (the same seed, node count and games, datagen's defaults) is
  # imported instead; a damaged one is refused with its name and made here from its seed.
  local attempt verdict archive=$ZHBOT_SHARED_DATA/teacher-$NODES/chunk-$1.tar.xz
  if [[ -f $archive && -z $DATAGEN_OPTS ]]; then
    if verdict=$(lab_import_chunk "$archive" "$DATA_DIR" "$1" "$CHUNK_GAMES" "$NODES"); then
      echo "$verdict" && echo "$verdict" >&3
      return 0
    fi
    verdict+="; chunk-$1 is made again from its seed"
    echo "$verdict" && echo "$verdict" >&3
    rm -rf "$DATA_DIR/chunk-$1"  # nothing of the damaged archive is taken up
  fi
  # Three tries: on a loaded machine a niced teacher can miss its start-up deadline, and a
  # night's bulk run should not stop on that. The first takes up what a run cut off left in the
  # folder (datagen plays only the games still missing: a chunk adds up across sessions); the
  # others start the chunk over, in case what was left is what fails.
  for attempt in 1 2 3; do
    [[ $attempt == 1 ]] || rm -rf "$DATA_DIR/chunk-$1"
    # shellcheck disable=SC2086  # DATAGEN_OPTS is a list of options
    "$ZHBOT" datagen --out "$DATA_DIR/chunk-$1" --nodes "$NODES" --games "$CHUNK_GAMES" \
      --workers "$WORKERS" --seed "$1" --progress 60 $DATAGEN_OPTS && return 0
    echo "chunk $1: try $attempt failed"
    sleep 30
  done
  return 1
}

test_set() {  # TEST_GAMES games labelled at TEST_NODES, from seeds no chunk uses
  rm -rf "$TEST_SET/shards"
  "$ZHBOT" datagen --out "$TEST_SET/shards" --nodes "$TEST_NODES" --games "$TEST_GAMES" \
    --workers "$WORKERS" --seed "$TEST_NODES" --progress 60
}

train() {  # from scratch, or from the last checkpoint of an interrupted attempt
  local resume=()
  [[ -e "$DIR/run/last.ckpt" ]] && resume=(--resume)
  # shellcheck disable=SC2086  # EXTRA_DATA and TRAIN_OPTS are lists
  "$PYTHON" -m training.train --data $BASE_DATA "${chunks[@]}" $EXTRA_DATA --out "$DIR/run" \
    --arch "$ARCH" --time-budget-minutes "$TRAIN_MINUTES" --threads "$WORKERS" $TRAIN_OPTS \
    "${resume[@]}"
}

evaluate() {  # evaluate NET OUT: held-out metrics as JSON, on the test set and on BASE_DATA's
  "$PYTHON" -m training.evaluate "$1" --data "$TEST_SET/shards" --test-set --positions 0 \
    --threads "$WORKERS" > "$2.test.tmp"
  mv "$2.test.tmp" "$2.test.json"
  [[ -n "$BASE_DATA" ]] || return 0
  "$PYTHON" -m training.evaluate "$1" --data "$BASE_DATA" --positions "$EVAL_POSITIONS" \
    --validation-permille "$EVAL_PERMILLE" --threads "$WORKERS" > "$2.tmp"
  mv "$2.tmp" "$2.json"
}

chunks=()
for ((i = 0; i < CHUNKS; i++)); do
  DIR=$DATA_DIR step "chunk-$((SEED + i))" chunk $((SEED + i))
  chunks+=("$DATA_DIR/chunk-$((SEED + i))")
done
DIR=$TEST_SET step test-set test_set
if [[ "${DATA_ONLY:-0}" == 1 ]]; then  # the bulk: only the chunks (and the test set) this time
  echo "== data only: $CHUNKS chunks of $CHUNK_GAMES games at $NODES nodes in $DATA_DIR"
  exit 0
fi
step train train
step eval evaluate "$DIR/run/best.ckpt" "$DIR/eval"
step eval-previous evaluate "$PREVIOUS" "$DIR/eval-previous"
step export "$PYTHON" -m training.export "$DIR/run/best.ckpt" "$DIR/$NAME.pt" \
  --data "${BASE_DATA:-${chunks[0]}}" --zhbot "$ZHBOT" --check-positions 256 --name "$NAME"
step quantize "$PYTHON" -m training.quantize "$DIR/$NAME.pt" "$DIR/$NAME-int8.pt" \
  --data "${BASE_DATA:-${chunks[0]}}" --zhbot "$ZHBOT"
# MATCH_GAMES=0 skips the match against PREVIOUS: an architecture trial is matched against the
# other trials instead (training/README.md, "Architecture trials").
match() {  # match GAMES OUT [SPEC OPTIONS] [--tc TC]: the new network against PREVIOUS
  "$PYTHON" -m tools.measure.strength match --zhbot "$ZHBOT" --a "zhbot:model=$DIR/$NAME.pt$3" \
    --b "zhbot:model=$PREVIOUS$3" --games "$1" --max-plies "$MATCH_MAX_PLIES" --out "$2" \
    --concurrency "$MATCH_CONCURRENCY" "${@:4}"
}
gate_passed() {  # the new network's score in the gate reaches GATE_MIN (it prints the score)
  "$PYTHON" -c 'import sys; from tools.measure.strength import runner, stats
r = runner.load_results(sys.argv[1]); score = stats.summarize(r, sys.argv[2])[1]
print("== gate: %s scored %.1f%% in %d games at %s nodes a move" % (sys.argv[3], 100 * score, len(r), sys.argv[4]))
sys.exit(0 if score >= float(sys.argv[5]) else 1)' "$DIR/gate.jsonl" "zhbot:model=$DIR/$NAME.pt$gate_spec" \
    "$NAME" "$GATE_NODES" "$GATE_MIN"
}
gate_spec=",nodes=$GATE_NODES"
if [[ "$MATCH_GAMES" != 0 && "$GATE_GAMES" != 0 ]]; then
  # A clock that fixed-node moves never run short of.
  step gate match "$GATE_GAMES" "$DIR/gate.jsonl" "$gate_spec" --tc 5+3
  gate_passed || { echo "== under GATE_MIN $GATE_MIN: no timed match (GATE_MIN=0 plays it)"; MATCH_GAMES=0; }
fi
[[ "$MATCH_GAMES" == 0 ]] || step match match "$MATCH_GAMES" "$DIR/match.jsonl" "" --tc "$MATCH_TC"

echo "== $NAME: $("$PYTHON" -c 'import sys; from training import data
d = data.Dataset(sys.argv[1:]); print(len(d), "new positions from", d.games, "games")' "${chunks[@]}")"
for f in eval.test eval eval-previous.test eval-previous; do
  [[ -e "$DIR/$f.json" ]] || continue
  summary=$("$PYTHON" -c 'import json, sys; m = json.load(open(sys.argv[1]))
pct = lambda x: "n/a" if x is None else "%.1f%%" % (100 * x)
print("top-1 %s, top-5 %s, value MSE %.3f, sign %s, mate-in-one %s (%d positions)" % (
    pct(m["top1"]), pct(m["top5"]), m["value_mse"], pct(m["value_sign_accuracy"]),
    pct(m["mate_in_one_top1"]), m["positions"]))' "$DIR/$f.json")
  echo "$f: $summary"
done
[[ ! -e "$DIR/match.done" ]] || tail -1 "$DIR/match.log"
