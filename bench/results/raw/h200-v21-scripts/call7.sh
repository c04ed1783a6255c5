# v21 call 7: the register-row tilings of the row-amax kernel (a warp a row to 2048 columns,
# two warps a row to 7168): bits, the tunings' times, the bench rows of the op.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench FOS_COMMIT=${1:-unknown}
mkdir -p $OUT/logs
timeout 200 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_row_amax_kernel.py \
  tests/op/test_gpu.py -k "row_amax or quantize_with_amax or register" > $OUT/logs/pytest.log 2>&1
rc=$?; echo "pytest rc=$rc"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 12
timeout 150 python3 bench/row_amax_variants.py --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "variants rc=$?"; tail -n 40 $OUT/logs/row_amax_variants.log
if [ "$rc" = 0 ]; then
  timeout 100 python3 bench/bench.py --ops quantize_row_amax --buffers 2 --no-plot \
    --out $OUT/h200-row-amax.json > $OUT/logs/bench-row-amax.log 2>&1
  echo "bench rc=$?"; tail -n 12 $OUT/logs/bench-row-amax.log
fi
