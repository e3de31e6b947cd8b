#!/usr/bin/env bash
# The training pipeline end to end at toy scale (bounded to about a minute):
#   zhbot datagen (2 teacher games, tiny budget) -> training.train (a few steps of a tiny net)
#   -> training.evaluate of a test set -> training.export (checked against zhbot nneval)
#   -> training.quantize (its int8 file, checked the same way) -> zhbot analyse plays a legal
#   move.
# Usage: toy_pipeline.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
"$zhbot" datagen --out "$work/shards" --games 2 --workers 2 --nodes 50 --max-plies 40 \
  --seed 3 --progress 5
ls "$work/shards"/*.zhrec >/dev/null
"$python" -m training.train --data "$work/shards" --out "$work/run" --arch resnet-1x8 \
  --max-steps 4 --batch-size 16 --validation-permille 500 --threads 1 --epoch-steps 2
test -f "$work/run/best.ckpt" && test -f "$work/run/metrics.csv"
# As a test set, every position of the shards is evaluated, not only the held-out games.
records=$("$python" -c 'import sys; from training import data; print(len(data.Dataset(sys.argv[1:])))' \
  "$work/shards")
evaluated=$("$python" -m training.evaluate "$work/run/best.ckpt" --data "$work/shards" --test-set \
  --positions 0 | "$python" -c 'import json, sys; print(json.load(sys.stdin)["positions"])')
[[ "$evaluated" == "$records" ]] || { echo "FAIL: --test-set evaluated $evaluated of $records"; exit 1; }
# --result-weight sets the value target's share of the game result (default: the run's, 0.3).
value_mse() {
  "$python" -m training.evaluate "$work/run/best.ckpt" --data "$work/shards" --test-set \
    --positions 0 "$@" | "$python" -c 'import json, sys; print(json.load(sys.stdin)["value_mse"])'
}
run_default=$(value_mse) run_weight=$(value_mse --result-weight 0.3)
score_only=$(value_mse --result-weight 0) result_only=$(value_mse --result-weight 1)
[[ "$run_default" == "$run_weight" && "$score_only" != "$result_only" ]] ||
  { echo "FAIL: --result-weight: $run_default $run_weight $score_only $result_only"; exit 1; }
"$python" -m training.export "$work/run/best.ckpt" "$work/toy.pt" --data "$work/shards" \
  --zhbot "$zhbot" --check-positions 32
# Its int8 file, checked against zhbot's int8 evaluator; zhbot finds it at precision int8.
"$python" -m training.quantize "$work/toy.pt" "$work/toy-int8.pt" --data "$work/shards" \
  --zhbot "$zhbot" --calibration 64 --positions 64 --check-positions 32
log=$("$zhbot" analyse --nodes 20 -o backend=torch -o model="$work/toy.pt" -o precision=int8 2>&1)
grep -q "loaded $work/toy-int8.pt on cpu (int8" <<<"$log" \
  || { echo "$log"; echo "FAIL: precision int8 did not load toy-int8.pt"; exit 1; }
# The exported file is measured like its checkpoint: same positions, same figures.
for net in run/best.ckpt toy.pt; do
  "$python" -m training.evaluate "$work/$net" --data "$work/shards" --positions 0 > "$work/$(basename $net).json"
done
"$python" - "$work/best.ckpt.json" "$work/toy.pt.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for key in ("positions", "top1", "top5", "step"):
    assert a[key] == b[key], "%s: checkpoint %s, model file %s" % (key, a[key], b[key])
for key in ("policy_loss", "value_mse"):
    assert abs(a[key] - b[key]) < 1e-4, "%s: checkpoint %s, model file %s" % (key, a[key], b[key])
PY
head -c 4096 "$work/toy.pt" > "$work/truncated.pt"
if "$python" -m training.evaluate "$work/truncated.pt" --data "$work/shards" 2> "$work/bad-eval.log"; then
  echo "FAIL: a truncated model file was evaluated"; exit 1
fi
grep -q "neither a training checkpoint nor a model file" "$work/bad-eval.log" \
  || { cat "$work/bad-eval.log"; echo "FAIL: unclear error for a file that is no network"; exit 1; }
out=$("$zhbot" analyse --nodes 50 -o backend=torch -o model="$work/toy.pt" \
  --fen "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R/Pn b KQkq - 0 1")
echo "$out"
move=$(awk '/^bestmove/ {print $2}' <<<"$out")
[[ -n "$move" ]] || { echo "FAIL: no bestmove"; exit 1; }
# The referee is Fairy-Stockfish's own move list, not zhbot's rules.
legal=$(printf 'setoption name UCI_Variant value crazyhouse\nposition fen %s\ngo perft 1\nquit\n' \
  "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Pn] b KQkq - 0 1" \
  | /usr/games/fairy-stockfish | awk -F: '/^[a-hPNBRQ@1-8]+: 1$/ {print $1}')
grep -qx "$move" <<<"$legal" || { echo "FAIL: $move is not legal"; exit 1; }
echo "toy pipeline: OK (bestmove $move)"
