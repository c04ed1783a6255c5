# GPU call A: kernels' parity tests, row-amax bench, the full bench session (short repeats).
set -uo pipefail
bash .gpu/install.sh > $OUT/install.log 2>&1
site=$(python3 -c 'import site; print(site.getsitepackages()[0])')
# pip compiles bytecode at install time; the bundle's tar does not: do it once, as pip would.
python3 -m compileall -q -j 8 "$site/nvidia_cutlass_dsl" "$site/tvm_ffi" > /dev/null 2>&1
export PYTHONPATH=$PWD/packages/fos-reference/src:$PWD/packages/fos-cutedsl/src:$PWD/packages/fos-op/src
export PYTHONUNBUFFERED=1 FOS_CACHE_DIR=/tmp/fos-cache FOS_COMMIT=${1:-unknown}
timeout 240 python3 -m pytest -q -n 8 -p no:cacheprovider "${@:2}" > $OUT/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 25 $OUT/pytest.log | grep -E "passed|failed|FAILED|ERROR" | head -30
timeout 60 python3 bench/row_amax.py > $OUT/row_amax.log 2>&1; echo "row_amax rc=$?"; tail -n 12 $OUT/row_amax.log
timeout 150 python3 bench/bench.py --quick --out $OUT/quick.json --no-plot > $OUT/quick.log 2>&1; echo "bench quick rc=$?"; tail -n 45 $OUT/quick.log
