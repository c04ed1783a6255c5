"""For the next session: the per-tensor persistent quantize and the persistent grouped
kernel (global and shared tables) under ncu, one launch each after the benchmark's
flush: bf16 mae, 32768 x 2048, 64 skewed experts. Run under
``ncu --profile-from-start off --clock-control none --cache-control none`` with the
metrics of ``next.sh``: where the grouped kernel's 7-9% over the per-tensor one goes
(stall reasons, L1 wavefronts of the table reads)."""

import sys

import torch

sys.path.insert(0, "bench")
import fos_reference
from bench import Flush, skewed_offsets
from fos_cutedsl.compile import compile_quantize
from fos_cutedsl.grouped import (
    GroupedQuantizeKey,
    compile_grouped_quantize,
    workspace_floats,
)

rows, cols, experts = 32768, 2048, 64
x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
scales = torch.empty(rows, cols // 16, dtype=torch.uint8, device="cuda")
amax = fos_reference.nan_amax(x)
offsets = skewed_offsets(rows, experts, "cuda")
gamax = fos_reference.nan_amax_grouped(x, offsets)
work = torch.empty(workspace_floats(rows, cols, experts), device="cuda")
key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", "sm_90a", True)
cases = {
    "per tensor": (compile_quantize("bfloat16", "1x16", "mae", 256, False, "sm_90a"),
                   (x, amax, codes, scales.view(torch.float8_e4m3fn))),
    "grouped, global tables": (compile_grouped_quantize(key),
                               (x, gamax, offsets, codes, scales, work)),
    "grouped, shared tables": (compile_grouped_quantize(key, shared_tables=True),
                               (x, gamax, offsets, codes, scales, work)),
}  # fmt: skip
flush = Flush("cuda")
for name, (fn, args) in cases.items():
    fn(*args)  # warm-up (and the workspace)
    print(f"case: {name}", flush=True)
    flush()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    fn(*args)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
