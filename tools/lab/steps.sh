# Resumable steps for the long pipelines under tools/ (sourced, not run). The caller sets DIR.
# step NAME COMMAND...: runs COMMAND unless DIR/NAME.done exists, appending its output to
# DIR/NAME.log (a resumed step keeps what its earlier attempts printed), and marks it done.
# Two runs that share DIR (the bulk data job and a network's run both make the lab's chunks)
# never make the same step at once: the second waits on DIR/NAME.lock for the first, then skips
# what it finished or makes again what it left undone.
step() {
  local name=$1 lock; shift
  exec {lock}>> "$DIR/$name.lock"
  flock -n "$lock" || { echo "$name: another run is making it; waiting for it"; flock "$lock"; }
  if [[ -e "$DIR/$name.done" ]]; then
    echo "$name: done before"
  else
    echo "$name: $*"
    echo "== $(date -u +%FT%TZ) $*" >> "$DIR/$name.log"
    "$@" >> "$DIR/$name.log" 2>&1 || { echo "$name failed (log: $DIR/$name.log)" >&2; exit 1; }
    touch "$DIR/$name.done"
  fi
  exec {lock}>&-
}
