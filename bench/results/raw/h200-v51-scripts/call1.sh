# v51 call 1, carry [".gpu"]: v50's call 2 without ncu (the grouped persistent kernel two
# groups ahead, in 640-thread CTAs, with the offsets in shared memory, beside the default:
# bits, times at 1 / 8 / 64 / 256 experts; the split study), then 0.6.18's grouped GPU tests:
# the parity test of every setup in bf16, the kernel's graph / many-experts / per-CTA
# tests and tests/op/test_grouped.py.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v51-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/grouped_variants.py --tunings persistent "persistent, 2 ahead" \
  "persistent, 640 threads" "2 ahead, 640 threads" "shared offsets" \
  --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout 45 python3 bench/results/raw/h200-v50-scripts/split_study.py > $OUT/logs/split_study.log 2>&1
echo "split_study rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_study.log
timeout 90 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and bfloat16" > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
timeout 45 python3 -m pytest -q -n 8 -p no:cacheprovider tests/op/test_grouped.py \
  > $OUT/logs/pytest_op.log 2>&1
echo "op grouped tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op.log
timeout 60 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "graph or many_experts or per_cta or cannot_run" > $OUT/logs/pytest_kernel.log 2>&1
echo "kernel grouped tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_kernel.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
