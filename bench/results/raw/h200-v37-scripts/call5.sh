# v37 call 5, carry [".gpu"]. 0.6.9 through fos_op on outlier-channel inputs:
# bench.py --data outlier_channels, quantize, bf16 mae, three modes (bits checked first).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v37-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
git log --oneline -1 > $OUT/state.txt
timeout 170 python3 bench/bench.py --ops quantize --rows 32768 8192 --cols 7168 4096 \
  --dtypes bfloat16 --data outlier_channels --no-compiled --no-fouroversix --no-hot \
  --back-to-back --no-plot --out $OUT/h200-outlier-v37.json > $OUT/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 25 $OUT/bench.log
