#!/usr/bin/env bash
# tools/lab/ship_network.sh on a copy of the files it changes: a good network becomes the default
# in all three places tools and zhbot read it from; each bad input is refused with its reason and
# leaves every file as it was.
# shellcheck disable=SC2034  # variables read by the conditions that check() evaluates
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

# A checkout with the files the tool reads and changes, and a run with its two model files.
tree=$work/tree
mkdir -p "$tree/tools/lab" "$tree/engine" "$tree/config" "$tree/models" "$work/run"
cp "$root/tools/lab/ship_network.sh" "$root/tools/lab/shipped_model.sh" "$tree/tools/lab/"
cp "$root/engine/evaluator_loader.cpp" "$tree/engine/"
cp "$root/config/zhbot.yaml" "$tree/config/"
before=$("$tree/tools/lab/shipped_model.sh")
head -c 4096 /dev/urandom > "$work/run/zhbot-net-test.pt"
head -c 1024 /dev/urandom > "$work/run/zhbot-net-test-int8.pt"
snapshot() { (cd "$tree" && find . -type f | sort | xargs sha256sum); }

refused() {  # refused DESCRIPTION EXPECTED-MESSAGE ARGS...: non-zero, the reason, no change
  local description=$1 expected=$2 out status=0 was
  shift 2
  was=$(snapshot)
  out=$(bash "$tree/tools/lab/ship_network.sh" "$@" 2>&1) || status=$?
  check "$description: refused" "((status != 0))"
  check "$description: says why ($expected)" "[[ \"\$out\" == *\"$expected\"* ]]"
  check "$description: nothing changed" "[[ \"\$(snapshot)\" == \"\$was\" ]]"
}

refused "no argument" "usage"
refused "a missing file" "no such file" "$work/run/zhbot-net-missing.pt"
refused "the int8 file named" "not its int8 file" "$work/run/zhbot-net-test-int8.pt"
cp "$work/run/zhbot-net-test.pt" "$work/run/lonely.pt"
refused "a network without its int8 file" "no int8 file" "$work/run/lonely.pt"
refused "the network already shipped" "already the shipped network" "$root/$before"

status=0
bash "$tree/tools/lab/ship_network.sh" "$work/run/zhbot-net-test.pt" > "$work/out" 2>&1 || status=$?
check "a good network ships" "((status == 0))"
check "tools/lab/shipped_model.sh names it" \
  "[[ \$(\"$tree/tools/lab/shipped_model.sh\") == models/zhbot-net-test.pt ]]"
check "zhbot's built-in default names it" \
  "grep -q '^constexpr const char\* kShippedModel = \"zhbot-net-test.pt\";\$' '$tree/engine/evaluator_loader.cpp'"
check "the loader's other lines are untouched" \
  "[[ \$(diff '$root/engine/evaluator_loader.cpp' '$tree/engine/evaluator_loader.cpp' | grep -c '^[<>]') == 2 ]]"
check "the config's other lines are untouched" \
  "[[ \$(diff '$root/config/zhbot.yaml' '$tree/config/zhbot.yaml' | grep -c '^[<>]') == 2 ]]"
check "both model files are in models/" \
  "cmp -s '$work/run/zhbot-net-test.pt' '$tree/models/zhbot-net-test.pt' &&
   cmp -s '$work/run/zhbot-net-test-int8.pt' '$tree/models/zhbot-net-test-int8.pt'"
check "it says what it replaced" "grep -q 'was ${before#models/}' '$work/out'"

((failures == 0)) || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
