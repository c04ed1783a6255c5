"""v51: is the grouped call's extra time at 64 / 256 experts the skewed split's tail (small
experts last), or the input buffer? v50's split study (skewed, reversed, even) over three
freshly allocated inputs at 32768 x 7168 bf16 mae, per-tensor quantize of each beside.
CUDA-graph replays, L2 flushed (``bench.replay_us``)."""

import sys

import torch

sys.path.insert(0, "bench")
import fos_op
import fos_reference
from bench import replay_us, skewed_offsets

ROWS, COLS = 32768, 7168


def splits(rows, experts):
    """v50's splits: skewed (small experts last), the same reversed, and even."""
    skewed = skewed_offsets(rows, experts, "cuda")
    reversed_ = torch.cat([skewed.new_zeros(1), skewed.diff().flip(0).cumsum(0)])
    even = torch.linspace(0, rows, experts + 1, device="cuda").round().to(torch.int64)
    return {"skewed": skewed, "reversed": reversed_, "even": even}


for buffer in range(3):
    x = torch.randn(ROWS, COLS, device="cuda").to(torch.bfloat16)
    amax = fos_op.nan_amax(x)
    per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
    print(f"buffer {buffer} per tensor {per_tensor:7.1f} us", flush=True)
    for experts in (1, 64, 256):
        for name, offsets in splits(ROWS, experts).items():
            if experts == 1 and name != "skewed":
                continue
            gamax = fos_reference.nan_amax_grouped(x, offsets)
            us = replay_us(
                lambda x=x, o=offsets, g=gamax: fos_op.quantize_grouped(x, o, g, strict=True)
            )
            print(f"buffer {buffer} E={experts:3d} {name:8s} {us:7.1f} us "
                  f"({us / per_tensor:.3f}x)", flush=True)  # fmt: skip
    del x
