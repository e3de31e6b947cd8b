#!/usr/bin/env bash
# What a GPU server's session handed back (tools/gpu/gpu_session.sh run OUT_DIR), into the lab:
# - each chunk-SEED.tar.xz into LAB/data/teacher-NODES, checked as a shared chunk is
#   (tools/lab/lab.sh, lab_import_chunk: it unpacks, its datagen log names NODES and CHUNK_GAMES,
#   training.check_chunk passes) and marked done, so that every run of the recipe skips it; a
#   chunk the lab has already is left as it is; a damaged one is refused with its name (exit 1
#   at the end, after the others);
# - the network: its checkpoint (the weights alone) into LAB/gpu/NAME/, exported here with the
#   engine's LibTorch (the GPU's export is for a newer one) and checked against zhbot, beside
#   the GPU's own export and the session's report.
# Usage: tools/lab/lab_import.sh FOLDER   (settings: NODES 3000, CHUNK_GAMES 3000, ZHBOT, PYTHON)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lab/lab.sh
source tools/lab/steps.sh
folder=${1:?usage: tools/lab/lab_import.sh FOLDER}
NODES=${NODES:-3000}
CHUNK_GAMES=${CHUNK_GAMES:-3000}
ZHBOT=${ZHBOT:-build/default/bot/zhbot}
PYTHON=${PYTHON:-/usr/bin/python3}
data=$ZHBOT_LAB/data/teacher-$NODES
mkdir -p "$data"
refused=()

for archive in "$folder"/chunk-*.tar.xz; do
  [[ -f $archive ]] || continue
  seed=${archive##*/chunk-} seed=${seed%.tar.xz}
  # A subshell: a refused chunk ends its step, not the import of the others.
  if ! (DIR=$data step "chunk-$seed" lab_import_chunk "$archive" "$data" "$seed" "$CHUNK_GAMES" \
      "$NODES"); then
    refused+=("$archive")
    tail -1 "$data/chunk-$seed.log"
  elif [[ -f $data/chunk-$seed.source ]] && grep -qF "$archive" "$data/chunk-$seed.source"; then
    head -1 "$data/chunk-$seed.source"
  fi
done

for ckpt in "$folder"/*.ckpt; do
  [[ -f $ckpt ]] || continue
  name=$(basename "$ckpt" .ckpt) dir=$ZHBOT_LAB/gpu/$(basename "$ckpt" .ckpt)
  mkdir -p "$dir"
  cp "$ckpt" "$dir/$name.ckpt"
  [[ ! -f $folder/$name.pt ]] || cp "$folder/$name.pt" "$dir/$name.gpu-export.pt"
  [[ ! -f $folder/gpu-session.md ]] || cp "$folder/gpu-session.md" "$dir/"
  # Checked on the lab's own chunks (their held-out games), the first one the lab has.
  check_data=$(find "$data" -mindepth 1 -maxdepth 1 -type d -name 'chunk-*' | sort | sed -n 1p)
  [[ -n $check_data ]] || { echo "lab_import: no chunk in $data to check the export on" >&2; exit 1; }
  DIR=$dir step export "$PYTHON" -m training.export "$dir/$name.ckpt" "$dir/$name.pt" \
    --data "$check_data" --zhbot "$ZHBOT" --name "$name"
  echo "network $name: $dir/$name.pt (exported here, checked against zhbot)"
done

if [[ ${#refused[@]} -gt 0 ]]; then
  echo "lab_import: refused ${refused[*]}" >&2
  exit 1
fi
