# v44 call 1, carry [".gpu"]. dual_strips (issue 26): warps on 16-row strips, the column
# words loaded straight from x (no shared-memory transpose, no barrier after the table).
# dual_variants.py (each variant's bits checked on normals and bit patterns of a ragged
# shape, then timed at 32768x7168, 8192x4096, 32768x2048 bf16 mae, beside the one-read
# kernel of today, now with prmt column repacking), then the strips kernel's bits test
# (every dtype, mode, layout, kind and tuning) and the one-read kernel's. Cut at 560 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v44-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 240 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/dual_variants.log | tail -n 60
timeout $((540 - SECONDS + start)) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_strips_kernel.py tests/cutedsl/test_dual_kernel.py \
  > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 3 $OUT/logs/test_dual.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
