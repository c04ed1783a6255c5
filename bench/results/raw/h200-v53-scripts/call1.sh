# v53 call 1, carry [".gpu"]. On an H200: the whole benchmark, 3 runs x 2 buffers, back to
# back, no peers (issue 27 asks for three runs' spread; h200.json is 0.6.12's). On any other
# GPU: 0.6.20's bits (gpu_verify.py, the grouped kernel's test file, the op's GPU tests).
# Each step only if it can end before DEADLINE seconds; the bench JSON is written per case.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=560] bash bench/results/raw/h200-v53-scripts/call1.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-560}
left() { echo $((deadline - (SECONDS - start))); }
source bench/results/raw/h200-v38-scripts/prep.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "$gpu"
case $gpu in
  *H200*)
    timeout $(left) python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back \
      --no-compiled --no-fouroversix --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
    echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 80 $OUT/logs/bench.log ;;
  *)
    timeout 200 python3 tests/cutedsl/gpu_verify.py --out $OUT > $OUT/logs/gpu_verify.log 2>&1
    echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 15 $OUT/logs/gpu_verify.log
    [ $(left) -gt 60 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
      tests/cutedsl/test_grouped_kernel.py > $OUT/logs/pytest_grouped.log 2>&1
    echo "grouped kernel tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_grouped.log
    [ $(left) -gt 60 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
      tests/op > $OUT/logs/pytest_op.log 2>&1
    echo "op tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op.log ;;
esac
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
