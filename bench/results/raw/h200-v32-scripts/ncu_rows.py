"""v32: launches of row-amax quantize variants at 32768 x 2048 bf16 for ncu
(--profile-from-start off): each variant named on the command line as JSON knobs over
the warp tiling, a warm-up call, then one profiled call each, in order."""

import json
import sys

import torch

import fos_reference
from fos_cutedsl.row_amax import compile_row_amax, tiling_tuning

x = torch.randn(32768, 2048, device="cuda").to(torch.bfloat16)
calls = []
for knobs in sys.argv[1:]:
    fn = compile_row_amax("bfloat16", "mae", 256, "sm_90a",
                          **{**tiling_tuning("bfloat16", "warp"), **json.loads(knobs)})
    amax = torch.empty(32768, device="cuda")
    codes = torch.empty(32768, 1024, dtype=torch.uint8, device="cuda")
    scales = torch.empty(32768, 128, dtype=torch.uint8, device="cuda")
    if "given_amax" in knobs:
        amax.copy_(fos_reference.nan_amax(x, dim=1))
    calls.append(lambda fn=fn, o=(amax, codes, scales): fn(x, *o))
for call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
print("profiled", len(calls), "launches")
