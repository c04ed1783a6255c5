# v43 call 2, carry [".gpu"]. QuantizeConfig.table_ahead (each group's table reads a group
# early; persistent 1x16, 640 threads, 2 groups ahead): the grouped kernel's tunings
# (grouped_variants.py: bits on normals and bit patterns over 64 experts, then times at
# T = 32768, C = 7168 / 2048, 8 / 64 / 256 experts), then ab.py --set table-ahead for the
# per-tensor kernel at 32768x2048 and 8192x4096; the grouped kernel's persistent tests with
# the knob are not in this tree (a timing experiment first). Cut at 500 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 300 python3 bench/grouped_variants.py --out $OUT --tunings persistent \
  "persistent, 640 thr, 2 ahead" "persistent, table ahead" > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log | tail -n 30
timeout $((500 - SECONDS + start)) python3 bench/ab.py --set table-ahead \
  --shapes 32768x2048,8192x4096 --out $OUT > $OUT/logs/ab_table_ahead.log 2>&1
echo "ab table-ahead rc=$? ($((SECONDS - start)) s)"; tail -n 16 $OUT/logs/ab_table_ahead.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
