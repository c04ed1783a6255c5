# v33 call 4, carry [".gpu"]. The many-items test again (call 3's passed the compiled
# kernels a (1,) amax, which they reject), and the grouped 16x16 tests (quantize_tiles).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k many_items > $OUT/logs/test_many.log 2>&1
echo "many_items rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_many.log
timeout 200 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k 16x16 > $OUT/logs/test_grouped.log 2>&1
echo "grouped -k 16x16 rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_grouped.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)
