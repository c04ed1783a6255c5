# v47 call 1, carry [".gpu"]: the one-read kernel's undecided groups redone after the tile
# (DualConfig.undecided_after) against 0.6.15's default in dual_variants (under the amax
# sweep too), and the tunings test's undecided_after entries.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v47-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=False| us " $OUT/logs/dual_variants.log
timeout 90 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_dual_kernel.py \
  -k "tunings and undecided_after" > $OUT/logs/test_after.log 2>&1
echo "after tunings rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_after.log | head -20
tail -n 2 $OUT/logs/test_after.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
