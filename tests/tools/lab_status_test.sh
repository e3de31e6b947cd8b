#!/usr/bin/env bash
# tools/lab/lab_status.sh on a toy lab (seconds): a good chunk is counted with the positions
# datagen wrote, a chunk marked done that fails its check (a damaged shard, another seed's games)
# is named and makes the status exit 1, a chunk under way (with its games and time left) and a
# missing one are listed as still to make, the seeds come out as ranges, the rest is costed at the
# pace of the last chunk made here, the gate's score is the new network's, a training under
# way is given its step, time left and last validation, and with no settings it is the recipe's.
# Usage: lab_status_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/lab/data/teacher-50" "$work/lab/toy-net"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
data=$work/lab/data/teacher-50 run=$work/lab/toy-net

make_chunk() {  # make_chunk SEED: a one-game chunk at 50 nodes, and datagen's report
  "$zhbot" datagen --out "$data/chunk-$1" --nodes 50 --games 1 --workers 1 --seed "$1" \
    > "$work/chunk-$1.out" 2>&1 || { cat "$work/chunk-$1.out"; fail "datagen of seed $1 failed"; }
}
# Seeds 7-12: 7 and 8 done and sound, 9 done with a damaged shard, 10 done with seed 7's games,
# 11 under way (a folder, no marker), 12 missing.
for seed in 7 8 9; do make_chunk "$seed" && touch "$data/chunk-$seed.done"; done
shard=$(find "$data/chunk-9" -name '*.zhrec' | head -1)
printf 'damaged' | dd of="$shard" bs=1 seek=0 conv=notrunc status=none
cp -r "$data/chunk-7" "$data/chunk-10" && touch "$data/chunk-10.done"
mkdir "$data/chunk-11"
# The logs the chunk step leaves: chunk-7 made here at 2 labelled positions a second, chunk-8 as
# if imported from the shared folder (its pace is not this machine's), chunk-11's progress so far.
echo "throughput   2.0 labelled positions/s; teacher alone 2.1 positions/s" > "$data/chunk-7.log"
echo "throughput   9.0 labelled positions/s; teacher alone 9.1 positions/s" > "$data/chunk-8.log"
touch "$data/chunk-8.source"
echo "datagen: 1200 positions (321.9/s), 19 games, 3 duplicates skipped, 0 games lost," \
  "elapsed 0h03m00s, ETA 0h06m46s" > "$data/chunk-11.log"
written() { sed -n 's/^positions *\([0-9]*\) written.*/\1/p' "$work/chunk-$1.out"; }
# The gate: two games of the new network (its model file is named after the run), a win with
# White and a draw with Black.
new="zhbot:model=$run/toy-net.pt,nodes=8" old="zhbot:model=models/zhbot-net-2.pt,nodes=8"
cat > "$run/gate.jsonl" <<EOF
{"game": 1, "white": "$new", "black": "$old", "result": "1-0", "reason": "checkmate"}
{"game": 2, "white": "$old", "black": "$new", "result": "1/2-1/2", "reason": "fivefold repetition"}
EOF
# A match file that names no player of this run (left by another one) is said so, not scored.
cat > "$run/match.jsonl" <<EOF
{"game": 1, "white": "$old", "black": "zhbot:model=models/other.pt", "result": "1-0", "reason": "checkmate"}
EOF

status() {
  ZHBOT_LAB=$work/lab NAME=toy-net SEED=7 CHUNKS=6 NODES=50 CHUNK_GAMES=1 PYTHON=$python \
    bash "$root/tools/lab/lab_status.sh" > "$work/status.out" 2>&1
}
if status; then cat "$work/status.out"; fail "chunks that fail their check passed"; fi
out=$work/status.out
grep -q "^chunk-7  done *$(written 7) positions from *1 of 1 games (made here)" "$out" \
  || { cat "$out"; fail "chunk-7 is not counted with its $(written 7) positions"; }
grep -q "^chunk-9  FAULT" "$out" || { cat "$out"; fail "the damaged chunk-9 is not named"; }
grep -q "^chunk-10  FAULT .*not among seed 10's first 1 games" "$out" \
  || { cat "$out"; fail "chunk-10, seed 7's games, is not named"; }
grep -q "^chunk-11  under way *0 shard(s) closed; 19 games so far, 0h06m46s left$" "$out" \
  || { cat "$out"; fail "chunk-11 is not given its log's games and time left"; }
total=$(($(written 7) + $(written 8)))
grep -q "^chunks done: 2 of 6 (7-8), $total positions from 2 games; still to make: 11-12$" \
  "$out" || { cat "$out"; fail "the totals and ranges are wrong"; }
grep -q "^2 chunk(s) marked done fail their check" "$out" || { cat "$out"; fail "no summary"; }
grep -q "^training: not started" "$out" || { cat "$out"; fail "training"; }
grep -q "^gate: under way, 2 games: 75.0 %, Elo +191" "$out" \
  || { cat "$out"; fail "the gate is not scored for the new network"; }
grep -q "^match: no player in $run/match.jsonl is toy-net.pt" "$out" \
  || { cat "$out"; fail "a match file of other networks is not said so"; }

# The faulty chunks removed (as the status's message says), it passes.
rm -rf "$data"/chunk-{9,10}{,.done}
status || { cat "$out"; fail "a sound lab failed its status"; }
grep -q "^chunks done: 2 of 6 (7-8), $total positions from 2 games; still to make: 9-12$" \
  "$out" || { cat "$out"; fail "the totals after the removal are wrong"; }
# The four chunks still to make, each the mean size of the two done, at chunk-7's pace (the
# shared chunk-8's is not this machine's).
rest=$((4 * (total / 2) / 2))
grep -q "^the rest: $((rest / 3600))h$(printf %02d $((rest % 3600 / 60)))m for 4 chunk(s) at chunk-7's 2.0 labelled positions/s$" \
  "$out" || { cat "$out"; fail "the rest's cost is not at the last chunk made here's pace"; }

# A training under way: its last progress line's step, speed and time left.
cat > "$run/train.log" <<EOF
resumed at step 235 of 25000
[..............................] step 236/25000  0 samples/s  loss 2.1054  ETA ?
[..............................] step 387/25000  403 samples/s  loss 1.9845  ETA 08:41:41
EOF
status || { cat "$out"; fail "a lab with a training under way failed its status"; }
grep -q "^training: step 387 of 25000, 403 samples/s, 08:41:41 left at that speed" "$out" \
  || { cat "$out"; fail "the training's step and time left are not its last progress line's"; }
grep -q "^held out" "$out" && { cat "$out"; fail "held-out figures before any validation"; }
echo "epoch 0.20 step 3000: policy top-1 0.3930 top-5 0.8011" >> "$run/train.log"
echo "[...] step 3010/25000  450 samples/s  loss 2.0 ETA 07:00:00" >> "$run/train.log"
status
grep -q "^held out so far: epoch 0.20 step 3000: policy top-1 0.3930" "$out" \
  || { cat "$out"; fail "the last validation's figures are not shown"; }
sed -i '3,$d' "$run/train.log"  # just resumed: no speed yet
status
grep -q "^training: step 236 of 25000, its speed not measured yet" "$out" \
  || { cat "$out"; fail "a training just resumed is given a speed"; }
# With no settings in the environment it reports on the next network's recipe
# (tools/lab/recipe.sh), the seeds lab_chunks.sh makes and a GPU server's session passes over.
unset NAME SEED CHUNKS NODES CHUNK_GAMES
read -r name chunks games nodes seed < <(cd "$root" &&
  bash -c 'source tools/lab/recipe.sh && echo "$NAME $CHUNKS $CHUNK_GAMES $NODES $SEED"')
ZHBOT_LAB=$work/lab PYTHON=$python bash "$root/tools/lab/lab_status.sh" > "$out" 2>&1 || true
expected="lab $work/lab: $name's $chunks chunks of $games games at $nodes nodes, seeds"
expected+=" $seed-$((seed + chunks - 1))"
grep -qxF "$expected" "$out" || { cat "$out"; fail "with no settings the status is not the recipe's"; }
echo "lab_status: OK"
