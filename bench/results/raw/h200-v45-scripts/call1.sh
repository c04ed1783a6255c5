# v45 call 1, carry [".gpu"], on branch wip/v44-column-words-once: the one-read kernel's
# tests with setup_table as the default (the launcher allocating the workspace) and the
# column words read once; dual_variants against main's default; then the layouts stage of
# gpu_verify_elementwise.py on this tree.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v45-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 240 python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
timeout $((570 - SECONDS + start)) python3 tests/cutedsl/gpu_verify_elementwise.py --stages layouts \
  --out $OUT/layouts-verify.json > $OUT/logs/verify_layouts.log 2>&1
echo "verify layouts rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/verify_layouts.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
