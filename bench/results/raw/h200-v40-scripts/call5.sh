# v40 call 5, carry [".gpu"]. The shipped tree (the rare-path knobs removed; the undecided
# branch in run-time loops): the bf16 quantize benchmark (every mode, bench.py's quantize
# shapes, 3 runs x 2 buffers, back to back beside the replay timing), then the 16x16 tests
# of the grouped and fake-quantize kernel files, which call 4's limits cut.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v40-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 210 python3 bench/bench.py --ops quantize --dtypes bfloat16 --repeat 3 --buffers 2 \
  --back-to-back --no-plot --out $OUT/h200-quantize-v40.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; grep -E "16x16|copy" $OUT/logs/bench.log | head -30
for spec in grouped:16x16:120 fake_quantize:16x16:190; do
  IFS=: read -r name k limit <<< "$spec"
  log=$OUT/logs/test_${name}_16x16.log
  timeout "$limit" python3 -m pytest -q -n 15 -p no:cacheprovider "tests/cutedsl/test_${name}_kernel.py" \
    -k "$k" -rA > "$log" 2>&1
  echo "$name -k $k rc=$? passed=$(grep -c PASSED "$log") ($((SECONDS - start)) s)"
  grep -E "^(FAILED|ERROR)" "$log" | head -5; tail -n 1 "$log"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
