"""GPU host: what one eager quantize call of a small input spends its host time on.

    python bench/host_pieces.py [--out FILE]

Per-call wall time of host-bound loops (``overhead.wall_us``) on a 128x256 bf16
CUDA input for the pieces of ``fos_op.quantize``'s eager path (argument checks,
the plan key, allocations, views, the compiled call), in rounds (the best per
piece). Prints a table; writes the numbers as JSON to ``--out`` if given.
"""

from __future__ import annotations

import argparse
import json

import torch
from overhead import wall_us

import fos_cutedsl
import fos_op
import fos_reference
from fos_op import api, dispatch, impl, plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    dev = torch.device("cuda")
    x = torch.randn(128, 256, device=dev).to(torch.bfloat16)
    g = fos_reference.nan_amax(x)
    rows, cols = x.shape
    u8, f8 = torch.uint8, torch.float8_e4m3fn
    codes = torch.empty(rows, cols // 2, dtype=u8, device=dev)
    scales = torch.empty(rows, cols // 16, dtype=u8, device=dev)
    scales8 = torch.empty(rows, cols // 16, dtype=f8, device=dev)
    kernel = fos_cutedsl.quantize_launcher(x, g, "1x16", "mae", 256)  # a 0-d amax
    results = {}
    fos_op.quantize(x, g)
    run = next(p for k, p in plan.PLANS._plans.items() if k[0] == "quantize")

    def key():  # as impl.quantize builds it
        return ("quantize", x.shape, x.stride(), x.dtype, x.device, g.shape, g.stride(),
                g.dtype, g.device, "1x16", "mae", int, 256, None, dispatch.cutedsl,
                torch._C._cuda_getDevice())  # fmt: skip

    codes_like = impl._template((rows, cols // 2), u8, dev)
    scales_like = impl._template((rows, cols // 16), f8, dev)
    total = rows * cols // 2 + rows * cols // 16
    buf = torch.empty(total, dtype=u8, device=dev)
    pieces = {
        "fos_op.quantize": lambda: fos_op.quantize(x, g),
        "impl.quantize": lambda: impl.quantize(x, g, "1x16", "mae", 256, None),
        "plan run (0-d amax)": lambda: run(x, g),
        "compiled kernel, outputs preallocated": lambda: kernel(x, g, codes, scales8),
        "torch.empty": lambda: torch.empty((rows, cols // 2), dtype=u8, device=dev),
        "torch.empty pair": lambda: (
            torch.empty((rows, cols // 2), dtype=u8, device=dev),
            torch.empty((rows, cols // 16), dtype=u8, device=dev),
        ),
        "torch.empty float8": lambda: torch.empty((rows, cols // 16), dtype=f8, device=dev),
        "torch.empty_strided pair (the plan's)": lambda: (
            torch.empty_strided((rows, cols // 2), (cols // 2, 1), dtype=u8, device=dev),
            torch.empty_strided((rows, cols // 16), (cols // 16, 1), dtype=f8, device=dev),
        ),
        "empty_like pair (the plan's templates)": lambda: (
            torch.empty_like(codes_like),
            torch.empty_like(scales_like),
        ),
        "one buffer + 2 as_strided + view": lambda: (
            buf.as_strided((rows, cols // 2), (cols // 2, 1)),
            buf.as_strided((rows, cols // 16), (cols // 16, 1), rows * cols // 2).view(f8),
        ),
        "tensor.view(float8)": lambda: scales.view(f8),
        "amax.view(1)": lambda: g.view(1),
        "amax.reshape(1)": lambda: g.reshape(1),
        "x.data_ptr()": lambda: x.data_ptr(),
        "_strict(None)": lambda: api._strict(None),
        "eager(x, g)": lambda: plan.eager(x, g),
        "plan key": key,
        "plan key + lookup": lambda: plan.PLANS.lookup(key()),
        "torch.cuda.current_device()": torch.cuda.current_device,
        "torch._C._cuda_getDevice()": torch._C._cuda_getDevice,
    }

    def minimal():
        c = torch.empty((rows, cols // 2), dtype=u8, device=dev)
        s = torch.empty((rows, cols // 16), dtype=f8, device=dev)
        kernel(x, g, c, s)
        return c, s

    pieces["minimal: empty, empty f8, kernel"] = minimal
    # Rounds over every piece, the best per piece: no piece is timed only while the
    # host warms up.
    best = dict.fromkeys(pieces, float("inf"))
    for _ in range(args.rounds):
        for name, fn in pieces.items():
            best[name] = min(best[name], wall_us(fn, args.calls, 2))
    for name, us in best.items():
        results[name] = us
        print(f"{name:45s} {us:7.2f} us", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
