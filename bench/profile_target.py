"""Run kernel variants as targets for Nsight Compute: a warm-up call each, then one
profiled call each, in the order given, between ``cudaProfilerStart`` and ``Stop``.

    ncu --profile-from-start off --clock-control none --section WarpStateStats \
        python bench/profile_target.py --shape 32768x7168 \
        bfloat16:1x16:tensor 'bfloat16:1x16:tensor:{"threads": 640}' bfloat16:16x16:tensor

A variant is ``dtype:block:tensor|row[:JSON knobs]`` (``QuantizeConfig`` tuning knobs,
bound 256); ``--err-mode`` applies to all. The pipe and memory profiles of
``bench/NOTES.md`` (v9) use ``--metrics 'regex:^sm__inst_executed_pipe_[a-z0-9_]+\\.sum$'``
and the ``lts__`` / ``l1tex__`` sector counts; v34's stall table the
``smsp__average_warps_issue_stalled_*_per_issue_active`` ratios.
"""

from __future__ import annotations

import argparse
import json

import torch

import fos_reference
from fos_cutedsl.compile import compile_quantize


def target(spec: str, shape: tuple[int, int], err_mode: str):
    """One variant's compiled call on fresh normal input of ``shape``, ready to run."""
    dtype, block, amax, *knobs = spec.split(":", 3)
    if amax not in ("tensor", "row"):
        raise ValueError(f"{spec!r}: the third field is 'tensor' or 'row'")
    tuning = json.loads(knobs[0]) if knobs else {}
    row_scaled = amax == "row"
    fn = compile_quantize(dtype, block, err_mode, 256, row_scaled, "sm_90a", **tuning)
    rows, cols = shape
    x = torch.randn(rows, cols, device="cuda").to(getattr(torch, dtype))
    gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
    return lambda: fn(x, gamax, codes, scales)  # () per tensor, (R,) row-scaled


def profile_calls(calls) -> None:
    """A warm-up of each call, then each once more between ``cudaProfilerStart`` and ``Stop``."""
    for call in calls:
        call()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    for call in calls:
        call()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="dtype:block:tensor|row[:JSON knobs]")
    parser.add_argument("--shape", default="32768x7168", help="RxC")
    parser.add_argument("--err-mode", default="mae", choices=["mae", "mse"])
    args = parser.parse_args()
    rows, cols = (int(n) for n in args.shape.lower().split("x"))
    calls = [target(v, (rows, cols), args.err_mode) for v in args.variants]
    profile_calls(calls)
    print("profiled", len(calls), "launches:", ", ".join(args.variants))


if __name__ == "__main__":
    main()
