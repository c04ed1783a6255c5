"""GPU: the amax kernel's tunings (threads, unroll, ctas_per_sm), bits checked, graph-timed."""
import sys

import torch

sys.path.insert(0, "bench")
from bench import copy_tbps, time_us  # noqa: E402

from fos_cutedsl.amax import compile_amax  # noqa: E402

roof = copy_tbps("cuda")
print(f"copy roofline {roof:.3f} TB/s", flush=True)
TUNINGS = [(256, 4, 8), (256, 8, 8), (256, 8, 4), (512, 4, 4), (256, 4, 16), (512, 8, 4),
           (1024, 4, 2), (128, 8, 16), (256, 16, 4), (512, 16, 2), (256, 8, 2)]
for rows, cols in ((32768, 2048), (32768, 7168), (8192, 4096)):
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    x.view(-1)[12345] = float("nan")
    want = x.float().abs().nan_to_num(0.0, posinf=float("inf")).max()
    flat = x.view(-1, 8)
    for threads, unroll, ctas in TUNINGS:
        fn = compile_amax("bfloat16", False, "sm_90a", 132, threads=threads, unroll=unroll,
                          ctas_per_sm=ctas)
        out = torch.zeros(1, device="cuda")

        def call():
            out.zero_()
            fn(flat, out)

        call()
        torch.cuda.synchronize()
        same = torch.equal(out.view(torch.int32), want.reshape(1).view(torch.int32))
        us = time_us(call, "cuda", 30)
        pct = 100 * rows * cols * 2 / (us * 1e6) / roof
        print(f"{rows}x{cols} per-tensor threads={threads} unroll={unroll} ctas/sm={ctas}: "
              f"{us:7.1f} us {pct:5.1f}% same={same}", flush=True)
    want_rows = x.float().abs().nan_to_num(0.0, posinf=float("inf")).amax(dim=1)
    for threads, unroll in ((256, 4), (256, 8), (128, 8), (512, 4), (256, 2)):
        fn = compile_amax("bfloat16", True, "sm_90a", 132, threads=threads, unroll=unroll)
        out = torch.empty(rows, device="cuda")
        fn(x, out)
        torch.cuda.synchronize()
        same = torch.equal(out.view(torch.int32), want_rows.view(torch.int32))
        us = time_us(lambda: fn(x, out), "cuda", 30)
        pct = 100 * rows * cols * 2 / (us * 1e6) / roof
        print(f"{rows}x{cols} per-row threads={threads} unroll={unroll}: {us:7.1f} us "
              f"{pct:5.1f}% same={same}", flush=True)
