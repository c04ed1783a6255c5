"""Check and time the grouped 1x16 quantize's tunings in one GPU call.

    python bench/grouped_variants.py [--out DIR]

``default`` is the row-scaled kernel with a binary search per row;
``per CTA tables`` the per-tensor kernel with one scale table a CTA for its
first group's expert (``grouped.compile_grouped_quantize(per_cta_tables=True)``).
Each tuning's bits are compared with ``fos_reference.quantize_grouped`` on a
skewed split before it is timed. Beside them, in the same run: the per-tensor
quantize of the same T x C (the issue's "within 5%") and the copy roofline.
bf16, mae, T = 32768, C = 7168 and 2048, 8 / 64 / 256 experts (every third
one empty). Times are CUDA-graph replays with the L2 flushed (``bench.time_us``).
Writes ``grouped_variants.json`` to ``--out`` (default ``$OUT``).
"""

from __future__ import annotations

import argparse
import os

import torch

import fos_cutedsl
import fos_op
import fos_reference
from bench import copy_tbps, replay_us, skewed_offsets, write_sweep
from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize

ROWS = 32768
COLS = (7168, 2048)
EXPERTS = (8, 64, 256)
TUNINGS = (("default", {}), ("per CTA tables", {"per_cta_tables": True}))


def expert_amaxes(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return fos_reference.nan_amax_grouped(x, offsets)


def run(fn, x, gamax, offsets):
    rows, cols = x.shape
    codes = torch.full((rows, cols // 2), 0xAB, dtype=torch.uint8, device=x.device)
    scales = torch.full((rows, cols // 16), 0xAB, dtype=torch.uint8, device=x.device)
    fn(x, gamax, offsets, codes, scales)
    return codes, scales


def exact(fn, gen) -> bool:
    """Bits on random normals and random bf16 bit patterns, skewed over 64 experts."""
    normal = torch.randn(2048, 2064, device="cuda", generator=gen).to(torch.bfloat16)
    raw = torch.randint(-(1 << 15), 1 << 15, (2048, 2064), device="cuda", generator=gen)
    for x in (normal, raw.to(torch.int16).view(torch.bfloat16)):
        offsets = skewed_offsets(x.shape[0], 64, "cuda")
        gamax = expert_amaxes(x, offsets)
        want = fos_reference.quantize_grouped(x, offsets, gamax)
        codes, scales = run(fn, x, gamax, offsets)
        if not (torch.equal(codes, want[0]) and torch.equal(scales, want[1].view(torch.uint8))):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(11)
    roof = copy_tbps("cuda")
    print(f"copy roofline {roof:.3f} TB/s", flush=True)
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", arch)
    fns = {}
    for label, tuning in TUNINGS:
        fn = compile_grouped_quantize(key, **tuning)
        fns[label] = (fn, exact(fn, gen))
        print(f"{label:16s} exact={fns[label][1]}", flush=True)
    records = []
    for cols in COLS:
        x = torch.randn(ROWS, cols, device="cuda", generator=gen).to(torch.bfloat16)
        nbytes = ROWS * cols * 2.5625
        amax = fos_op.nan_amax(x)
        per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
        for experts in EXPERTS:
            offsets = skewed_offsets(ROWS, experts, "cuda")
            gamax = expert_amaxes(x, offsets)
            for label, (fn, ok) in fns.items():
                codes, scales = run(fn, x, gamax, offsets)
                us = float("nan")
                if ok:
                    us = replay_us(lambda fn=fn, x=x, g=gamax, o=offsets, c=codes, s=scales:
                                    fn(x, g, o, c, s))  # fmt: skip
                pct = 100 * nbytes / (us * 1e-6) / (roof * 1e12)
                records.append({"cols": cols, "experts": experts, "variant": label, "us": us,
                                "pct_of_copy": pct, "exact": ok,
                                "per_tensor_us": per_tensor})  # fmt: skip
                ratio = us / per_tensor
                print(f"{ROWS}x{cols} E={experts:3d} {label:16s} {us:7.1f} us {pct:5.1f}% "
                      f"({ratio:.2f}x per tensor {per_tensor:.1f} us)", flush=True)  # fmt: skip
    write_sweep(args.out, "grouped_variants.json", roof, records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
