"""The elementwise kernels behind the reference's signatures: ``nan_amax`` and ``dequantize``.

Each has ``can_run_*`` (whether it can run given arguments, and why not) and
``launch_*`` (run into caller-owned buffers, no checks).
"""

from __future__ import annotations

import torch

from fos_reference.validation import check_dequantize_args

from .cache import CompileCache
from .device import (
    DTYPE_NAMES,
    MAX_BLOCKS,
    cached_under,
    capability,
    device_index,
    device_why_not,
    kernel_amax,
    run_under,
    sm_count,
    verdict,
)

try:
    from . import amax as _amax
    from . import dequantize as _dequantize
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    _amax = _dequantize = None
    _ELEMENTWISE_IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _ELEMENTWISE_IMPORT_ERROR = ""

_VECTOR_BYTES = 16  # the amax kernel reads whole 16-byte vectors

#: The compile caches of the elementwise kernels (``amax.AmaxKey``, ``dequantize.DequantizeKey``).
AMAX_CACHE = (
    CompileCache(lambda *key: _amax.compile_key(_amax.AmaxKey(*key)), name="nan_amax")
    if _amax is not None
    else None
)
DEQUANTIZE_CACHE = (
    CompileCache(
        lambda *key: _dequantize.compile_key(_dequantize.DequantizeKey(*key)), name="dequantize"
    )
    if _dequantize is not None
    else None
)


def amax_why_not(x, dim) -> str:
    """Empty string when the amax kernel can run (``dim`` None or 1), else the first reason
    it cannot."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
        raise TypeError(f"dim must be None or an int, got {type(dim).__name__}")
    why = _ELEMENTWISE_IMPORT_ERROR or device_why_not(x)
    if why:
        return why
    if x.dtype not in DTYPE_NAMES:
        return f"the kernel does not take {x.dtype}"
    if dim is not None and (dim != 1 or x.dim() != 2):
        return f"the kernel takes dim=None or dim=1 of a 2-D tensor, got dim={dim} of {x.dim()}-D"
    if not x.is_contiguous():
        return "x is not contiguous"
    if x.data_ptr() % _VECTOR_BYTES != 0:
        return "x's data pointer is not 16-byte aligned"
    per_vector = _VECTOR_BYTES // x.element_size()
    width = x.numel() if dim is None else x.shape[1]
    if width % per_vector != 0:
        what = "x's element count" if dim is None else "x's column count"
        return f"{what} {width} is not a multiple of {per_vector} (whole 16-byte vectors)"
    if dim is not None and -(-x.shape[0] // (256 // 32)) > MAX_BLOCKS:
        return f"x has {x.shape[0]} rows, more than one launch covers"
    return ""


def can_run_nan_amax(x: torch.Tensor, dim: int | None = None) -> tuple[bool, str]:
    """Whether ``nan_amax`` can run these arguments here, and if not, why. Never raises."""
    return verdict(amax_why_not, x, dim)


def nan_amax(x: torch.Tensor, dim: int | None = None) -> torch.Tensor:
    """NaN-dropping amax of ``|x|`` from 0 on the GPU, bit-identical to ``fos_reference.nan_amax``.

    ``dim=None``: a 0-d float32 tensor; ``dim=1`` of a 2-D (R, C) tensor: (R,).
    Raises ``TypeError`` for a non-tensor ``x`` or a non-int ``dim`` and
    ``RuntimeError`` when ``can_run_nan_amax`` says no.
    """
    why = amax_why_not(x, dim)
    if why:
        raise RuntimeError(f"fos_cutedsl.nan_amax cannot run: {why}")
    if dim is None:
        out = torch.empty((), dtype=torch.float32, device=x.device)
        launch_nan_amax(x.reshape(1, x.numel()), out, False)
        return out
    out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    launch_nan_amax(x, out, True)
    return out


def launch_nan_amax(x2d: torch.Tensor, out_f32: torch.Tensor, per_row: bool) -> None:
    """Run the amax kernel into the caller-owned float32 ``out_f32``.

    No checks: ``x2d`` is a contiguous, 16-byte aligned (R, C) CUDA tensor that
    ``can_run_nan_amax`` accepts; ``out_f32`` has one element per tensor (0-d or
    (1,); zero-filled here: the kernel max-reduces into it) or is (R,) per row.
    """
    rows, cols = x2d.shape
    if not per_row:
        out_f32 = out_f32.reshape(())  # the kernel's 0-d output: a view
        out_f32.zero_()
        if x2d.numel() == 0:
            return
        # Per tensor: rows of one 16-byte vector (whole vectors in total; both
        # sizes stay far below 2^31 however large x is).
        x2d = x2d.reshape(-1, _VECTOR_BYTES // x2d.element_size())
        rows, cols = x2d.shape
    elif rows == 0:
        return
    elif cols == 0:
        out_f32.zero_()
        return
    if x2d.stride() != (cols, 1):  # a size-1 dim may carry any stride in a contiguous tensor
        x2d = x2d.as_strided((rows, cols), (cols, 1))
    run_under(AMAX_CACHE, _amax_key(x2d, per_row), x2d.device, x2d, out_f32)


def _amax_key(x2d: torch.Tensor, per_row: bool):
    index = device_index(x2d.device)
    major, minor = capability(index)
    return _amax.AmaxKey(
        DTYPE_NAMES[x2d.dtype], bool(per_row), f"sm_{major}{minor}a", sm_count(index)
    )


def nan_amax_launcher(x2d: torch.Tensor, per_row: bool):
    """The compiled amax kernel for ``x2d``'s dtype and device, as ``fn(x2d, out_f32)``.

    ``quantize_launcher``'s counterpart: resolved once (compiled if new) for callers
    that cache it per call signature. ``fn`` takes what the kernel does, with none of
    ``launch_nan_amax``'s steps: ``x2d`` contiguous (canonical strides), 16-byte
    aligned, never empty, its columns whole 16-byte vectors (per tensor, any (R, C) of
    them: the kernel reads the vectors in memory order); ``out_f32`` 0-d and
    zero-filled by the caller per tensor, (R,) per row.
    """
    return cached_under(AMAX_CACHE, _amax_key(x2d, per_row), x2d.device)


def _dequantize_why_not(codes, scales, global_amax, e4m3_scale_bound, out_dtype) -> str:
    """Empty string when the dequantize kernel can run, else the first reason it cannot."""
    row_scaled = check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    why = _ELEMENTWISE_IMPORT_ERROR or device_why_not(codes)
    if why:
        return why
    if not codes.is_contiguous() or not scales.is_contiguous():
        return "codes or scales are not contiguous"
    if codes.data_ptr() % 16 != 0:
        return "codes' data pointer is not 16-byte aligned"
    if scales.data_ptr() % 2 != 0:
        return "scales' data pointer is not 2-byte aligned"
    if row_scaled and global_amax.stride() != (1,):
        return "the row global_amax vector is not contiguous"
    per_block = _dequantize.DequantizeConfig("bfloat16", 256, False).groups_per_block
    if -(-scales.numel() // per_block) > MAX_BLOCKS:
        return f"codes hold {scales.numel()} groups, more than one launch covers"
    return ""


def can_run_dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
) -> tuple[bool, str]:
    """Whether ``dequantize`` can run these arguments here, and if not, why. Never raises."""
    return verdict(_dequantize_why_not, codes, scales, global_amax, e4m3_scale_bound, out_dtype)


def dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
) -> torch.Tensor:
    """NVFP4 dequantize on the GPU, bit-identical to ``fos_reference.dequantize``.

    Same arguments and result (R, C) of ``out_dtype`` (where the arithmetic
    makes a NaN, only NaN-ness is specified). Raises the reference's
    ``TypeError``/``ValueError`` and ``RuntimeError`` when ``can_run_dequantize`` says no.
    """
    why = _dequantize_why_not(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    if why:
        raise RuntimeError(f"fos_cutedsl.dequantize cannot run: {why}")
    rows, half_cols = codes.shape
    out = torch.empty((rows, 2 * half_cols), dtype=out_dtype, device=codes.device)
    launch_dequantize(codes, scales.view(torch.uint8), global_amax, out, e4m3_scale_bound)
    return out


def launch_dequantize(
    codes_u8: torch.Tensor,
    scales_u8: torch.Tensor,
    global_amax: torch.Tensor,
    out: torch.Tensor,
    e4m3_scale_bound: int,
) -> None:
    """Run the dequantize kernel into the caller-owned ``out`` (R, C) of the output dtype.

    No checks: the caller has checked ``can_run_dequantize``; ``out`` is
    contiguous and 16-byte aligned; ``global_amax`` is float32 0-d or (R,).
    """
    rows, groups = scales_u8.shape
    if rows * groups == 0:
        return
    if scales_u8.dtype != torch.uint8:
        scales_u8 = scales_u8.view(torch.uint8)
    row_scaled = global_amax.numel() != 1
    half_cols = codes_u8.shape[1]
    if codes_u8.stride() != (half_cols, 1):  # canonical strides (see ``launch``)
        codes_u8 = codes_u8.as_strided((rows, half_cols), (half_cols, 1))
    if scales_u8.stride() != (groups, 1):
        scales_u8 = scales_u8.as_strided((rows, groups), (groups, 1))
    if out.stride() != (2 * half_cols, 1):
        out = out.as_strided((rows, 2 * half_cols), (2 * half_cols, 1))
    amax = kernel_amax(global_amax, rows, row_scaled)
    key = _dequantize_key(codes_u8.device, out.dtype, e4m3_scale_bound, row_scaled)
    run_under(DEQUANTIZE_CACHE, key, codes_u8.device, codes_u8, scales_u8, amax, out)


def _dequantize_key(device: torch.device, out_dtype, e4m3_scale_bound, row_scaled: bool):
    major, minor = capability(device_index(device))
    arch = f"sm_{major}{minor}a"
    return _dequantize.DequantizeKey(
        DTYPE_NAMES[out_dtype], int(e4m3_scale_bound), row_scaled, arch
    )


def dequantize_launcher(
    codes_u8: torch.Tensor,
    global_amax: torch.Tensor,
    out_dtype: torch.dtype,
    e4m3_scale_bound: int,
):
    """The compiled dequantize kernel for these arguments, as
    ``fn(codes_u8 (R, C/2), scales_u8 (R, C/16), amax, out (R, C))``.

    ``quantize_launcher``'s counterpart: resolved once (compiled if new) for callers
    that cache it per call signature; ``fn``'s arguments are ``launch_dequantize``'s,
    already laid out (contiguous 2-D, scales as uint8, 0-d or (R,) amax), and never
    empty (the caller skips empty codes).
    """
    row_scaled = global_amax.numel() != 1
    key = _dequantize_key(codes_u8.device, out_dtype, e4m3_scale_bound, row_scaled)
    return cached_under(DEQUANTIZE_CACHE, key, codes_u8.device)
