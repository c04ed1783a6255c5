"""Run one kernel variant a few times at 32768 x 7168, as a target for Nsight Compute.

    ncu --clock-control none -k regex:kernel_cutlass --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
        --section Occupancy --metrics smsp__inst_executed.sum \
        python bench/profile_target.py bfloat16 1x16 tensor '{"e4m3_codes": false}'

The pipe and memory profiles of ``bench/NOTES.md`` (v9) use
``--metrics 'regex:^sm__inst_executed_pipe_[a-z0-9_]+\\.sum$'`` and the ``lts__`` /
``l1tex__`` sector counts instead of the sections. The third argument is
``tensor`` or ``row``; the fourth, optional, is ``QuantizeConfig`` knobs as JSON.
"""

from __future__ import annotations

import json
import sys

import torch

import fos_reference
from fos_cutedsl.compile import compile_quantize


def main() -> None:
    dtype, block, amax = sys.argv[1], sys.argv[2], sys.argv[3]
    tuning = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    row_scaled = amax == "row"
    fn = compile_quantize(dtype, block, "mae", 256, row_scaled, "sm_90a", **tuning)
    rows, cols = 32768, 7168
    x = torch.randn(rows, cols, device="cuda").to(getattr(torch, dtype))
    gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
    for _ in range(3):
        fn(x, gamax, codes, scales)  # () per tensor, (R,) row-scaled
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
