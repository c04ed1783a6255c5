"""v33: 16x16 bf16 mae launches for ncu (--profile-from-start off): the per-CTA default
and tile_persistent tunings (JSON knobs on the command line) at 32768 x 7168 and
8192 x 4096; a warm-up call each, then one profiled call each, in order."""

import json
import sys

import torch

import fos_reference
from fos_cutedsl.compile import compile_quantize

calls = []
for rows, cols in ((32768, 7168), (8192, 4096)):
    x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
    gamax = fos_reference.nan_amax(x)
    for knobs in sys.argv[1:]:
        fn = compile_quantize("bfloat16", "16x16", "mae", 256, False, "sm_90a", **json.loads(knobs))
        codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
        scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
        calls.append(lambda fn=fn, o=(x, gamax, codes, scales): fn(*o))
for call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
print("profiled", len(calls), "launches")
