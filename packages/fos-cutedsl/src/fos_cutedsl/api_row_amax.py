"""The row-amax quantize kernel: row-scaled 1x16 quantize whose row amax comes from the same read.

``quantize_row_amax`` returns the codes, scales and each row's NaN-dropping
amax (``fos_reference.nan_amax(x, dim=-1)``'s bits) from one read of ``x``;
``can_run_quantize_row_amax`` says whether it can run, ``launch_quantize_row_amax``
runs it into caller-owned buffers (no checks).
"""

from __future__ import annotations

import functools

import torch

from fos_reference.validation import check_knobs, check_x, flat_rows

from .cache import CompileCache
from .device import (
    DTYPE_NAMES,
    MAX_BLOCKS,
    capability,
    device_index,
    device_why_not,
    run_under,
    verdict,
)

try:
    from . import row_amax as _row_amax
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    _row_amax = None
    _ROW_AMAX_IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _ROW_AMAX_IMPORT_ERROR = ""

_VECTOR_BYTES = 16  # x's rows are read as 16-byte vectors

#: The compile cache of the row-amax quantize kernel (``row_amax.RowAmaxKey``).
ROW_AMAX_CACHE = (
    CompileCache(
        lambda *key: _row_amax.compile_key(_row_amax.RowAmaxKey(*key)), name="quantize_row_amax"
    )
    if _row_amax is not None
    else None
)


def _row_amax_why_not(x, err_mode, e4m3_scale_bound) -> str:
    """Empty string when the row-amax kernel can run, else the first reason it cannot."""
    check_x(x)
    check_knobs("1x16", err_mode, e4m3_scale_bound)
    if _ROW_AMAX_IMPORT_ERROR:
        return _ROW_AMAX_IMPORT_ERROR
    why = device_why_not(x)
    if why:
        return why
    if not x.is_contiguous():
        return "x is not contiguous"
    if x.data_ptr() % _VECTOR_BYTES != 0:
        return "x's data pointer is not 16-byte aligned"
    dtype, bound = DTYPE_NAMES[x.dtype], int(e4m3_scale_bound)
    widest = _row_amax.max_cols(dtype, err_mode, bound)
    if x.shape[-1] > widest:
        return (
            f"x has {x.shape[-1]} columns, the row-amax kernel stages a row in shared memory "
            f"and takes at most {widest} for {x.dtype} (use nan_amax, then quantize)"
        )
    cfg = _row_amax.tiling_config(dtype, err_mode, bound, _tiling(dtype, err_mode, bound,
                                                                 x.shape[-1]))  # fmt: skip
    rows = flat_rows(x.shape)
    if -(-rows // cfg.rows_per_cta) > MAX_BLOCKS:
        return f"x has {rows} rows, more than one launch covers"
    return ""


def can_run_quantize_row_amax(
    x: torch.Tensor, *, err_mode: str = "mae", e4m3_scale_bound: int = 256
) -> tuple[bool, str]:
    """Whether ``quantize_row_amax`` can run these arguments here, and if not, why. Never raises."""
    return verdict(_row_amax_why_not, x, err_mode, e4m3_scale_bound)


def quantize_row_amax(
    x: torch.Tensor, *, err_mode: str = "mae", e4m3_scale_bound: int = 256
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Row-scaled 1x16 quantize that finds each row's amax in the same read of ``x``.

    Returns ``(codes, scales, row_amax)``: the bits of
    ``fos_reference.quantize(x, fos_reference.nan_amax(x, dim=-1), block="1x16", ...)``
    (uint8 (..., C/2) and float8_e4m3fn (..., C/16)) and that amax (float32,
    ``x.shape[:-1]``), which dequantizing needs. Raises the reference's
    ``TypeError``/``ValueError`` for invalid arguments and ``RuntimeError`` when
    ``can_run_quantize_row_amax`` says no (rows too wide to stage, among others).
    """
    why = _row_amax_why_not(x, err_mode, e4m3_scale_bound)
    if why:
        raise RuntimeError(f"fos_cutedsl.quantize_row_amax cannot run: {why}")
    cols = x.shape[-1]
    rows = flat_rows(x.shape)
    codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device=x.device)
    scales = torch.empty((rows, cols // 16), dtype=torch.uint8, device=x.device)
    amax = torch.empty(rows, dtype=torch.float32, device=x.device)
    launch_quantize_row_amax(x.reshape(rows, cols), amax, codes, scales, err_mode, e4m3_scale_bound)
    lead = x.shape[:-1]
    return (
        codes.reshape(*lead, cols // 2),
        scales.view(torch.float8_e4m3fn).reshape(*lead, cols // 16),
        amax.reshape(lead),
    )


def launch_quantize_row_amax(
    x2d: torch.Tensor,
    amax_out_f32_rows: torch.Tensor,
    codes_u8: torch.Tensor,
    scales_u8: torch.Tensor,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the row-amax kernel into caller-owned buffers: amax (R,) float32, codes and scales.

    No checks: ``x2d`` is a contiguous, 16-byte aligned (R, C) CUDA tensor that
    ``can_run_quantize_row_amax`` accepts; the outputs are contiguous (R,),
    (R, C/2) and (R, C/16) (scales uint8) on its device.
    """
    rows, cols = x2d.shape
    if rows == 0:
        return
    if cols == 0:  # an empty row's amax is 0 (and it has no codes)
        amax_out_f32_rows.zero_()
        return
    # Canonical strides (a size-1 dim may carry any stride in a contiguous tensor).
    x2d, codes_u8, scales_u8, amax_out_f32_rows = (
        t.as_strided(shape, (shape[1], 1) if len(shape) == 2 else (1,))
        for t, shape in (
            (x2d, (rows, cols)), (codes_u8, (rows, cols // 2)), (scales_u8, (rows, cols // 16)),
            (amax_out_f32_rows, (rows,)),
        )
    )  # fmt: skip
    index = device_index(x2d.device)
    major, minor = capability(index)
    dtype, bound = DTYPE_NAMES[x2d.dtype], int(e4m3_scale_bound)
    tiling = _tiling(dtype, err_mode, bound, cols)
    key = _row_amax.RowAmaxKey(dtype, err_mode, bound, f"sm_{major}{minor}a", tiling)
    run_under(ROW_AMAX_CACHE, key, x2d.device, x2d, amax_out_f32_rows, codes_u8, scales_u8)


@functools.cache
def _tiling(dtype: str, err_mode: str, bound: int, cols: int) -> str:
    return _row_amax.tiling_for(dtype, err_mode, bound, cols)
