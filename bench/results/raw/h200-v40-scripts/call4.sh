# v40 call 4, carry [".gpu"]. The undecided 16x16 branch in run-time loops (tile_math's
# grid_tile_errors and candidate_codes): its placements timed (rare_latency.py --rolled),
# then the bits of every kernel that runs it: the 16x16 tests of the quantize, fake-quantize
# and grouped kernel files (the many-items test has hundreds of undecided tiles a case).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v40-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 150 python3 bench/results/raw/h200-v40-scripts/rare_latency.py --rolled \
  > $OUT/logs/rare_latency_rolled.log 2>&1
echo "rare_latency --rolled rc=$? ($((SECONDS - start)) s)"; tail -n 25 $OUT/logs/rare_latency_rolled.log
for spec in quantize:16x16:190 fake_quantize:16x16:110 grouped:16x16:100; do
  IFS=: read -r name k limit <<< "$spec"
  log=$OUT/logs/test_${name}_16x16.log
  timeout "$limit" python3 -m pytest -q -n 15 -p no:cacheprovider "tests/cutedsl/test_${name}_kernel.py" \
    -k "$k or many_items" -rA > "$log" 2>&1
  echo "$name -k $k rc=$? passed=$(grep -c PASSED "$log") ($((SECONDS - start)) s)"
  grep -E "^(FAILED|ERROR)" "$log" | head -5; tail -n 1 "$log"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
