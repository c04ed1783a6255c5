"""Inputs for the kernel's parity tests: every knob, input kinds and tile-edge shapes.

Each case is built on the CPU from a seeded generator (so it is the same
everywhere), then moved to the device. ``KINDS`` are the adversarial input
families of STYLE.md; ``shapes`` gives tile-edge shapes per block.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import torch

import fos_reference

DTYPES = (torch.bfloat16, torch.float16, torch.float32)
ERR_MODES = ("mae", "mse")
BOUNDS = (256, 448)
# (block, row_scaled): 16x16 takes a per-tensor amax only.
LAYOUTS = (("1x16", False), ("1x16", True), ("16x16", False))

KINDS = (
    "normal",  # scaled normals, amax from the data
    "ties",  # every E2M1 rounding midpoint, exactly hit (s = 1, power-of-two scales)
    "lattice",  # values on the E2M1 grid: both candidates exact, error ties
    "sparse",  # one or two nonzeros per group: near-tie candidate errors
    "outlier_channels",  # 1 column in 32 times 50: groups whose candidates tie in value
    "dtype_max",  # values at and near the dtype's largest finite value
    "subnormal",  # the dtype's subnormals (bf16 shares float32's range)
    "neg_zero",  # -0.0, +0.0 and tiny negatives that round to -0
    "nan_inf",  # NaN and +-Inf injected
    "zero_groups",  # all-zero groups and rows
    "wide_range",  # group magnitudes over 2^-40..2^40: subnormal and zero scales
    "amax_special",  # global amax 0, Inf, NaN, subnormal, tiny, huge, negative
)


@dataclass(frozen=True)
class Variant:
    dtype: torch.dtype
    block: str
    row_scaled: bool
    err_mode: str
    bound: int

    @property
    def knobs(self) -> dict:
        return {"block": self.block, "err_mode": self.err_mode, "e4m3_scale_bound": self.bound}

    def __str__(self) -> str:
        name = str(self.dtype).removeprefix("torch.")
        row = "-row" if self.row_scaled else ""
        return f"{name}-{self.block}{row}-{self.err_mode}-{self.bound}"


def variants() -> list[Variant]:
    """All 36 compiled variants."""
    return [
        Variant(dtype, block, row_scaled, err, bound)
        for dtype, (block, row_scaled), err, bound in itertools.product(
            DTYPES, LAYOUTS, ERR_MODES, BOUNDS
        )
    ]


def shapes(block: str) -> tuple[tuple[int, int], ...]:
    """Tile-edge shapes: one row/tile, below one CTA, ragged rows, several CTAs, large C."""
    if block == "16x16":
        return ((16, 16), (16, 48), (48, 1136), (16 * 33, 80), (32, 8192))
    return ((1, 16), (1, 272), (37, 48), (301, 208), (5, 8192))


_SPECIAL_AMAX = (0.0, float("inf"), float("nan"), 1e-40, 1e-30, 3e38, -2.0, 1.0)


def make_case(
    kind: str, variant: Variant, rows: int, cols: int, seed: int, device: torch.device | str
) -> tuple[torch.Tensor, torch.Tensor]:
    """``(x, global_amax)`` for one kind and shape, on ``device``."""
    gen = torch.Generator().manual_seed(seed)
    dtype = variant.dtype
    n = rows * cols
    finfo = torch.finfo(dtype)

    def randn(*shape):
        return torch.randn(*shape, generator=gen)

    def choice(values, count):
        idx = torch.randint(len(values), (count,), generator=gen)
        return torch.tensor(values, dtype=torch.float32)[idx]

    def sign(count):
        return torch.where(torch.rand(count, generator=gen) < 0.5, -1.0, 1.0)

    amax_override = None
    if kind == "normal":
        x = randn(n) * 2.0 ** torch.randint(-8, 9, (1,), generator=gen).item()
    elif kind == "ties":
        # Groups of tie points times 2^k with a 6 * 2^k element: with gamax = D
        # (s = 1) the map-to-6 scale is 2^k and q hits the midpoints exactly.
        ties = (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 0.5, 1.0, 3.0)
        x = choice(ties, n) * sign(n)
        x = x.reshape(-1, 16)
        x[:, 0] = 6.0
        k = torch.randint(-6, 7, (x.shape[0], 1), generator=gen).float()
        x = (x * 2.0**k).reshape(-1)
        amax_override = 6.0 * variant.bound
    elif kind == "lattice":
        x = choice((0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0), n) * sign(n)
        x = x * 2.0 ** torch.randint(-3, 4, (1,), generator=gen).item()
    elif kind == "sparse":
        x = torch.zeros(n)
        hits = torch.rand(n, generator=gen) < 0.1
        x[hits] = randn(int(hits.sum())) * 3.0
    elif kind == "outlier_channels":
        wide = torch.where(torch.rand(cols, generator=gen) < 1 / 32, 50.0, 1.0)
        x = randn(rows, cols) * wide * 2.0 ** torch.randint(-8, 9, (1,), generator=gen).item()
        x = x.reshape(-1)
    elif kind == "dtype_max":
        big = finfo.max
        x = choice((big, -big, big * 0.75, big / 6, 1.0, -0.5), n)
        x = torch.where(torch.rand(n, generator=gen) < 0.5, randn(n) * 1e3, x)
    elif kind == "subnormal":
        tiny = finfo.tiny if dtype != torch.bfloat16 else torch.finfo(torch.float32).tiny
        x = randn(n) * tiny * 0.25
        x = torch.where(torch.rand(n, generator=gen) < 0.1, randn(n) * tiny * 8, x)
    elif kind == "neg_zero":
        x = choice((-0.0, 0.0, -1e-4, 1e-4, -3.0, 2.0), n)
        x = torch.where(torch.rand(n, generator=gen) < 0.3, randn(n) * 1e-3, x)
    elif kind == "nan_inf":
        x = randn(n)
        u = torch.rand(n, generator=gen)
        x = torch.where(u < 0.05, float("nan"), x)
        x = torch.where((u >= 0.05) & (u < 0.08), float("inf"), x)
        x = torch.where((u >= 0.08) & (u < 0.11), float("-inf"), x)
        x = x.reshape(-1, 16)
        x[::7] = float("nan")  # all-NaN groups
        x = x.reshape(-1)
    elif kind == "zero_groups":
        x = randn(rows, cols)
        x.reshape(-1, 16)[::3] = 0.0
        x[::4] = 0.0
        x = x.reshape(-1)
    elif kind == "wide_range":
        x = randn(n).reshape(-1, 16)
        e = torch.randint(-40, 41, (x.shape[0], 1), generator=gen).float()
        x = (x * 2.0**e).reshape(-1)
    elif kind == "amax_special":
        x = randn(n) * 4.0
    else:
        raise ValueError(f"unknown kind {kind!r}")

    x = x.reshape(rows, cols).to(dtype)
    if variant.row_scaled:
        gamax = fos_reference.nan_amax(x, dim=1)
        if kind == "amax_special":
            gamax = choice(_SPECIAL_AMAX, rows)
        elif amax_override is not None:
            gamax = torch.full((rows,), amax_override)
    else:
        gamax = fos_reference.nan_amax(x).reshape(1)
        if kind == "amax_special":
            gamax = torch.tensor([_SPECIAL_AMAX[seed % len(_SPECIAL_AMAX)]])
        elif amax_override is not None:
            gamax = torch.tensor([amax_override])
    return x.to(device), gamax.to(torch.float32).to(device)
