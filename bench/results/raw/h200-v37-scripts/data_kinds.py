"""v37: the quantize kernels' time by data kind (v36's CPU model says outlier channels
leave 4-47 times more groups and tiles undecided). Same buffer per shape, the data
copied in; bits checked against fos_reference before timing; bench.back_to_back_us
(twice) and bench.time_us (L2 flushed). Undecided counts from fast_model on the GPU
(per-tensor modes only)."""

import json
import os
import sys

import fast_model as fm
import torch

import fos_reference
from bench import back_to_back_us, copy_tbps, pct_of_copy, time_us
from fos_cutedsl.compile import compile_quantize

SHAPES = [tuple(map(int, s.split("x"))) for s in sys.argv[1].split(",")]
MODES = [  # dtype, block, row_scaled, err_mode
    ("bfloat16", "1x16", False, "mae"), ("bfloat16", "1x16", False, "mse"),
    ("bfloat16", "1x16", True, "mae"), ("bfloat16", "16x16", False, "mae"),
    ("bfloat16", "16x16", False, "mse"), ("float16", "1x16", False, "mae"),
]
DT = {"bfloat16": torch.bfloat16, "float16": torch.float16}


def kinds(rows, cols, gen):
    base = torch.randn(rows, cols, device="cuda", generator=gen)
    col = torch.rand(cols, device="cuda", generator=gen)
    yield "normal", base
    yield "outlier 1% cols x50", base * torch.where(col < 0.01, 50.0, 1.0)
    yield "outlier 0.1% cols x20", base * torch.where(col < 0.001, 20.0, 1.0)
    t = torch.distributions.StudentT(torch.tensor(3.0, device="cuda"))
    yield "student-t3", t.sample((rows, cols))
    yield "lognormal rows", base * torch.exp(torch.randn(rows, 1, device="cuda", generator=gen))


roof = copy_tbps("cuda")
print(f"copy roofline {roof:.3f} TB/s", flush=True)
fns = {m: compile_quantize(m[0], m[1], m[3], 256, m[2], "sm_90a") for m in MODES}
gen = torch.Generator(device="cuda").manual_seed(11)
out = []
for rows, cols in SHAPES:
    xs = {dt: torch.empty(rows, cols, dtype=DT[dt], device="cuda") for dt in DT}
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
    for kind, data in kinds(rows, cols, gen):
        for mode in MODES:
            dtype, block, row_scaled, err_mode = mode
            x = xs[dtype]
            x.copy_(data)
            gamax = fos_reference.nan_amax(x, dim=-1) if row_scaled else fos_reference.nan_amax(x)
            undecided = None
            if not row_scaled and rows * cols <= 8192 * 4096:
                dec = fm.bounded_choice(x.float(), float(gamax), 1536.0, err_mode, block, 8)[1]
                undecided = int((~(dec[::16] if block == "16x16" else dec)).sum())
            wc, ws = fos_reference.quantize(x, gamax, block=block, err_mode=err_mode)
            codes.fill_(0xAB), scales.view(torch.uint8).fill_(0xAB)
            fn = fns[mode]
            fn(x, gamax, codes, scales)
            exact = torch.equal(codes, wc) and torch.equal(scales.view(torch.uint8), ws.view(torch.uint8))
            del wc, ws
            run = lambda: fn(x, gamax, codes, scales)  # noqa: E731
            b2b = [back_to_back_us(run) for _ in range(2)] if exact else []
            fl = time_us(run, "cuda", reps=20) if exact else None
            nbytes = rows * cols * x.element_size() + rows * cols // 2 + rows * cols // 16
            name = f"{dtype} {block} {'row' if row_scaled else 'tensor'} {err_mode}"
            out.append({"shape": [rows, cols], "kind": kind, "mode": name, "exact": exact,
                        "undecided": undecided, "us_back_to_back": b2b, "us_flushed": fl})
            b = min(b2b) if b2b else float("nan")
            print(f"{rows}x{cols} {kind:22s} {name:28s} {'exact' if exact else 'DIFFERS'} "
                  f"undecided {undecided} b2b {b:7.1f} us {pct_of_copy(nbytes, b, roof) or 0:5.1f}% "
                  f"flushed {fl or 0:7.1f} us", flush=True)
json.dump({"copy_tbps": roof, "rows": out}, open(os.path.join(os.environ.get("OUT", "."), "kinds.json"), "w"), indent=1)
