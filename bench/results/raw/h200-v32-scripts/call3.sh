# v32 call 3, carry [".gpu"]. The final kernels (0.6.7's, the looping rows reverted):
# the whole row-amax test file (the "wide" tiling's rows included) and tests/op.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v32-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 330 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_row_amax_kernel.py \
  > $OUT/logs/test_row_amax.log 2>&1
echo "row-amax tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_row_amax.log
timeout 230 python3 -m pytest -q -n 8 -p no:cacheprovider tests/op > $OUT/logs/test_op.log 2>&1
echo "op tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_op.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)
