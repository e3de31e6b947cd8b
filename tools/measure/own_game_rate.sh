#!/usr/bin/env bash
# Labelled positions a second of `zhbot datagen --own-games` beside the teacher-only mode, in
# one run: the same games count, seed, workers and teacher budget (3 000 nodes, MultiPV 4),
# one after the other; prints both throughput lines and their ratio. Own games: the shipped
# network at ZHBOT_NODES a move against Fairy-Stockfish at SKILL_LEVELS. With RECORDED (a match
# record, one game a line), also `datagen --relabel` over its first GAMES games, the same way.
# Usage: tools/measure/own_game_rate.sh [GAMES] [SEED]   (env: ZHBOT, WORKERS, ZHBOT_NODES,
#        SKILL_LEVELS, RECORDED; run it quiet: tools/measure/quiet.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-8}
SEED=${2:-9001}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
WORKERS=${WORKERS:-2}
ZHBOT_NODES=${ZHBOT_NODES:-400}
SKILL_LEVELS=${SKILL_LEVELS:-5,10,15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(--games "$GAMES" --seed "$SEED" --workers "$WORKERS" --nodes 3000 --progress 600)
"$ZHBOT" datagen --out "$work/teacher" "${common[@]}" > "$work/teacher.log"
"$ZHBOT" datagen --out "$work/own" "${common[@]}" --own-games --zhbot-nodes "$ZHBOT_NODES" \
  --skill-levels "$SKILL_LEVELS" > "$work/own.log"
rate() { awk '/^throughput/ {print $2}' "$1"; }
summary() { grep -E '^(games|positions|time|throughput)' "$1" | tr '\n' ' '; }
teacher=$(rate "$work/teacher.log") own=$(rate "$work/own.log")
echo "teacher-only: $(summary "$work/teacher.log")"
echo "own games:    $(summary "$work/own.log")"
awk -v t="$teacher" -v o="$own" 'BEGIN {printf "own / teacher-only labelled positions/s: %.3f\n", o / t}'
if [[ -n ${RECORDED:-} ]]; then
  head -n "$GAMES" "$RECORDED" > "$work/recorded.jsonl"
  "$ZHBOT" datagen --out "$work/recorded" --relabel "$work/recorded.jsonl" --workers "$WORKERS" \
    --nodes 3000 --progress 600 > "$work/recorded.log"
  recorded=$(rate "$work/recorded.log")
  echo "relabelled:   $(summary "$work/recorded.log")"
  awk -v t="$teacher" -v r="$recorded" -v o="$own" 'BEGIN {
    printf "relabelled / teacher-only: %.3f, relabelled / own: %.1f\n", r / t, r / o}'
fi
