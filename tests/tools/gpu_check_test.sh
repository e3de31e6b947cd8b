#!/usr/bin/env bash
# tools/gpu/gpu_check.sh at toy scale on the CPU (SCALE=toy DEVICE=cpu), every stage for real: prepare
# carries the header-only libraries and Fairy-Stockfish, build configures against the carried
# headers (CONFIGURE_ONLY: the compile itself is `make ci-engine-only`'s), then facts, nnbench,
# search, games, datagen and train each write their part of one report; datagen and train go on
# where they stopped when run again.
# Usage: gpu_check_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/out"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }
export DIR=$work/check CARRY=$work/carry SCALE=toy DEVICE=cpu ZHBOT=$zhbot PYTHON=$python \
  OUT_DIR=$work/out WORKERS=2 DATAGEN_MINUTES=5 DATAGEN_CHUNKS=2
gpu_check() { bash "$root/tools/gpu/gpu_check.sh" "$@" >>"$work/run.log" 2>&1 || {
  tail -30 "$work/run.log"; echo "FAIL: gpu_check.sh $* failed"; exit 1; }; }

# Shards to carry, as the prepare stage is given them on a zhbot machine.
"$zhbot" datagen --import "$root/tests/data/datagen/sample.jsonl" --out "$work/shards" >/dev/null
CARRY_DATA=$work/shards gpu_check prepare
for f in prefix/include/nlohmann/json.hpp prefix/include/CLI/CLI.hpp \
    prefix/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake \
    prefix/share/cmake/CLI11/CLI11Config.cmake bin/fairy-stockfish; do
  check "prepare carries $f" "[[ -s '$CARRY/$f' ]]"
done
check "prepare carries the shards" "ls '$CARRY'/data/*.zhrec >/dev/null"

CONFIGURE_ONLY=1 gpu_check build
check "build: configured against the carried nlohmann_json" \
  "grep -q '^nlohmann_json_DIR:PATH=$CARRY/prefix' '$DIR/build/CMakeCache.txt'"
check "build: engine only (no bot)" "grep -q '^ZH_BUILD_BOT:BOOL=OFF' '$DIR/build/CMakeCache.txt'"

gpu_check facts nnbench search games
report=$DIR/report.md
check "facts: the CPU and zhbot named" "grep -q -- '- CPU: ' '$report' && grep -q -- '- zhbot: zhbot' '$report'"
shipped=$(basename "$(bash "$root/tools/lab/shipped_model.sh")" .pt)
check "nnbench: the shipped network ($shipped)" "grep -q '^### $shipped, fp32' '$report'"
check "nnbench: the random network" "grep -q '^### random-resnet-1x8, fp32' '$report'"
check "nnbench: figures, no failure" "grep -q 'pos/s\|positions/s' '$report' && ! grep -q 'nnbench failed' '$report'"
check "search: a row per thread count with nodes/s" \
  "[[ \$(grep -cE '^\| [12] \| [0-9]+ \| [0-9]+ \| [0-9]+ ms \|$' '$report') -eq 2 ]]"
check "games: one game and two at once, each with its batch fill" \
  "grep -q '^### 1 game(s), 1 search thread' '$report' && grep -q '^### 2 game(s), 1 search thread' '$report' \
   && [[ \$(grep -c '^batch fill' '$report') -eq 2 ]] && ! grep -q 'selfplay failed' '$report'"

gpu_check datagen train
check "datagen: two chunks" "grep -q '^2 chunk(s) of 1 games' '$report'"
check "train: exported network" "[[ -s '$DIR/gpu-resnet-1x8.pt' ]]"
check "train: checkpoint handed back" "[[ -s '$work/out/gpu-resnet-1x8.ckpt' ]]"
check "report handed back" "cmp -s '$report' '$work/out/gpu-check-report.md'"

# Run again: the chunks made are not made again, the training resumes from its checkpoint.
: >"$work/run.log"
gpu_check datagen train
check "datagen resumes (no chunk made twice)" "grep -q 'chunk-30001: done before' '$work/run.log'"
check "datagen: each chunk handed back packed" \
  "tar -tJf '$work/out/chunk-30001.tar.xz' | grep '^chunk-30001/.*[.]zhrec$' >/dev/null"
# Seeds named, and no more chunks than DATAGEN_CHUNKS.
DATAGEN_SEEDS="77 78" DATAGEN_CHUNKS=1 gpu_check datagen
check "datagen: the named seed, one chunk" \
  "[[ -e '$DIR/datagen/chunk-77.done' && ! -e '$DIR/datagen/chunk-78' && -s '$work/out/chunk-77.tar.xz' ]]"
check "train resumes from its checkpoint" "grep -qi 'resum' '$DIR/train.log'"
check "the report has every section" \
  "[[ \$(grep -c '^## ' '$report') -eq 7 ]]"
[[ $failures -eq 0 ]] || { cat "$report"; echo "$failures check(s) failed"; exit 1; }
