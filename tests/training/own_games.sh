#!/usr/bin/env bash
# `zhbot datagen --own-games` end to end: zhbot (uniform backend) against real Fairy-Stockfish
# at two Skill Levels, labelled by the real teacher; the Python reader and the chunk check take
# the shards, every record is marked as an own-game position; bad options are refused by name.
# Then `--relabel`: recorded games' positions labelled the same way.
# Usage: own_games.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
"$zhbot" datagen --out "$work/own" --own-games --zhbot-option backend=uniform --zhbot-nodes 30 \
  --skill-levels 1,4 --opponent-nodes 100 --games 2 --workers 2 --nodes 100 --max-plies 30 \
  --seed 21 --progress 5
"$python" -m training.check_chunk "$work/own" --seed 21 --games 2
"$python" - "$work/own" <<'PY'
import sys
from training import records as rec
shards = [rec.Shard(p) for p in rec.list_shards(sys.argv[1:])]
flags = [int(f) for s in shards for f in s.records["flags"]]
assert flags and all(f & rec.FLAG_OWN_GAME for f in flags), "records without the own-game flag"
print("%d own-game records read" % len(flags))
PY
# Stopped from outside, datagen keeps what it wrote but fails with 128 + the signal, so that a
# pipeline which marks a chunk made when its command succeeds never takes a partial one.
"$zhbot" datagen --out "$work/stopped" --games 3000 --workers 1 --nodes 100 --max-plies 30 \
  --seed 22 --progress 1 > "$work/stopped.log" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do  # until it has started (its signal handlers are set by then)
  grep -q '^datagen: seed' "$work/stopped.log" && break
  sleep 0.1
done
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
[[ $rc == 143 ]] || { cat "$work/stopped.log"; echo "FAIL: SIGTERM: exit status $rc, not 143"; exit 1; }
grep -q "stopped by signal" "$work/stopped.log" || { echo "FAIL: no 'stopped by signal'"; exit 1; }
expect_refused() {  # expect_refused TEXT ARGS...: the command fails and says TEXT
  local text=$1; shift
  if "$zhbot" datagen --out "$work/bad" --games 1 "$@" > "$work/bad.log" 2>&1; then
    echo "FAIL: accepted: $*"; exit 1
  fi
  grep -q -- "$text" "$work/bad.log" || { cat "$work/bad.log"; echo "FAIL: no '$text'"; exit 1; }
}
expect_refused "own-games" --skill-levels 5
expect_refused "30 is not a Fairy-Stockfish Skill Level" --own-games --skill-levels 5,30
expect_refused "zhbot-nodes" --own-games --zhbot-nodes 0
expect_refused "no_such_option" --own-games --zhbot-option no_such_option=1
[[ ! -e "$work/bad" ]] || { echo "FAIL: a refused run touched its folder"; exit 1; }

# --relabel: the positions of recorded games (a match's records), labelled by the teacher; one
# line is not a game and is named, the rest are labelled; the Python reader takes the shards.
opening='rnbqkbnr/ppp1pppp/3p4/8/8/2N1P3/PPPP1PPP/R1BQKBNR[] b KQkq - 0 2'
{
  echo "{\"opening\": \"$opening\", \"moves\": \"g8f6 d2d4 c7c6\", \"result\": \"0-1\"}"
  echo '{"moves": "e2e4 e7e5 g1f3", "result": "1/2-1/2", "white": "zhbot", "black": "zhbot"}'
  echo '{"moves": "e2e5", "result": "1-0"}'
} > "$work/match.jsonl"
"$zhbot" datagen --relabel "$work/match.jsonl" --out "$work/relabelled" --nodes 100 \
  --workers 1 > "$work/relabel.log"
grep -q "2 games of 3 read; skipped 0 unfinished, 0 read before, 0 of another variant, 1 bad" \
  "$work/relabel.log" ||
  { cat "$work/relabel.log"; echo "FAIL: the recorded games were not counted"; exit 1; }
grep -q "match.jsonl:3: " "$work/relabel.log" || { echo "FAIL: the bad line is not named"; exit 1; }
"$python" - "$work/relabelled" <<'PY'
import sys
from training import records as rec
shards = [rec.Shard(p) for p in rec.list_shards(sys.argv[1:])]
r = [x for s in shards for x in s.records]
assert len(r) == 8, "%d records, not 4 + 4 positions" % len(r)
assert all(int(x["flags"]) & rec.FLAG_OWN_GAME for x in r), "records without the own-game flag"
assert sorted(int(x["result"]) for x in r) == [-1, -1, 0, 0, 0, 0, 1, 1], "results not the games'"
print("%d relabelled records read" % len(r))
PY
echo '{"moves": "e2e4", "result": "*"}' > "$work/unfinished.jsonl"
if "$zhbot" datagen --relabel "$work/unfinished.jsonl" --out "$work/bad" > "$work/bad.log" 2>&1; then
  echo "FAIL: a file without a finished game was accepted"; exit 1
fi
grep -q "no finished game" "$work/bad.log" || { cat "$work/bad.log"; echo "FAIL: no reason"; exit 1; }
[[ ! -e "$work/bad" ]] || { echo "FAIL: a refused run touched its folder"; exit 1; }
echo "own games: OK"
