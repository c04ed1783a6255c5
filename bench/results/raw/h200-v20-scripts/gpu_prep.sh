# Shared setup of the final GPU calls (sourced): CuTe DSL, bytecode as pip would make it, paths.
bash .gpu/install.sh > $OUT/install.log 2>&1
site=$(python3 -c 'import site; print(site.getsitepackages()[0])')
python3 -m compileall -q -j 8 "$site/nvidia_cutlass_dsl" "$site/tvm_ffi" > /dev/null 2>&1
export PYTHONPATH=$PWD/packages/fos-reference/src:$PWD/packages/fos-cutedsl/src:$PWD/packages/fos-op/src
export PYTHONUNBUFFERED=1 FOS_CACHE_DIR=/tmp/fos-cache
