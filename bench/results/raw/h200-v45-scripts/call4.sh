# v45 call 4, carry [".gpu"]: the op layer's GPU tests that run the one-read kernel
# (tests/op/test_gpu.py: its layout tests, graph capture and replay included) on 0.6.14.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v45-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -n 15 -p no:cacheprovider tests/op/test_gpu.py \
  -k "rowwise_columnwise or layouts or rowwise_alone" > $OUT/logs/test_op_gpu.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR" $OUT/logs/test_op_gpu.log | head
tail -n 2 $OUT/logs/test_op_gpu.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
