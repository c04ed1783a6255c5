# v22 call 5: bench/overhead.py again (call 4's fake_quantize, dequantize and nan_amax rows
# were 37-38 us, against 20-26 in call 3 and v21, with no change on their path).
bash .gpu/install.sh > /dev/null 2>&1; export PYTHONPATH=$PWD/packages/fos-reference/src:$PWD/packages/fos-cutedsl/src:$PWD/packages/fos-op/src:$PWD/bench FOS_CACHE_DIR=/tmp/fos-cache; timeout 100 python3 bench/overhead.py --repeat 3 --out $OUT/h200-op-overhead.json 2>&1 | tail -16
