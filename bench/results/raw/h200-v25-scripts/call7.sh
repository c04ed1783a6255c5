# v25 call 7: the 10 grouped 16x16 tests call 6's cut left, then bench.py's quantize
# at 8192x4096, 8192x7168, 32768x4096, 32768x7168, bf16, mae and mse, 2 buffers,
# back to back too. Carry [".gpu"].
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
T=tests/cutedsl/test_grouped_kernel.py::test_quantize_bitwise_parity
ids=""
for v in float16-16x16-mse-256-torch.int32 float16-16x16-mse-448-torch.int32 \
         float32-16x16-mae-256-torch.int32 float32-16x16-mae-256-torch.int64 \
         float32-16x16-mae-448-torch.int32 float32-16x16-mae-448-torch.int64 \
         float32-16x16-mse-256-torch.int32 float32-16x16-mse-256-torch.int64 \
         float32-16x16-mse-448-torch.int32 float32-16x16-mse-448-torch.int64; do
  ids="$ids $T[torch.$v]"
done
: timeout 150 python3 -m pytest -v -n 10 -p no:cacheprovider -rfE $ids > $OUT/logs/pytest.log 2>&1
: echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 12
timeout 130 python3 bench/bench.py --ops quantize --rows 8192 32768 --cols 4096 7168 \
  --dtypes bfloat16 --err-modes mae mse --no-hot --back-to-back --no-compiled --no-fouroversix \
  --buffers 2 --no-plot --out $OUT/h200-quantize.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; tail -n 28 $OUT/logs/bench.log | cut -c1-150
