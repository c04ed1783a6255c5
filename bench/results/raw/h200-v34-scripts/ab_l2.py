"""v34: L2 prefetch tunings against the defaults, A/B on the same buffers.

16x16 (persistent): ``l2_next_item`` asks L2 for the warp's next item when it is drawn.
Row-scaled 1x16 (per CTA): ``l2_ahead`` asks L2 for the rows of the CTA that many launches
later. Each variant is checked bit for bit first (``variants.check_inputs`` and each timed
input). Per shape and buffer: every variant of a mode timed in order, then in reverse order,
on the same x and outputs (placement moves 16x16 by up to 10% between buffers); ``time_us``
and ``back_to_back_us``. Writes ab_l2.json to $OUT.

    python ab_l2.py [--shapes 32768x7168,...] [--buffers 2]
"""

import argparse
import json
import os
import statistics

import torch
from variants import amax_of, bits_match, check_inputs, parse_shapes

from bench import DTYPES, back_to_back_us, copy_tbps, pct_of_copy, time_us
from fos_cutedsl.compile import compile_quantize

MODES = {
    ("bfloat16", "16x16", False, "mae"): [
        ("default", {}),
        ("l2 next item", {"l2_next_item": True}),
        ("2 units", {"groups_per_thread": 2}),
        ("2 units, l2 next item", {"groups_per_thread": 2, "l2_next_item": True}),
    ],
    ("bfloat16", "16x16", False, "mse"): [
        ("default", {}),
        ("l2 next item", {"l2_next_item": True}),
    ],
    ("float16", "16x16", False, "mae"): [("default", {}), ("l2 next item", {"l2_next_item": True})],
    ("bfloat16", "1x16", True, "mae"): [
        ("default", {}),
        ("l2_ahead 512", {"l2_ahead": 512}),
        ("l2_ahead 2048", {"l2_ahead": 2048}),
    ],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", default="32768x7168,32768x2048,8192x4096,16384x7168")
    parser.add_argument("--buffers", type=int, default=2)
    parser.add_argument("--modes", default="all", help="all | 16x16 | row")
    args = parser.parse_args()
    roof = copy_tbps("cuda")
    print(f"copy roofline: {roof:.3f} TB/s", flush=True)
    gen = torch.Generator(device="cuda").manual_seed(7)
    out = []
    for (dtype, block, row_scaled, err_mode), variants in MODES.items():
        if args.modes != "all" and (args.modes == "row") != row_scaled:
            continue
        tdtype = DTYPES[dtype]
        fns = []
        for label, tuning in variants:
            fn = compile_quantize(dtype, block, err_mode, 256, row_scaled, "sm_90a", **tuning)
            exact = all(
                bits_match(fn, x, row_scaled, block, err_mode)
                for x in check_inputs(tdtype, gen, block)
            )
            fns.append((label, tuning, fn, exact))
            print(f"{dtype} {block} {'row' if row_scaled else 'tensor'} {label}: "
                  f"{'exact' if exact else 'DIFFERS'}", flush=True)  # fmt: skip
        for rows, cols in parse_shapes(args.shapes):
            times = {label: ([], []) for label, *_ in fns}
            for _ in range(args.buffers):
                x = torch.randn(rows, cols, device="cuda", generator=gen).to(tdtype)
                gamax = amax_of(x, row_scaled)
                codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device="cuda")
                scales = torch.empty((rows, cols // 16), dtype=torch.float8_e4m3fn, device="cuda")
                for order in (fns, fns[::-1]):
                    for label, _, fn, exact in order:
                        if not (exact and bits_match(fn, x, row_scaled, block, err_mode)):
                            continue
                        run = lambda f=fn, a=(x, gamax, codes, scales): f(*a)  # noqa: E731
                        times[label][0].append(time_us(run, "cuda", reps=20))
                        times[label][1].append(back_to_back_us(run))
            nbytes = rows * cols * tdtype.itemsize + rows * cols // 2 + rows * cols // 16
            for label, tuning, _, exact in fns:
                us, b2b = times[label]
                row = {"mode": f"{dtype} {block} {'row' if row_scaled else 'tensor'} {err_mode}",
                       "variant": label, "tuning": tuning, "shape": [rows, cols],
                       "exact": exact, "us": us, "us_back_to_back": b2b}  # fmt: skip
                out.append(row)
                if us:
                    med, bmed = statistics.median(us), statistics.median(b2b)
                    print(f"{rows:6d}x{cols:<5d} {block:5s} {'row' if row_scaled else 'ten'} "
                          f"{label:24s} {med:7.1f} us [{min(us):6.1f}-{max(us):6.1f}] "
                          f"{pct_of_copy(nbytes, med, roof):5.1f}%  b2b {bmed:7.1f} "
                          f"{pct_of_copy(nbytes, bmed, roof):5.1f}%", flush=True)  # fmt: skip
    path = os.path.join(os.environ.get("OUT", "."), "ab_l2.json")
    with open(path, "w") as f:
        json.dump({"copy_tbps": roof, "rows": out}, f, indent=1)
    print("wrote", path)


if __name__ == "__main__":
    main()
