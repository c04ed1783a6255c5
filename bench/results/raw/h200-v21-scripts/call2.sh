# v21 call 2: the L2 study again (a 0-d compare fixed), the eager path's host pieces,
# the one-read kernel's tests with columnwise staging as its default.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
timeout 60 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
echo "host rc=$?"; cat $OUT/logs/host_pieces.log | tail -n 25
timeout 200 python3 bench/l2_study.py --out $OUT > $OUT/logs/l2_study.log 2>&1
echo "l2 rc=$?"; grep -v "^ *$" $OUT/logs/l2_study.log | tail -n 50
timeout 300 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_dual_kernel.py \
  tests/op/test_layouts.py > $OUT/logs/pytest-dual.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-dual.log | tail -n 12
