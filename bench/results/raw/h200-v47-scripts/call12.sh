# v47 calls 1 and 2 in one, timings first (the device time left was short): dual_variants
# (DualConfig.undecided_after against 0.6.15's default, under the amax sweep too), ab.py's
# "undecided-after" set (QuantizeConfig.undecided_after, the persistent 1x16 kernel) on
# normal data, then both tunings' parity tests with what time is left under LIMIT s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> LIMIT=<s> bash bench/results/raw/h200-v47-scripts/call12.sh
set -uo pipefail
start=$SECONDS
left() { echo $(( ${LIMIT:-400} - SECONDS + start )); }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=False| us " $OUT/logs/dual_variants.log
mkdir -p $OUT/ab-normal
timeout 110 python3 bench/ab.py --set undecided-after --shapes 32768x7168,8192x4096,32768x2048 \
  --out $OUT/ab-normal > $OUT/logs/ab-normal.log 2>&1
echo "ab rc=$? ($((SECONDS - start)) s)"; tail -n 16 $OUT/logs/ab-normal.log
timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_dual_kernel.py \
  tests/cutedsl/test_quantize_kernel.py -k "undecided_after" > $OUT/logs/test_after.log 2>&1
echo "after tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_after.log | head -20
tail -n 2 $OUT/logs/test_after.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
