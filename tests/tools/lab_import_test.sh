#!/usr/bin/env bash
# The lab takes teacher chunks from the shared folder instead of making them again (tools/lab/lab.sh,
# lab_import_chunk, called by tools/lab/next_network.sh's chunk step), at toy scale (seconds): a good
# archive is imported, checked and marked done; a damaged archive and an archive that holds
# another seed's games are refused with their names and made again from their seeds.
# Usage: lab_import_test.sh ZHBOT PYTHON WORKDIR
set -euo pipefail
zhbot=$1 python=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/made" "$work/pool/teacher-50"
if [[ ! -x /usr/games/fairy-stockfish ]]; then
  echo "SKIP: fairy-stockfish is not installed"; exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
made=$work/made pool=$work/pool/teacher-50

# One-game chunks at 50 nodes, made as the shared folder's were (datagen's defaults otherwise).
make_chunk() {  # make_chunk SEED: $made/chunk-SEED and its datagen output
  "$zhbot" datagen --out "$made/chunk-$1" --nodes 50 --games 1 --workers 1 --seed "$1" \
    > "$made/chunk-$1.out" 2>&1 || { cat "$made/chunk-$1.out"; fail "datagen of seed $1 failed"; }
}
make_chunk 7
make_chunk 8
tar -cJf "$pool/chunk-7.tar.xz" -C "$made" chunk-7
# Damaged: seed 8's archive with a run of its bytes overwritten (xz's checksum catches it).
tar -cJf "$pool/chunk-8.tar.xz" -C "$made" chunk-8
size=$(stat -c %s "$pool/chunk-8.tar.xz")
printf 'damaged%.0s' {1..8} | dd of="$pool/chunk-8.tar.xz" bs=1 seek=$((size / 2)) conv=notrunc \
  status=none
# Another seed's games under seed 9's name.
mkdir -p "$work/renamed" && cp -r "$made/chunk-7" "$work/renamed/chunk-9"
tar -cJf "$pool/chunk-9.tar.xz" -C "$work/renamed" chunk-9

export ZHBOT_LAB=$work/lab ZHBOT_SHARED_DATA=$work/pool ZHBOT=$zhbot PYTHON=$python \
  PREVIOUS=$root/models/zhbot-net-1.pt DATA_ONLY=1 CHUNKS=3 SEED=7 NODES=50 CHUNK_GAMES=1 \
  WORKERS=1 TEST_NODES=60 TEST_GAMES=1 DATAGEN_OPTS=
bash "$root/tools/lab/next_network.sh" "$work/run" > "$work/first.log" 2>&1 \
  || { cat "$work/first.log"; fail "the data-only run failed"; }
data=$work/lab/data/teacher-50

# The good archive: imported, its positions counted as datagen wrote them, marked done.
written=$(sed -n 's/^positions *\([0-9]*\) written.*/\1/p' "$made/chunk-7.out")
grep -q "^imported $pool/chunk-7.tar.xz: chunk-7: $written positions from 1 of 1 games of seed 7" \
  "$work/first.log" || fail "chunk-7 was not imported with its $written positions"
[[ -e $data/chunk-7.done ]] || fail "the imported chunk-7 is not marked done"
diff -r "$made/chunk-7" "$data/chunk-7" || fail "the imported chunk-7 differs from the archived one"
grep -q "^sha256 " "$data/chunk-7.source" || fail "chunk-7's source is not recorded"
if grep -q '^throughput' "$data/chunk-7.log"; then
  fail "chunk-7 was made although the shared folder holds it"
fi

# The damaged archive and the stranger: refused with their names, made again from their seeds.
grep -q "^refused $pool/chunk-8.tar.xz: does not unpack" "$work/first.log" \
  || fail "the damaged chunk-8 archive was not refused by name"
grep -q "^refused $pool/chunk-9.tar.xz: .*not among seed 9's first 1 games" "$work/first.log" \
  || fail "the archive of another seed's games was not refused by name"
for seed in 8 9; do
  grep -q "chunk-$seed is made again from its seed" "$work/first.log" \
    || fail "chunk-$seed is not said to be made again"
  [[ -e $data/chunk-$seed.done ]] || fail "chunk-$seed was not made after the refusal"
  "$python" -m training.check_chunk "$data/chunk-$seed" --seed "$seed" --games 1 > /dev/null \
    || fail "the chunk-$seed made again is not seed $seed's"
done
[[ -z $(find "$data" -name '.import-*') ]] || fail "a refused import left its folder"

# Run again: nothing imported or made twice.
bash "$root/tools/lab/next_network.sh" "$work/run" > "$work/second.log" 2>&1 \
  || { cat "$work/second.log"; fail "the second run failed"; }
for seed in 7 8 9; do
  grep -q "chunk-$seed: done before" "$work/second.log" || fail "chunk-$seed was taken again"
done
echo "lab_import: OK"
