#!/bin/bash
# One GPU session of bench/: the benchmark and its plot, the eager host overhead,
# the cold start, then a summary of the target rows. Run on the GPU host from the
# repository root after `bash .gpu/install.sh`, with PYTHONPATH set by the caller:
#
#   OUT=/some/dir bash bench/gpu_session.sh [extra bench.py arguments]
#
# Every step has its own timeout (at most 8 minutes in all); logs and JSON go
# to $OUT (default ./bench-out). bench.py rewrites its JSON after every case,
# so a step cut short still leaves the rows it finished.
set -uo pipefail
OUT=${OUT:-$PWD/bench-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
FOS_COMMIT=${FOS_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
export FOS_COMMIT
BENCH_ARGS=${*:-"--repeat 3 --buffers 2"}

step() {  # step NAME SECONDS COMMAND...: run with a timeout, log to $OUT/NAME.log
  local name=$1 limit=$2 start=$SECONDS rc
  shift 2
  { echo "commit $FOS_COMMIT; $(date -u)"; echo "+ $*"; } > "$OUT/$name.log"
  timeout --kill-after=10 "$limit" "$@" >> "$OUT/$name.log" 2>&1
  rc=$?
  echo "== $name: rc=$rc in $((SECONDS - start)) s (limit $limit s; log $OUT/$name.log)"
  [ "$rc" -eq 0 ] || tail -n 5 "$OUT/$name.log"
}

nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv \
  > "$OUT/gpu-state.csv" 2>&1
# shellcheck disable=SC2086  # BENCH_ARGS is a list of words
step bench 300 python3 bench/bench.py --out "$OUT/h200.json" --no-plot $BENCH_ARGS
step plot 30 python3 bench/plot.py "$OUT/h200.json"
step overhead 75 python3 bench/overhead.py --out "$OUT/h200-op-overhead.json"
step cold-start 70 python3 bench/cold_start.py --out "$OUT/h200-cold-start.json"
echo
python3 bench/summary.py "$OUT/h200.json" --overhead "$OUT/h200-op-overhead.json" \
  --cold-start "$OUT/h200-cold-start.json"
