"""Rowwise and columnwise codes and scales from one read of x (``dual``), behind a checked API.

``quantize_rowwise_columnwise`` returns the bits of ``fos_reference.quantize(x)``
(rowwise) and ``fos_reference.quantize_columnwise(x)`` (columnwise, x^T's
groups), either or both, 1x16 under one per-tensor amax, with the scales in
the plain layout or (``swizzle``) in ``fos_reference.swizzle_scales``' layout.
``can_run_quantize_rowwise_columnwise`` says whether it can run, and why not;
``launch_quantize_rowwise_columnwise`` runs it into caller-owned buffers.
"""

from __future__ import annotations

import torch

from fos_reference.validation import (
    GROUP,
    check_quantize_args,
    check_quantize_columnwise_args,
    swizzled_shape,
)

from .api import kernel_why_not
from .cache import CompileCache
from .device import DTYPE_NAMES, arch_of, run_under, verdict

try:
    from . import dual as _dual
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    _dual = None
    _DUAL_IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _DUAL_IMPORT_ERROR = ""

_MAX_ROWS = 65535 * 64  # the grid's y dimension counts tiles of ``dual.TILE_ROWS`` rows

#: The compile cache of the one-read kernel (``dual.DualKey``).
DUAL_CACHE = (
    CompileCache(
        lambda *key: _dual.compile_dual(_dual.DualKey(*key)), name="quantize_rowwise_columnwise"
    )
    if _dual is not None
    else None
)


def _dual_why_not(x, global_amax, rowwise, columnwise, block, err_mode, e4m3_scale_bound,
                  swizzle) -> str:  # fmt: skip
    """Empty string when the one-read kernel can run, else the first reason it cannot."""
    for name, flag in (("rowwise", rowwise), ("columnwise", columnwise), ("swizzle", swizzle)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    if not (rowwise or columnwise):
        raise ValueError("ask for at least one layout: rowwise=True or columnwise=True")
    if isinstance(x, torch.Tensor) and x.dim() != 2:
        raise ValueError(f"x must be 2-D (R, C), got shape {tuple(x.shape)}")
    row_scaled = False
    if rowwise:
        row_scaled = check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    if columnwise:
        check_quantize_columnwise_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    if _DUAL_IMPORT_ERROR:
        return _DUAL_IMPORT_ERROR
    if block != "1x16":
        return "the one-read kernel is 1x16 only"
    if row_scaled:
        return "the one-read kernel takes a per-tensor global_amax"
    if x.shape[1] % GROUP:
        return f"the one-read kernel reads rows in 16-element groups, x has {x.shape[1]} columns"
    why = kernel_why_not(x, row_scaled=False)
    if why:
        return why
    if x.shape[0] > _MAX_ROWS:
        return f"x has {x.shape[0]} rows, the one-read kernel takes at most {_MAX_ROWS}"
    if global_amax.device != x.device:
        return "global_amax is not on x's device"
    return ""


def can_run_quantize_rowwise_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    rowwise: bool = True,
    columnwise: bool = True,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    swizzle: bool = False,
) -> tuple[bool, str]:
    """Whether ``quantize_rowwise_columnwise`` can run these arguments here, and if not,
    why. Never raises."""
    return verdict(_dual_why_not, x, global_amax, rowwise, columnwise, block, err_mode,
                   e4m3_scale_bound, swizzle)  # fmt: skip


def rowwise_columnwise_buffers(x: torch.Tensor, rowwise: bool, columnwise: bool, swizzle: bool):
    """Uninitialized uint8 outputs (None where not asked): rowwise codes (R, C/2) and scales
    (R, C/16), columnwise codes (C, R/2) and scales (C, R/16); swizzled scales flat
    (``swizzled_shape``), zero-filled where the layout pads."""
    rows, cols = x.shape

    def scales(r: int, g: int) -> torch.Tensor:
        if not swizzle:
            return x.new_empty((r, g), dtype=torch.uint8)
        padded = r % 128 != 0 or g % 4 != 0
        new = x.new_zeros if padded else x.new_empty
        return new(swizzled_shape(r, g), dtype=torch.uint8)

    rc = rs = cc = cs = None
    if rowwise:
        rc, rs = x.new_empty((rows, cols // 2), dtype=torch.uint8), scales(rows, cols // GROUP)
    if columnwise:
        cc, cs = x.new_empty((cols, rows // 2), dtype=torch.uint8), scales(cols, rows // GROUP)
    return rc, rs, cc, cs


def quantize_rowwise_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    rowwise: bool = True,
    columnwise: bool = True,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    swizzle: bool = False,
) -> tuple[torch.Tensor | None, ...]:
    """Rowwise and/or columnwise 1x16 codes and scales of ``x`` (R, C) from one read.

    Returns ``(row_codes, row_scales, col_codes, col_scales)``, None where a layout
    is not asked for: the bits of ``fos_reference.quantize(x, global_amax, ...)``
    and ``fos_reference.quantize_columnwise(x, global_amax, ...)``, scales
    float8_e4m3fn, with ``swizzle`` as ``fos_reference.swizzle_scales`` lays
    them out. Raises the reference's ``TypeError``/``ValueError`` for invalid
    arguments and ``RuntimeError`` when ``can_run_quantize_rowwise_columnwise``
    says no.
    """
    why = _dual_why_not(x, global_amax, rowwise, columnwise, block, err_mode,
                        e4m3_scale_bound, swizzle)  # fmt: skip
    if why:
        raise RuntimeError(f"fos_cutedsl.quantize_rowwise_columnwise cannot run: {why}")
    out = rowwise_columnwise_buffers(x, rowwise, columnwise, swizzle)
    launch_quantize_rowwise_columnwise(x, global_amax, *out, err_mode, e4m3_scale_bound)
    rc, rs, cc, cs = out
    f8 = torch.float8_e4m3fn
    return rc, None if rs is None else rs.view(f8), cc, None if cs is None else cs.view(f8)


def launch_quantize_rowwise_columnwise(
    x2d: torch.Tensor,
    global_amax: torch.Tensor,
    row_codes: torch.Tensor | None,
    row_scales: torch.Tensor | None,
    col_codes: torch.Tensor | None,
    col_scales: torch.Tensor | None,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the one-read kernel into caller-owned contiguous uint8 buffers shaped as
    ``rowwise_columnwise_buffers`` makes them (None: that layout is not written; the
    scales swizzled when they are flat). No checks: the arguments are ones
    ``can_run_quantize_rowwise_columnwise`` accepts."""
    rows, cols = x2d.shape
    if rows == 0 or cols == 0:
        return
    rowwise, columnwise = row_codes is not None, col_codes is not None
    scales = row_scales if rowwise else col_scales
    swizzle = scales.dim() == 1
    key = _dual.DualKey(DTYPE_NAMES[x2d.dtype], err_mode, int(e4m3_scale_bound), rowwise,
                        columnwise, swizzle, arch_of(x2d.device))  # fmt: skip
    if x2d.stride() != (cols, 1):  # a contiguous tensor's size-1 dim may carry any stride
        x2d = x2d.as_strided((rows, cols), (cols, 1))
    unused = x2d.new_empty(16, dtype=torch.uint8)
    outs = [unused if t is None else t.view(-1) for t in (row_codes, row_scales, col_codes,
                                                           col_scales)]  # fmt: skip
    amax = global_amax.reshape(1)
    work = x2d.new_empty(_dual.WORK_FLOATS, dtype=torch.float32)  # the setup's table
    run_under(DUAL_CACHE, key, x2d.device, x2d, amax, *outs, work)
