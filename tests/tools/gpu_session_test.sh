#!/usr/bin/env bash
# tools/gpu/gpu_session.sh at toy scale on the CPU (SCALE=toy DEVICE=cpu, about a minute), every
# step for real: prepare carries the chunks to train on within the travel budget and the seeds
# the lab lacks, from the top of the recipe's range; check names a broken carry and stops; run
# makes chunks from those seeds while a network trains warm from the "shipped" one for the time
# the session has left, and hands back the packed chunks, the checkpoint (weights alone), its
# export and a report within the file budget; tools/lab/lab_import.sh takes them into the lab.
# Usage: gpu_session_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/pool/teacher-50" "$work/out"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }
fail() { echo "FAIL: $*"; exit 1; }

# The "shipped" network and two packed chunks to train on (the shared folder's, at toy size).
"$python" -m training.make_random_net "$work/shipped.pt" --arch resnet-1x8 --seed 2 >/dev/null
for seed in 3 4; do
  "$zhbot" datagen --out "$work/made/chunk-$seed" --nodes 50 --games 2 --workers 2 \
    --max-plies 40 --seed "$seed" >/dev/null
  tar -cJf "$work/pool/teacher-50/chunk-$seed.tar.xz" -C "$work/made" "chunk-$seed"
done
# The lab has made the top seed of the toy recipe (100-103) already.
mkdir -p "$work/lab/data/teacher-50" && touch "$work/lab/data/teacher-50/chunk-103.done"

# A travel budget of 64 MiB plus what this build's zhbot takes beyond the release one's few MiB
# (a sanitizer build's binary is tens of MiB even stripped): the big chunk below cannot fit.
strip -o "$work/zhbot.stripped" "$zhbot"
zhbot_mib=$(($(stat -c %s "$work/zhbot.stripped") / 1048576))
export DIR=$work/session CARRY=$work/carry SCALE=toy DEVICE=cpu PYTHON=$python \
  TRAVEL_MB=$((64 + zhbot_mib)) \
  SHIPPED_NET=$work/shipped.pt ZHBOT_LAB=$work/lab ZHBOT_SHARED_DATA=$work/pool \
  RECIPE_SEED=100 RECIPE_CHUNKS=4 GPU_CHUNKS=2 WORKERS=2
session() { bash "$root/tools/gpu/gpu_session.sh" "$@"; }

DATAGEN_ZHBOT=$zhbot session prepare >"$work/prepare.log" 2>&1 \
  || { cat "$work/prepare.log"; fail "prepare failed"; }
check "prepare: the seeds the lab lacks, from the top of the recipe's range" \
  "[[ \$(echo \$(cat '$CARRY/seeds')) == '102 101' ]]"
check "prepare: both chunks travel" "[[ \$(ls '$CARRY'/chunks/chunk-*.tar.xz | wc -l) -eq 2 ]]"
check "prepare: a zhbot and the teacher travel" "[[ -x '$CARRY/bin/zhbot' && -x '$CARRY/bin/fairy-stockfish' ]]"
# What travels is bounded: an archive larger than the room left (sparse: the whole budget,
# taking no disk) stays behind, the one before it travels.
mkdir -p "$work/big" && cp "$work/pool/teacher-50/chunk-3.tar.xz" "$work/big/"
truncate -s "${TRAVEL_MB}M" "$work/big/chunk-4.tar.xz"
DATAGEN_ZHBOT=$zhbot CARRY_CHUNKS=$work/big CARRY=$work/carry-big session prepare \
  >"$work/prepare-big.log" 2>&1 || { cat "$work/prepare-big.log"; fail "the prepare with a big chunk failed"; }
check "prepare: no chunk past the travel budget" \
  "[[ -e '$work/carry-big/chunks/chunk-3.tar.xz' && ! -e '$work/carry-big/chunks/chunk-4.tar.xz' ]]"

started=$SECONDS
session check >"$work/check.log" 2>&1 || { cat "$work/check.log"; fail "check failed on a good carry"; }
check_seconds=$((SECONDS - started))
check "check: the shipped network's architecture read" \
  "grep -q '^ok *PyTorch, numpy, the shipped network: .*; shipped network resnet-1x8$' '$work/check.log'"
check "check: the teacher games ran" "grep -q '^ok *teacher games' '$work/check.log'"
check "check: each carried chunk tested" "[[ \$(grep -c '^ok *chunk chunk-' '$work/check.log') -eq 2 ]]"
# A broken carry: named, and the run stops before any work.
mv "$CARRY/bin/fairy-stockfish" "$work/teacher.moved"
if session run "$work/out-broken" >"$work/broken.log" 2>&1; then fail "a run without its teacher went on"; fi
mv "$work/teacher.moved" "$CARRY/bin/fairy-stockfish"
check "check: a missing teacher named" "grep -q '^FAILED *carried teacher' '$work/broken.log'"
check "check: nothing made without the teacher" "[[ ! -e '$DIR/datagen/chunk-102' ]]"

# The session's length: the check again, the export's margin (12 s in toy), a start, and some
# 10 s of training and chunks; set from this machine's speed with room for its load to change,
# so that a loaded one still trains. A budget of 4 files leaves room for one chunk beside the
# checkpoint, its export and the report, though two seeds are asked for.
export SESSION_SECONDS=$((3 * check_seconds + 45))
RETURN_FILES=4 session run "$work/out" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "the run failed"; }
out=$work/out
listing=$(tar -tJf "$out/chunk-102.tar.xz" 2>&1 || true)
check "run: the first seed's chunk handed back with its log" \
  "grep -q '^chunk-102/.*[.]zhrec$' <<<'$listing' && grep -q '^chunk-102.log$' <<<'$listing'"
check "run: training warm from the shipped network" "grep -q '^warm start from $work/shipped.pt' '$DIR/train.log'"
# The training's length is what the session had left of its SESSION_SECONDS, by the time budget.
left=$(sed -n 's/^- training started: \([0-9]*\) s of the session left to it$/\1/p' "$out/gpu-session.md")
check "run: the training's time is what the session had left ($left of $SESSION_SECONDS s)" \
  "[[ -n '$left' ]] && ((${left:-0} > 0 && ${left:-0} < SESSION_SECONDS)) && grep -q '^time budget ' '$DIR/train.log'"
ckpt=$(ls "$out"/*.ckpt)
check "run: the checkpoint holds the weights alone" "'$python' -c 'import sys, torch
s = torch.load(sys.argv[1]); sys.exit(0 if \"model\" in s and \"optimizer\" not in s else 1)' '$ckpt'"
check "run: its export handed back" "[[ -s '${ckpt%.ckpt}.pt' ]]"
check "run: within the budget's 4 files" "[[ \$(ls '$out' | wc -l) -le 4 ]]"
check "run: room for one chunk in the file budget, and one made" \
  "grep -q '^- room in OUT_DIR: 1 chunk(s)$' '$out/gpu-session.md' && [[ ! -e '$out/chunk-101.tar.xz' ]]"
check "run: the report says what each step took" \
  "grep -q '^- check: [0-9]* s' '$out/gpu-session.md' && grep -q '^- chunk-102: [0-9]* s' '$out/gpu-session.md'"

# The lab takes what came back: the chunks marked done, the network exported and checked here.
ZHBOT=$zhbot NODES=50 CHUNK_GAMES=1 bash "$root/tools/lab/lab_import.sh" "$out" >"$work/import.log" 2>&1 \
  || { cat "$work/import.log"; fail "the lab's import failed"; }
check "import: chunk-102 marked done in the lab" "[[ -e '$work/lab/data/teacher-50/chunk-102.done' ]]"
check "import: its source recorded" "grep -q 'chunk-102.tar.xz' '$work/lab/data/teacher-50/chunk-102.source'"
name=$(basename "$ckpt" .ckpt)
check "import: the network exported here and checked" "[[ -s '$work/lab/gpu/$name/$name.pt' && -e '$work/lab/gpu/$name/export.done' ]]"
# A chunk of another node count is refused by its log.
NODES=3000 CHUNK_GAMES=1 ZHBOT=$zhbot bash "$root/tools/lab/lab_import.sh" "$out" >"$work/import-3000.log" 2>&1 \
  && fail "a 50-node chunk was taken for a 3000-node one"
check "import: a chunk of another node count refused by name" \
  "grep -q 'refused $out/chunk-102.tar.xz: its log does not name --nodes 3000' '$work/import-3000.log'"
[[ $failures -eq 0 ]] || { cat "$work/run.log"; echo "$failures check(s) failed"; exit 1; }
echo "gpu_session: OK"
