#!/usr/bin/env bash
# The tactical suites at fixed nodes under several search settings, in one resumable command
# (issue 49, item 6: the suites at 100, 400, 1 000 and 2 000 nodes, mate search on and off):
# every suite of SUITES at every count of NODES with every setting of SETTINGS, each cell one
# `python3 -m tools.measure.suites solve` with its per-position results kept; then one table: suite, nodes,
# setting, solved / total, %. Cells and step markers (tools/lab/steps.sh) live in the lab, so the
# same command goes on where it stopped, and a setting added later runs only its own cells.
# A suite is a name under tools/measure/suites/ (mate) or a path to an .epd file. A setting is NAME
# (the build's defaults) or NAME:OPTION=VALUE,OPTION=VALUE (zhbot options); the list is
# space-separated, e.g. SETTINGS="default leaf5:mate_depth=5". A name keeps the options it was
# first run with: the same name with other options is refused, as its cells would mix them.
# Usage: tools/measure/tactics_matrix.sh [DIR]   (default LAB/tactics-<model file's name>)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
MODEL=${MODEL:-$(tools/lab/shipped_model.sh)}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
SUITES=${SUITES:-mate defence mate-long defence-deep}
NODES=${NODES:-100 400 1000 2000}
SETTINGS=${SETTINGS:-default}
DIR=${1:-$ZHBOT_LAB/tactics-$(basename "$MODEL" .pt)}
[[ -x "$ZHBOT" ]] || { echo "ZHBOT $ZHBOT: not built (make build)" >&2; exit 2; }
[[ -f "$MODEL" ]] || { echo "MODEL $MODEL: no such file" >&2; exit 2; }
MODEL=$(realpath "$MODEL")
mkdir -p "$DIR"
source tools/lab/steps.sh

suite_file() { [[ "$1" == *.epd ]] && echo "$1" || echo "tools/measure/suites/$1.epd"; }
suite_name() { basename "$1" .epd; }

for suite in $SUITES; do
  [[ -f "$(suite_file "$suite")" ]] || { echo "suite $suite: no such file" >&2; exit 2; }
done
for setting in $SETTINGS; do
  name=${setting%%:*} options=${setting#*:}
  [[ "$setting" == *:* ]] || options=""
  mkdir -p "$DIR/$name"
  [[ -e "$DIR/$name/options" ]] || echo "$options" > "$DIR/$name/options"
  [[ "$(cat "$DIR/$name/options")" == "$options" ]] || {
    echo "setting $name: run before with options '$(cat "$DIR/$name/options")'; give this" \
      "option set another name" >&2
    exit 2
  }
done

cell() {  # cell SUITE NODES NAME OPTIONS: one suite at NODES with OPTIONS ("" = the defaults)
  local opts=(-o "model=$MODEL") options out="$DIR/$3/$(suite_name "$1")-$2"
  IFS=, read -ra options <<< "$4"
  for o in "${options[@]}"; do opts+=(-o "$o"); done
  "$PYTHON" -m tools.measure.suites solve --suite "$(suite_file "$1")" --nodes "$2" --zhbot "$ZHBOT" \
    "${opts[@]}" --results "$out.tsv" > "$out.txt"
}

# The cheap cells first: every suite and setting at the smallest count, then the next.
for nodes in $NODES; do
  for setting in $SETTINGS; do
    name=${setting%%:*} options=${setting#*:}
    [[ "$setting" == *:* ]] || options=""
    for suite in $SUITES; do
      step "$name-$(suite_name "$suite")-$nodes" cell "$suite" "$nodes" "$name" "$options"
    done
  done
done

echo "== $(basename "$MODEL"), $ZHBOT: the tactical suites at fixed nodes"
printf "%-16s %6s %-16s %9s %6s\n" suite nodes setting solved %
for suite in $SUITES; do
  for nodes in $NODES; do
    for setting in $SETTINGS; do
      name=${setting%%:*}
      # "mate.epd: solved 119 of 120 (99.2%) at 2000 nodes per position"
      read -r solved total pct < <(head -1 "$DIR/$name/$(suite_name "$suite")-$nodes.txt" \
        | sed 's/.*solved \([0-9]*\) of \([0-9]*\) (\([0-9.]*\)%).*/\1 \2 \3/')
      printf "%-16s %6s %-16s %9s %6s\n" "$(suite_name "$suite")" "$nodes" "$name" \
        "$solved/$total" "$pct"
    done
  done
done
