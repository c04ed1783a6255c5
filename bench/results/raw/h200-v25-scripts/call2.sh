# v25 call 2: placement of x and of the outputs against 16x16 and 1x16 time
# (bench/placement.py). Carry [".gpu"].
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 500 python3 bench/placement.py --shapes 8192x4096,32768x2048,16384x7168 --out $OUT \
  > $OUT/logs/placement.log 2>&1
echo "placement rc=$?"; cat $OUT/logs/placement.log
