#!/usr/bin/env bash
# The tracked tree and .gpu/ do not travel together under the device's 64 MiB limit.
# Before a device call, move the recorded results in bench/results/raw/ out of the
# checkout, keeping every *-scripts folder (the calls source them; under 1 MB in all);
# put them back after.
#   bash bench/gpu_carry.sh hold      (then call the device)
#   bash bench/gpu_carry.sh restore
set -euo pipefail
cd "$(dirname "$0")/.."
hold=${FOS_RAW_HOLD:-/tmp/fos-raw-hold}
case ${1:-} in
  hold)
    mkdir -p "$hold"
    for d in bench/results/raw/*; do
      case $d in *-scripts) ;; *) mv "$d" "$hold/" ;; esac
    done ;;
  restore) mv "$hold"/* bench/results/raw/ && rmdir "$hold" ;;
  *) echo "usage: $0 hold|restore" >&2; exit 2 ;;
esac
