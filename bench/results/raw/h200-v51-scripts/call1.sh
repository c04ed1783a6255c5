# v51 call 1, carry [".gpu"]: the grouped persistent kernel two groups ahead, in 640-thread
# CTAs, with the offsets in shared memory, beside the default (bits, times at 1 / 8 / 64 /
# 256 experts); 0.6.18's grouped GPU tests (the parity test of every setup in bf16,
# tests/op/test_grouped.py, the kernel's graph / many-experts / per-CTA tests); v50's split
# study. Steps in that order, each only if it can end before DEADLINE seconds.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=420] bash bench/results/raw/h200-v51-scripts/call1.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-420}
fits() { [ $((SECONDS - start + $1)) -le $deadline ]; }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
fits 150 && timeout 150 python3 bench/grouped_variants.py --tunings persistent \
  "persistent, 2 ahead" "persistent, 640 threads" "2 ahead, 640 threads" "shared offsets" \
  --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
fits 90 && timeout 90 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and bfloat16" > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
fits 45 && timeout 45 python3 -m pytest -q -n 8 -p no:cacheprovider tests/op/test_grouped.py \
  > $OUT/logs/pytest_op.log 2>&1
echo "op grouped tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op.log
fits 45 && timeout 45 python3 bench/results/raw/h200-v50-scripts/split_study.py \
  > $OUT/logs/split_study.log 2>&1
echo "split_study rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_study.log
fits 60 && timeout 60 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "graph or many_experts or per_cta or cannot_run" > $OUT/logs/pytest_kernel.log 2>&1
echo "kernel grouped tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_kernel.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
