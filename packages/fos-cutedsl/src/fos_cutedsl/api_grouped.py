"""The grouped (mixture-of-experts) kernels behind the reference's signatures.

``quantize_grouped`` (1x16 and 16x16) and ``nan_amax_grouped`` run every expert in one
launch with the offsets left on the device (no sync, CUDA-graph capturable,
any split in the same launch); ``can_run_*`` say whether they can run, and why
not; ``launch_*`` run them into caller-owned buffers without checks. Offset
values are never read on the host: offsets that break SPEC give unspecified
values (``fos_reference.validation.check_offsets_values`` checks them, at
the price of a sync).
"""

from __future__ import annotations

import torch

from fos_reference.validation import check_nan_amax_grouped_args, check_quantize_grouped_args

from .api import kernel_why_not
from .api_elementwise import amax_why_not
from .cache import CompileCache
from .device import DTYPE_NAMES, arch_of, device_index, run_under, sm_count, verdict

try:
    from . import grouped as _grouped
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    _grouped = None
    _GROUPED_IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _GROUPED_IMPORT_ERROR = ""

_OFFSET_NAMES = {torch.int32: "int32", torch.int64: "int64"}

#: The compile caches of the grouped kernels (``grouped.GroupedQuantizeKey``, ``GroupedAmaxKey``).
GROUPED_QUANTIZE_CACHE = (
    CompileCache(
        lambda *key: _grouped.compile_grouped_quantize(_grouped.GroupedQuantizeKey(*key)),
        name="quantize_grouped",
    )
    if _grouped is not None
    else None
)
GROUPED_AMAX_CACHE = (
    CompileCache(
        lambda *key: _grouped.compile_grouped_amax(_grouped.GroupedAmaxKey(*key)),
        name="nan_amax_grouped",
    )
    if _grouped is not None
    else None
)


def _vectors_why_not(offsets: torch.Tensor, *others: torch.Tensor) -> str:
    if any(t.dim() != 1 or t.stride() != (1,) for t in (offsets, *others) if t.numel() > 1):
        return "offsets and global_amax must be contiguous vectors"
    return ""


def _quantize_why_not(x, offsets, global_amax, block, err_mode, e4m3_scale_bound) -> str:
    """Empty string when the grouped quantize kernel can run, else the first reason it cannot."""
    check_quantize_grouped_args(x, offsets, global_amax, block, err_mode, e4m3_scale_bound)
    return (
        _GROUPED_IMPORT_ERROR
        or kernel_why_not(x, row_scaled=block == "1x16")
        or _vectors_why_not(offsets, global_amax)
    )


def can_run_quantize_grouped(
    x: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[bool, str]:
    """Whether ``quantize_grouped`` can run these arguments here, and if not, why. Never raises."""
    return verdict(_quantize_why_not, x, offsets, global_amax, block, err_mode, e4m3_scale_bound)


def quantize_grouped(
    x: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Grouped quantize of ``x`` (T, C), every expert in one launch: the bits of
    ``fos_reference.quantize_grouped`` for offsets as SPEC has them (16x16: every
    offset a multiple of 16; the kernel does not check it).

    ``offsets`` int32/int64 (E + 1,) and ``global_amax`` float32 (E,) stay on the
    device. Returns codes uint8 (T, C/2) and scales float8_e4m3fn (T, C/16).
    Raises the reference's ``TypeError``/``ValueError`` for invalid arguments
    and ``RuntimeError`` when ``can_run_quantize_grouped`` says no.
    """
    why = _quantize_why_not(x, offsets, global_amax, block, err_mode, e4m3_scale_bound)
    if why:
        raise RuntimeError(f"fos_cutedsl.quantize_grouped cannot run: {why}")
    rows, cols = x.shape
    codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device=x.device)
    scales = torch.empty((rows, cols // 16), dtype=torch.uint8, device=x.device)
    launch_quantize_grouped(x, offsets, global_amax, codes, scales, block, err_mode,
                            e4m3_scale_bound)  # fmt: skip
    return codes, scales.view(torch.float8_e4m3fn)


def _canonical(*pairs):
    """Each (tensor, shape) with the contiguous strides of ``shape`` (a size-1 dim of a
    contiguous tensor may carry any stride; the kernels are compiled for canonical ones)."""
    out = []
    for t, shape in pairs:
        strides = (shape[1], 1) if len(shape) == 2 else (1,)
        out.append(t if t.stride() == strides else t.as_strided(shape, strides))
    return out


def launch_quantize_grouped(
    x2d: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    codes_u8: torch.Tensor,
    scales_u8: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the grouped quantize kernel into caller-owned contiguous (T, C/2) and (T, C/16)
    uint8 buffers. No checks: the arguments are ones ``can_run_quantize_grouped`` accepts."""
    rows, cols = x2d.shape
    if rows == 0 or cols == 0:
        return
    experts = global_amax.shape[0]
    x2d, codes_u8, scales_u8, global_amax, offsets = _canonical(
        (x2d, (rows, cols)), (codes_u8, (rows, cols // 2)), (scales_u8, (rows, cols // 16)),
        (global_amax, (experts,)), (offsets, (experts + 1,)),
    )  # fmt: skip
    dtype = DTYPE_NAMES[x2d.dtype]
    persistent = _grouped.uses_persistent(dtype, block, experts)
    key = _grouped.GroupedQuantizeKey(
        dtype, block, err_mode, int(e4m3_scale_bound), _OFFSET_NAMES[offsets.dtype],
        arch_of(x2d.device), persistent,
        sm_count(device_index(x2d.device)) if persistent else _grouped.H100_SMS,
    )  # fmt: skip
    args = (x2d, global_amax, offsets, codes_u8, scales_u8)
    if persistent:  # the per-expert tables and the unit map (grouped_persistent)
        floats = _grouped.workspace_floats(rows, cols, experts)
        args += (torch.empty(floats, dtype=torch.float32, device=x2d.device),)
    run_under(GROUPED_QUANTIZE_CACHE, key, x2d.device, *args)


def _amax_why_not(x, offsets) -> str:
    """Empty string when the grouped amax kernel can run, else the first reason it cannot."""
    check_nan_amax_grouped_args(x, offsets)
    return _GROUPED_IMPORT_ERROR or amax_why_not(x, 1) or _vectors_why_not(offsets)


def can_run_nan_amax_grouped(x: torch.Tensor, offsets: torch.Tensor) -> tuple[bool, str]:
    """Whether ``nan_amax_grouped`` can run these arguments here, and if not, why. Never raises."""
    return verdict(_amax_why_not, x, offsets)


def nan_amax_grouped(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """Each expert's NaN-dropping amax of ``|x|`` (0 for an empty one), float32 (E,), in one
    launch: the bits of ``fos_reference.nan_amax_grouped`` for offsets as SPEC has them.
    Raises as ``quantize_grouped`` does."""
    why = _amax_why_not(x, offsets)
    if why:
        raise RuntimeError(f"fos_cutedsl.nan_amax_grouped cannot run: {why}")
    out = torch.empty(offsets.shape[0] - 1, dtype=torch.float32, device=x.device)
    launch_nan_amax_grouped(x, offsets, out)
    return out


def launch_nan_amax_grouped(x2d: torch.Tensor, offsets: torch.Tensor, out_f32: torch.Tensor):
    """Zero-fill the caller-owned (E,) float32 ``out_f32`` and run the grouped amax kernel
    into it. No checks: the arguments are ones ``can_run_nan_amax_grouped`` accepts."""
    out_f32.zero_()
    rows, cols = x2d.shape
    if rows == 0 or cols == 0:
        return
    experts = out_f32.shape[0]
    x2d, offsets, out_f32 = _canonical(
        (x2d, (rows, cols)), (offsets, (experts + 1,)), (out_f32, (experts,))
    )
    key = _grouped.GroupedAmaxKey(
        DTYPE_NAMES[x2d.dtype], _OFFSET_NAMES[offsets.dtype], arch_of(x2d.device)
    )
    run_under(GROUPED_AMAX_CACHE, key, x2d.device, x2d, offsets, out_f32)
