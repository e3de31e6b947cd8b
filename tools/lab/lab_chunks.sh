#!/usr/bin/env bash
# The next network's teacher chunks in the background, on what the machine leaves idle: the
# recipe's chunks (tools/lab/recipe.sh) that the lab lacks, one at a time, each imported from
# the shared folder when it holds it (tools/lab/lab.sh), else made; then the held-out test set.
# It is tools/lab/next_network.sh with DATA_ONLY=1, so it resumes where it stopped, a network run
# started beside it never makes the same chunk twice, and tools/measure/quiet.sh pauses it for a
# timed match.
#
#   setsid nohup tools/lab/lab_chunks.sh > "$ZHBOT_LAB/chunks.out" 2>&1 &
#
# Niced 19, and its whole session (autogroup) too: Linux shares the CPU between sessions first,
# so nice alone would still take half the cores from a training started elsewhere
# (training/README.md, "The lab"). WORKERS defaults to 1: a game's moves depend only on the seed
# and its number (the teacher's hash is cleared for each game), so the worker count changes the
# chunk's games not at all; it only decides which of two games that reach the same position
# labels it, which two workers already leave to timing.
# Settings (environment): WORKERS (1), the recipe's and tools/lab/next_network.sh's own.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo 19 > "/proc/$$/autogroup" 2>/dev/null || echo "lab_chunks: the session's niceness stays as it is"
export DATA_ONLY=1 WORKERS=${WORKERS:-1}
exec nice -n 19 bash tools/lab/next_network.sh "$@"
