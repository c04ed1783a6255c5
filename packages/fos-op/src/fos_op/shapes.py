"""Output shapes and dtypes, shared by the real ops and their fake impls so they cannot drift.

Inputs are (..., C); every output keeps the leading shape ``x.shape[:-1]``.
The real paths allocate the same shapes (the kernel gets 2-D views).
"""

from __future__ import annotations

import torch

GROUP = 16


def quantize_outputs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Allocate (uninitialized) ``codes`` uint8 (..., C/2) and ``scales`` e4m3 (..., C/16)."""
    *lead, cols = x.shape
    codes = x.new_empty((*lead, cols // 2), dtype=torch.uint8)
    scales = x.new_empty((*lead, cols // GROUP), dtype=torch.float8_e4m3fn)
    return codes, scales


def dequantize_output(codes: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
    """Allocate (uninitialized) ``x_hat`` (..., 2 * codes' columns) of ``out_dtype``."""
    *lead, half_cols = codes.shape
    return codes.new_empty((*lead, half_cols * 2), dtype=out_dtype)


def fake_quantize_output(x: torch.Tensor, out_dtype: torch.dtype | None) -> torch.Tensor:
    """Allocate (uninitialized) ``x_hat`` of ``x``'s shape, contiguous, of ``out_dtype``."""
    return x.new_empty(x.shape, dtype=x.dtype if out_dtype is None else out_dtype)


def amax_output(x: torch.Tensor, dim: int | None) -> torch.Tensor:
    """Allocate (uninitialized) the float32 amax: 0-d (``dim=None``) or ``x.shape`` less ``dim``.

    ``dim`` is non-negative (``fos_reference.check_nan_amax_args`` made it so).
    """
    shape = () if dim is None or x.dim() == 0 else (*x.shape[:dim], *x.shape[dim + 1 :])
    return x.new_empty(shape, dtype=torch.float32)
