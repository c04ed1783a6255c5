# v41 call 1, carry [".gpu"], on branch wip/v41-exact-rolled (the 16x16 exact path in
# run-time loops, tile_math.exact_candidates). The placements again (rare_latency.py
# --default: a NaN tile in the last item took 48.4-49.3 us on 0.6.10 and 0.6.11, 33.3-33.5
# with none), then the bits of every 16x16 kernel: the 16x16 tests of the quantize (with
# the many-items test), fake-quantize and grouped kernel files (their nan_inf, dtype_max,
# subnormal and amax_special kinds take the exact path).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v41-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 100 python3 bench/results/raw/h200-v40-scripts/rare_latency.py --default \
  > $OUT/logs/rare_latency_default.log 2>&1
echo "rare_latency --default rc=$? ($((SECONDS - start)) s)"; head -n 16 $OUT/logs/rare_latency_default.log
for spec in quantize:"16x16 or many_items":150 fake_quantize:16x16:170 grouped:16x16:160; do
  IFS=: read -r name k limit <<< "$spec"
  log=$OUT/logs/test_${name}_16x16.log
  timeout "$limit" python3 -m pytest -q -n 15 -p no:cacheprovider "tests/cutedsl/test_${name}_kernel.py" \
    -k "$k" -rA > "$log" 2>&1
  echo "$name -k '$k' rc=$? passed=$(grep -c PASSED "$log") ($((SECONDS - start)) s)"
  grep -E "^(FAILED|ERROR)" "$log" | head -5; tail -n 1 "$log"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
