"""v53: ``overlap_units`` (a unit spanning two experts run as two whole units, the first
expert's last and the second's first, each overlapping its expert's other units) against
0.6.20's default (such a unit one group per lane and step), over v52's splits: skewed
(small experts last), aligned (its offsets rounded down to even rows: no unit spans
experts at 7168 columns), reversed, even. 32768 x 7168 (two buffers) and 32768 x 2048 (one;
a unit is a row, none spans experts), bf16 mae 256; the per-tensor quantize beside. Each
variant's bits are checked first (``grouped_variants.exact``). CUDA-graph replays, L2
flushed (``bench.replay_us``)."""

import json
import os
import sys

import torch

sys.path.insert(0, "bench")
import fos_cutedsl
import fos_op
import fos_reference
from bench import replay_us, skewed_offsets
from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize
from grouped_variants import exact, run, with_workspace

ROWS = 32768
UNIT = 128  # groups
VARIANTS = {"default": {}, "overlap": {"overlap_units": True}}


def splits(rows, experts):
    skewed = skewed_offsets(rows, experts, "cuda")
    aligned = (skewed // 2) * 2
    reversed_ = torch.cat([skewed.new_zeros(1), skewed.diff().flip(0).cumsum(0)])
    even = torch.linspace(0, rows, experts + 1, device="cuda").round().to(torch.int64)
    return {"skewed": skewed, "aligned": aligned, "reversed": reversed_, "even": even}


def mixed_units(offsets, rows, cols):
    """(units spanning experts, of them in the last 5% of units)."""
    per_row = cols // 16
    units = (rows * per_row + UNIT - 1) // UNIT
    first = torch.arange(units, device="cuda") * UNIT
    last = torch.clamp(first + UNIT, max=rows * per_row) - 1
    experts = lambda g: torch.searchsorted(offsets, g // per_row, right=True)  # noqa: E731
    mixed = experts(first) != experts(last)
    return int(mixed.sum()), int(mixed[int(units * 0.95):].sum())


gen = torch.Generator(device="cuda").manual_seed(53)
arch = fos_cutedsl.arch_of(torch.device("cuda"))
key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", arch, True)
fns = {}
for name, tuning in VARIANTS.items():
    fns[name] = with_workspace(compile_grouped_quantize(key, **tuning), True)
    print(f"{name:8s} exact={exact(fns[name], gen)}", flush=True)
records = []
for cols, buffers in ((7168, 2), (2048, 1)):
    for buffer in range(buffers):
        x = torch.randn(ROWS, cols, device="cuda", generator=gen).to(torch.bfloat16)
        amax = fos_op.nan_amax(x)
        per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
        print(f"{ROWS}x{cols} buffer {buffer} per tensor {per_tensor:7.1f} us", flush=True)
        for experts in (1, 8, 64, 256):
            for split, offsets in splits(ROWS, experts).items():
                if (experts == 1 or cols == 2048) and split != "skewed":
                    continue
                mixed, tail = mixed_units(offsets, ROWS, cols)
                gamax = fos_reference.nan_amax_grouped(x, offsets)
                for name, fn in fns.items():
                    codes, scales = run(fn, x, gamax, offsets)
                    us = replay_us(lambda fn=fn, x=x, g=gamax, o=offsets, c=codes, s=scales:
                                   fn(x, g, o, c, s))  # fmt: skip
                    records.append({"cols": cols, "buffer": buffer, "experts": experts,
                                    "split": split, "mixed_units": mixed, "mixed_tail": tail,
                                    "variant": name, "us": us, "per_tensor_us": per_tensor})  # fmt: skip
                    print(f"{ROWS}x{cols} buffer {buffer} E={experts:3d} {split:8s} mixed"
                          f" {mixed:3d} ({tail:2d} last 5%) {name:8s} {us:7.1f} us"
                          f" ({us / per_tensor:.3f}x)", flush=True)  # fmt: skip
        del x
with open(os.path.join(os.environ.get("OUT", "."), "overlap_split.json"), "w") as f:
    json.dump(records, f, indent=1)
