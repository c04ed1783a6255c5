# v21 call 4: the tests the float8 launchers, the amax views and the lazy FOS_STRICT touch
# (quantize kernel, disk cache, the op's GPU tests), then the host pieces.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
{ git log --oneline -1 2>/dev/null || echo "${FOS_COMMIT:-unknown}"; date -u; } > $OUT/logs/state.txt
timeout 330 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/op/test_gpu.py \
  tests/cutedsl/test_quantize_kernel.py tests/cutedsl/test_disk_cache.py \
  tests/cutedsl/test_compile_cache.py tests/cutedsl/test_can_run.py > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 15


timeout 60 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
echo "host rc=$?"; cat $OUT/logs/host_pieces.log
