# For the next session's first device call. Build the kernel cache here first
# (bash bench/gpu_cache.sh: 4 min on this machine, .gpu/fos-cache.tar.xz, unpacked by
# gpu_prep.sh), then: the parallel precompile fills whatever it lacks (a branch's
# changed sources: another fingerprint), then the whole GPU suite, whose workers load
# each variant instead of compiling it. v22 ran the suite in parts that each hit their
# time limit (whether compiles or the tests' own work dominate was not measured).
#   bash bench/results/raw/h200-v22-scripts/next_verify.sh precompile   (then the suite)
#   ... grouped   (gpu_verify_elementwise.py --stages grouped, cut at 380 s in v22)
#   ... fake-launcher   (on a checkout of wip/fake-launcher: the fake-quantize and
#       dequantize plans on their launchers; the op GPU tests, then bench/overhead.py)
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
mkdir -p $OUT/logs
case "$1" in
  precompile)
    start=$(date +%s)
    for family in quantize fake_quantize dequantize nan_amax quantize_row_amax \
                  quantize_grouped nan_amax_grouped quantize_rowwise_columnwise; do
      for dtype in bfloat16 float16 float32; do
        python3 -m fos_cutedsl.precompile --family $family --dtype $dtype \
          > $OUT/logs/precompile-$family-$dtype.log 2>&1 &
      done
    done
    wait
    echo "precompile: $(( $(date +%s) - start )) s"; tail -q -n 1 $OUT/logs/precompile-*.log
    timeout 420 python3 -m pytest -q -n 12 -p no:cacheprovider -rfE tests/cutedsl \
      tests/op/test_gpu.py > $OUT/logs/pytest.log 2>&1
    echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 20 ;;
  grouped)
    timeout 540 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped \
      --out $OUT/verify-grouped.json > $OUT/logs/verify-grouped.log 2>&1
    echo "verify rc=$?"; tail -n 12 $OUT/logs/verify-grouped.log ;;
  fake-launcher)
    timeout 300 python3 -m pytest -q -n 12 -p no:cacheprovider -rfE tests/op/test_gpu.py \
      tests/cutedsl/test_can_run.py > $OUT/logs/pytest-fake.log 2>&1
    echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-fake.log | tail -n 20
    PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 90 python3 bench/overhead.py \
      --out $OUT/h200-op-overhead.json 2>&1 | tail -n 16 ;;
esac
