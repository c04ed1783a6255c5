"""GPU host: what one eager quantize call of a small input spends its host time on.

    python bench/host_pieces.py [--out FILE]

Per-call wall time of host-bound loops (``overhead.wall_us``) on a 128x256 bf16
CUDA input for the pieces of ``fos_op.quantize``'s eager path (argument checks,
the plan key, allocations, views, the compiled call) and for the same compiled
kernel built with float8 scales (so that no dtype view is needed). Prints a
table; writes the numbers as JSON to ``--out`` if given.
"""

from __future__ import annotations

import argparse
import json

import cutlass
import cutlass.cute as cute
import torch
from cutlass import Float32, Uint8
from overhead import wall_us

import fos_cutedsl
import fos_op
import fos_reference
from fos_cutedsl.compile import GROUP, QuantizeConfig, _kernel, compile_options
from fos_op import api, impl, plan


def compile_float8_scales(arch: str, extra_options: str = ""):
    """The bf16 1x16 per-tensor mae variant with its scales argument typed float8_e4m3fn."""
    cfg = QuantizeConfig("bfloat16", "1x16", "mae", 256, False)
    rows, cols = cute.sym_int64(), cute.sym_int64(divisibility=GROUP)
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(cfg.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (1,), assumed_align=4)
    codes = fake(Uint8, (rows, cute.sym_int64(divisibility=8)), stride_order=(1, 0),
                 assumed_align=16)  # fmt: skip
    scales = fake(cutlass.Float8E4M3FN, (rows, cute.sym_int64()), stride_order=(1, 0),
                  assumed_align=16)  # fmt: skip
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    return cute.compile(_kernel(cfg), x, amax, codes, scales, stream,
                        options=compile_options(arch, cfg.ptxas_opt, extra_options))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    dev = torch.device("cuda")
    x = torch.randn(128, 256, device=dev).to(torch.bfloat16)
    g = fos_reference.nan_amax(x)
    g1 = g.reshape(1)
    rows, cols = x.shape
    u8, f8 = torch.uint8, torch.float8_e4m3fn
    codes = torch.empty(rows, cols // 2, dtype=u8, device=dev)
    scales = torch.empty(rows, cols // 16, dtype=u8, device=dev)
    scales8 = torch.empty(rows, cols // 16, dtype=f8, device=dev)
    kernel = fos_cutedsl.quantize_launcher(x, g1, "1x16", "mae", 256)
    results = {}
    try:
        kernel8 = compile_float8_scales(fos_cutedsl.arch_of(dev))
        kernel8(x, g1, codes, scales8)
        want = fos_reference.quantize(x, g)
        results["float8 scales: bits equal"] = bool(
            torch.equal(codes, want[0]) and torch.equal(scales8.view(u8), want[1].view(u8))
        )
    except Exception as exc:  # report, and time the rest
        print(f"float8 scales: {type(exc).__name__}: {exc}")
        kernel8 = None
    fos_op.quantize(x, g)
    run = next(p for k, p in plan.PLANS._plans.items() if k[0] == "quantize")
    key = lambda: ("quantize", plan.tensor_key(x), plan.tensor_key(g), "1x16", "mae",  # noqa: E731
                   impl._typed(256), False, impl._env(x))  # fmt: skip
    total = rows * cols // 2 + rows * cols // 16
    buf = torch.empty(total, dtype=u8, device=dev)
    pieces = {
        "fos_op.quantize": lambda: fos_op.quantize(x, g),
        "impl.quantize": lambda: impl.quantize(x, g, "1x16", "mae", 256, False),
        "plan run (0-d amax)": lambda: run(x, g),
        "compiled kernel, outputs preallocated": lambda: kernel(x, g1, codes, scales),
        "torch.empty": lambda: torch.empty((rows, cols // 2), dtype=u8, device=dev),
        "torch.empty pair": lambda: (
            torch.empty((rows, cols // 2), dtype=u8, device=dev),
            torch.empty((rows, cols // 16), dtype=u8, device=dev),
        ),
        "torch.empty float8": lambda: torch.empty((rows, cols // 16), dtype=f8, device=dev),
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
        "plan key + dict get": lambda: plan.PLANS._plans.get(key()),
        "torch.cuda.current_device()": torch.cuda.current_device,
    }
    if kernel8 is not None:
        pieces["compiled kernel, float8 scales"] = lambda: kernel8(x, g1, codes, scales8)

        def minimal():
            c = torch.empty((rows, cols // 2), dtype=u8, device=dev)
            s = torch.empty((rows, cols // 16), dtype=f8, device=dev)
            kernel8(x, g.view(1), c, s)
            return c, s

        pieces["minimal: empty, empty f8, view(1), kernel"] = minimal
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
