# v36 call 6, carry [".gpu"]. Calls 4-5: the 16x16 time moves with x and not with the
# outputs, also where only the data changed at one address. gamax_study.py: one buffer,
# the amax scaled, and fresh data.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call6.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 300 python3 bench/results/raw/h200-v36-scripts/gamax_study.py > $OUT/gamax.log 2>&1
echo "gamax rc=$? ($((SECONDS - start)) s)"; cat $OUT/gamax.log | cut -c1-120 | tail -n 70
