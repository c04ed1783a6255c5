# v50 call 3 (call 2 trimmed to the device time left), carry [".gpu"]: the grouped
# persistent kernel with two groups' loads in flight and with the offsets in shared memory
# beside the default: bits, times at 1 / 8 / 64 / 256 experts, the split study, the parity
# test of both tunings in bf16.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v50-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 100 python3 bench/grouped_variants.py --tunings persistent "persistent, 2 ahead" \
  "shared offsets" --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout 40 python3 bench/results/raw/h200-v50-scripts/split_study.py > $OUT/logs/split_study.log 2>&1
echo "split_study rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_study.log
timeout 70 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and bfloat16 and not 1-ahead and not int32" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
