# Final call 1: the whole GPU test suite, the verification scripts, the row-amax tunings.
set -uo pipefail
export FOS_COMMIT=${1:-unknown}
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit $FOS_COMMIT"; date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/logs/state.txt
timeout 330 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl tests/op/test_gpu.py > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|FAILED|ERROR" $OUT/logs/pytest.log | tail -n 30
timeout 100 python3 tests/cutedsl/gpu_verify_elementwise.py --out $OUT/h200-elementwise-verify.json > $OUT/logs/verify-elementwise.log 2>&1
echo "verify elementwise rc=$?"; tail -n 8 $OUT/logs/verify-elementwise.log
timeout 100 python3 tests/cutedsl/gpu_verify_fake.py --out $OUT/h200-fake-verify.json > $OUT/logs/verify-fake.log 2>&1
echo "verify fake rc=$?"; tail -n 8 $OUT/logs/verify-fake.log
timeout 60 python3 scratch/row_amax_sweep.py > $OUT/logs/row-amax-sweep.log 2>&1; echo "sweep rc=$?"; cat $OUT/logs/row-amax-sweep.log | tail -n 17
date -u >> $OUT/logs/state.txt
tar -C $OUT -czf $OUT/logs1.tgz logs && rm -rf $OUT/logs
