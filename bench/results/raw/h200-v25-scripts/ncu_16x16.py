"""v25: 16x16 quantize launches under ncu (--profile-from-start off), bf16 8192 x 4096,
with x at byte offsets of one pool that bench/placement.py found slow (+0, +4096) and
fast (+256, +65536) for mae; mse and 1x16 beside. One warm-up call each, then the
profiled calls in order: the labels print first."""

import sys

import torch

sys.path.insert(0, "bench")
import fos_reference  # noqa: E402
from fos_cutedsl.compile import compile_quantize  # noqa: E402
from placement import view_at  # noqa: E402

rows, cols = 8192, 4096
pool = torch.empty(rows * cols * 2 + (2 << 20), dtype=torch.uint8, device="cuda")
codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
src = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
kernels = {
    (block, err): compile_quantize("bfloat16", block, err, 256, False, "sm_90a")
    for block, err in (("16x16", "mae"), ("16x16", "mse"), ("1x16", "mae"))
}
cases = []
for block, err, offset in (
    ("16x16", "mae", 0), ("16x16", "mae", 256), ("16x16", "mae", 4096), ("16x16", "mae", 65536),
    ("16x16", "mse", 0), ("16x16", "mse", 256), ("1x16", "mae", 0),
):
    x = view_at(pool, offset, (rows, cols), torch.bfloat16)
    cases.append((f"{block} {err} x at +{offset}", kernels[block, err], x, offset))
for label, fn, x, offset in cases:
    print("case:", label, flush=True)
torch.cuda.synchronize()
for label, fn, x, offset in cases:
    x.copy_(src)
    amax = fos_reference.nan_amax(x)
    fn(x, amax, codes, scales)  # warm-up
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    fn(x, amax, codes, scales)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
print("profiled", len(cases), "calls")
