"""Check and time the grouped 1x16 quantize's tunings in one GPU call.

    python bench/grouped_variants.py [--out DIR]

``rows`` is the row-scaled kernel with a binary search per row;
``per CTA tables`` the per-tensor kernel with one scale table a CTA for its
first group's expert (``grouped.compile_grouped_quantize(per_cta_tables=True)``);
``persistent`` the per-tensor persistent kernel under per-expert tables built by a
first launch (``GroupedQuantizeKey.persistent``, the launcher's default for 16-bit
1x16), timed with its workspace allocated once and, as ``fos_op`` runs it, through
``fos_op.quantize_grouped``; ``persistent, 2 ahead`` with two groups' loads in flight
instead of one, and either in 640-thread CTAs (96 registers).
Each tuning's bits are compared with ``fos_reference.quantize_grouped`` on a
skewed split before it is timed. Beside them, in the same run: the per-tensor
quantize of the same T x C (the issue's "within 5%") and the copy roofline.
bf16, mae, T = 32768, C = 7168 and 2048, 8 / 64 / 256 experts (every third
one empty). Times are CUDA-graph replays with the L2 flushed (``bench.time_us``).
Writes ``grouped_variants.json`` to ``--out`` (default ``$OUT``).
"""

from __future__ import annotations

import argparse
import itertools
import os

import torch

import fos_cutedsl
import fos_op
import fos_reference
from bench import copy_tbps, replay_us, skewed_offsets, write_sweep
from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize, workspace_floats

ROWS = 32768
COLS = (7168, 2048)
EXPERTS = (8, 64, 256)
TUNINGS = (
    ("rows", False, {}),
    ("per CTA tables", False, {"per_cta_tables": True}),
    ("persistent", True, {}),
    ("persistent, 3 groups", True, {"groups_per_thread": 3}),
    ("persistent, 2 ahead", True, {"prefetch": 2}),
    ("persistent, 640 threads", True, {"threads": 640}),
    ("2 ahead, 640 threads", True, {"prefetch": 2, "threads": 640}),
)


def expert_amaxes(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return fos_reference.nan_amax_grouped(x, offsets)


def with_workspace(fn, persistent, groups_per_thread=None):
    """``fn`` called as the row-scaled variants are: ``(x, amax, offsets, codes, scales)``;
    a persistent one's workspace sized for its ``groups_per_thread`` (None: the default)."""
    if not persistent:
        return fn
    spaces = {}

    def call(x, gamax, offsets, codes, scales):
        size = workspace_floats(*x.shape, gamax.shape[0], *filter(None, [groups_per_thread]))
        if size not in spaces:
            spaces[size] = torch.full((size,), float("nan"), device=x.device)
        fn(x, gamax, offsets, codes, scales, spaces[size])

    return call


def run(fn, x, gamax, offsets):
    rows, cols = x.shape
    codes = torch.full((rows, cols // 2), 0xAB, dtype=torch.uint8, device=x.device)
    scales = torch.full((rows, cols // 16), 0xAB, dtype=torch.uint8, device=x.device)
    fn(x, gamax, offsets, codes, scales)
    return codes, scales


def op_outputs(fn, x, gamax, offsets):
    codes, scales = fos_op.quantize_grouped(x, offsets, gamax, strict=True)
    return codes, scales.view(torch.uint8)


def exact(fn, gen, outputs=None) -> bool:
    """Bits on random normals and random bf16 bit patterns, skewed over 1, 8, 16, 64 and 256
    experts."""
    normal = torch.randn(2048, 2064, device="cuda", generator=gen).to(torch.bfloat16)
    raw = torch.randint(-(1 << 15), 1 << 15, (2048, 2064), device="cuda", generator=gen)
    for x, experts in itertools.product((normal, raw.to(torch.int16).view(torch.bfloat16)),
                                        (1, 8, 16, 64, 256)):  # fmt: skip
        offsets = skewed_offsets(x.shape[0], experts, "cuda")
        gamax = expert_amaxes(x, offsets)
        want = fos_reference.quantize_grouped(x, offsets, gamax)
        codes, scales = (outputs or run)(fn, x, gamax, offsets)
        if not (torch.equal(codes, want[0]) and torch.equal(scales, want[1].view(torch.uint8))):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--tunings", nargs="*", default=[t[0] for t in TUNINGS],
                        help="which of the tunings to run (default: all)")  # fmt: skip
    parser.add_argument("--experts", nargs="*", type=int, default=list(EXPERTS),
                        help="expert counts (default: 8 64 256)")  # fmt: skip
    args = parser.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(11)
    roof = copy_tbps("cuda")
    print(f"copy roofline {roof:.3f} TB/s", flush=True)
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    fns = {}
    for label, persistent, tuning in (t for t in TUNINGS if t[0] in args.tunings):
        key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", arch, persistent)
        fn = compile_grouped_quantize(key, **tuning)
        fn = with_workspace(fn, persistent, tuning.get("groups_per_thread"))
        fns[label] = (fn, exact(fn, gen))
        print(f"{label:16s} exact={fns[label][1]}", flush=True)
    op = lambda x, g, o, c, s: fos_op.quantize_grouped(x, o, g, strict=True)  # noqa: E731
    fns["fos_op"] = (op, exact(op, gen, op_outputs))
    print(f"{'fos_op':16s} exact={fns['fos_op'][1]}", flush=True)
    records = []
    for cols in COLS:
        x = torch.randn(ROWS, cols, device="cuda", generator=gen).to(torch.bfloat16)
        nbytes = ROWS * cols * 2.5625
        amax = fos_op.nan_amax(x)
        per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
        for experts in args.experts:
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
