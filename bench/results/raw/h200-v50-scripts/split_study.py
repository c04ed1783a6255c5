"""v50: does the grouped call's cost grow with the number of experts, or with where the
small experts sit? ``fos_op.quantize_grouped`` (the default kernel) at 32768 x 7168 and
x 2048 bf16 mae over the skewed split (small experts last), the same split reversed
(small experts first) and an even split, 1 / 64 / 256 experts; the per-tensor quantize
beside. CUDA-graph replays, L2 flushed (``bench.replay_us``)."""

import sys

import torch

sys.path.insert(0, "bench")
import fos_op
import fos_reference
from bench import replay_us, skewed_offsets

ROWS = 32768


def splits(experts):
    skewed = skewed_offsets(ROWS, experts, "cuda")
    counts = skewed.diff().flip(0)
    reversed_ = torch.cat([skewed.new_zeros(1), counts.cumsum(0)])
    even = torch.linspace(0, ROWS, experts + 1, device="cuda").round().to(torch.int64)
    return {"skewed": skewed, "reversed": reversed_, "even": even}


for cols in (7168, 2048):
    x = torch.randn(ROWS, cols, device="cuda").to(torch.bfloat16)
    amax = fos_op.nan_amax(x)
    per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
    print(f"{ROWS}x{cols} per tensor {per_tensor:7.1f} us", flush=True)
    for experts in (1, 64, 256):
        for name, offsets in splits(experts).items():
            gamax = fos_reference.nan_amax_grouped(x, offsets)
            us = replay_us(
                lambda x=x, o=offsets, g=gamax: fos_op.quantize_grouped(x, o, g, strict=True)
            )
            print(f"{ROWS}x{cols} E={experts:3d} {name:8s} {us:7.1f} us "
                  f"({us / per_tensor:.3f}x)", flush=True)  # fmt: skip
