# v25 call 5: the 16x16 exact path with one load (tile.py as committed with this script): the
# undecided-tile timing again, then the placement sweep at 8192x4096 and 32768x2048.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 bench/results/raw/h200-v25-scripts/undecided.py > $OUT/logs/undecided.log 2>&1
echo "undecided rc=$?"; cat $OUT/logs/undecided.log
timeout 300 python3 bench/placement.py --shapes 8192x4096,32768x2048 --out $OUT \
  > $OUT/logs/placement.log 2>&1
echo "placement rc=$?"; tail -n 12 $OUT/logs/placement.log
