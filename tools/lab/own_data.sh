#!/usr/bin/env bash
# Experiment (a)'s own-game positions in the background (models/README.md, "Experiment (a)"):
# zhbot (the shipped network, 400 nodes a move) against Fairy-Stockfish at Skill Levels 5, 10
# and 15, every position labelled by the teacher at 3 000 nodes: the held-out own-game set (200
# games, seed 30099), and with `--chunk` chunk 30000 (3 000 games) after it. The training share
# of own positions comes from the SPRT queue's recorded games first (LAB/data/recorded-3000):
# relabelled at 131.5 positions a second against 16.5 for these games (training/README.md, "Own
# games"), so the chunk waits for a machine with cores to spare. Niced 19 with its whole session,
# as tools/lab/lab_chunks.sh is; a run cut off is taken up by the same command (datagen's take-up).
#   setsid nohup tools/lab/own_data.sh [--chunk] > LAB/own-data.out 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
echo 19 > "/proc/$$/autogroup" 2>/dev/null || echo "own_data: the session's niceness stays as it is"
zhbot=${ZHBOT:-build/default/bot/zhbot}
own() {  # own OUT SEED GAMES
  nice -n 19 "$zhbot" datagen --own-games --skill-levels 5,10,15 --zhbot-nodes 400 --nodes 3000 \
    --out "$1" --seed "$2" --games "$3" --workers 1 --progress 300
}
own "$ZHBOT_LAB/data/own-test" 30099 200
[[ ${1:-} == --chunk ]] && own "$ZHBOT_LAB/data/own-3000/chunk-30000" 30000 3000
exit 0
