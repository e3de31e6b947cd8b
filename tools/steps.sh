# Resumable steps for the long pipelines under tools/ (sourced, not run). The caller sets DIR.
# step NAME COMMAND...: runs COMMAND unless DIR/NAME.done exists, appending its output to
# DIR/NAME.log (a resumed step keeps what its earlier attempts printed), and marks it done.
step() {
  local name=$1; shift
  [[ -e "$DIR/$name.done" ]] && { echo "$name: done before"; return; }
  echo "$name: $*"
  echo "== $(date -u +%FT%TZ) $*" >> "$DIR/$name.log"
  "$@" >> "$DIR/$name.log" 2>&1 || { echo "$name failed (log: $DIR/$name.log)" >&2; exit 1; }
  touch "$DIR/$name.done"
}
