# v22 call 6 (the last ~100 s of device time): cupti_probe.py
bash .gpu/install.sh > /dev/null 2>&1
export PYTHONPATH=$PWD/packages/fos-reference/src:$PWD/packages/fos-cutedsl/src:$PWD/packages/fos-op/src:$PWD/bench FOS_CACHE_DIR=/tmp/fos-cache
timeout 60 python3 bench/results/raw/h200-v22-scripts/cupti_probe.py 2>&1 | grep -v Warning | tail -20
