#!/usr/bin/env bash
# deploy/zhbot-cuda.conf opens the device nodes CUDA needs on old and current NVIDIA drivers.
# Resolves its DeviceAllow= lines the way systemd does when the service starts (a char-GROUP
# entry allows every major whose /proc/devices name matches GROUP as a glob; a /dev path allows
# that node's major:minor) against the /proc/devices of each driver family in DATA_DIR (and of
# this machine, when it has an NVIDIA driver loaded), and checks that /dev/nvidia0,
# /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-uvm-tools and the MIG capability nodes are each
# allowed read-write under DevicePolicy=closed, naming the entry that allows each. It also checks
# that the resolution can fail: the old drop-in (char-nvidia-frontend only) must be refused
# /dev/nvidia0 on a 550 driver.
#   cuda_dropin_test.sh DROPIN DATA_DIR
set -euo pipefail
dropin=${1:?usage: cuda_dropin_test.sh DROPIN DATA_DIR}
data=${2:?usage: cuda_dropin_test.sh DROPIN DATA_DIR}
failures=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# "major name" for every character device group in a /proc/devices text.
char_groups() { awk '/^Character devices:/ {c = 1; next} /^$/ || /^Block/ {c = 0} c {print $1, $2}' "$1"; }

# The nodes CUDA opens, as "path major minor", for a /proc/devices text. 195 is fixed by the
# driver (nvidia-modprobe hard-codes it); nvidia-uvm's and nvidia-caps' majors are dynamic.
cuda_nodes() {
  local uvm caps
  uvm=$(char_groups "$1" | awk '$2 == "nvidia-uvm" {print $1}')
  caps=$(char_groups "$1" | awk '$2 == "nvidia-caps" {print $1}')
  echo "/dev/nvidia0 195 0"
  echo "/dev/nvidiactl 195 255"
  [[ -n $uvm ]] && echo "/dev/nvidia-uvm $uvm 0" && echo "/dev/nvidia-uvm-tools $uvm 1"
  [[ -n $caps ]] && echo "/dev/nvidia-caps/nvidia-cap1 $caps 1" &&
    echo "/dev/nvidia-caps/nvidia-cap2 $caps 2"
  return 0
}

# Which DeviceAllow= entry of UNIT_TEXT lets the service open MAJOR:MINOR (PATH) read-write under
# the driver whose /proc/devices is PROC; prints it, or nothing.
allowed_by() {  # unit_text proc path major minor
  local spec perms line group m name
  while read -r line; do
    spec=${line%% *}
    perms=${line#* }
    [[ $perms == *r* && $perms == *w* ]] || continue
    if [[ $spec == char-* ]]; then
      group=${spec#char-}
      while read -r m name; do
        # shellcheck disable=SC2053  # systemd matches the group as a glob (fnmatch)
        if [[ $m == "$4" && $name == $group ]]; then echo "$spec (/proc/devices: $m $name)"; return; fi
      done < <(char_groups "$2")
    elif [[ $spec == "$3" ]]; then
      echo "$spec (path)"
      return
    fi
  done < <(sed -n 's/^DeviceAllow=\(.*\)/\1/p' <<<"$1")
}

check_driver() {  # label unit_text proc
  local path major minor by groups
  groups=$(sed -n 's/^DeviceAllow=char-\([^ ]*\).*/\1/p' <<<"$2" | while read -r g; do
    char_groups "$3" | while read -r m name; do
      # shellcheck disable=SC2053
      if [[ $name == $g ]]; then echo "char-$g=$m"; fi
    done
  done | tr '\n' ' ')
  echo "== $1: groups the drop-in resolves to: ${groups:-none}"
  while read -r path major minor; do
    by=$(allowed_by "$2" "$3" "$path" "$major" "$minor")
    if [[ -n $by ]]; then ok "$1: $path ($major:$minor) allowed by $by"
    else fail "$1: $path ($major:$minor) denied: no DeviceAllow= entry matches it"; fi
  done < <(cuda_nodes "$3")
}

expect_line() {  # line, what it is for
  if grep -qx -- "$1" <<<"$unit"; then ok "$1 ($2)"; else fail "no line $1 ($2)"; fi
}
unit=$(cat "$dropin")
expect_line 'DevicePolicy=closed' "nothing but the pseudo devices and those allowed"
expect_line 'PrivateDevices=no' "the host's /dev/nvidia* visible: a private /dev has none"
# systemd takes no wildcard in a path: /dev/nvidia* there would match nothing.
if grep -Eq '^DeviceAllow=/dev/[^ ]*[*?[]' <<<"$unit"; then fail "a DeviceAllow= path has a wildcard"
else ok "no wildcard in a DeviceAllow= path"; fi
expect_line 'DeviceAllow=char-nvidia-frontend rw' "drivers before 550.40"
expect_line 'DeviceAllow=char-nvidia rw' "drivers 550.40 and later"
expect_line 'DeviceAllow=char-nvidiactl rw' "drivers 550.40 and later"
expect_line 'DeviceAllow=char-nvidia-uvm rw' "unified memory, every driver"

for proc in "$data"/proc-devices-*.txt; do
  label=$(basename "$proc" .txt)
  check_driver "driver ${label#proc-devices-}" "$unit" "$proc"
done
if grep -q nvidia /proc/devices 2>/dev/null; then
  check_driver "this machine's driver" "$unit" /proc/devices
else
  echo "(no NVIDIA driver loaded on this machine: checked against the recorded drivers only)"
fi

# The check itself can fail: the drop-in as it was before driver 550.40 was known.
old=$'DevicePolicy=closed\nDeviceAllow=char-nvidia-frontend rw\nDeviceAllow=char-nvidia-uvm rw'
if [[ -z $(allowed_by "$old" "$data/proc-devices-550.txt" /dev/nvidia0 195 0) ]]; then
  ok "self-check: char-nvidia-frontend alone is refused /dev/nvidia0 on a 550 driver"
else
  fail "self-check: the old drop-in passed on a 550 driver (the check cannot fail)"
fi

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
