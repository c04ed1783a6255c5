# v37 call 4, carry [".gpu"]. aa26924, the rest that call 3 did not reach, narrowed: the
# grouped persistent and per-CTA-table parity (every kind), row-amax on the new kind, and
# gpu_verify_fake.py.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v37-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt
timeout 190 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise or per_cta_tables" > $OUT/logs/test_grouped.log 2>&1
echo "grouped rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_grouped.log
timeout 100 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_row_amax_kernel.py \
  -k outlier > $OUT/logs/test_row_amax.log 2>&1
echo "row_amax rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_row_amax.log
timeout $((450 - (SECONDS - start))) python3 tests/cutedsl/gpu_verify_fake.py --out $OUT \
  > $OUT/logs/fake.log 2>&1
echo "gpu_verify_fake rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/fake.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
