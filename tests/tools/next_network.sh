#!/usr/bin/env bash
# tools/lab/next_network.sh at toy scale (about a minute): every step runs for real (teacher games,
# training, held-out metrics, export and int8 file checked against zhbot, a refereed match
# against the previous network), and an interrupted run goes on where it stopped instead of
# starting over.
# Usage: next_network.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }

# The base set and the previous network, both toys.
"$zhbot" datagen --out "$work/base" --games 2 --workers 2 --nodes 50 --max-plies 40 --seed 3 \
  --progress 5 > "$work/base.log"
"$python" -m training.make_random_net "$work/previous.pt" --arch resnet-1x8 --seed 2

# The lab does not exist yet: the first run makes it.
lab=$work/lab
export ZHBOT_LAB=$lab ZHBOT=$zhbot PYTHON=$python BASE_DATA=$work/base PREVIOUS=$work/previous.pt \
  NAME=toy-next CHUNKS=2 CHUNK_GAMES=1 NODES=50 SEED=7 DATAGEN_OPTS="--max-plies 30" \
  TEST_NODES=60 TEST_GAMES=1 \
  ARCH=resnet-1x8 TRAIN_MINUTES=0.01 \
  TRAIN_OPTS="--batch-size 16 --validation-permille 500 --epoch-steps 10 --seed 1" \
  EVAL_POSITIONS=0 EVAL_PERMILLE=500 MATCH_GAMES=2 MATCH_TC=0.05+0.05 MATCH_MAX_PLIES=60 WORKERS=1 \
  GATE_GAMES=2 GATE_NODES=20 GATE_MIN=0
dir=$work/next
bash "$root/tools/lab/next_network.sh" "$dir" > "$work/first.log" 2>&1 \
  || { cat "$work/first.log"; fail "the first run failed"; }
for marker in train eval eval-previous export quantize gate match; do
  [[ -e "$dir/$marker.done" ]] || fail "no $marker.done after a complete run"
done
# The teacher data and the test set are the lab's, kept apart from the run that made them.
data=$lab/data/teacher-50
for marker in $data/chunk-7 $data/chunk-8 $lab/data/test-60/test-set; do
  [[ -e "$marker.done" ]] || fail "no $marker.done after a complete run"
done
ls "$data/chunk-8"/*.zhrec "$lab/data/test-60/shards"/*.zhrec > /dev/null
[[ -f "$dir/toy-next.pt" ]] || fail "no exported network"
[[ -f "$dir/toy-next-int8.pt" ]] || fail "no int8 file of the exported network"
[[ $(wc -l < "$dir/match.jsonl") == 2 ]] || fail "the match did not play 2 games"
[[ $(grep -c ',nodes=20"' "$dir/gate.jsonl") == 2 ]] || fail "the gate did not play 2 games at 20 nodes"
# Both networks are measured on the test set and on the base set's held-out games; the previous
# one from its model file (no checkpoint of it is needed), each time on the same positions as
# the new one.
positions_of() { grep "^$1: top-1" "$work/first.log" | grep -o "([0-9]* positions)"; }
for set in eval.test eval; do
  previous=${set/eval/eval-previous}
  new_positions=$(positions_of "$set") old_positions=$(positions_of "$previous")
  [[ -n "$new_positions" && "$new_positions" != "(0 positions)" ]] || fail "no $set summary"
  [[ "$new_positions" == "$old_positions" ]] \
    || fail "$set: the networks were measured on different positions: $new_positions, $old_positions"
done

# An interruption during training and during the match: the next run resumes both and remakes
# neither the data nor the finished games.
rm "$dir"/{train,eval,export,match}.done
head -1 "$dir/match.jsonl" > "$dir/match.jsonl.1" && mv "$dir/match.jsonl.1" "$dir/match.jsonl"
first_game=$(head -1 "$dir/match.jsonl")
chunk_before=$(stat -c %Y "$data"/chunk-7/*.zhrec | sort | tail -1)
bash "$root/tools/lab/next_network.sh" "$dir" > "$work/second.log" 2>&1 \
  || { cat "$work/second.log"; fail "the resumed run failed"; }
grep -q "chunk-7: done before" "$work/second.log" || fail "chunk-7 was made again"
grep -q "test-set: done before" "$work/second.log" || fail "the test set was made again"
[[ $(stat -c %Y "$data"/chunk-7/*.zhrec | sort | tail -1) == "$chunk_before" ]] \
  || fail "chunk-7's shards were rewritten"
grep -q "resumed at step" "$dir/train.log" || fail "training did not resume from its checkpoint"
[[ $(wc -l < "$dir/match.jsonl") == 2 ]] || fail "the resumed match does not hold 2 games"
[[ $(head -1 "$dir/match.jsonl") == "$first_game" ]] || fail "the finished game was replayed"

# A network under GATE_MIN in the gate gets no timed match (no score reaches 2).
rm "$dir/match.done" "$dir/match.jsonl"
GATE_MIN=2 bash "$root/tools/lab/next_network.sh" "$dir" > "$work/gated.log" 2>&1 \
  || { cat "$work/gated.log"; fail "the gated run failed"; }
grep -q "^== gate: toy-next scored .* in 2 games at 20 nodes a move" "$work/gated.log" \
  || { cat "$work/gated.log"; fail "no gate score"; }
grep -q "no timed match" "$work/gated.log" || fail "the gate did not stop the timed match"
[[ ! -e "$dir/match.done" && ! -e "$dir/match.jsonl" ]] || fail "a match was played past the gate"

# DATA_ONLY: one more chunk for the lab, and nothing trained.
DATA_ONLY=1 CHUNKS=3 bash "$root/tools/lab/next_network.sh" "$work/bulk" > "$work/bulk.log" 2>&1 \
  || { cat "$work/bulk.log"; fail "the data-only run failed"; }
[[ -e "$data/chunk-9.done" ]] || fail "DATA_ONLY did not make the third chunk"
grep -q "chunk-7: done before" "$work/bulk.log" || fail "DATA_ONLY made chunk-7 again"
[[ ! -e "$work/bulk/train.done" && ! -e "$work/bulk/run" ]] || fail "DATA_ONLY trained a network"

# A missing base set is named, before any work.
if BASE_DATA=$work/nowhere bash "$root/tools/lab/next_network.sh" "$work/other" > "$work/bad.log" 2>&1; then
  fail "a missing BASE_DATA was accepted"
fi
grep -q "BASE_DATA .*nowhere: no such directory" "$work/bad.log" || { cat "$work/bad.log"; fail "unclear error"; }
[[ ! -e "$work/other" ]] || fail "a failed start left $work/other"
# A starter-set folder without the set is named, and nothing is marked imported.
mkdir -p "$work/no-set"
if ZHBOT_TEACHER_SET=$work/no-set BASE_DATA=$lab/data/starter \
  bash "$root/tools/lab/next_network.sh" "$work/other" > "$work/no-set.log" 2>&1; then
  fail "a starter-set folder without the set was accepted"
fi
grep -q "ZHBOT_TEACHER_SET .*no-set: no \*.jsonl.gz files there" "$work/no-set.log" \
  || { cat "$work/no-set.log"; fail "unclear error for an empty ZHBOT_TEACHER_SET"; }
[[ ! -e "$lab/data/starter/.imported" ]] || fail "an empty starter set was marked imported"
echo "next_network: OK"
