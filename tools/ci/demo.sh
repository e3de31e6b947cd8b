#!/usr/bin/env bash
# The offline demo: starts the lichess emulator on a free loopback port, then `zhbot run`
# against it. The emulator challenges the bot from a simulated human (Fairy-Stockfish, no BOT
# title) as soon as the bot's event stream opens; the game is played in real time with the
# daemon's logs on the terminal, and the bot's PGN is printed at the end.
#   tools/ci/demo.sh <build-dir>
set -euo pipefail
build=${1:-build/default}
zhbot="$build/bot/zhbot"
launch="$build/tests/emulator/lichess-emulator-launch"  # starts the emulator, prints its port
[[ -x $zhbot ]] || { echo "demo: $zhbot is missing; run 'make build' first" >&2; exit 1; }
# The emulator is a test program: a build configured with -DZH_BUILD_TESTS=OFF has none.
if [[ ! -x $launch ]]; then
  if grep -qs '^ZH_BUILD_TESTS:BOOL=OFF$' "$build/CMakeCache.txt"; then
    echo "demo: the offline demo plays against the lichess emulator, which is built with the" \
      "tests, and $build was configured with -DZH_BUILD_TESTS=OFF. Set LICHESS_BOT_TOKEN to" \
      "play on lichess.org instead, or configure with -DZH_BUILD_TESTS=ON for the demo." >&2
  else
    echo "demo: $launch is missing; run 'make build' first" >&2
  fi
  exit 1
fi

run_dir="$build/demo-run"
rm -rf "$run_dir"
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)

# The emulator's own token: a local stand-in, not a lichess secret.
token=lip_emulator_token
opponent='{"type":"engine","skill":2,"movetime_ms":700,"delay_ms":300,"greeting":"Good luck, have fun!"}'
challenge="{\"user\":{\"name\":\"FairyHuman\",\"rating\":1650},\"limit_s\":120,\"increment_s\":2,\"rated\":false,\"opponent\":$opponent}"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# lichess's own keep-alive interval; the emulator lives until this script's end closes its input.
coproc EMULATOR { exec "$launch" --dir "$run_dir" --heartbeat-ms 6000 -- --token "$token" \
  --challenge "$challenge"; }
pids+=("$EMULATOR_PID")
read -r port <&"${EMULATOR[0]}" ||
  { echo "demo: the emulator did not start:" >&2; cat "$run_dir/emulator.log" >&2; exit 1; }
echo "demo: lichess emulator on http://127.0.0.1:$port (log: $run_dir/emulator.log)"

sed -e "s|DEMO_PORT|$port|" -e "s|DEMO_DIR|$run_dir|" config/demo.yaml >"$run_dir/demo.yaml"
LICHESS_BOT_TOKEN=$token "$zhbot" run --config "$run_dir/demo.yaml" &
pids+=($!)
bot_pid=$!

# Wait for the game to start and then to end, as the server sees it.
admin="http://127.0.0.1:$port/admin"
game=""
for _ in $(seq 300); do
  game=$(curl -fsS "$admin/games" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | sed -n 1p)
  [[ -n $game ]] && break
  kill -0 "$bot_pid" 2>/dev/null || { echo "demo: zhbot exited before the game began" >&2; exit 1; }
  sleep 0.2
done
[[ -n $game ]] || { echo "demo: no game started within 60 s" >&2; exit 1; }
echo "demo: game $game started; watch it live: curl -s $admin/games/$game"
while curl -fsS "$admin/games/$game" | grep -q '"status":"started"'; do
  kill -0 "$bot_pid" 2>/dev/null || { echo "demo: zhbot exited during the game" >&2; exit 1; }
  sleep 1
done

pgn="$run_dir/pgn/$game.pgn"
for _ in $(seq 50); do [[ -s $pgn ]] && break; sleep 0.1; done
kill -TERM "$bot_pid"
wait "$bot_pid" || true
echo
echo "demo: the game is over; zhbot's PGN ($pgn):"
echo
cat "$pgn" 2>/dev/null || { echo "demo: zhbot wrote no PGN; the server's record:"; curl -fsS "$admin/games/$game/pgn"; }
