"""Training-step layouts: SPEC's "Columnwise (transposed) output" and "Swizzled scales".

A training step needs each operand two ways: the forward GEMM takes ``x``
(R, C) quantized along its rows, the backward GEMMs (dgrad, wgrad) take it
quantized along its columns, i.e. ``quantize(x^T)``. Here that is the
reference's ``quantize`` of the transposed *view* ``x.t()``: every step of SPEC
is elementwise or reduces within a 16-element group, so the memory layout of
the input cannot change a bit, and the result equals the quantize of
``x.t().contiguous()``.

Blackwell's block-scaled GEMMs (cuBLASLt, CUTLASS, ``torch._scaled_mm``) read
the scale bytes in 128 x 4 tiles. ``swizzle_scales`` lays an (R, G) scale
matrix out that way with reshapes and one permute (no loop over elements, no
host copy: the same bits on CPU and CUDA, capturable in a CUDA graph);
``unswizzle_scales`` is its inverse. The codes need no change: two E2M1 codes
a byte, low nibble first, is torch's ``float4_e2m1fn_x2`` (``as_float4``).
"""

from __future__ import annotations

import torch

from .quantize import dequantize, quantize
from .validation import (
    BAND_ROWS,
    TILE_GROUPS,
    TILE_ROWS,
    ceil_to,
    check_out_dtype,
    check_quantize_columnwise_args,
    check_swizzle_args,
    check_unswizzle_args,
    swizzled_shape,
)

#: torch's packed FP4 dtype where this build has it, else None.
FLOAT4_E2M1FN_X2 = getattr(torch, "float4_e2m1fn_x2", None)


# --------------------------------------------------------------------------- swizzled scales

__all__ = [
    "FLOAT4_E2M1FN_X2",
    "as_float4",
    "fake_quantize_columnwise",
    "quantize_columnwise",
    "swizzle_scales",
    "swizzled_shape",
    "unswizzle_scales",
]


def swizzle_scales(scales: torch.Tensor) -> torch.Tensor:
    """Lay (R, G) scales out in SPEC's block-scaled GEMM layout (128 x 4 tiles).

    Args:
        scales: float8_e4m3fn (R, G), e.g. ``quantize``'s (R, C/16) scales.

    Returns:
        float8_e4m3fn, 1-D of ``swizzled_shape(R, G)`` = (Rp * Gp,) with
        Rp = ceil(R/128)*128 and Gp = ceil(G/4)*4, contiguous. Tile
        ``(i, j) = (r // 128, g // 4)`` is the 512 bytes at ``512 * (i * Gp/4 + j)``;
        inside it byte ``(r, g)`` sits at ``16 * (r % 32) + 4 * ((r // 32) % 4) + g % 4``.
        Padding bytes (rows >= R or groups >= G) are zero.

    Flat rather than (Rp, Gp): element ``[r, g]`` of a 2-D view would not be the
    scale of row r, group g, and the GEMMs take the bytes as a flat buffer
    (reshape it if an API asks for 2-D).
    """
    rows, groups = check_swizzle_args(scales)
    rp, gp = ceil_to(rows, TILE_ROWS), ceil_to(groups, TILE_GROUPS)
    padded = scales.view(torch.uint8).new_zeros((rp, gp))
    padded[:rows, :groups] = scales.view(torch.uint8)
    # r = 128 i + 32 a + b, g = 4 j + c  ->  offset 512 (i Gt + j) + 16 b + 4 a + c
    tiles = padded.reshape(rp // TILE_ROWS, TILE_GROUPS, BAND_ROWS, gp // TILE_GROUPS, TILE_GROUPS)
    out = tiles.permute(0, 3, 2, 1, 4).reshape(rp * gp)  # (i, j, b, a, c), one copy
    return out.view(torch.float8_e4m3fn)


def unswizzle_scales(swizzled: torch.Tensor, rows: int, groups: int) -> torch.Tensor:
    """The inverse of ``swizzle_scales``: float8_e4m3fn (rows, groups), contiguous.

    ``swizzled`` is float8_e4m3fn of shape ``swizzled_shape(rows, groups)``; the
    padding bytes are dropped (not checked).
    """
    check_unswizzle_args(swizzled, rows, groups)
    rp, gp = ceil_to(rows, TILE_ROWS), ceil_to(groups, TILE_GROUPS)
    tiles = swizzled.view(torch.uint8).reshape(
        rp // TILE_ROWS, gp // TILE_GROUPS, BAND_ROWS, TILE_GROUPS, TILE_GROUPS
    )  # (i, j, b, a, c)
    padded = tiles.permute(0, 3, 2, 1, 4).reshape(rp, gp)  # (i, a, b, j, c)
    return padded[:rows, :groups].contiguous().view(torch.float8_e4m3fn)


def as_float4(codes: torch.Tensor) -> torch.Tensor:
    """``quantize``'s uint8 codes viewed as ``torch.float4_e2m1fn_x2`` (no copy).

    SPEC's packing (element 2j in the low nibble) is that dtype's. Raises
    ``TypeError`` where this torch build has no such dtype.
    """
    if FLOAT4_E2M1FN_X2 is None:
        raise TypeError(f"torch {torch.__version__} has no float4_e2m1fn_x2 dtype")
    if not isinstance(codes, torch.Tensor) or codes.dtype != torch.uint8:
        got = codes.dtype if isinstance(codes, torch.Tensor) else type(codes).__name__
        raise TypeError(f"codes must be a uint8 torch.Tensor, got {got}")
    return codes.view(FLOAT4_E2M1FN_X2)


# --------------------------------------------------------------------------- columnwise


def quantize_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """SPEC's columnwise output: ``quantize(x^T)`` of a 2-D ``x`` (R, C), R % 16 == 0.

    Args:
        x: (R, C) bfloat16/float16/float32, any strides (16x16: C % 16 == 0 too).
        global_amax: float32, one element (per tensor only: the rowwise one).

    Returns:
        ``codes`` uint8 (C, R/2) and ``scales`` float8_e4m3fn (C, R/16): the bits
        of ``quantize(x.t().contiguous(), global_amax)``, from the transposed
        view (no transposed copy of x in the input's dtype). 2-D only: an N-D
        activation is transposed as the (rows, C) matrix the caller means.
    """
    check_quantize_columnwise_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    codes, scales = quantize(
        x.t(), global_amax, block=block, err_mode=err_mode, e4m3_scale_bound=e4m3_scale_bound
    )
    # Elementwise ops follow the transposed input's strides: return the row-major layout.
    return codes.contiguous(), scales.contiguous()


def fake_quantize_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """The columnwise fake-quantize: ``x_hat`` of ``x^T``, returned in ``x``'s shape (R, C).

    The values are ``dequantize(*quantize_columnwise(x), global_amax).t()``:
    element (r, c) is x[r, c] rounded within its group of 16 *down column c*.
    Returned as x's shape so it drops in wherever x was used (on Hopper the
    simulated dgrad / wgrad GEMMs use x quantized along the other dimension in
    x's place); it is the transpose of the contiguous (C, R) x_hat, so its
    strides are (1, R) (column-major: no copy; ``.t()`` is contiguous).
    ``out_dtype`` defaults to x's dtype.
    """
    check_quantize_columnwise_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    if out_dtype is not None:
        check_out_dtype(out_dtype)
    codes, scales = quantize_columnwise(
        x, global_amax, block=block, err_mode=err_mode, e4m3_scale_bound=e4m3_scale_bound
    )
    x_hat_t = dequantize(
        codes,
        scales,
        global_amax,
        e4m3_scale_bound=e4m3_scale_bound,
        out_dtype=x.dtype if out_dtype is None else out_dtype,
    )
    return x_hat_t.contiguous().t()
