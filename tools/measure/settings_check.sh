#!/usr/bin/env bash
# A network's search settings, checked at fixed nodes in one resumable command (issue 29's
# "search settings re-checked with the new network"; docs/strength.md, "Search settings"):
#   1. both tactical suites (tools/measure/suites/) at SUITE_NODES a position, with the defaults and with
#      each setting of SETTINGS: a guard, since one changed setting seldom moves a suite by
#      more than its noise;
#   2. a colour-balanced match of each setting against the defaults at MATCH_NODES a move,
#      MATCH_GAMES games, refereed by Fairy-Stockfish (tools/measure/strength): what decides.
# Fixed nodes make both repeatable on any machine and let them run beside other work. They do
# not see speed: batch_size and virtual_loss also change the nodes a second, so a gain of
# theirs at fixed nodes still needs a timed match (tools/measure/quiet.sh) to count. Results
# and step markers (tools/lab/steps.sh) live in the lab: the same command goes on where it stopped.
# A setting is one or more zhbot options, comma-separated (cpuct_init=3.5,q_init=-0.5); the
# list is space-separated. MATCH_GAMES=0 runs the suites alone.
# Usage: tools/measure/settings_check.sh [DIR]   (default LAB/settings-<model file's name>)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
MODEL=${MODEL:-$(tools/lab/shipped_model.sh)}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
SETTINGS=${SETTINGS:-cpuct_init=3.5 cpuct_init=1.8 virtual_loss=1 batch_size=8 \
check_enhancement=false prior_temperature=1.3 fpu_relative=true}
SUITE_NODES=${SUITE_NODES:-2000}
MATCH_NODES=${MATCH_NODES:-1000}
MATCH_GAMES=${MATCH_GAMES:-40}
MATCH_TC=${MATCH_TC:-5+3}  # a clock that fixed-node moves never run short of
MATCH_MAX_PLIES=${MATCH_MAX_PLIES:-400}
MATCH_CONCURRENCY=${MATCH_CONCURRENCY:-1}
DIR=${1:-$ZHBOT_LAB/settings-$(basename "$MODEL" .pt)}
[[ -x "$ZHBOT" ]] || { echo "ZHBOT $ZHBOT: not built (make build)" >&2; exit 2; }
[[ -f "$MODEL" ]] || { echo "MODEL $MODEL: no such file" >&2; exit 2; }
MODEL=$(realpath "$MODEL")
mkdir -p "$DIR"
source tools/lab/steps.sh

suite() {  # suite NAME SETTING: one suite at SUITE_NODES with SETTING ("" = the defaults)
  local opts=(-o "model=$MODEL") setting
  IFS=, read -ra setting <<< "$2"
  for s in "${setting[@]}"; do opts+=(-o "$s"); done
  "$PYTHON" -m tools.measure.suites solve --suite "tools/measure/suites/$1.epd" --nodes "$SUITE_NODES" \
    --zhbot "$ZHBOT" "${opts[@]}" > "$DIR/suite-$1-${2:-default}.txt"
}

match() {  # match SETTING: SETTING against the defaults at MATCH_NODES a move
  local base="zhbot:model=$MODEL,nodes=$MATCH_NODES"
  "$PYTHON" -m tools.measure.strength match --zhbot "$ZHBOT" --a "$base,$1" --b "$base" \
    --games "$MATCH_GAMES" --tc "$MATCH_TC" --max-plies "$MATCH_MAX_PLIES" --concurrency "$MATCH_CONCURRENCY" \
    --out "$DIR/match-$1.jsonl"
}

for suite_name in mate defence; do
  step "suite-$suite_name-default" suite "$suite_name" ""
done
for setting in $SETTINGS; do
  for suite_name in mate defence; do
    step "suite-$suite_name-$setting" suite "$suite_name" "$setting"
  done
  [[ "$MATCH_GAMES" == 0 ]] || step "match-$setting" match "$setting"
done

echo "== $(basename "$MODEL"): suites at $SUITE_NODES nodes, matches at $MATCH_NODES nodes"
for setting in default $SETTINGS; do
  line="$setting:"
  for suite_name in mate defence; do
    line+=" $(head -1 "$DIR/suite-$suite_name-$setting.txt" | sed 's/ at .*//')"
  done
  [[ "$setting" == default || ! -e "$DIR/match-$setting.log" ]] \
    || line+=" | match: $(tail -1 "$DIR/match-$setting.log" | sed 's/.* \([0-9.]*% *Elo.*\]\).*/\1/')"
  echo "$line"
done
