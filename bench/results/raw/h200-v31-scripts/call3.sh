# v31 call 3, carry [".gpu"]. The row-amax kernel's whole GPU test file on the new
# defaults and tunings (group_amax, cta_build among the step tunings), and
# gpu_verify.py (the quantize kernels, whose exact path moved to exact.py).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 330 python3 -m pytest -q tests/cutedsl/test_row_amax_kernel.py \
  > $OUT/logs/test_row_amax.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_row_amax.log
timeout 220 python3 tests/cutedsl/gpu_verify.py --out $OUT/gpu_verify.json \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/gpu_verify.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)
