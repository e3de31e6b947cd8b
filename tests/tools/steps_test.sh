#!/usr/bin/env bash
# tools/lab/steps.sh: two runs that share a folder make a step once. The second waits while the
# first makes it, then skips it; when the first fails, the second makes it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# make TAG OUTCOME: the step's command; it says it started, waits for the test's go-ahead,
# records that it ran, and ends with OUTCOME (0 or 1).
cat > "$work/make.sh" <<'SH'
touch "$W/started-$1"
for _ in $(seq 600); do [[ -e "$W/go" ]] && break; sleep 0.1; done
echo "$1" >> "$W/ran"
exit "$2"
SH
run() {  # run TAG OUTCOME: one pipeline with the step "chunk"
  DIR=$work W=$work bash -c "source '$root/tools/lab/steps.sh'; step chunk bash '$work/make.sh' $1 $2"
}
# wait_until COMMAND...: until COMMAND succeeds, for at most a minute.
wait_until() { for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done; return 1; }

# The first run holds the step; the second starts while it does.
run first 0 > "$work/first.out" 2>&1 & first=$!
wait_until test -e "$work/started-first" || fail "the first run did not start"
run second 0 > "$work/second.out" 2>&1 & second=$!
wait_until grep -q "chunk: another run is making it; waiting for it" "$work/second.out" \
  || fail "the second run did not wait: $(cat "$work/second.out")"
touch "$work/go"
wait "$first" || fail "the first run failed"
wait "$second" || fail "the second run failed"
[[ $(cat "$work/ran") == first ]] || fail "the step ran as: $(tr '\n' ' ' < "$work/ran")"
grep -q "chunk: done before" "$work/second.out" || fail "the second run did not skip the step"
[[ -e "$work/chunk.done" ]] || fail "no chunk.done"

# A first run that fails leaves the step to the second.
rm -f "$work"/{go,ran,chunk.done,started-*}
run first 1 > "$work/first.out" 2>&1 & first=$!
wait_until test -e "$work/started-first" || fail "the first run did not start"
run second 0 > "$work/second.out" 2>&1 & second=$!
touch "$work/go"
if wait "$first"; then fail "a failed step was reported a success"; fi
wait "$second" || fail "the second run failed"
[[ $(tr '\n' ' ' < "$work/ran") == "first second " ]] \
  || fail "after a failure the step ran as: $(tr '\n' ' ' < "$work/ran")"
[[ -e "$work/chunk.done" ]] || fail "the second run did not mark the step done"
echo "steps: OK"
