# Resumable steps for the lab's remaining shell tools (sourced; the caller sets DIR): the same
# markers and lock as tools/zhtools/steps.py, so a shell step and a Python one never make the
# same thing at once. step NAME COMMAND...: runs COMMAND unless DIR/NAME.done exists, appending
# its output to DIR/NAME.log, and marks it done; a second run waits on DIR/NAME.lock.
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
