# v21 call 8: the final row-amax tilings (warp to 2048, pair of warps to 4096, team beyond):
# their bits through the launcher and the op, and the op's bench rows.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench FOS_COMMIT=${1:-unknown}
mkdir -p $OUT/logs
timeout 150 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_row_amax_kernel.py \
  tests/op/test_gpu.py -k "row_amax or quantize_with_amax or register" > $OUT/logs/pytest.log 2>&1
rc=$?; echo "pytest rc=$rc"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 12
timeout 60 python3 bench/bench.py --ops quantize_row_amax \
  --buffers 2 --no-plot --no-compiled --out $OUT/h200-row-amax.json > $OUT/logs/bench-row-amax.log 2>&1
echo "bench rc=$?"; grep -E "fos |fos_cutedsl " $OUT/logs/bench-row-amax.log | tail -n 12
