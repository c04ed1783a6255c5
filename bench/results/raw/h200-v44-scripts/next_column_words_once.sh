# For the next session, on branch wip/v44-column-words-once (CPU-checked only): the one-read
# kernel reads each column task's 16 staged words once for both halves of a 16-bit word
# (they were read twice: load_shared is a side-effecting asm, so ptxas kept both; 16 LDS a
# thread fewer, static SASS). Its tests, then dual_variants.py against main's timings, with
# "4 CTAs an SM" (min_blocks=4: 64 registers, no spill, 9 more SASS on the hot path; the
# default's 80 registers fit 3 CTAs).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v44-scripts/next_column_words_once.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 300 python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout $((420 - SECONDS + start)) python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
