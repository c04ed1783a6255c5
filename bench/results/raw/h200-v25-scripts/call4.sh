# v25 call 4: 16x16 mse on inputs with and without undecided tiles (undecided.py).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 400 python3 bench/results/raw/h200-v25-scripts/undecided.py > $OUT/logs/undecided.log 2>&1
echo "undecided rc=$?"; cat $OUT/logs/undecided.log
