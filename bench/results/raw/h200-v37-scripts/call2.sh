# v37 call 2, carry [".gpu"]. aa26924 (ties of equal values resolved without SPEC's sums):
# the data kinds timed again, then test_quantize_kernel.py (with the outlier_channels kind)
# and gpu_verify.py.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v37-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short | grep -v "bench/results/raw/" >> $OUT/state.txt
timeout 150 python3 bench/results/raw/h200-v37-scripts/data_kinds.py 8192x4096,32768x7168 > $OUT/kinds.log 2>&1
echo "kinds rc=$? ($((SECONDS - start)) s)"; grep -v "student\|lognormal\|0.1%" $OUT/kinds.log
timeout 250 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  > $OUT/logs/test_quantize.log 2>&1
echo "test_quantize rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_quantize.log
timeout $((575 - (SECONDS - start))) python3 tests/cutedsl/gpu_verify.py --out $OUT/gpu_verify.json \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/gpu_verify.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
