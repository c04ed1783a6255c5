"""v29: one launch of each row-amax tiling with and without row tables under ncu
(--profile-from-start off): why the team kernel's tables are slower when it finds the
amax (240.7 us against 220.3) and faster when given it (219.1 against 229.5), call 1.
``python3 ncu_row_tables.py loops``: call 3's, the quantize loop's unroll and the fold."""

import sys

import torch

from fos_cutedsl.row_amax import compile_row_amax

WARP4 = {"register_rows": True, "rows_per_cta": 4}
cases = [
    ((32768, 7168), "team", {}),
    ((32768, 7168), "team, row tables", {"row_tables": True}),
    ((32768, 7168), "team, amax given", {"given_amax": True}),
    ((32768, 7168), "team, amax given, row tables", {"given_amax": True, "row_tables": True}),
    ((32768, 2048), "warp", WARP4),
    ((32768, 2048), "warp, row tables", {**WARP4, "row_tables": True}),
    ((32768, 2048), "warp, amax given, row tables", {**WARP4, "given_amax": True, "row_tables": True}),
]
if sys.argv[1:] == ["loops"]:
    cases = [
        ((32768, 7168), "team", {}),
        ((32768, 7168), "team, unroll 1", {"quantize_unroll": 1}),
        ((32768, 7168), "team, row tables", {"row_tables": True}),
        ((32768, 7168), "team, row tables, unroll 2", {"row_tables": True, "quantize_unroll": 2}),
        ((32768, 7168), "team, xorsign fold", {"xorsign_fold": True}),
        ((32768, 7168), "team, row tables, xorsign fold, unroll 2",
         {"row_tables": True, "xorsign_fold": True, "quantize_unroll": 2}),
    ]  # fmt: skip
calls = []
for (rows, cols), name, tuning in cases:
    fn = compile_row_amax("bfloat16", "mae", 256, "sm_90a", **tuning)
    x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
    amax = x.float().abs().amax(dim=1).contiguous()
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.uint8, device="cuda")
    calls.append((name, lambda fn=fn, x=x, a=amax, c=codes, s=scales: fn(x, a, c, s)))
for _, call in calls:
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for name, call in calls:
    call()
    print("profiled:", name, flush=True)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
