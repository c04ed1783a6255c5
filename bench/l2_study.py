"""GPU: what the L2 state before a timed run does to the timings.

    python bench/l2_study.py [--out DIR]

Flush modes before each timed CUDA-graph replay:
- ``dirty``: zero a 256 MB buffer (``triton.testing.do_bench``'s flush, which
  ``bench.py`` used until v21). L2 is left full of dirty lines, written back to
  memory inside the timed run.
- ``clean``: the same, then read a second 256 MB buffer: the dirty lines are
  written back before the run, and L2 holds clean lines of that buffer.

Ops (bf16, per-tensor mae 1x16 unless named): a copy of x's bytes, nan_amax,
quantize 1x16 / row-scaled / 16x16, and amax then quantize. Bits of every amax and quantize are
compared with fos_reference before timing. Writes ``l2_study.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import statistics

import torch

import fos_cutedsl
import fos_reference
from bench import copy_tbps, event_median_us, graphed, write_sweep

SHAPES = ((32768, 2048), (8192, 4096), (32768, 7168))
BUFFER = 256 << 20


class Flushes:
    def __init__(self):
        self.dirty_buffer = torch.empty(BUFFER, dtype=torch.int8, device="cuda")
        self.read_buffer = torch.ones(BUFFER // 4, dtype=torch.float32, device="cuda")
        self.sink = torch.empty((), dtype=torch.float32, device="cuda")

    def dirty(self) -> None:
        self.dirty_buffer.zero_()

    def clean(self) -> None:
        self.dirty_buffer.zero_()
        torch.amax(self.read_buffer, dim=0, out=self.sink)


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.is_floating_point():
        a, b = a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)
    return torch.equal(a, b)


def ops(x: torch.Tensor):
    gamax = fos_reference.nan_amax(x)
    rows_amax = fos_reference.nan_amax(x, 1)
    dst = torch.empty_like(x)
    return {
        "copy": (lambda: dst.copy_(x), None, 4.0),
        "nan_amax": (lambda: fos_cutedsl.nan_amax(x), lambda: fos_reference.nan_amax(x), 2.0),
        "quantize 1x16": (
            lambda: fos_cutedsl.quantize(x, gamax),
            lambda: fos_reference.quantize(x, gamax),
            2.5625,
        ),
        "quantize row-scaled": (
            lambda: fos_cutedsl.quantize(x, rows_amax),
            lambda: fos_reference.quantize(x, rows_amax),
            2.5625,
        ),
        "quantize 16x16": (
            lambda: fos_cutedsl.quantize(x, gamax, block="16x16"),
            lambda: fos_reference.quantize(x, gamax, block="16x16"),
            2.5625,
        ),
        "amax+quantize": (
            lambda: fos_cutedsl.quantize(x, fos_cutedsl.nan_amax(x)),
            lambda: fos_reference.quantize(x, gamax),
            4.5625,
        ),
    }


def bits_equal(got, want) -> bool:
    if isinstance(want, tuple):
        return all(same(g, w) for g, w in zip(got, want, strict=True))
    return same(got, want)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--reps", type=int, default=60)
    args = parser.parse_args()
    roof = copy_tbps("cuda")
    print(f"copy roofline {roof:.3f} TB/s", flush=True)
    flushes = Flushes()
    records = []
    for rows, cols in SHAPES:
        x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
        x.view(-1)[7777] = float("nan")
        for name, (fn, want_fn, bytes_per_elt) in ops(x).items():
            exact = True if want_fn is None else bits_equal(fn(), want_fn())
            replay, _ = graphed(fn)
            for mode in ("dirty", "clean"):
                flush = getattr(flushes, mode)
                runs = [event_median_us(replay, args.reps, flush) for _ in range(3)]
                us = statistics.median(runs)
                pct = 100 * rows * cols * bytes_per_elt / (us * 1e-6) / 1e12 / roof
                records.append(
                    dict(op=name, rows=rows, cols=cols, flush=mode, us=us, runs_us=runs,
                         pct_of_copy=pct, bitwise_equal=exact)
                )  # fmt: skip
                spread = f"{min(runs):.1f}-{max(runs):.1f}"
                print(f"{rows}x{cols} {name:>22} {mode:>5}: {us:8.1f} us {pct:5.1f}% "
                      f"(runs {spread}) exact={exact}", flush=True)  # fmt: skip
        del x
        torch.cuda.empty_cache()
    write_sweep(args.out, "l2_study.json", roof, records)


if __name__ == "__main__":
    main()
