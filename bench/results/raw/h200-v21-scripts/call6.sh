# v21 call 6: the warp-per-row row-amax kernel: its bits (and the team kernel's), the op's
# row-amax GPU tests, the tunings' times; then the benchmark session again if all passed.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench FOS_COMMIT=${1:-unknown}
mkdir -p $OUT/logs
timeout 200 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_row_amax_kernel.py \
  tests/op/test_gpu.py -k "row_amax or quantize_with_amax or warp" > $OUT/logs/pytest.log 2>&1
rc=$?; echo "pytest rc=$rc"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 12
timeout 150 python3 bench/row_amax_variants.py --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "variants rc=$?"; tail -n 40 $OUT/logs/row_amax_variants.log
if [ "$rc" = 0 ] && [ "${2:-}" = bench ]; then
  OUT=$OUT/logs bash bench/gpu_session.sh --repeat 1 --buffers 2 > $OUT/logs/session.txt 2>&1
  mv $OUT/logs/h200.json $OUT/logs/h200.png $OUT/logs/h200-op-overhead.json $OUT/logs/h200-cold-start.json $OUT/ 2>/dev/null
  grep -E "row_amax|== " $OUT/logs/session.txt
fi
