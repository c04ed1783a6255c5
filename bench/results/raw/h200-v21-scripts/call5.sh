# v21 call 5: the benchmark session (bench.py under the clean flush, plot, overhead, cold
# start, summary) and the demo.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export FOS_COMMIT=${1:-unknown}
mkdir -p $OUT/logs
OUT=$OUT/logs bash bench/gpu_session.sh --repeat 1 --buffers 2 > $OUT/logs/session.txt 2>&1
timeout 60 python3 -m fos_op.demo > $OUT/logs/demo.log 2>&1; echo "demo rc=$?" >> $OUT/logs/demo.log
mv $OUT/logs/h200.json $OUT/logs/h200.png $OUT/logs/h200-op-overhead.json $OUT/logs/h200-cold-start.json $OUT/ 2>/dev/null
tail -n 70 $OUT/logs/session.txt; tail -n 25 $OUT/logs/demo.log
