#!/usr/bin/env bash
# tools/measure/tactics_matrix.sh at toy scale (seconds): two two-position suites, two node counts, the
# defaults and one named setting, the table; run again, it redoes nothing; the same setting
# name with other options is refused.
# Usage: tactics_matrix_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }

"$python" -m training.make_random_net "$work/toy.pt" --arch resnet-1x8 --seed 2
# The first two positions of each suite (awk, not grep | head: under pipefail a head that
# closes the pipe early can fail grep with SIGPIPE, and the test with it, without a word).
first_two() { awk '!/^#/ { print; if (++n == 2) exit }' "$1"; }
first_two "$root/tools/measure/suites/mate.epd" > "$work/mates.epd"
first_two "$root/tools/measure/suites/defence.epd" > "$work/defences.epd"
export ZHBOT_LAB=$work/lab ZHBOT=$zhbot PYTHON=$python MODEL=$work/toy.pt \
  SUITES="$work/mates.epd $work/defences.epd" NODES="10 30" \
  SETTINGS="default wide:cpuct_init=3.5,virtual_loss=1"
bash "$root/tools/measure/tactics_matrix.sh" > "$work/first.log" 2>&1 \
  || { cat "$work/first.log"; fail "the first run failed"; }
dir=$work/lab/tactics-toy
table=$(sed -n '/^suite /,$p' "$work/first.log")
[[ $(echo "$table" | wc -l) == 9 ]] || { cat "$work/first.log"; fail "not 8 rows and a header"; }
for row in "mates +10 +default +[0-2]/2" "defences +30 +wide +[0-2]/2"; do
  echo "$table" | grep -Eq "^$row +[0-9.]+$" || { echo "$table"; fail "no row '$row'"; }
done
# Each cell kept its positions, and the setting's options reached the engine.
[[ $(grep -vc '^#' "$dir/wide/defences-30.tsv") == 2 ]] || fail "no per-position results"
grep -q 'options model=.*,cpuct_init=3.5,virtual_loss=1' "$dir/wide/mates-10.tsv" \
  || fail "the setting's options are not in its results"

# Run again: every cell is done before, the table is the same.
bash "$root/tools/measure/tactics_matrix.sh" > "$work/second.log" 2>&1 \
  || { cat "$work/second.log"; fail "the second run failed"; }
[[ $(grep -c ': done before$' "$work/second.log") == 8 ]] \
  || { cat "$work/second.log"; fail "the second run made a cell again"; }
[[ "$(sed -n '/^suite /,$p' "$work/second.log")" == "$table" ]] || fail "the table differs"

# A name stands for its options: another option set under it is refused, nothing run.
if SETTINGS="wide:cpuct_init=2" bash "$root/tools/measure/tactics_matrix.sh" > "$work/third.log" 2>&1
then
  fail "a changed option set under an old name was accepted"
fi
grep -q "give this option set another name" "$work/third.log" || fail "no reason given"
echo "PASS"
