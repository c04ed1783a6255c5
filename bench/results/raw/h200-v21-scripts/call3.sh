# v21 call 3: the pipelined row-amax kernel (bits, then times beside its ceiling), the
# op's amax-layout GPU test, the eager path's host pieces after the amax-view change.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
timeout 240 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_row_amax_kernel.py \
  tests/op/test_gpu.py -k "row_amax or pipelined or amax_as_view or kernel_path or graph" \
  > $OUT/logs/pytest-row-amax.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-row-amax.log | tail -n 12
timeout 200 python3 bench/row_amax_variants.py --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "variants rc=$?"; tail -n 40 $OUT/logs/row_amax_variants.log
timeout 60 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
echo "host rc=$?"; head -n 4 $OUT/logs/host_pieces.log
python3 -c "import torch, tvm_ffi; print('torch dlpack exchange api:', hasattr(torch.Tensor, '__dlpack_c_exchange_api__'))"
