#!/usr/bin/env bash
# tools/measure/settings_check.sh at toy scale (under a minute): both suites with the defaults and one
# setting, that setting's refereed match, the report; run again, it redoes nothing.
# Usage: settings_check_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }

"$python" -m training.make_random_net "$work/toy.pt" --arch resnet-1x8 --seed 2
export ZHBOT_LAB=$work/lab ZHBOT=$zhbot PYTHON=$python MODEL=$work/toy.pt \
  SETTINGS="cpuct_init=3.5,virtual_loss=1" SUITE_NODES=30 MATCH_NODES=20 MATCH_GAMES=2 \
  MATCH_MAX_PLIES=60
bash "$root/tools/measure/settings_check.sh" > "$work/first.log" 2>&1 \
  || { cat "$work/first.log"; fail "the first run failed"; }
dir=$work/lab/settings-toy
for marker in suite-mate-default suite-defence-default suite-mate-cpuct_init=3.5,virtual_loss=1 \
    suite-defence-cpuct_init=3.5,virtual_loss=1 match-cpuct_init=3.5,virtual_loss=1; do
  [[ -e "$dir/$marker.done" ]] || fail "no $marker.done after a complete run"
done
# The setting reached the engine: the match's first game names it for the side measured.
first_game=$(head -1 "$dir/match-cpuct_init=3.5,virtual_loss=1.jsonl")
[[ "$first_game" == *'cpuct_init=3.5,virtual_loss=1'* ]] || fail "the match does not name the setting"
report=$(tail -2 "$work/first.log")
[[ "$report" =~ default:\ mate.epd:\ solved\ [0-9]+\ of\ 120.*defence.epd:\ solved ]] \
  || { cat "$work/first.log"; fail "no suite line for the defaults"; }
[[ "$report" =~ cpuct_init=3.5,virtual_loss=1:.*solved.*\|\ match:\ [0-9.]+%\ +Elo ]] \
  || { cat "$work/first.log"; fail "no suite and match line for the setting"; }

# Run again: every step is done before, the report is the same.
bash "$root/tools/measure/settings_check.sh" > "$work/second.log" 2>&1 \
  || { cat "$work/second.log"; fail "the second run failed"; }
skipped=$(grep -c ': done before$' "$work/second.log" || true)
[[ "$skipped" == 5 ]] || { cat "$work/second.log"; fail "the second run made a step again"; }
[[ "$(tail -2 "$work/second.log")" == "$report" ]] || fail "the second report differs"
echo "PASS"
