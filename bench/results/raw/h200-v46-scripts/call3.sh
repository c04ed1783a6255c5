# v46 call 3, carry [".gpu"]: 128-row tiles (3 CTAs an SM: 80 registers without a spill
# since call 1's change) against the default, in dual_variants, and the tile-row tunings test; the op
# layer's one-read GPU tests; issue 26's benchmark rows (3 runs x 2 buffers) on the final kernel code.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v46-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=False| us " $OUT/logs/dual_variants.log
timeout 170 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_dual_kernel.py \
  -k "tunings and tile_rows" > $OUT/logs/test_tiles.log 2>&1
echo "tile tunings rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_tiles.log | head -20
tail -n 2 $OUT/logs/test_tiles.log
timeout 150 python3 -m pytest -q -n 15 -p no:cacheprovider tests/op/test_gpu.py \
  -k "rowwise_columnwise or layouts or rowwise_alone" > $OUT/logs/test_op.log 2>&1
echo "op tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_op.log | head -20
tail -n 2 $OUT/logs/test_op.log
timeout 120 python3 bench/bench.py --ops quantize_rowwise_columnwise \
  --dtypes bfloat16 --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot \
  --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
