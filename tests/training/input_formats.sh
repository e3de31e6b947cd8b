#!/usr/bin/env bash
# Input format 2.0 end to end, beside 1.0:
#   the same teacher games written in both formats; the 1.0 shards re-encoded into 2.0 equal the
#   2.0 shards byte for byte (the last moves recovered from the records one ply earlier);
#   a few training steps on 2.0 shards and the export's check against zhbot nneval (zhbot's
#   encoder and evaluator agree with what Python decoded and computed); zhbot plays with it,
#   and with a random network of format 2.0; a model whose metadata names another format than
#   its first convolution takes is refused by name; data that mixes formats is refused; every
#   shipped network still loads and plays.
# Usage: input_formats.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 0
fi
for format in 1.0 2.0; do
  "$zhbot" datagen --out "$work/v$format" --format "$format" --games 3 --workers 1 --nodes 50 \
    --max-plies 30 --seed 4 --progress 5 > "$work/datagen-$format.log"
done
"$zhbot" datagen --reencode "$work/v1.0" --out "$work/re" --format 2.0 | tee "$work/re.log"
grep -q " 0 unknown" "$work/re.log" || { echo "FAIL: last moves not recovered"; exit 1; }
for shard in "$work"/v2.0/*.zhrec; do
  cmp "$shard" "$work/re/$(basename "$shard")" || { echo "FAIL: re-encoded $shard differs"; exit 1; }
done
if "$zhbot" datagen --reencode "$work/v1.0" --out "$work/re" --format 2.0 > "$work/again.log" 2>&1; then
  echo "FAIL: re-encoding over existing shards was accepted"; exit 1
fi
grep -q "exists already" "$work/again.log" || { cat "$work/again.log"; exit 1; }

"$python" -m training.train --data "$work/v2.0" --out "$work/run" --arch resnet-1x8 \
  --max-steps 3 --batch-size 16 --validation-permille 500 --threads 1 --epoch-steps 3 \
  > "$work/train.log"
"$python" -m training.export "$work/run/best.ckpt" "$work/v2.pt" --data "$work/v2.0" \
  --zhbot "$zhbot" --check-positions 32
"$python" -m training.evaluate "$work/v2.pt" --data "$work/v2.0" --positions 0 > /dev/null
if "$python" -m training.evaluate "$work/v2.pt" --data "$work/v1.0" 2> "$work/eval-mismatch.log"; then
  echo "FAIL: a format 2.0 network was evaluated on format 1.0 data"; exit 1
fi
grep -q "takes 46 input planes (format 2.0), but the data is format 1.0" "$work/eval-mismatch.log" \
  || { cat "$work/eval-mismatch.log"; exit 1; }
out=$("$zhbot" analyse --nodes 30 -o backend=torch -o model="$work/v2.pt" -o precision=fp32 2>&1)
grep -Eq "^bestmove +[a-hPNBRQ@]" <<<"$out" || { echo "$out"; echo "FAIL: no bestmove (v2)"; exit 1; }

# A random network of format 2.0 plays too.
"$python" -m training.make_random_net "$work/random-v2.pt" --arch resnet-1x8 --input-format 2.0
out=$("$zhbot" analyse --nodes 10 -o backend=torch -o model="$work/random-v2.pt" 2>&1)
grep -q '"input_version": "2.0"' <<<"$out" && grep -Eq "^bestmove +[a-hPNBRQ@]" <<<"$out" \
  || { echo "$out"; echo "FAIL: the random format 2.0 network"; exit 1; }

# A 34-plane network that declares format 2.0.
"$python" - "$work/liar.pt" <<'PY'
import json, sys, torch
from training import models
net = models.build("resnet-1x8").eval()
torch.jit.script(net).save(sys.argv[1], _extra_files={"zhbot.json": json.dumps(
    {"input_version": "2.0"})})
PY
out=$("$zhbot" analyse --nodes 10 -o backend=torch -o model="$work/liar.pt" 2>&1 || true)
grep -q "metadata says input format 2.0 (46 planes)" <<<"$out" \
  || { echo "$out"; echo "FAIL: the format mismatch is not named"; exit 1; }

if "$python" -m training.train --data "$work/v1.0" "$work/v2.0" --out "$work/mixed" \
  --arch resnet-1x8 --max-steps 1 > "$work/mixed.log" 2>&1; then
  echo "FAIL: mixed formats were trained on"; exit 1
fi
grep -q "mix input formats" "$work/mixed.log" || { cat "$work/mixed.log"; exit 1; }

# Every shipped network keeps working: it loads (format 1.0) and plays.
for model in models/*.pt; do
  [[ "$model" == *-int8.pt ]] && continue
  out=$("$zhbot" analyse --nodes 20 -o backend=torch -o model="$model" -o precision=fp32 2>&1)
  grep -q "loaded .*$(basename "$model")" <<<"$out" && grep -Eq "^bestmove +[a-hPNBRQ@]" <<<"$out" \
    || { echo "$out"; echo "FAIL: $model"; exit 1; }
done
echo "input formats: OK"
