#!/usr/bin/env bash
# The tracked tree and .gpu/ no longer travel together under the device's 64 MiB limit.
# Before a device call, move every folder and file of bench/results/raw/ but the script
# folders the calls source (v20, v22, v36, v38) out of the checkout; put them back after.
#   bash bench/results/raw/h200-v38-scripts/carry.sh hold      (then call the device)
#   bash bench/results/raw/h200-v38-scripts/carry.sh restore
set -euo pipefail
cd "$(dirname "$0")/../../../.."
hold=${FOS_RAW_HOLD:-/tmp/fos-raw-hold}
case ${1:-} in
  hold)
    mkdir -p "$hold"
    for d in bench/results/raw/*; do
      case $d in *-v20-scripts | *-v22-scripts | *-v36-scripts | *-v38-scripts) ;; *) mv "$d" "$hold/" ;; esac
    done ;;
  restore) mv "$hold"/* bench/results/raw/ && rmdir "$hold" ;;
  *) echo "usage: $0 hold|restore" >&2; exit 2 ;;
esac
