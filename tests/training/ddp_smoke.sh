#!/usr/bin/env bash
# Two training processes on the CPU with PyTorch DDP (gloo), launched the way torchrun does
# (MASTER_ADDR/PORT, WORLD_SIZE, RANK, LOCAL_RANK), on the shards of the toy pipeline.
# Usage: ddp_smoke.sh PYTHON SHARD_DIR WORKDIR
set -euo pipefail
python=$1 shards=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if ! ls "$shards"/*.zhrec >/dev/null 2>&1; then echo "SKIP: no shards (run the toy pipeline first)"; exit 77; fi
port=$((29500 + RANDOM % 500))
pids=()
for rank in 0 1; do
  MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=$rank LOCAL_RANK=$rank \
    "$python" -m training.train --data "$shards" --out "$work/run" --arch resnet-1x8 \
    --max-steps 4 --batch-size 8 --validation-permille 500 --threads 1 --epoch-steps 2 \
    > "$work/rank$rank.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
cat "$work/rank0.log"
test -f "$work/run/best.ckpt" && test -f "$work/run/metrics.csv"
grep -q "epoch 2.00 step 4" "$work/rank0.log"
# Only rank 0 reports and writes.
! grep -q "epoch" "$work/rank1.log"
echo "ddp smoke: OK"
