# The next session's device calls for v23's two branches. wip/mse-fma holds all of
# wip/v23-eager (fos-cutedsl 0.6.0, fos-op 0.4.0: 0-d per-tensor amax, launchers for
# every eager op, the leaner eager path) plus mse's fused error sum, so verify on a
# checkout of wip/mse-fma: one tree, one cache. If only mse's checks fail, merge
# wip/v23-eager alone (its kernels' PTX is main's; the op call covers it).
# First, on the CPU machine, on that checkout: bash bench/gpu_cache.sh (the cache must
# match its fos_cutedsl sources; v23 left .gpu/fos-cache.tar.xz built from 5257af9's), and
# a copy of main's packages for the A/B timing:
#   rm -rf old-tree && mkdir old-tree && git archive 647098b packages/fos-{reference,cutedsl,op}/src \
#     bench/overhead.py bench/host_pieces.py | tar -x -C old-tree      (old-tree/ is in .git/info/exclude)
# Then, carry [".gpu", "old-tree"]: with the -9e cache, .gpu + old-tree + the tree are
# 66.4 MB of the 67.1 MB (64 MiB) a call carries (call 1 went without a 2.5 MB cache):
#   bash bench/results/raw/h200-v23-scripts/next_verify.sh op        (about 5 min)
#   bash bench/results/raw/h200-v23-scripts/next_verify.sh cutedsl   (the kernel suite, 540 s)
#   bash bench/results/raw/h200-v23-scripts/next_verify.sh mse       (gpu_verify.py, then the
#       quantize bench: mae against mse, every mode, bf16 and f16; about 8 min)
#   bash bench/results/raw/h200-v22-scripts/next_verify.sh grouped   (v22's grouped stage)
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt 2>/dev/null; git status --short >> $OUT/state.txt 2>/dev/null
tail -n 2 $OUT/install.log
case "$1" in
  op)
    # Does the parallel precompile find every variant in the carried cache?
    start=$(date +%s)
    for family in quantize fake_quantize dequantize nan_amax quantize_row_amax \
                  quantize_grouped nan_amax_grouped quantize_rowwise_columnwise; do
      for dtype in bfloat16 float16 float32; do
        python3 -m fos_cutedsl.precompile --family $family --dtype $dtype \
          > $OUT/logs/precompile-$family-$dtype.log 2>&1 &
      done
    done
    wait
    echo "precompile: $(( $(date +%s) - start )) s"
    tail -q -n 1 $OUT/logs/precompile-*.log | sort | uniq -c | head -30
    # The op-level GPU tests first (bits, graphs, compile), then the timing: this tree,
    # main's (old-tree/), this tree again, in one host state.
    timeout 200 python3 -m pytest -q -n 12 -p no:cacheprovider -rfE tests/op/test_gpu.py \
      tests/cutedsl/test_can_run.py tests/cutedsl/test_disk_cache.py \
      tests/cutedsl/test_compile_cache.py > $OUT/logs/pytest-op.log 2>&1
    echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-op.log | tail -n 20
    timeout 80 python3 bench/overhead.py --out $OUT/overhead-new-1.json > $OUT/logs/overhead-new-1.log 2>&1
    OLD=$PWD/old-tree/packages
    PYTHONPATH=$OLD/fos-reference/src:$OLD/fos-cutedsl/src:$OLD/fos-op/src:$PWD/old-tree/bench \
      timeout 150 python3 old-tree/bench/overhead.py --repeat 5 --out $OUT/overhead-old.json \
      > $OUT/logs/overhead-old.log 2>&1
    timeout 80 python3 bench/overhead.py --out $OUT/h200-op-overhead.json > $OUT/logs/overhead-new-2.log 2>&1
    timeout 80 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
    timeout 60 python3 bench/results/raw/h200-v23-scripts/probe.py > $OUT/logs/probe.log 2>&1
    for f in overhead-new-1 overhead-old overhead-new-2; do
      echo "== $f"; grep -E "us/call|target" $OUT/logs/$f.log | head -9
    done
    cat $OUT/logs/host_pieces.log ;;
  mse)
    timeout 380 python3 tests/cutedsl/gpu_verify.py --out $OUT/verify > $OUT/logs/verify.log 2>&1
    echo "gpu_verify rc=$?"; tail -n 12 $OUT/logs/verify.log
    timeout 200 python3 bench/bench.py --ops quantize --no-hot --no-compiled --no-fouroversix \
      --no-plot --out $OUT/h200-quantize.json > $OUT/logs/bench.log 2>&1
    echo "bench rc=$?"; tail -n 40 $OUT/logs/bench.log ;;
  cutedsl)
    start=$(date +%s)
    timeout 540 python3 -m pytest -q -n 14 -p no:cacheprovider -rfE --durations=15 tests/cutedsl \
      > $OUT/logs/pytest-cutedsl.log 2>&1
    echo "pytest rc=$? in $(( $(date +%s) - start )) s"
    grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-cutedsl.log | tail -n 25
    grep -A 17 "slowest" $OUT/logs/pytest-cutedsl.log | head -18 ;;
esac
