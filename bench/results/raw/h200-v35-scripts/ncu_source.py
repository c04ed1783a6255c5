"""v35: one profiled launch each (after a warm-up) of the bf16 mae kernels whose stalls v34
left unexplained: 16x16 at 32768 x 2048 (long scoreboard), row-scaled at 32768 x 7168
(barrier, long scoreboard) and 1x16 per tensor at 32768 x 7168 (the reference), for ncu's
per-instruction stall sampling (--profile-from-start off)."""

import torch

import fos_reference
from fos_cutedsl.compile import compile_quantize

CASES = ((32768, 2048, "16x16", False), (32768, 7168, "1x16", True), (32768, 7168, "1x16", False))
calls = []
for rows, cols, block, row_scaled in CASES:
    x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
    gamax = fos_reference.nan_amax(x, dim=-1) if row_scaled else fos_reference.nan_amax(x)
    fn = compile_quantize("bfloat16", block, "mae", 256, row_scaled, "sm_90a")
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
