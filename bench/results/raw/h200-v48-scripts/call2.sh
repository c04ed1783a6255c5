# v48 call 2, carry [".gpu"]: the grouped persistent kernel's setup launch beside the kernel
# (setup_threads / setup_per_sm): bits (grouped_variants' check and the persistent parity
# test with both setups), then times at 1 / 8 / 64 / 256 experts, both widths.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v48-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/grouped_variants.py --tunings persistent "setup beside" \
  "setup 64 beside" --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout 200 python3 -m pytest -q -x -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity or graph_replay" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/pytest.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
