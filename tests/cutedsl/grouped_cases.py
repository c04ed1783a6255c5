"""Grouped (mixture-of-experts) cases shared by the kernel tests and ``gpu_verify_elementwise``:
splits, per-expert amaxes, and calls of the grouped kernels into poisoned outputs."""

from __future__ import annotations

import itertools

import torch

import fos_cutedsl

POISON = 0xAB


def skewed(rows: int, experts: int, seed: int) -> list[int]:
    """Offsets of a skewed split: about a third of the experts empty, the rest uneven."""
    gen = torch.Generator().manual_seed(seed)
    weights = torch.rand(experts, generator=gen) ** 4
    weights[torch.rand(experts, generator=gen) < 0.35] = 0
    weights[0] += 1e-3  # at least one expert owns rows
    counts = torch.floor(weights / weights.sum() * rows).long()
    counts[int(torch.argmax(weights))] += rows - int(counts.sum())
    return [0, *torch.cumsum(counts, 0).tolist()]


# (rows, offsets): one row; empty experts around one that owns everything; splits that are
# no multiple of a CTA's 4 or 16 rows; 64 and 256 experts, skewed.
SPLITS = [
    (1, [0, 1]),
    (37, [0, 0, 37, 37]),
    (100, [0, 3, 3, 50, 51, 100]),
    (203, skewed(203, 64, 1)),
    (611, skewed(611, 256, 2)),
]


def expert_amax(g: torch.Tensor, offsets: list[int]) -> torch.Tensor:
    """Each expert's global amax: the case's amax of its first row (1.0 for an empty one)."""
    one = torch.ones((), device=g.device)
    values = [g[lo] if hi > lo else one for lo, hi in itertools.pairwise(offsets)]
    return torch.stack(values).to(torch.float32)


def poisoned_quantize(x, offsets, gamax, block, err_mode, bound):
    """``launch_quantize_grouped`` into codes and scales poisoned first."""
    rows, cols = x.shape
    codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device=x.device)
    scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device=x.device)
    fos_cutedsl.launch_quantize_grouped(x, offsets, gamax, codes, scales, block, err_mode, bound)
    return codes, scales


def poisoned_amax(x, offsets):
    """``launch_nan_amax_grouped`` into an output poisoned first (the launcher zero-fills)."""
    out = torch.full(((offsets.shape[0] - 1) * 4,), POISON, dtype=torch.uint8, device=x.device)
    out = out.view(torch.float32)
    fos_cutedsl.launch_nan_amax_grouped(x, offsets, out)
    return out
