# v55 call 2, carry [".gpu"] (any GPU): the kernel test files v55's calls cut short, first
# half: test_grouped_kernel.py whole (v55: 79 of 103 in 240 s), then the row-amax, amax and
# dequantize kernel files; each step only if it can end before DEADLINE s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v55-scripts/call2.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
t=tests/cutedsl
timeout $(($(left) - 150)) python3 -m pytest -q -n 15 -p no:cacheprovider $t/test_grouped_kernel.py \
  > $OUT/logs/pytest_grouped.log 2>&1
echo "grouped kernel tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_grouped.log
[ $(left) -gt 40 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
  $t/test_row_amax_kernel.py $t/test_amax_kernel.py $t/test_dequantize_kernel.py \
  > $OUT/logs/pytest_elementwise.log 2>&1
echo "row-amax, amax, dequantize tests rc=$? ($((SECONDS - start)) s)"
tail -n 3 $OUT/logs/pytest_elementwise.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
