# v34 call 2, carry [".gpu"]. L2-prefetch tunings A/B against the defaults on the same
# buffers (ab_l2.py: 16x16 l2_next_item, row-scaled l2_ahead), then ncu of the chosen ones.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v34-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 480 python3 bench/results/raw/h200-v34-scripts/ab_l2.py > $OUT/logs/ab_l2.log 2>&1
echo "ab_l2 rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/ab_l2.log | cut -c1-130
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
