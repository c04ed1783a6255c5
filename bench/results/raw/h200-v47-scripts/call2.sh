# v47 call 2, carry [".gpu"]: the persistent 1x16 kernel's undecided groups redone after
# the unit (QuantizeConfig.undecided_after): its parity tests, then ab.py's
# "undecided-after" set on normal data.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v47-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 80 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k "undecided_after" > $OUT/logs/test_after.log 2>&1
echo "test_after rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_after.log
for data in normal; do
  mkdir -p $OUT/ab-$data
  timeout 110 python3 bench/ab.py --set undecided-after --shapes 32768x7168,8192x4096,32768x2048 \
    --data $data --out $OUT/ab-$data > $OUT/logs/ab-$data.log 2>&1
  echo "ab $data rc=$? ($((SECONDS - start)) s)"; tail -n 16 $OUT/logs/ab-$data.log
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
