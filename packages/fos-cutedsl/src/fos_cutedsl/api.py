"""The quantize kernels behind the reference's signatures: ``quantize`` and ``fake_quantize``.

``can_run*`` say whether a kernel can run given arguments, and why not;
``launch*`` run it into caller-owned buffers (no checks: for callers such as
``fos_op`` that have checked already); ``quantize_launcher`` resolves the
compiled kernel once for a caller that caches it.
"""

from __future__ import annotations

import torch

from fos_reference.validation import check_fake_quantize_args, check_quantize_args

from .cache import CompileCache
from .config import FakeQuantizeKey, VariantKey
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
    from .compile import compile_fake_variant, compile_variant
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    compile_variant = compile_fake_variant = None
    _IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _IMPORT_ERROR = ""


# 1-D grids: threads per CTA x the fewest groups per thread (config.DEFAULT_TUNING)
_GROUPS_PER_BLOCK = 256 * 4
_MAX_ROW_SCALED_GROUPS = 64 * 65535  # row-scaled CTAs are 64 groups wide, grid.y < 2^16
_MIN_ROW_SCALED_CTA_ROWS = 4  # and at least 4 rows tall (QuantizeConfig.cta_rows)

#: The process-wide compile cache (one binary per ``VariantKey``).
CACHE = (
    CompileCache(lambda *key: compile_variant(VariantKey(*key)), name="quantize")
    if compile_variant is not None
    else None
)


def _why_not(x, global_amax, block, err_mode, e4m3_scale_bound) -> str:
    """Empty string when the kernel can run, else the first reason it cannot."""
    row_scaled = check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    why = kernel_why_not(x, row_scaled)
    if not why and row_scaled and global_amax.stride() != (1,):
        return "the row global_amax vector is not contiguous"
    return why


def kernel_why_not(x: torch.Tensor, row_scaled: bool) -> str:
    """Empty when the quantize kernels can read ``x`` (checked, 2-D), else why not: the
    DSL imports, the device, dtype, layout and size (row-scaled: the 2-D grid's limits)."""
    if _IMPORT_ERROR:
        return _IMPORT_ERROR
    why = device_why_not(x)
    if why:
        return why
    if x.dtype not in DTYPE_NAMES:
        return f"the kernel does not take {x.dtype}"
    if not x.is_contiguous():
        return "x is not contiguous"
    if x.data_ptr() % 16 != 0:
        return "x's data pointer is not 16-byte aligned"
    if row_scaled and x.shape[1] // 16 > _MAX_ROW_SCALED_GROUPS:
        return f"x has {x.shape[1]} columns, row-scaled takes at most {16 * _MAX_ROW_SCALED_GROUPS}"
    blocks = (x.numel() // 16 + _GROUPS_PER_BLOCK - 1) // _GROUPS_PER_BLOCK
    if row_scaled:
        blocks = max(blocks, -(-x.shape[0] // _MIN_ROW_SCALED_CTA_ROWS))
    if blocks > MAX_BLOCKS:
        return f"x has {x.numel()} elements, more than one launch covers"
    return ""


def can_run(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[bool, str]:
    """Whether ``quantize`` can run these arguments here, and if not, why.

    Never raises: invalid arguments give ``(False, "invalid arguments: ...")``
    (``quantize`` raises the reference's ``TypeError``/``ValueError`` for them).
    """
    return verdict(_why_not, x, global_amax, block, err_mode, e4m3_scale_bound)


def quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Four-over-six NVFP4 quantize on the GPU, bit-identical to ``fos_reference.quantize``.

    Same arguments and results: ``codes`` uint8 (R, C/2) and ``scales``
    float8_e4m3fn (R, C/16). Raises the reference's ``TypeError``/``ValueError``
    for invalid arguments and ``RuntimeError`` when ``can_run`` says no.
    """
    why = _why_not(x, global_amax, block, err_mode, e4m3_scale_bound)
    if why:
        raise RuntimeError(f"fos_cutedsl.quantize cannot run: {why}")
    rows, cols = x.shape
    codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device=x.device)
    scales = torch.empty((rows, cols // 16), dtype=torch.float8_e4m3fn, device=x.device)
    if x.numel() != 0:
        launch(x, global_amax, codes, scales, block, err_mode, e4m3_scale_bound)
    return codes, scales


def launch(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    codes: torch.Tensor,
    scales: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the kernel into caller-owned ``codes`` (uint8) and ``scales`` (uint8 or
    float8_e4m3fn: the same bytes).

    No checks beyond ``quantize``'s: the caller has checked ``can_run`` and
    allocated contiguous (R, C/2) and (R, C/16) buffers on x's device.
    """
    if scales.dtype != torch.float8_e4m3fn:
        scales = scales.view(torch.float8_e4m3fn)
    rows, cols = x.shape
    row_scaled = global_amax.numel() != 1
    # Canonical strides (a size-1 dim may carry any stride in a contiguous tensor).
    if x.stride() != (cols, 1):
        x = x.as_strided((rows, cols), (cols, 1))
    amax = kernel_amax(global_amax, rows, row_scaled)
    key = _quantize_key(x, block, err_mode, e4m3_scale_bound, row_scaled)
    index = device_index(x.device)
    if index == torch.cuda.current_device():
        CACHE.get(key)(x, amax, codes, scales)
    else:  # compile and run under the input's device
        with torch.cuda.device(index):
            CACHE.get(key)(x, amax, codes, scales)


def _quantize_key(x, block, err_mode, e4m3_scale_bound, row_scaled) -> VariantKey:
    """The quantize variant for ``x``'s dtype and device and these knobs."""
    index = device_index(x.device)
    major, minor = capability(index)
    return VariantKey(
        DTYPE_NAMES[x.dtype], block, err_mode, int(e4m3_scale_bound), row_scaled,
        f"sm_{major}{minor}a", sm_count(index),
    )  # fmt: skip


def quantize_launcher(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
):
    """The compiled kernel for these arguments, as ``fn(x2d, amax, codes_u8, scales_f8)``
    (scales float8_e4m3fn).

    Resolves the variant once (compiling it if new), for callers that cache
    it per call signature (``fos_op``'s plans); the arguments of ``fn`` are
    ``launch``'s, already laid out (contiguous 2-D ``x``, 0-d or (R,) amax).
    Wrapped in ``torch.cuda.device`` only when ``x`` is not on the current device.
    """
    key = _quantize_key(x, block, err_mode, e4m3_scale_bound, global_amax.numel() != 1)
    return cached_under(CACHE, key, x.device)


# ======== fake_quantize: the quantize kernels storing x_hat instead of codes and scales

#: The compile cache of the fake-quantize variants (one binary per ``FakeQuantizeKey``).
FAKE_QUANTIZE_CACHE = (
    CompileCache(lambda *key: compile_fake_variant(FakeQuantizeKey(*key)), name="fake_quantize")
    if compile_fake_variant is not None
    else None
)


def _fake_why_not(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype) -> str:
    """Empty string when the fake-quantize kernel can run, else the first reason it cannot."""
    check_fake_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    why = _why_not(x, global_amax, block, err_mode, e4m3_scale_bound)
    if why:
        return why
    if out_dtype is not None and out_dtype not in DTYPE_NAMES:
        return f"the kernel does not write {out_dtype}"
    return ""


def can_run_fake_quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
) -> tuple[bool, str]:
    """Whether ``fake_quantize`` can run these arguments here, and if not, why. Never raises."""
    return verdict(_fake_why_not, x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)


def fake_quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """``dequantize(quantize(x))`` in one kernel, bit-identical to ``fos_reference.fake_quantize``.

    Reads ``x`` once and writes ``x_hat`` (R, C) of ``out_dtype`` (default: x's);
    the codes and scales are never stored. Where the arithmetic makes a NaN, only
    NaN-ness is specified. Raises the reference's ``TypeError``/``ValueError`` for
    invalid arguments and ``RuntimeError`` when ``can_run_fake_quantize`` says no.
    """
    why = _fake_why_not(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    if why:
        raise RuntimeError(f"fos_cutedsl.fake_quantize cannot run: {why}")
    out = torch.empty(x.shape, dtype=x.dtype if out_dtype is None else out_dtype, device=x.device)
    if x.numel() != 0:
        launch_fake_quantize(x, global_amax, out, block, err_mode, e4m3_scale_bound)
    return out


def launch_fake_quantize(
    x2d: torch.Tensor,
    global_amax: torch.Tensor,
    out: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the fake-quantize kernel into the caller-owned ``out`` (R, C) of the output dtype.

    No checks: the caller has checked ``can_run_fake_quantize``; ``x2d`` is
    contiguous and 16-byte aligned, ``global_amax`` float32 0-d or (R,)
    contiguous, ``out`` contiguous and 16-byte aligned on x's device.
    """
    rows, cols = x2d.shape
    if rows * cols == 0:
        return
    row_scaled = global_amax.numel() != 1
    if x2d.stride() != (cols, 1):  # canonical strides (see ``launch``)
        x2d = x2d.as_strided((rows, cols), (cols, 1))
    if out.stride() != (cols, 1):
        out = out.as_strided((rows, cols), (cols, 1))
    amax = kernel_amax(global_amax, rows, row_scaled)
    key = _fake_key(x2d, out.dtype, block, err_mode, e4m3_scale_bound, row_scaled)
    run_under(FAKE_QUANTIZE_CACHE, key, x2d.device, x2d, amax, out)


def _fake_key(x2d, out_dtype, block, err_mode, e4m3_scale_bound, row_scaled) -> FakeQuantizeKey:
    index = device_index(x2d.device)
    major, minor = capability(index)
    return FakeQuantizeKey(
        DTYPE_NAMES[x2d.dtype], DTYPE_NAMES[out_dtype], block, err_mode, int(e4m3_scale_bound),
        row_scaled, f"sm_{major}{minor}a", sm_count(index),
    )  # fmt: skip


def fake_quantize_launcher(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    out_dtype: torch.dtype,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
):
    """The compiled fake-quantize kernel for these arguments, as ``fn(x2d, amax, out2d)``.

    ``quantize_launcher``'s counterpart: resolved once (compiled if new) for callers
    that cache it per call signature; ``fn``'s arguments are ``launch_fake_quantize``'s,
    already laid out (contiguous 2-D ``x`` and ``out`` of ``out_dtype``, 0-d or (R,)
    amax), and never empty (the caller skips an empty ``x``).
    """
    row_scaled = global_amax.numel() != 1
    key = _fake_key(x, out_dtype, block, err_mode, e4m3_scale_bound, row_scaled)
    return cached_under(FAKE_QUANTIZE_CACHE, key, x.device)
