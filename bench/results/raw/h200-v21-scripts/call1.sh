# v21 call 1: the L2 study (flush modes, reversed amax), the untested tunings' bits
# (one-read stage_columns / rows_undecided_inline, grouped per-CTA tables), their times.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
timeout 150 python3 bench/l2_study.py --out $OUT > $OUT/logs/l2_study.log 2>&1
echo "l2 rc=$?"; grep -v "^ *$" $OUT/logs/l2_study.log | tail -n 50
timeout 150 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
  tests/cutedsl/test_dual_kernel.py tests/cutedsl/test_grouped_kernel.py -k "tunings or per_cta" \
  > $OUT/logs/pytest-tunings.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-tunings.log | tail -n 12
timeout 110 python3 bench/grouped_variants.py --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped rc=$?"; tail -n 16 $OUT/logs/grouped_variants.log
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "variants rc=$?"; grep -v "^ *$" $OUT/logs/dual_variants.log | tail -n 40
