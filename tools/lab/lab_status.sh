#!/usr/bin/env bash
# Where the next network's run stands, in one screen for a session's note: each of the recipe's
# chunk seeds done, under way or missing, every chunk marked done checked again with
# training.check_chunk (its positions, its games, that they are its seed's), the totals and the
# seeds done as ranges, a chunk under way's games and time left, and the hours the chunks still
# to make cost at the pace of the last one made here; then the held-out test set, the training's
# step, the hours it has left and its last validation, the held-out top-1 of the new and the
# shipped network, the gate and the match. It only reads the lab, so it is safe beside the
# running jobs (a chunk under way is counted by its closed shards and its log's last line).
# Exits 1 when a chunk marked done fails its check (the line says why): training on it would
# waste hours; remove its folder and marker, and the chunk job makes it again from its seed.
# Settings (environment): the recipe's (tools/lab/recipe.sh: NAME, SEED, CHUNKS, NODES,
# CHUNK_GAMES), TEST_NODES (100000), PYTHON.
# Usage: tools/lab/lab_status.sh [DIR]   (the run's folder; default LAB/NAME)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
source tools/lab/recipe.sh
TEST_NODES=${TEST_NODES:-100000}
PYTHON=${PYTHON:-/usr/bin/python3}
DIR=${1:-$ZHBOT_LAB/$NAME}
DATA_DIR=$ZHBOT_LAB/data/teacher-$NODES
export OPENBLAS_NUM_THREADS=1

ranges() {  # the seeds of the arguments (ascending) as "a-b, c" ranges
  local out="" first="" last="" s
  for s in "$@" ""; do
    if [[ -n $first && $s == $((last + 1)) ]]; then last=$s; continue; fi
    [[ -z $first ]] || out+="${out:+, }$first$([[ $first == "$last" ]] || echo "-$last")"
    first=$s last=$s
  done
  echo "${out:-none}"
}

echo "lab $ZHBOT_LAB: $NAME's $CHUNKS chunks of $CHUNK_GAMES games at $NODES nodes, seeds" \
  "$SEED-$((SEED + CHUNKS - 1))"
done_seeds=() missing=() faults=0 positions=0 games=0
for ((seed = SEED; seed < SEED + CHUNKS; seed++)); do
  chunk=$DATA_DIR/chunk-$seed
  if [[ -e $chunk.done ]]; then
    if verdict=$("$PYTHON" -m training.check_chunk "$chunk" --seed "$seed" \
      --games "$CHUNK_GAMES" 2>&1); then
      read -r p g < <(sed -n 's/.*: \([0-9]*\) positions from \([0-9]*\) of .*/\1 \2/p' \
        <<< "$verdict")
      positions=$((positions + p)) games=$((games + g))
      done_seeds+=("$seed")
      printf 'chunk-%s  done         %7d positions from %4d of %d games (%s)\n' "$seed" "$p" \
        "$g" "$CHUNK_GAMES" \
        "$([[ -e $chunk.source ]] && echo "the shared folder" || echo "made here")"
    else
      faults=$((faults + 1))
      echo "chunk-$seed  FAULT        ${verdict##*$'\n'}"
    fi
  elif [[ -d $chunk ]]; then
    shards=$(find "$chunk" -maxdepth 1 -name '*.zhrec' | wc -l)
    # datagen's last progress line: "datagen: 57955 positions (...), 921 games, ... ETA 0h06m46s"
    progress=$(sed -n 's/^datagen: .*, \([0-9]*\) games, .*ETA \(.*\)/; \1 games so far, \2 left/p' \
      "$chunk.log" 2>/dev/null | tail -1 || true)
    echo "chunk-$seed  under way    $shards shard(s) closed$progress"
    missing+=("$seed")
  else
    missing+=("$seed")
  fi
done
echo "chunks done: ${#done_seeds[@]} of $CHUNKS ($(ranges "${done_seeds[@]}")), $positions" \
  "positions from $games games; still to make: $(ranges "${missing[@]}")"
# What the rest costs: the chunks still to make at the labelling pace of the last chunk made here
# (datagen's "throughput" line in its log; a pace, not a duration, so a chunk resumed across
# sessions counts right), each the size of the chunks done.
pace="" pace_seed=""
for ((i = ${#done_seeds[@]} - 1; i >= 0 && ${#pace} == 0; i--)); do  # the newest first
  pace_seed=${done_seeds[i]}
  [[ -e $DATA_DIR/chunk-$pace_seed.source ]] && continue
  pace=$(sed -n 's/^throughput *\([0-9.]*\) labelled positions\/s.*/\1/p' \
    "$DATA_DIR/chunk-$pace_seed.log" 2>/dev/null | tail -1 || true)
done
if [[ -n $pace && ${#missing[@]} -gt 0 ]]; then
  echo "the rest: $(awk -v n="${#missing[@]}" -v per="$((positions / ${#done_seeds[@]}))" \
    -v pace="$pace" 'BEGIN { s = n * per / pace; printf "%dh%02dm", s / 3600, s % 3600 / 60 }')" \
    "for ${#missing[@]} chunk(s) at chunk-$pace_seed's $pace labelled positions/s"
fi

test_set=$ZHBOT_LAB/data/test-$TEST_NODES
if [[ -e $test_set/test-set.done ]]; then
  echo "test set: $("$PYTHON" -c 'import sys; from training import data
print(len(data.Dataset([sys.argv[1]])), "positions at", sys.argv[2], "nodes")' \
    "$test_set/shards" "$TEST_NODES")"
else
  echo "test set: not made yet"
fi

if [[ -e $DIR/train.done ]]; then
  echo "training: done; $(grep '^epoch' "$DIR/train.log" | tail -1)"
elif [[ -e $DIR/train.log ]]; then
  # The last progress line: "[###...] step 387/25000  403 samples/s  loss 1.9845  ETA 08:41:41"
  # (the ETA at that line's speed, so the hours a session's note can promise).
  echo "training: $(grep -o 'step [0-9]*/[0-9]* *[0-9]* samples/s.*ETA .*' "$DIR/train.log" |
    tail -1 | sed 's|step \([0-9]*\)/\([0-9]*\) *\([0-9]*\) samples/s.*ETA \(.*\)|step \1 of \2, \3 samples/s, \4 left at that speed|; s|, 0 samples/s, ? left at that speed|, its speed not measured yet|') (resumes from $DIR/run/last.ckpt)"
  # The held-out figures of the last validation so far (every --epoch-steps steps).
  last_epoch=$(grep '^epoch' "$DIR/train.log" | tail -1 || true)
  [[ -z $last_epoch ]] || echo "held out so far: $last_epoch"
else
  echo "training: not started"
fi
for f in eval eval-previous; do
  [[ -e $DIR/$f.test.json ]] || continue
  "$PYTHON" -c 'import json, sys; m = json.load(open(sys.argv[1]))
print("%s: top-1 %.1f %% on the test set (%d positions)" % (sys.argv[2], 100 * m["top1"], m["positions"]))' \
    "$DIR/$f.test.json" "$([[ $f == eval ]] && echo "$NAME" || echo "the shipped network")"
done
for f in gate match; do
  [[ -s $DIR/$f.jsonl ]] || continue
  "$PYTHON" -c 'import sys; from tools.measure.strength import runner, stats as s
r = runner.load_results(sys.argv[1]); new = [x for x in {g["white"] for g in r} | {g["black"] for g in r}
                                        if "/%s.pt" % sys.argv[2] in x]
if not new:
    print("%s: no player in %s is %s.pt" % (sys.argv[3], sys.argv[1], sys.argv[2])); sys.exit()
n, score, elo, low, high, _ = s.summarize(r, new[0])
print("%s: %s, %d games: %.1f %%, Elo %+.0f [%+.0f, %+.0f], illegal / time / crash %d / %d / %d"
      % ((sys.argv[3], sys.argv[4], n, 100 * score, elo, low, high) + s.failure_counts(r, new[0])))' \
    "$DIR/$f.jsonl" "$NAME" "$f" "$([[ -e $DIR/$f.done ]] && echo "done" || echo "under way")"
done
[[ $faults == 0 ]] || { echo "$faults chunk(s) marked done fail their check" >&2; exit 1; }
