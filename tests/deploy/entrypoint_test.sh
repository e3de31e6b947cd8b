#!/usr/bin/env bash
# docker/entrypoint.sh with a stand-in `zhbot` on PATH (exits with a given code, or waits for
# SIGTERM): a configuration error (78) parks the container instead of exiting into a restart
# loop, SIGTERM still stops it at once, a clean exit passes 0 through at once, SIGTERM reaches
# zhbot, and other failures exit with their code after a pause.
set -euo pipefail
entrypoint=${1:?usage: entrypoint_test.sh ENTRYPOINT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/zhbot" <<'FAKE'
#!/bin/sh
case "$1" in
  exit) exit "$2" ;;
  stdin) read -r line && echo "$line" >"$2" ;;
  # Waits to be terminated, then says so and exits 0 like a drained daemon.
  serve) trap 'echo got-term >"$3"; exit 0' TERM; while :; do sleep 0.05; done ;;
esac
FAKE
chmod +x "$tmp/zhbot"
export PATH="$tmp:$PATH"
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

# A clean exit: 0, at once.
start=$SECONDS
sh "$entrypoint" exit 0 && rc=0 || rc=$?
check "exit 0 passes through" "[[ $rc -eq 0 ]]"
check "exit 0 is immediate" "[[ $((SECONDS - start)) -lt 3 ]]"

# A configuration error: still running after 2 s (no exit for a restart policy to loop on),
# with the reason in its output; SIGTERM ends it promptly with 78.
sh "$entrypoint" exit 78 2>"$tmp/parked.err" &
pid=$!
sleep 2
check "exit 78 parks (still running after 2 s)" "kill -0 $pid 2>/dev/null"
check "parked container says why" "grep -q 'configuration error' '$tmp/parked.err'"
start=$SECONDS
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "SIGTERM ends a parked container with 78" "[[ $rc -eq 78 ]]"
check "... at once" "[[ $((SECONDS - start)) -lt 3 ]]"

# SIGTERM is forwarded to zhbot, whose exit status (0 after a drain) is the container's.
sh "$entrypoint" serve x "$tmp/term" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "SIGTERM reaches zhbot" "grep -q got-term '$tmp/term'"
check "drained exit status 0" "[[ $rc -eq 0 ]]"

# Another failure (lichess unreachable, 69): not at once (no tight loop), then with its code.
sh "$entrypoint" exit 69 2>/dev/null &
pid=$!
sleep 2
check "exit 69 waits before leaving" "kill -0 $pid 2>/dev/null"
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "exit 69 is passed on" "[[ $rc -eq 69 ]]"

# stdin reaches zhbot (zhbot uci through `docker run -i`).
echo "uci" | sh "$entrypoint" stdin "$tmp/stdin"
check "stdin reaches zhbot" "grep -qx uci '$tmp/stdin'"

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
