"""v50: one profiled launch each (after a warm-up) of the per-tensor persistent quantize and
the persistent grouped kernel with one group's loads ahead (the default) and two
(``prefetch=2``), both at 8 skewed experts, at 32768 x COLS (env, default 7168) bf16 mae,
for ncu's per-instruction stall samples. The setup launch is filtered by name."""

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
offsets = skewed_offsets(ROWS, 8, "cuda")
gamax = fos_reference.nan_amax_grouped(x, offsets)
work = torch.empty(workspace_floats(ROWS, COLS, 8), device="cuda")
calls = [lambda: per_tensor(x, amax, codes, scales.view(torch.float8_e4m3fn))]
for grouped in (compile_grouped_quantize(key), compile_grouped_quantize(key, prefetch=2)):
    calls.append(lambda f=grouped: f(x, gamax, offsets, codes, scales, work))
profile_calls(calls)
print("profiled", len(calls), "calls: per tensor, grouped E=8 1 ahead, grouped E=8 2 ahead")
