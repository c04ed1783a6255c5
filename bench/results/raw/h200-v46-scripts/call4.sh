# v46 call 4, carry [".gpu"]: on an H200, 0.6.15's one-read kernel: issue 26's benchmark
# rows (3 runs x 2 buffers), then dual_variants. On another card: the kernel's parity tests
# (all but the tunings) on the final tree, within the session's last device time.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v46-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
name=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$name"
case $name in
  *H200*) ;;
  *) timeout 140 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_dual_kernel.py \
       -k "not tunings" > $OUT/logs/test_dual.log 2>&1
     echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_dual.log
     tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs; exit 0 ;;
esac
timeout 120 python3 bench/bench.py --ops quantize_rowwise_columnwise \
  --dtypes bfloat16 --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot \
  --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/bench.log
timeout 100 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=False| us " $OUT/logs/dual_variants.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
