# v22 call 2: the load-policy sweep (bench/load_policy.py), then the GPU suite's part B.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/logs/state.txt 2>/dev/null; date -u >> $OUT/logs/state.txt
PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 250 python3 bench/load_policy.py --out $OUT > $OUT/logs/load_policy.log 2>&1
echo "load_policy rc=$?"; cat $OUT/logs/load_policy.log
python3 -c "import torch; print('dlpack exchange api:', hasattr(torch.Tensor, '__dlpack_c_exchange_api__'))"
timeout 300 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl \
  --ignore tests/cutedsl/test_fake_quantize_kernel.py --ignore tests/cutedsl/test_dual_kernel.py \
  --ignore tests/cutedsl/test_row_amax_kernel.py --ignore tests/cutedsl/test_quantize_kernel.py \
  --ignore tests/cutedsl/test_disk_cache.py > $OUT/logs/pytest-B.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-B.log | tail -n 20; tail -n 3 $OUT/logs/pytest-B.log
date -u >> $OUT/logs/state.txt
