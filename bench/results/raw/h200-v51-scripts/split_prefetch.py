"""v51: the grouped persistent kernel with and without ``table_prefetch`` over the split
study's splits (skewed: small experts last; reversed; even), two input buffers at
32768 x 7168 and one at 32768 x 2048, bf16 mae 256; the per-tensor quantize beside.
Each kernel's bits are checked first (``grouped_variants.exact``: the reference over
skewed splits of 1 to 256 experts, normals and random bit patterns). CUDA-graph
replays, L2 flushed (``bench.replay_us``)."""

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
VARIANTS = {"default": {}, "table prefetch": {"table_prefetch": True}}


def splits(rows, experts):
    """v50's splits: skewed (small experts last), the same reversed, and even."""
    skewed = skewed_offsets(rows, experts, "cuda")
    reversed_ = torch.cat([skewed.new_zeros(1), skewed.diff().flip(0).cumsum(0)])
    even = torch.linspace(0, rows, experts + 1, device="cuda").round().to(torch.int64)
    return {"skewed": skewed, "reversed": reversed_, "even": even}


gen = torch.Generator(device="cuda").manual_seed(5)
arch = fos_cutedsl.arch_of(torch.device("cuda"))
key = GroupedQuantizeKey("bfloat16", "1x16", "mae", 256, "int64", arch, True)
fns = {}
for name, tuning in VARIANTS.items():
    fns[name] = with_workspace(compile_grouped_quantize(key, **tuning), True)
    print(f"{name:15s} exact={exact(fns[name], gen)}", flush=True)
records = []
for cols, buffers in ((7168, 2), (2048, 1)):
    for buffer in range(buffers):
        x = torch.randn(ROWS, cols, device="cuda", generator=gen).to(torch.bfloat16)
        amax = fos_op.nan_amax(x)
        per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
        print(f"{ROWS}x{cols} buffer {buffer} per tensor {per_tensor:7.1f} us", flush=True)
        for experts in (1, 64, 256):
            for split, offsets in splits(ROWS, experts).items():
                if experts == 1 and split != "skewed":
                    continue
                gamax = fos_reference.nan_amax_grouped(x, offsets)
                for name, fn in fns.items():
                    codes, scales = run(fn, x, gamax, offsets)
                    us = replay_us(lambda fn=fn, x=x, g=gamax, o=offsets, c=codes, s=scales:
                                   fn(x, g, o, c, s))  # fmt: skip
                    records.append({"cols": cols, "buffer": buffer, "experts": experts,
                                    "split": split, "variant": name, "us": us,
                                    "per_tensor_us": per_tensor})  # fmt: skip
                    print(f"{ROWS}x{cols} buffer {buffer} E={experts:3d} {split:8s} {name:15s}"
                          f" {us:7.1f} us ({us / per_tensor:.3f}x)", flush=True)  # fmt: skip
        del x
with open(os.path.join(os.environ.get("OUT", "."), "split_prefetch.json"), "w") as f:
    json.dump(records, f, indent=1)
