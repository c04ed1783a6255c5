"""How the input's and outputs' placement in device memory moves a kernel's time.

    python bench/placement.py [--shapes 8192x4096,32768x2048] [--variants L,L] [--out DIR]

Issue 27 saw 16x16 move by 9 points of copy between freshly allocated buffers, and
1x16 by 3. (v36: at one address the 16x16 time moves as much with the data or the amax
alone; it follows the tiles whose choice the bound leaves open, not the addresses.)
Each variant (``fos_cutedsl.compile.compile_quantize``, bits checked
against ``fos_reference`` first) is timed on views of one pool at several byte offsets
of x (outputs fixed), at pairs of offsets of x and of the outputs, at several
offsets of the codes and scales (x fixed), and on fresh allocations with padding
between them. Times: ``bench.time_us`` (L2 flushed,
one event pair a run) and ``bench.back_to_back_us``, with each record's wall-clock start
and end (to set beside a clock log). Writes ``placement.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import statistics
import time
from pathlib import Path

import torch
from variants import amax_of, bits_match, check_inputs, parse_shapes

import fos_cutedsl
from bench import back_to_back_us, copy_tbps, pct_of_copy, time_us
from fos_cutedsl.compile import compile_quantize

# (label, block, row_scaled, err_mode, tuning); bf16 throughout.
VARIANTS = (
    ("1x16 default", "1x16", False, "mae", {}),
    ("16x16 default", "16x16", False, "mae", {}),
    ("16x16 2 units", "16x16", False, "mae", {"groups_per_thread": 2}),
    ("16x16 mse default", "16x16", False, "mse", {}),
    ("16x16 mse 2 units", "16x16", False, "mse", {"groups_per_thread": 2}),
    ("16x16 staged", "16x16", False, "mae", {"stage_stores": True}),
    ("1x16 3 groups", "1x16", False, "mae", {"groups_per_thread": 3}),
)
# x and outputs moved together (v25: x +0 with outputs +0 ran 48.5 us at 8192 x 4096,
# with outputs +256 B 42.9): which relative offsets matter.
PAIR_OFFSETS = (0, 256, 4096, 65536)
PAIR_VARIANTS = ("16x16 default", "16x16 staged", "1x16 default")
X_OFFSETS = (0, 256, 1024, 4096, 16384, 65536, 1 << 20)  # bytes; 16-byte aligned
OUT_OFFSETS = (0, 256, 4096, 65536, 1 << 20)
FRESH = 4


def view_at(pool: torch.Tensor, offset: int, shape: tuple[int, ...], dtype) -> torch.Tensor:
    """A contiguous ``shape`` tensor of ``dtype`` at ``offset`` bytes into ``pool`` (uint8)."""
    nbytes = dtype.itemsize * math.prod(shape)
    return pool[offset : offset + nbytes].view(dtype).view(shape)


def time_one(kernel, x, codes, scales, nbytes: int, roof: float) -> dict:
    """One variant on one placement: both timings and their shares of the copy roofline."""
    fn, row_scaled = kernel[:2]
    gamax = amax_of(x, row_scaled)
    run = lambda: fn(x, gamax, codes, scales)  # noqa: E731
    us, b2b = time_us(run, "cuda", reps=20), back_to_back_us(run)
    pct, b2b_pct = (pct_of_copy(nbytes, t, roof) for t in (us, b2b))
    return {"us": us, "pct": pct, "us_back_to_back": b2b, "pct_back_to_back": b2b_pct}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="8192x4096,32768x2048", help="RxC[,RxC...]")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--variants", help="LABEL[,LABEL...] of VARIANTS (default: all)")
    args = parser.parse_args()
    chosen = args.variants.split(",") if args.variants else [v[0] for v in VARIANTS]
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    roof = copy_tbps("cuda")
    print(f"copy roofline: {roof:.2f} TB/s", flush=True)
    gen = torch.Generator(device="cuda").manual_seed(2)
    kernels = {}
    for label, block, row_scaled, err_mode, tuning in VARIANTS:
        if label not in chosen:
            continue
        fn = compile_quantize("bfloat16", block, err_mode, 256, row_scaled, arch, **tuning)
        checks = check_inputs(torch.bfloat16, gen, block)
        if not all(bits_match(fn, x, row_scaled, block, err_mode) for x in checks):
            print(f"{label}: NOT EXACT, skipped", flush=True)
            continue
        kernels[label] = (fn, row_scaled, block, err_mode)
    rows_out = []
    for rows, cols in parse_shapes(args.shapes):
        nbytes = rows * cols * 2 + rows * cols // 2 + rows * cols // 16
        x_pool = torch.empty(rows * cols * 2 + (2 << 20), dtype=torch.uint8, device="cuda")
        out_pool = torch.empty(rows * cols // 2 + rows * cols // 16 + (4 << 20),
                               dtype=torch.uint8, device="cuda")  # fmt: skip

        def outputs(offset: int, r=rows, c=cols, pool=out_pool):
            codes = view_at(pool, offset, (r, c // 2), torch.uint8)
            scale_at = offset + r * c // 2 + (1 << 20)
            scales = view_at(pool, scale_at, (r, c // 16), torch.float8_e4m3fn)
            return codes, scales

        def record(label, x, codes, scales, placement, r=rows, c=cols, n=nbytes):
            start = time.time()
            row = time_one(kernels[label], x, codes, scales, n, roof)
            row.update(variant=label, shape=[r, c], placement=placement, start=start,
                       end=time.time())  # fmt: skip
            rows_out.append(row)
            print(f"{r:6d}x{c:<5d} {label:18s} {placement:22s} {row['us']:7.1f} us"
                  f" {row['pct']:5.1f}% | back to back {row['us_back_to_back']:7.1f} us"
                  f" {row['pct_back_to_back']:5.1f}%", flush=True)  # fmt: skip

        codes0, scales0 = outputs(0)
        for offset in X_OFFSETS:
            x = view_at(x_pool, offset, (rows, cols), torch.bfloat16)
            x.copy_(torch.randn(rows, cols, device="cuda", generator=gen))
            for label in kernels:
                if offset == 0:  # the bits on this shape once, then only time
                    fn, row_scaled, block, err_mode = kernels[label]
                    assert bits_match(fn, x, row_scaled, block, err_mode), label
                record(label, x, codes0, scales0, f"x at +{offset}")
        for x_offset in PAIR_OFFSETS:
            x = view_at(x_pool, x_offset, (rows, cols), torch.bfloat16)
            for out_offset in PAIR_OFFSETS:
                codes, scales = outputs(out_offset)
                for label in PAIR_VARIANTS:
                    if label in kernels:
                        record(label, x, codes, scales, f"x +{x_offset}, out +{out_offset}")
        x = view_at(x_pool, 0, (rows, cols), torch.bfloat16)
        for offset in OUT_OFFSETS[1:]:
            codes, scales = outputs(offset)
            for label in ("16x16 default", "1x16 default"):
                if label in kernels:
                    record(label, x, codes, scales, f"outputs at +{offset}")
        del x_pool, out_pool
        kept = []
        for k in range(FRESH):
            kept.append(torch.empty((k + 1) * (3 << 20) + 4096, dtype=torch.uint8, device="cuda"))
            x = torch.randn(rows, cols, device="cuda", generator=gen).to(torch.bfloat16)
            codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device="cuda")
            scales = torch.empty((rows, cols // 16), dtype=torch.float8_e4m3fn, device="cuda")
            kept.append((x, codes, scales))
            for label in kernels:
                record(label, x, codes, scales, f"fresh buffer {k}")
        del kept
    summary = {}
    for r in rows_out:
        key = f"{r['shape'][0]}x{r['shape'][1]} {r['variant']}"
        summary.setdefault(key, []).append(r["pct_back_to_back"])
    print("\nback-to-back % of copy over all placements: min / median / max")
    for key, pcts in summary.items():
        print(f"{key:36s} {min(pcts):5.1f} / {statistics.median(pcts):5.1f} / {max(pcts):5.1f}")
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(),
        "copy_tbps": roof,
        "rows": rows_out,
    }
    out = Path(args.out) / "placement.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
