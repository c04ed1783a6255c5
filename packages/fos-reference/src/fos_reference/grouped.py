"""Grouped (mixture-of-experts) quantize and amax: SPEC's "Grouped quantize" in plain PyTorch.

``x`` (T, C) holds the rows of E experts one after another: expert ``e`` owns
rows ``[offsets[e], offsets[e + 1])`` and is quantized exactly as a per-tensor
``quantize`` of that slice under ``global_amax[e]``. A stacked weight
(E, N, K) is the same with ``offsets[e] = e * N``.

The grouped functions read ``offsets`` on the host to slice (one device sync,
so they are not CUDA-graph capturable) and always check its values. The op
layer's composition needs no sync; ``quantize_tile_rows`` is the piece of SPEC
it needs for 16x16: per-tensor 16x16 quantizes of 16-row bands, each under its
own amax, in one call.
"""

from __future__ import annotations

import torch

from .quantize import _quantize_core, nan_amax, quantize
from .validation import (
    GROUP,
    check_block_rows,
    check_knobs,
    check_nan_amax_grouped_args,
    check_offsets_values,
    check_quantize_grouped_args,
    check_quantize_stacked_args,
    check_tensor,
    check_x,
)


def quantize_grouped(
    x: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize each expert's rows of ``x`` (T, C) as its own per-tensor ``quantize``.

    Args:
        x: (T, C) bfloat16/float16/float32, C % 16 == 0 (16x16: T % 16 == 0).
        offsets: int32/int64 (E + 1,) on x's device: 0, non-decreasing, ending at
            T (16x16: every offset a multiple of 16). Read on the host (a sync).
        global_amax: float32 (E,) on x's device, one per expert.

    Returns:
        ``codes`` uint8 (T, C/2) and ``scales`` float8_e4m3fn (T, C/16): rows
        ``[offsets[e], offsets[e + 1])`` are ``quantize(x[those rows],
        global_amax[e])``; an empty expert writes nothing.
    """
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": e4m3_scale_bound}
    experts = check_quantize_grouped_args(x, offsets, global_amax, **knobs)
    bounds = check_offsets_values(offsets, x.shape[0], block)
    rows, cols = x.shape
    codes = torch.zeros(rows, cols // 2, dtype=torch.uint8, device=x.device)
    scales = torch.zeros(rows, cols // GROUP, dtype=torch.uint8, device=x.device)
    for e in range(experts):
        lo, hi = bounds[e], bounds[e + 1]
        if lo == hi:
            continue
        c, s = quantize(x[lo:hi], global_amax[e], **knobs)
        codes[lo:hi] = c
        scales[lo:hi] = s.view(torch.uint8)
    return codes, scales.view(torch.float8_e4m3fn)


def nan_amax_grouped(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """The NaN-dropping amax of each expert's rows of ``x`` (T, C): float32 (E,), 0 if empty.

    ``offsets`` as ``quantize_grouped`` takes it (read on the host: a sync).
    """
    experts = check_nan_amax_grouped_args(x, offsets)
    bounds = check_offsets_values(offsets, x.shape[0])
    out = torch.zeros(experts, dtype=torch.float32, device=x.device)
    for e in range(experts):
        out[e] = nan_amax(x[bounds[e] : bounds[e + 1]])
    return out


def quantize_stacked(
    w: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize a stacked weight ``w`` (E, N, K): each ``w[e]`` per tensor under ``global_amax[e]``.

    The grouped quantize of ``w.reshape(E * N, K)`` with ``offsets[e] = e * N``
    (16x16: N % 16 == 0). Returns ``codes`` uint8 (E, N, K/2) and ``scales``
    float8_e4m3fn (E, N, K/16). The per-expert amax is
    ``nan_amax(w.reshape(E, -1), dim=-1)``. Reads no values: no sync.
    """
    experts = check_quantize_stacked_args(w, global_amax, block, err_mode, e4m3_scale_bound)
    _, n, k = w.shape
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": e4m3_scale_bound}
    codes = torch.empty(experts, n, k // 2, dtype=torch.uint8, device=w.device)
    scales = torch.empty(experts, n, k // GROUP, dtype=torch.uint8, device=w.device)
    for e in range(experts):
        c, s = quantize(w[e], global_amax[e], **knobs)
        codes[e] = c
        scales[e] = s.view(torch.uint8)
    return codes, scales.view(torch.float8_e4m3fn)


def quantize_tile_rows(
    x: torch.Tensor,
    band_amax: torch.Tensor,
    *,
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """16x16 quantize of ``x`` (R, C), R % 16 == 0, with one amax per 16-row band.

    ``band_amax`` is float32 (R/16,) on x's device; band ``b`` (rows 16 b ..
    16 b + 15) gets the bits of a per-tensor 16x16 ``quantize`` of those rows
    under ``band_amax[b]`` (a 16x16 tile lies in one band and reads only the
    amax). So a grouped 16x16 quantize is this with each band's expert's amax.
    Reads no values: no sync, CUDA-graph capturable. Returns ``quantize``'s
    (R, C/2) codes and (R, C/16) scales.
    """
    rows, _ = check_x(x)
    if x.dim() != 2:
        raise ValueError(f"x must be 2-D (R, C), got shape {tuple(x.shape)}")
    check_knobs("16x16", err_mode, e4m3_scale_bound)
    check_block_rows("16x16", rows)
    check_tensor("band_amax", band_amax)
    if band_amax.dtype != torch.float32:
        raise TypeError(f"band_amax must be float32, got {band_amax.dtype}")
    if tuple(band_amax.shape) != (rows // GROUP,):
        raise ValueError(
            f"band_amax must have shape ({rows // GROUP},) (one per 16 rows), "
            f"got shape {tuple(band_amax.shape)}"
        )
    if band_amax.device != x.device:
        raise ValueError(
            f"band_amax must be on the input's device {x.device}, got {band_amax.device}"
        )
    gamax = band_amax.reshape(-1, 1).expand(-1, GROUP).reshape(-1, 1)  # (R, 1), band-constant
    codes, scales, _ = _quantize_core(x, gamax, "16x16", err_mode, e4m3_scale_bound)
    return codes, scales
