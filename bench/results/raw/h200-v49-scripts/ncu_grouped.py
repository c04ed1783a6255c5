"""v49: one profiled launch each (after a warm-up) of the per-tensor persistent quantize and
the persistent grouped kernel with its owners found in the kernel (``search``: 1 and 64
skewed experts) and with every table built per CTA (``local_tables``: 8 experts), at
32768 x COLS (env, default 7168) bf16 mae, for ncu's per-instruction stall samples. The
setup launch is filtered by name."""

import os
import sys

import torch
from profile_target import profile_calls

sys.path.insert(0, "bench")
import fos_reference
from bench import skewed_offsets
from fos_cutedsl.compile import compile_quantize
from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize, workspace_floats

ROWS, COLS = 32768, int(os.environ.get("COLS", "7168"))
x = torch.randn(ROWS, COLS, device="cuda").to(torch.bfloat16)
codes = torch.empty(ROWS, COLS // 2, dtype=torch.uint8, device="cuda")
scales = torch.empty(ROWS, COLS // 16, dtype=torch.uint8, device="cuda")
per_tensor = compile_quantize("bfloat16", "1x16", "mae", 256, False, "sm_90a")
amax = fos_reference.nan_amax(x)
key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", "sm_90a", True)
search = compile_grouped_quantize(key, search=True)
local = compile_grouped_quantize(key, local_tables=True)
calls = [lambda: per_tensor(x, amax, codes, scales.view(torch.float8_e4m3fn))]
for experts, grouped in ((1, search), (64, search), (8, local)):
    offsets = skewed_offsets(ROWS, experts, "cuda")
    gamax = fos_reference.nan_amax_grouped(x, offsets)
    work = torch.empty(workspace_floats(ROWS, COLS, experts), device="cuda")
    calls.append(
        lambda o=offsets, g=gamax, w=work, f=grouped: f(x, g, o, codes, scales, w)
    )
profile_calls(calls)
print("profiled", len(calls), "calls: per tensor, search E=1, search E=64, local tables E=8")
