# v34 call 1, carry [".gpu"]. The whole benchmark on fos-cutedsl 0.6.8 (every op, 3 runs x
# 2 buffers, back to back beside the replay timing), into h200.json, then its plot and summary.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v34-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
echo "FOS_COMMIT=${FOS_COMMIT:-unset}" >> $OUT/state.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv \
  > $OUT/logs/gpu-state.csv 2>&1
timeout 545 python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back --no-plot \
  --out $OUT/h200.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"
grep -E "^run |wrote|cases x" $OUT/logs/bench.log
timeout 20 python3 bench/summary.py $OUT/h200.json > $OUT/logs/summary.log 2>&1
head -c 6000 $OUT/logs/summary.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
