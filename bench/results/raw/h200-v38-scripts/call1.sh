# v38 call 1, carry [".gpu"]. QuantizeConfig.undecided_warp (off; built in v37, never run):
# its parity tests, then ab.py's "undecided-warp" set on normal and outlier-channel data.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v38-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 150 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k "undecided_warp or many_items" > $OUT/logs/test_undecided_warp.log 2>&1
echo "test_undecided_warp rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_undecided_warp.log
for data in normal outlier_channels; do
  mkdir -p $OUT/ab-$data
  timeout 150 python3 bench/ab.py --set undecided-warp --shapes 32768x7168,8192x4096 \
    --data $data --out $OUT/ab-$data > $OUT/logs/ab-$data.log 2>&1
  echo "ab $data rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/ab-$data.log
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
