#!/usr/bin/env bash
# The shipped systemd unit stays hardened: `systemd-analyze security --offline=true` must rate
# it at or below the given exposure. Exit 77 (ctest: skipped) where systemd-analyze is absent.
set -euo pipefail
unit=$1
max=$2
if ! command -v systemd-analyze >/dev/null; then
  echo "SKIPPED: systemd-analyze not found; the unit's exposure was not checked"
  exit 77
fi
# --offline needs a systemd that has it (v250+); an older one cannot judge the file.
if ! out=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1); then
  if grep -q "unrecognized option" <<<"$out"; then
    echo "SKIPPED: this systemd-analyze has no --offline"
    exit 77
  fi
fi
echo "$out" | grep -v '^✓' || true
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$out")
if [[ -z $score ]]; then
  echo "FAIL: no exposure level in the output of systemd-analyze"
  exit 1
fi
if awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }'; then
  echo "OK: exposure $score <= $max"
else
  echo "FAIL: exposure $score > $max (harden $unit again)"
  exit 1
fi
