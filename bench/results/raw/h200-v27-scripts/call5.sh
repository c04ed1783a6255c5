# v27 call 5: bench.py's quantize_grouped rows (the persistent grouped kernel through
# fos_op, 8 / 64 / 256 experts, and the per-expert loop at 64) beside the quantize rows
# of the same shapes, bf16, two buffers a case; kernels compiled on the device.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
export FOS_COMMIT=$(git rev-parse --short=12 HEAD)
timeout 250 python3 bench/bench.py --ops quantize_grouped quantize --rows 32768 --cols 2048 7168 \
  --dtypes bfloat16 --buffers 2 --no-compiled --no-fouroversix --no-hot --no-plot \
  --out $OUT/h200-grouped-v27.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; grep -vE "^\s*$" $OUT/logs/bench.log | tail -n 40
