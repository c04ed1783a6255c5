# v36 call 7, carry [".gpu"]. Call 6: at one address the 16x16 time moves with the amax
# alone. undecided_time.py: the time beside the count of undecided tiles (fast_model).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call7.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 200 python3 bench/results/raw/h200-v36-scripts/undecided_time.py > $OUT/undecided.log 2>&1
echo "rc=$? ($((SECONDS - start)) s)"; cat $OUT/undecided.log | tail -n 30
