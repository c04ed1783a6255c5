"""Check and time the one-read row-amax quantize's tunings in one GPU call.

    python bench/row_amax_variants.py [--wide] [--rounds N] [--dtype D] [--only PART ...]
        [--out DIR]

Each variant is ``fos_cutedsl.row_amax.compile_row_amax`` with some of
``RowAmaxConfig``'s knobs (same bits, other speed); its amax, codes and scale
bytes are compared with ``fos_reference`` (random normals, and random bit
patterns: NaN, Inf, subnormals) before it is timed, and a variant that differs
is reported and not timed. ``row tables``: step 4 looked up in a per-row table
of every scale byte (``RowAmaxConfig.row_tables``); ``group amax``: each group's
maximum kept from the fold (``RowAmaxConfig.group_amax``); ``amax given``: the row amax
read, not found (a row-scaled quantize by whole rows). Beside them, in the same run:
the copy roofline, the row-scaled quantize given the row amax (what the fused
kernel would be with a free amax) and the two-pass path (the per-row amax kernel,
then that quantize).
bf16 (or ``--dtype``), mae, bound 256; CUDA-graph replays, L2 flushed
(``bench.replay_us``); % of copy from itemsize + 0.5625 B/elt; ``--only`` keeps the
variants whose labels contain a given part. Writes ``row_amax_variants.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import os

import torch

import fos_cutedsl
import fos_reference
from bench import copy_tbps, replay_us, write_sweep
from fos_cutedsl.row_amax import RowAmaxConfig, compile_row_amax, tiling_tuning

SHAPES = ((32768, 7168), (8192, 4096), (32768, 2048))
WARP_ROWS = {"register_rows": True, "rows_per_cta": 4}
PAIR_ROWS = {"register_rows": True, "row_warps": 2, "groups_per_lane": 4, "rows_per_cta": 2}
VARIANTS = (
    ("team rows (0.6.4's default above 4096)", {}),
    ("warp rows (0.6.4's default to 2048)", WARP_ROWS),
    ("pair rows (0.6.4's default to 4096)", PAIR_ROWS),
    # A row-scaled quantize by whole rows (against "row-scaled quantize, amax given").
    ("team rows, amax given", {"given_amax": True}),
    ("warp rows, amax given, row tables", {**WARP_ROWS, "given_amax": True, "row_tables": True}),
)
# The current defaults (``TILINGS``, per dtype), each also with ``group_amax``: each
# group's maximum kept from the fold for its quantize step (v31).
GROUP_AMAX = (("", {}), (", group amax", {"group_amax": True}))
CURRENT = tuple((f"{name} rows (0.6.6){suffix}", name, extra)
                for name in ("warp", "pair", "team") for suffix, extra in GROUP_AMAX)  # fmt: skip
# v31: one-warp register rows whose entries the CTA's first threads build (``cta_build``).
CTA_BUILD = (("v31 warp rows, CTA build", {"cta_build": True}),
             ("v31 warp rows, warp build", {"cta_build": False}),
             ("v31 warp rows, CTA build, 8 rows a CTA", {"cta_build": True, "rows_per_cta": 8}),
             ("v31 warp rows, 8 rows a CTA", {"cta_build": False, "rows_per_cta": 8}))  # fmt: skip
# v31: each CTA asks L2 for the rows of the CTA ``l2_ahead`` launches later.
L2_AHEAD = tuple((f"v31 {name} rows, L2 {ahead} ahead", name, {"l2_ahead": ahead})
                 for name, aheads in (("warp", (33, 132, 264, 924, 1848)), ("pair", (264, 924)),
                                      ("team", (33, 66, 132, 264, 528, 1848)))
                 for ahead in aheads)  # fmt: skip
# v32: the warp rows' register cap (``min_blocks``: 80 registers by default since
# ``cta_build``; 7 CTAs an SM give 72 with a 16-byte stack, 8 give 64 with 48 bytes: both
# slower, call 1).
MIN_BLOCKS = tuple((f"v32 warp rows, {n} CTAs an SM", {"min_blocks": n}) for n in (7, 8))
# v32: ``cta_build`` without ``group_amax`` (72 registers, no stack; call 4).
NO_GROUP_AMAX = (("v32 warp rows, CTA build, no group amax", {"group_amax": False}),
               ("v32 warp rows, CTA build, no group amax, 2 rows a CTA",
                {"group_amax": False, "rows_per_cta": 2}),
               ("v32 warp rows, warp build, no group amax",
                {"group_amax": False, "cta_build": False}))  # fmt: skip
# Register rows of more warps, fewer groups a lane (``--wide``): the row's groups spread
# over a CTA's warps, so a 7168-wide row is held without staging (7 warps x 2 groups).
WIDE = tuple(
    (f"{w} warps x {g} groups, {r} rows a CTA",
     {"register_rows": True, "row_warps": w, "groups_per_lane": g, "rows_per_cta": r})
    for w, g, r in ((7, 2, 1), (7, 2, 2), (14, 1, 1), (14, 1, 2), (4, 4, 1), (8, 2, 1),
                    (2, 2, 2), (4, 1, 2), (4, 2, 1), (8, 1, 1))
)  # fmt: skip


def outputs(x, given: torch.Tensor | None = None):
    """(amax, codes, scales), poisoned; ``given``: the amax a given-amax variant reads."""
    rows, cols = x.shape
    return (
        torch.full((rows,), float("nan"), device=x.device) if given is None else given.clone(),
        torch.full((rows, cols // 2), 0xAB, dtype=torch.uint8, device=x.device),
        torch.full((rows, cols // 16), 0xAB, dtype=torch.uint8, device=x.device),
    )


def exact(fn, gen, max_cols: int, given_amax: bool, dtype: torch.dtype) -> bool:
    """Bits equal to the reference on rows as wide as the variant takes and ragged ones."""
    return all(
        _exact_at(fn, gen, cols, given_amax, dtype)
        for cols in {min(max_cols, 7168), max_cols - 48, 2064 if max_cols >= 2064 else 16}
    )


def _exact_at(fn, gen, cols: int, given_amax: bool, dtype: torch.dtype) -> bool:
    normal = torch.randn(300, cols, device="cuda", generator=gen).to(dtype)
    bits = 8 * dtype.itemsize
    raw = torch.randint(-(1 << (bits - 1)), 1 << (bits - 1), (300, cols), device="cuda",
                        generator=gen)  # fmt: skip
    raw = raw.to(torch.int16 if bits == 16 else torch.int32).view(dtype)
    for x in (normal, raw):
        want_amax = fos_reference.nan_amax(x, dim=1)
        codes, scales = fos_reference.quantize(x, want_amax)
        amax, got_codes, got_scales = outputs(x, want_amax if given_amax else None)
        fn(x, amax, got_codes, got_scales)
        if not (
            torch.equal(amax.view(torch.int32), want_amax.view(torch.int32))
            and torch.equal(got_codes, codes)
            and torch.equal(got_scales, scales.view(torch.uint8))
        ):
            return False
    return True


def time_shape(
    rows: int, cols: int, fns: dict, roof: float, gen, rounds: int, dtype: torch.dtype
) -> list[dict]:
    """Every exact variant and the two reference points at ``rows x cols``, ``rounds``
    times round robin (one buffer: the spread between rounds is the timing's own)."""
    x = torch.randn(rows, cols, device="cuda", generator=gen).to(dtype)
    per_elt = dtype.itemsize + 0.5625
    row_amax = fos_reference.nan_amax(x, dim=1)
    timed = {
        "row-scaled quantize, amax given": lambda: fos_cutedsl.quantize(x, row_amax),
        "per-row amax, then row-scaled quantize": lambda: fos_cutedsl.quantize(
            x, fos_cutedsl.nan_amax(x, dim=1)
        ),
    }
    for label, (fn, ok, max_cols, given_amax) in fns.items():
        if ok and cols <= max_cols:
            out = outputs(x, row_amax if given_amax else None)
            timed[label] = lambda fn=fn, out=out: fn(x, *out)
    records = []
    for round_ in range(rounds):
        for label, call in timed.items():
            us = replay_us(call)
            pct = 100 * rows * cols * per_elt / (us * 1e-6) / 1e12 / roof
            records.append(
                dict(rows=rows, cols=cols, variant=label, round=round_, us=us, pct_of_copy=pct)
            )
            print(f"{rows}x{cols} {label:48s} {us:8.1f} us {pct:5.1f}%", flush=True)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--wide", action="store_true", help="also the WIDE register rows")
    parser.add_argument("--rounds", type=int, default=1, help="timings of each, round robin")
    parser.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    parser.add_argument("--only", nargs="*", help="the variants whose labels contain one of these")
    args = parser.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(5)
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    dtype = getattr(torch, args.dtype)
    fns = {}
    current = tuple((label, {**tiling_tuning(args.dtype, name), **extra})
                    for label, name, extra in CURRENT + L2_AHEAD)  # fmt: skip
    current += tuple((label, {**tiling_tuning(args.dtype, "warp"), **extra})
                     for label, extra in CTA_BUILD + MIN_BLOCKS + NO_GROUP_AMAX)  # fmt: skip
    for label, tuning in current + VARIANTS + (WIDE if args.wide else ()):
        if args.only and not any(part in label for part in args.only):
            continue
        fn = compile_row_amax(args.dtype, "mae", 256, arch, **tuning)
        max_cols = RowAmaxConfig(args.dtype, "mae", 256, **tuning).max_cols
        given = tuning.get("given_amax", False)
        fns[label] = (fn, exact(fn, gen, max_cols, given, dtype), max_cols, given)
        print(f"{label:48s} exact={fns[label][1]}", flush=True)
    roof = copy_tbps("cuda")
    print(f"copy roofline {roof:.3f} TB/s", flush=True)
    records = []
    for rows, cols in SHAPES:
        records += time_shape(rows, cols, fns, roof, gen, args.rounds, dtype)
        torch.cuda.empty_cache()
    name = "" if args.dtype == "bfloat16" else f"-{args.dtype}"
    write_sweep(args.out, f"row_amax_variants{name}.json", roof, records)


if __name__ == "__main__":
    main()
