# Final call 2: the benchmark session (bench, plot, overhead, cold start, summary) and the demo.
set -uo pipefail
export FOS_COMMIT=${1:-unknown}
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
OUT=$OUT/logs bash bench/gpu_session.sh ${BENCH_ARGS:---repeat 3 --buffers 2} > $OUT/logs/session.txt 2>&1
timeout 60 python3 -m fos_op.demo > $OUT/logs/demo.log 2>&1; echo "demo rc=$?" >> $OUT/logs/demo.log
mv $OUT/logs/h200.json $OUT/logs/h200.png $OUT/logs/h200-op-overhead.json $OUT/logs/h200-cold-start.json $OUT/ 2>/dev/null
tail -n 60 $OUT/logs/session.txt; tail -n 25 $OUT/logs/demo.log
tar -C $OUT -czf $OUT/logs2.tgz logs && rm -rf $OUT/logs
