"""Output shapes and dtypes, shared by the real ops and their fake impls so they cannot drift."""

from __future__ import annotations

import torch

GROUP = 16


def quantize_outputs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Allocate (uninitialized) ``codes`` uint8 (R, C/2) and ``scales`` float8_e4m3fn (R, C/16)."""
    rows, cols = x.shape
    codes = x.new_empty((rows, cols // 2), dtype=torch.uint8)
    scales = x.new_empty((rows, cols // GROUP), dtype=torch.float8_e4m3fn)
    return codes, scales


def dequantize_output(codes: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
    """Allocate (uninitialized) ``x_hat`` (R, 2 * codes' columns) of ``out_dtype``."""
    rows, half_cols = codes.shape
    return codes.new_empty((rows, half_cols * 2), dtype=out_dtype)
