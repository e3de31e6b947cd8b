#!/usr/bin/env bash
# The recipe's teacher chunks in the background (the next network's run with --data-only, one
# worker), after the lab's newly recorded games (tools/lab/relabel_games.py), niced 19 with its
# whole session (autogroup): Linux shares the CPU between sessions first, so nice alone would
# still take half the cores from a training started elsewhere.
#   setsid nohup tools/lab/lab_chunks.sh [OPTIONS] > LAB/chunks.out 2>&1 &
cd "$(dirname "$0")/../.." || exit 2
echo 19 > "/proc/$$/autogroup" 2>/dev/null || echo "lab_chunks: the session's niceness stays as it is"
# The lab's teacher build, once a lab (minutes; 1.5 times the labels a core second,
# training/README.md, "The teacher build"); without it Debian's Fairy-Stockfish labels.
nice -n 19 /usr/bin/python3 -m tools.lab.teacher_build --if-missing ||
  echo "lab_chunks: teacher_build failed (above); Debian's Fairy-Stockfish labels"
# Then the positions of the games the lab recorded since the last session (minutes; a failure
# there never holds the chunks up).
nice -n 19 /usr/bin/python3 -m tools.lab.relabel_games ||
  echo "lab_chunks: relabel_games failed (above); the chunks go on"
exec nice -n 19 /usr/bin/python3 -m tools.lab.next_network --data-only --workers 1 "$@"
