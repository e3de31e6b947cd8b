#!/usr/bin/env bash
# zhbot-healthcheck, the images' HEALTHCHECK: it does not load LibTorch (no libtorch in its
# NEEDED entries), reads operations.metrics_port from the config like `zhbot healthcheck`,
# answers 0 when /healthz answers 200 (a stand-in server) and 1 with a reason otherwise.
#   healthcheck_probe_test.sh PROBE CONFIG PYTHON
set -euo pipefail
probe=${1:?usage: healthcheck_probe_test.sh PROBE CONFIG PYTHON}
config=${2:?}
python=${3:?}
tmp=$(mktemp -d)
server=
cleanup() { [[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

needed=$(readelf -d "$probe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "NEEDED: $needed"
check "no LibTorch library loaded" "! grep -Eq 'torch|c10|cuda' <<<'$needed'"

# Nothing listens on a free port: unhealthy, with the reason.
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rc=0; out=$("$probe" --port "$port" --timeout-ms 2000 2>&1) || rc=$?
echo "   [$rc] $out"
check "no daemon: exit 1" "[[ $rc -eq 1 ]]"
check "no daemon: says there was no answer" "grep -q 'no answer' <<<'$out'"

# A stand-in /healthz that answers 200 (a static file server).
mkdir -p "$tmp/www" && echo "ok: stream connected" >"$tmp/www/healthz"
(cd "$tmp/www" && exec "$python" -m http.server --bind 127.0.0.1 "$port") >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do  # until it listens (bounded: 20 s)
  "$probe" --port "$port" --timeout-ms 2000 >/dev/null 2>&1 && break
  sleep 0.2
done
rc=0; out=$("$probe" --port "$port" --timeout-ms 5000 2>&1) || rc=$?
echo "   [$rc] $out"
check "healthy daemon: exit 0" "[[ $rc -eq 0 ]]"
check "healthy daemon: its answer" "grep -q 'HTTP 200' <<<'$out'"

# The port from the shipped config: a config it can read, the same answer as zhbot healthcheck.
rc=0; out=$("$probe" --config "$config" --timeout-ms 500 2>&1) || rc=$?
echo "   [$rc] $out"
check "reads operations.metrics_port from the config" "grep -q '127.0.0.1:9180/healthz' <<<'$out'"
[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
