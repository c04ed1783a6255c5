"""GPU: the fused row-amax kernel's tunings (rows_per_cta, unroll), bits checked, graph-timed."""
import sys, torch
sys.path.insert(0, "bench")
from bench import time_us
import fos_cutedsl
from fos_cutedsl.row_amax import compile_row_amax

for rows, cols in ((32768, 7168), (32768, 2048)):
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    outs = lambda: (torch.empty(rows, device="cuda"), torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda"),
                    torch.empty(rows, cols // 16, dtype=torch.uint8, device="cuda"))
    ref = outs(); fos_cutedsl.launch_quantize_row_amax(x, ref[0], ref[1], ref[2], "mae", 256)
    src = torch.empty(int(rows * cols * 2.5625) // 2, dtype=torch.uint8, device="cuda"); dst = torch.empty_like(src)
    copy = time_us(lambda: dst.copy_(src), "cuda", 30)
    for r, u in ((1, 8), (2, 8), (4, 8), (1, 4), (2, 4), (1, 16), (2, 16), (4, 4)):
        fn = compile_row_amax("bfloat16", "mae", 256, "sm_90a", rows_per_cta=r, unroll=u)
        o = outs(); fn(x, *o); torch.cuda.synchronize()
        same = all(torch.equal(a.view(torch.uint8), b.view(torch.uint8)) for a, b in zip(o, ref))
        us = time_us(lambda: fn(x, *o), "cuda", 30)
        print(f"{rows}x{cols} rows_per_cta={r} unroll={u}: {us:7.1f} us {100 * copy / us:5.1f}% same={same}", flush=True)
