"""``quantize`` and ``can_run``: the kernel behind the reference's signature."""

from __future__ import annotations

import functools

import torch

from fos_reference.validation import check_quantize_args

from .cache import CompileCache, VariantKey

try:
    from .kernel import compile_variant
except ImportError as exc:  # CuTe DSL (or its CUDA bindings) missing
    compile_variant = None
    _IMPORT_ERROR: str = f"CuTe DSL is not importable: {exc}"
else:
    _IMPORT_ERROR = ""

_DTYPE_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}
_MIN_CAPABILITY = (9, 0)
_MAX_BLOCKS = 2**31 - 1
_GROUPS_PER_BLOCK = (
    256 * 4
)  # 1-D grids: threads per CTA x the fewest groups per thread (kernel.DEFAULT_TUNING)
_MAX_ROW_SCALED_GROUPS = 64 * 65535  # row-scaled CTAs are 64 groups wide, grid.y < 2^16
_MIN_ROW_SCALED_CTA_ROWS = 4  # and at least 4 rows tall (QuantizeConfig.cta_rows)

#: The process-wide compile cache (one binary per ``VariantKey``).
CACHE = (
    CompileCache(lambda *key: compile_variant(VariantKey(*key)))
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
    index = _index(x.device)
    major, minor = _capability(index)
    key = VariantKey(
        _DTYPE_NAMES[x.dtype], block, err_mode, int(e4m3_scale_bound), row_scaled,
        f"sm_{major}{minor}a", _sm_count(index),
    )  # fmt: skip
    if index == torch.cuda.current_device():
        CACHE.get(key)(x, amax, codes, scales)
    else:  # compile and run under the input's device
        with torch.cuda.device(index):
            CACHE.get(key)(x, amax, codes, scales)


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
    index = _index(x.device)
    major, minor = _capability(index)
    key = VariantKey(
        _DTYPE_NAMES[x.dtype], block, err_mode, int(e4m3_scale_bound), global_amax.numel() != 1,
        f"sm_{major}{minor}a", _sm_count(index),
    )  # fmt: skip
    if index == torch.cuda.current_device():
        return CACHE.get(key)
    with torch.cuda.device(index):
        fn = CACHE.get(key)

    def on_device(*args):
        with torch.cuda.device(index):
            fn(*args)

    return on_device
