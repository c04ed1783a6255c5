# v39 calls 4 and 5, carry [".gpu"]: one kernel test file whole (call 2's limits cut them
# short); run as inline commands, written here as one script with the file and the limit.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v39-scripts/whole_file.sh grouped 420
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v39-scripts/whole_file.sh row_amax 280
name=$1 limit=$2
source bench/results/raw/h200-v38-scripts/prep.sh
log=$OUT/logs/test_${name}_full.log
timeout "$limit" python3 -m pytest -q -n 15 -p no:cacheprovider "tests/cutedsl/test_${name}_kernel.py" -rA \
  > "$log" 2>&1
echo rc=$?; grep -c PASSED "$log"; grep -E "FAILED|ERROR" "$log" | head; tail -n 2 "$log"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
