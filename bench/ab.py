"""A/B timing of kernel tuning variants on the same buffers, in one GPU call.

    python bench/ab.py --set persistent-registers [--shapes 32768x7168,8192x4096]
                       [--buffers 2] [--data normal|outlier_channels] [--out DIR]

A set names, per mode, the variants to compare (``QuantizeConfig`` tuning knobs: same
bits, other speed). Each variant is checked bit for bit against ``fos_reference`` first
(``variants.check_inputs`` at bound 256, a tuned variant's also at bound 448, and every
timed input); one that differs is reported and not timed. Then per shape and buffer
every variant of a mode is timed in order and in reverse order on the same x and
outputs, since placement moves a kernel by up to 10% between buffers (``bench/NOTES.md``,
v25): ``bench.time_us`` (L2 flushed) and ``bench.back_to_back_us``. Prints medians and
writes ``ab.json`` to ``--out`` (default ``$OUT`` or .).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

import torch
from variants import amax_of, bits_match, check_inputs, parse_shapes

import fos_cutedsl
import fos_reference
from bench import DATA, DTYPES, back_to_back_us, copy_tbps, pct_of_copy, time_us
from fos_cutedsl.compile import compile_quantize

# set name -> {(dtype, block, row_scaled, err_mode): [(label, tuning), ...]}. v36 ran
# sets "linear4" and "linear4-threads" (a knob since removed; the code is in e87794b); v39
# ran "undecided-warp" (``undecided_warp``, removed; the code is in 2e5defb); v47 ran
# "undecided-after" (``undecided_after``, removed; the code is in 025061e).
SETS = {
    # The persistent 1x16 kernel with the registers to keep its loads further ahead:
    # 640 threads (96 registers) and 2 groups ahead, against the default (v36).
    "persistent-registers": {
        mode: [
            ("default", {}),
            ("640 thr", {"threads": 640}),
            ("640 thr prefetch 2", {"threads": 640, "prefetch": 2}),
        ]
        for mode in (("bfloat16", "1x16", False, "mae"), ("float16", "1x16", False, "mae"))
    },
    # The persistent 16x16 kernel's work item (units a warp's item, units ahead, threads),
    # timed again now that a late undecided tile no longer moves it by 7 us (v40): v35 saw
    # 2 units at 640 threads faster at 8192 x 4096 within that spread. No spill in any (ptxas
    # -O2 here: 96 registers at 640 threads, 128 at 512); 768 threads spill.
    "tile-items": {
        ("bfloat16", "16x16", False, "mae"): [
            ("default", {}),
            ("2 units", {"groups_per_thread": 2}),
            ("2 units, 2 ahead", {"groups_per_thread": 2, "prefetch": 2}),
            ("4 units", {"groups_per_thread": 4}),
            ("512 thr", {"threads": 512}),
            ("512 thr, 4 units, 2 ahead", {"threads": 512, "groups_per_thread": 4, "prefetch": 2}),
        ]
    },
}


def check_variant(arch, gen, mode, tuning):
    """Compile ``mode`` with ``tuning`` (tuned: at both bounds); (the bound-256 binary, exact?)."""
    dtype, block, row_scaled, err_mode = mode
    inputs = check_inputs(DTYPES[dtype], gen, block)
    fn = compile_quantize(dtype, block, err_mode, 256, row_scaled, arch, **tuning)
    exact = all(bits_match(fn, x, row_scaled, block, err_mode) for x in inputs)
    if tuning:  # (the defaults' bound-448 binaries are the shipped ones, verified apart)
        fn448 = compile_quantize(dtype, block, err_mode, 448, row_scaled, arch, **tuning)
        exact = exact and all(
            bits_match(fn448, x, row_scaled, block, err_mode, bound=448) for x in inputs
        )
    return fn, exact


def time_mode(mode, fns, shape, buffers, gen, data="normal") -> dict[str, tuple[list, list]]:
    """Each exact variant of ``mode`` on ``buffers`` fresh inputs, in order then reversed;
    its bits checked against the reference on each input first (poisoned outputs)."""
    dtype, block, row_scaled, err_mode = mode
    rows, cols = shape
    times = {label: ([], []) for label, *_ in fns}
    for _ in range(buffers):
        x = DATA[data](rows, cols, gen, "cuda").to(DTYPES[dtype])
        gamax = amax_of(x, row_scaled)
        want_codes, want_scales = fos_reference.quantize(x, gamax, block=block, err_mode=err_mode)
        codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device="cuda")
        scales = torch.empty((rows, cols // 16), dtype=torch.float8_e4m3fn, device="cuda")
        args = (x, gamax, codes, scales)
        exact = {}
        for label, _, fn, ok in fns:
            codes.fill_(0xAB), scales.view(torch.uint8).fill_(0xAB)
            fn(*args)
            same = torch.equal(codes, want_codes)
            exact[label] = (
                ok and same and torch.equal(scales.view(torch.uint8), want_scales.view(torch.uint8))
            )
            if ok and not exact[label]:
                print(f"{label}: DIFFERS on a {rows}x{cols} timed input (not timed)", flush=True)
        for order in (fns, fns[::-1]):
            for label, _, fn, _ in order:
                if exact[label]:
                    run = lambda f=fn, a=args: f(*a)  # noqa: E731
                    times[label][0].append(time_us(run, "cuda", reps=20))
                    times[label][1].append(back_to_back_us(run))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), required=True)
    parser.add_argument("--shapes", default="32768x7168,32768x2048,8192x4096")
    parser.add_argument("--buffers", type=int, default=2)
    parser.add_argument("--data", default="normal", choices=DATA, help="the timed inputs' values")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    roof = copy_tbps("cuda")
    print(f"copy roofline: {roof:.3f} TB/s", flush=True)
    gen = torch.Generator(device="cuda").manual_seed(7)
    rows_out, failed = [], False
    for mode, variants in SETS[args.set].items():
        dtype, block, row_scaled, err_mode = mode
        name = f"{dtype} {block} {'row' if row_scaled else 'tensor'} {err_mode}"
        fns = []
        for label, tuning in variants:
            fn, exact = check_variant(arch, gen, mode, tuning)
            failed = failed or not exact
            fns.append((label, tuning, fn, exact))
            print(f"{name} {label}: {'exact' if exact else 'DIFFERS'}", flush=True)
        for rows, cols in parse_shapes(args.shapes):
            times = time_mode(mode, fns, (rows, cols), args.buffers, gen, args.data)
            nbytes = rows * cols * DTYPES[dtype].itemsize + rows * cols // 2 + rows * cols // 16
            for label, tuning, _, exact in fns:
                us, b2b = times[label]
                rows_out.append({"mode": name, "variant": label, "tuning": tuning,
                                 "shape": [rows, cols], "exact": exact, "us": us,
                                 "us_back_to_back": b2b})  # fmt: skip
                if us:
                    med, bmed = statistics.median(us), statistics.median(b2b)
                    print(f"{rows:6d}x{cols:<5d} {name:28s} {label:10s} {med:7.1f} us "
                          f"[{min(us):6.1f}-{max(us):6.1f}] {pct_of_copy(nbytes, med, roof):5.1f}%"
                          f"  b2b {bmed:7.1f} {pct_of_copy(nbytes, bmed, roof):5.1f}%",
                          flush=True)  # fmt: skip
    path = Path(args.out) / "ab.json"
    payload = {"set": args.set, "data": args.data, "copy_tbps": roof, "rows": rows_out}
    path.write_text(json.dumps(payload, indent=1))
    print("wrote", path)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
