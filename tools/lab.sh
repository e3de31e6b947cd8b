# The lab: one folder outside the checkout for the long jobs' teacher data, checkpoints and match
# results (sourced by tools/next_network.sh and tools/teacher_budget.sh; training/README.md,
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
