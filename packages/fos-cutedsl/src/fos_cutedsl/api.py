"""``quantize`` and ``can_run``: the kernel behind the reference's signature (and the
elementwise kernels' and fake-quantize's APIs after it)."""

from __future__ import annotations

import functools

import torch

from fos_reference.validation import (
    check_dequantize_args,
    check_fake_quantize_args,
    check_quantize_args,
)

from .cache import CompileCache
from .config import FakeQuantizeKey, VariantKey

try:
    from .compile import compile_fake_variant, compile_variant
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    compile_variant = compile_fake_variant = None
    _IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _IMPORT_ERROR = ""

_DTYPE_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}
_MIN_CAPABILITY = (9, 0)
_MAX_BLOCKS = 2**31 - 1
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


@functools.cache
def _capability(index: int) -> tuple[int, int]:
    return torch.cuda.get_device_capability(index)


@functools.cache
def _sm_count(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


def _index(device: torch.device) -> int:
    return device.index if device.index is not None else torch.cuda.current_device()


def arch_of(device: torch.device) -> str:
    """CuTe DSL arch string for a CUDA device: ``sm_90a`` for an H100/H200."""
    major, minor = _capability(_index(device))
    return f"sm_{major}{minor}a"


def _why_not(x, global_amax, block, err_mode, e4m3_scale_bound) -> str:
    """Empty string when the kernel can run, else the first reason it cannot."""
    row_scaled = check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    if _IMPORT_ERROR:
        return _IMPORT_ERROR
    if x.device.type != "cuda":
        return f"x is on {x.device.type}, the kernel needs a CUDA tensor"
    capability = _capability(_index(x.device))
    if capability < _MIN_CAPABILITY:
        return f"{x.device} is sm_{capability[0]}{capability[1]}, the kernel needs sm_90 or newer"
    if x.dtype not in _DTYPE_NAMES:
        return f"the kernel does not take {x.dtype}"
    if not x.is_contiguous():
        return "x is not contiguous"
    if x.data_ptr() % 16 != 0:
        return "x's data pointer is not 16-byte aligned"
    if row_scaled and global_amax.stride() != (1,):
        return "the row global_amax vector is not contiguous"
    if row_scaled and x.shape[1] // 16 > _MAX_ROW_SCALED_GROUPS:
        return f"x has {x.shape[1]} columns, row-scaled takes at most {16 * _MAX_ROW_SCALED_GROUPS}"
    blocks = (x.numel() // 16 + _GROUPS_PER_BLOCK - 1) // _GROUPS_PER_BLOCK
    if row_scaled:
        blocks = max(blocks, -(-x.shape[0] // _MIN_ROW_SCALED_CTA_ROWS))
    if blocks > _MAX_BLOCKS:
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
    try:
        why = _why_not(x, global_amax, block, err_mode, e4m3_scale_bound)
    except (TypeError, ValueError) as exc:
        return False, f"invalid arguments: {exc}"
    return (False, why) if why else (True, "ok")


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
    scales = torch.empty((rows, cols // 16), dtype=torch.uint8, device=x.device)
    if x.numel() != 0:
        launch(x, global_amax, codes, scales, block, err_mode, e4m3_scale_bound)
    return codes, scales.view(torch.float8_e4m3fn)


def launch(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    codes: torch.Tensor,
    scales: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Run the kernel into caller-owned ``codes`` and ``scales`` (both uint8).

    No checks beyond ``quantize``'s: the caller has checked ``can_run`` and
    allocated contiguous (R, C/2) and (R, C/16) uint8 buffers on x's device.
    """
    rows, cols = x.shape
    row_scaled = global_amax.numel() != 1
    # Canonical strides (a size-1 dim may carry any stride in a contiguous tensor).
    if x.stride() != (cols, 1):
        x = x.as_strided((rows, cols), (cols, 1))
    amax = global_amax
    if amax.dim() != 1 or amax.stride() != (1,):
        amax = global_amax.reshape(-1)[: rows if row_scaled else 1]
        amax = amax.as_strided((amax.shape[0],), (1,))
    key = _quantize_key(x, block, err_mode, e4m3_scale_bound, row_scaled)
    index = _index(x.device)
    if index == torch.cuda.current_device():
        CACHE.get(key)(x, amax, codes, scales)
    else:  # compile and run under the input's device
        with torch.cuda.device(index):
            CACHE.get(key)(x, amax, codes, scales)


def _quantize_key(x, block, err_mode, e4m3_scale_bound, row_scaled) -> VariantKey:
    """The quantize variant for ``x``'s dtype and device and these knobs."""
    index = _index(x.device)
    major, minor = _capability(index)
    return VariantKey(
        _DTYPE_NAMES[x.dtype], block, err_mode, int(e4m3_scale_bound), row_scaled,
        f"sm_{major}{minor}a", _sm_count(index),
    )  # fmt: skip


# ======== nan_amax and dequantize: the elementwise kernels

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


def _device_why_not(t: torch.Tensor) -> str:
    """Empty when ``t``'s device can run the elementwise kernels, else why not."""
    if _ELEMENTWISE_IMPORT_ERROR:
        return _ELEMENTWISE_IMPORT_ERROR
    if t.device.type != "cuda":
        return f"the input is on {t.device.type}, the kernel needs a CUDA tensor"
    capability = _capability(_index(t.device))
    if capability < _MIN_CAPABILITY:
        return f"{t.device} is sm_{capability[0]}{capability[1]}, the kernel needs sm_90 or newer"
    return ""


def _amax_why_not(x, dim) -> str:
    """Empty string when the amax kernel can run, else the first reason it cannot."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
        raise TypeError(f"dim must be None or an int, got {type(dim).__name__}")
    why = _device_why_not(x)
    if why:
        return why
    if x.dtype not in _DTYPE_NAMES:
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
    if dim is not None and -(-x.shape[0] // (256 // 32)) > _MAX_BLOCKS:
        return f"x has {x.shape[0]} rows, more than one launch covers"
    return ""


def can_run_nan_amax(x: torch.Tensor, dim: int | None = None) -> tuple[bool, str]:
    """Whether ``nan_amax`` can run these arguments here, and if not, why. Never raises."""
    try:
        why = _amax_why_not(x, dim)
    except (TypeError, ValueError) as exc:
        return False, f"invalid arguments: {exc}"
    return (False, why) if why else (True, "ok")


def nan_amax(x: torch.Tensor, dim: int | None = None) -> torch.Tensor:
    """NaN-dropping amax of ``|x|`` from 0 on the GPU, bit-identical to ``fos_reference.nan_amax``.

    ``dim=None``: a 0-d float32 tensor; ``dim=1`` of a 2-D (R, C) tensor: (R,).
    Raises ``TypeError`` for a non-tensor ``x`` or a non-int ``dim`` and
    ``RuntimeError`` when ``can_run_nan_amax`` says no.
    """
    why = _amax_why_not(x, dim)
    if why:
        raise RuntimeError(f"fos_cutedsl.nan_amax cannot run: {why}")
    if dim is None:
        out = torch.empty(1, dtype=torch.float32, device=x.device)
        launch_nan_amax(x.reshape(1, x.numel()), out, False)
        return out.reshape(())
    out = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    launch_nan_amax(x, out, True)
    return out


def _run(cache: CompileCache, key, device: torch.device, *args) -> None:
    """Compile (once) and run ``key``'s kernel under ``device``."""
    index = _index(device)
    if index == torch.cuda.current_device():
        cache.get(key)(*args)
    else:  # compile and run under the input's device
        with torch.cuda.device(index):
            cache.get(key)(*args)


def launch_nan_amax(x2d: torch.Tensor, out_f32: torch.Tensor, per_row: bool) -> None:
    """Run the amax kernel into the caller-owned float32 ``out_f32``.

    No checks: ``x2d`` is a contiguous, 16-byte aligned (R, C) CUDA tensor that
    ``can_run_nan_amax`` accepts; ``out_f32`` is (1,) per tensor (zero-filled
    here: the kernel max-reduces into it) or (R,) per row.
    """
    rows, cols = x2d.shape
    if not per_row:
        out_f32.zero_()
        if x2d.numel() == 0:
            return
        x2d = x2d.reshape(1, -1)  # per tensor: one flat row (whole vectors in total)
        rows, cols = x2d.shape
    elif rows == 0:
        return
    elif cols == 0:
        out_f32.zero_()
        return
    if x2d.stride() != (cols, 1):  # a size-1 dim may carry any stride in a contiguous tensor
        x2d = x2d.as_strided((rows, cols), (cols, 1))
    index = _index(x2d.device)
    major, minor = _capability(index)
    arch = f"sm_{major}{minor}a"
    key = _amax.AmaxKey(_DTYPE_NAMES[x2d.dtype], bool(per_row), arch, _sm_count(index))
    _run(AMAX_CACHE, key, x2d.device, x2d, out_f32)


def _dequantize_why_not(codes, scales, global_amax, e4m3_scale_bound, out_dtype) -> str:
    """Empty string when the dequantize kernel can run, else the first reason it cannot."""
    row_scaled = check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    why = _device_why_not(codes)
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
    per_block = 2 * 256 * 4  # DequantizeConfig: threads x 2 groups x pairs
    if -(-scales.numel() // per_block) > _MAX_BLOCKS:
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
    try:
        why = _dequantize_why_not(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    except (TypeError, ValueError) as exc:
        return False, f"invalid arguments: {exc}"
    return (False, why) if why else (True, "ok")


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
    contiguous and 16-byte aligned; ``global_amax`` is float32 (1,) or (R,).
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
    amax = global_amax
    if amax.dim() != 1 or amax.stride() != (1,):
        amax = global_amax.reshape(-1)[: rows if row_scaled else 1]
        amax = amax.as_strided((amax.shape[0],), (1,))
    index = _index(codes_u8.device)
    major, minor = _capability(index)
    key = _dequantize.DequantizeKey(
        _DTYPE_NAMES[out.dtype], int(e4m3_scale_bound), row_scaled, f"sm_{major}{minor}a"
    )
    _run(DEQUANTIZE_CACHE, key, codes_u8.device, codes_u8, scales_u8, amax, out)


def quantize_launcher(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
):
    """The compiled kernel for these arguments, as ``fn(x2d, amax1d, codes_u8, scales_u8)``.

    Resolves the variant once (compiling it if new), for callers that cache
    it per call signature (``fos_op``'s plans); the arguments of ``fn`` are
    ``launch``'s, already laid out (contiguous 2-D ``x``, (1,) or (R,) amax).
    Wrapped in ``torch.cuda.device`` only when ``x`` is not on the current device.
    """
    key = _quantize_key(x, block, err_mode, e4m3_scale_bound, global_amax.numel() != 1)
    index = _index(x.device)
    if index == torch.cuda.current_device():
        return CACHE.get(key)
    with torch.cuda.device(index):
        fn = CACHE.get(key)

    def on_device(*args):
        with torch.cuda.device(index):
            fn(*args)

    return on_device


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
    if out_dtype is not None and out_dtype not in _DTYPE_NAMES:
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
    try:
        why = _fake_why_not(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    except (TypeError, ValueError) as exc:
        return False, f"invalid arguments: {exc}"
    return (False, why) if why else (True, "ok")


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
    contiguous and 16-byte aligned, ``global_amax`` float32 (1,) or (R,)
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
    amax = global_amax
    if amax.dim() != 1 or amax.stride() != (1,):
        amax = global_amax.reshape(-1)[: rows if row_scaled else 1]
        amax = amax.as_strided((amax.shape[0],), (1,))
    index = _index(x2d.device)
    major, minor = _capability(index)
    key = FakeQuantizeKey(
        _DTYPE_NAMES[x2d.dtype], _DTYPE_NAMES[out.dtype], block, err_mode, int(e4m3_scale_bound),
        row_scaled, f"sm_{major}{minor}a", _sm_count(index),
    )  # fmt: skip
    _run(FAKE_QUANTIZE_CACHE, key, x2d.device, x2d, amax, out)
