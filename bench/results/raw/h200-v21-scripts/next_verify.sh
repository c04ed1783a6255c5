# For the next session's first device calls: the GPU suite on fos-cutedsl 0.5.0 in parts
# that each fit one call (the whole suite has not fit one call since v19), then the
# one-process verification stages never run (grouped, layouts).
#   bash bench/results/raw/h200-v21-scripts/next_verify.sh A   (fake-quantize kernel tests)
#   ... B   (amax, dequantize, grouped, quantize, pinned PTX, fast algebra, the rest)
#   ... C   (gpu_verify_elementwise.py --stages grouped layouts)
#   ... D   (gpu_verify.py: the sweep, the fuzz, the E2M1 sweep, one input over 2^31)
#   ... E   (row-amax register rows with the amax given: bits, then row_amax_variants.py)
# Run in v21 already: test_dual_kernel, test_row_amax_kernel, test_quantize_kernel,
# test_disk_cache, test_compile_cache, test_can_run and tests/op/test_gpu.py.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "part $1"; date -u; } > $OUT/logs/state.txt
case "$1" in
  A) timeout 540 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
       tests/cutedsl/test_fake_quantize_kernel.py > $OUT/logs/pytest-A.log 2>&1
     echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-A.log | tail -n 20 ;;
  B) timeout 540 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl \
       --ignore tests/cutedsl/test_fake_quantize_kernel.py --ignore tests/cutedsl/test_dual_kernel.py \
       --ignore tests/cutedsl/test_row_amax_kernel.py --ignore tests/cutedsl/test_quantize_kernel.py \
       --ignore tests/cutedsl/test_disk_cache.py > $OUT/logs/pytest-B.log 2>&1
     echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-B.log | tail -n 20 ;;
  C) timeout 540 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped layouts \
       --out $OUT/gpu_verify_elementwise.json > $OUT/logs/verify-C.log 2>&1
     echo "verify rc=$?"; tail -n 20 $OUT/logs/verify-C.log ;;
  D) timeout 540 python3 tests/cutedsl/gpu_verify.py --out $OUT \
       > $OUT/logs/verify-D.log 2>&1
     echo "verify rc=$?"; tail -n 20 $OUT/logs/verify-D.log ;;
  E) timeout 200 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
       tests/cutedsl/test_row_amax_kernel.py -k given > $OUT/logs/pytest-E.log 2>&1
     echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-E.log | tail -n 20
     PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 200 python3 bench/row_amax_variants.py --out $OUT \
       > $OUT/logs/row_amax_variants.log 2>&1
     echo "variants rc=$?"; tail -n 30 $OUT/logs/row_amax_variants.log ;;
esac
date -u >> $OUT/logs/state.txt
