# v25 call 1: the small-shape sweep of v24's next_tune.sh, each variant also timed back
# to back (bench.back_to_back_us), plus a copy of each shape both ways; then the one
# GPU test whose v24 result is unknown (test_pinned_ptx's probe). Carry [".gpu"].
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 420 python3 bench/variants.py --sweep small-shapes --back-to-back \
  --shapes 8192x4096,16384x7168,32768x2048,32768x7168 --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"
timeout 120 python3 -m pytest -v -p no:cacheprovider -rfE tests/cutedsl/test_pinned_ptx.py \
  > $OUT/logs/pinned.log 2>&1
echo "pinned rc=$?"; grep -E "PASS|FAIL|ERROR|passed|failed|skipped" $OUT/logs/pinned.log | tail -n 8
cat $OUT/logs/variants.log
