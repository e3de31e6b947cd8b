# The lab: one folder outside the checkout for the long jobs' teacher data, checkpoints and match
# results (sourced by tools/lab/next_network.sh and tools/lab/teacher_budget.sh; training/README.md,
# "The lab"). A checkout can be laid anew at any time; the lab outlives it, and every job keeps
# its progress there as step markers, so running the same command again goes on where it
# stopped. A lab that is gone is simply made again: the jobs start over without a manual step.
ZHBOT_LAB=${ZHBOT_LAB:-/var/tmp/zhbot-lab}
export ZHBOT_LAB
mkdir -p "$ZHBOT_LAB"

# lab_import_starter DIR: the starter teacher set imported into DIR as shards, once. Its source
# is $ZHBOT_TEACHER_SET, a folder holding the set's *.jsonl.gz files (the set is data, not part
# of the repository). Returns 1, changing nothing, when that variable is unset. A folder without
# such files, or a file that does not import, stops the caller (exit 2) and marks nothing
# imported: a mistyped path must not pass for an empty starter set on every later run.
lab_import_starter() {
  local dir=$1 file files
  [[ -e "$dir/.imported" ]] && return 0
  [[ -n "${ZHBOT_TEACHER_SET:-}" ]] || return 1
  files=("$ZHBOT_TEACHER_SET"/*.jsonl.gz)
  if [[ ! -f "${files[0]}" ]]; then
    echo "ZHBOT_TEACHER_SET $ZHBOT_TEACHER_SET: no *.jsonl.gz files there" >&2
    exit 2
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  for file in "${files[@]}"; do
    "$ZHBOT" datagen --import "$file" --out "$dir" \
      || { echo "ZHBOT_TEACHER_SET: $file did not import" >&2; exit 2; }
  done
  touch "$dir/.imported"
}

# The shared teacher data: packed chunks, teacher-NODES/chunk-SEED.tar.xz, in a folder that
# outlives every machine; by default the folder "data" in the folder "shared" beside the
# checkout (joined from its two names: the references test keeps the checkout's files from
# citing that folder's contents as a path). A chunk found there is imported instead of made
# again (tools/lab/next_network.sh).
ZHBOT_SHARED_DATA=${ZHBOT_SHARED_DATA:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared"/data"}

# lab_import_chunk ARCHIVE DATA_DIR SEED GAMES NODES: the packed chunk ARCHIVE unpacked into
# DATA_DIR/chunk-SEED, once it passes the checks: it unpacks (xz's checksums catch a damaged
# file), it holds the folder chunk-SEED/ and at most the log of the run that made it, that log
# (when there) names the same node count and games, and training.check_chunk passes (the
# record format's checks, positions counted, every game one of the seed's). Prints its verdict
# naming the archive and returns 0 when imported; returns 1 when refused, leaving DATA_DIR as
# it was. The caller marks the chunk done (the step that makes it, tools/lab/steps.sh).
_lab_refuse() {  # the refusal of lab_import_chunk's archive (its variables), its folder removed
  echo "refused $archive: $*"
  rm -rf "$tmp"
}
lab_import_chunk() {
  local archive=$1 data=$2 seed=$3 games=$4 nodes=$5 tmp verdict extra
  tmp=$(mktemp -d "$data/.import-chunk-$seed.XXXXXX")
  if ! tar -xJf "$archive" -C "$tmp" 2>"$tmp.err"; then
    extra=$(head -2 "$tmp.err" | tr '\n' ' ')
    rm -f "$tmp.err"
    _lab_refuse "does not unpack (${extra% })"
    return 1
  fi
  rm -f "$tmp.err"
  extra=$(find "$tmp" -mindepth 1 -maxdepth 1 ! -name "chunk-$seed" ! -name "chunk-$seed.log" -printf '%f ')
  [[ -z $extra ]] || { _lab_refuse "holds more than chunk-$seed/ and its log: $extra"; return 1; }
  [[ -d $tmp/chunk-$seed ]] || { _lab_refuse "holds no folder chunk-$seed/"; return 1; }
  if [[ -f $tmp/chunk-$seed.log ]]; then
    grep -Eq -- "--nodes $nodes( |\$)" "$tmp/chunk-$seed.log" \
      || { _lab_refuse "its log does not name --nodes $nodes"; return 1; }
    grep -Eq -- "--games $games( |\$)" "$tmp/chunk-$seed.log" \
      || { _lab_refuse "its log does not name --games $games"; return 1; }
  fi
  verdict=$("${PYTHON:-python3}" -m training.check_chunk "$tmp/chunk-$seed" --seed "$seed" \
    --games "$games" 2>&1) || {
    verdict=${verdict//$tmp\//}
    _lab_refuse "${verdict#chunk }"
    return 1
  }
  rm -rf "${data:?}/chunk-$seed"
  mv "$tmp/chunk-$seed" "$data/chunk-$seed"
  [[ ! -f $tmp/chunk-$seed.log ]] || mv "$tmp/chunk-$seed.log" "$data/chunk-$seed.made.log"
  rm -rf "$tmp"
  verdict=${verdict//$tmp\//}
  echo "imported $archive: ${verdict#chunk }" | tee "$data/chunk-$seed.source"
  echo "sha256 $(sha256sum "$archive" | cut -d' ' -f1)" >> "$data/chunk-$seed.source"
}
