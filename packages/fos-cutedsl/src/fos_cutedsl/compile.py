"""Pick and compile one kernel variant: the only module that knows every kernel.

``compile_quantize`` builds a ``QuantizeConfig`` from scalars (dtype, mode,
knobs, arch), picks its kernel and compiles it once against fake tensors with
symbolic sizes, so one binary serves every shape:

- ``block="16x16"``: ``tile.TileKernel``, or with ``persistent``
  ``tile_persistent.TilePersistentKernel``;
- 1x16 with ``persistent`` (16-bit per tensor by default):
  ``persistent.PersistentKernel``;
- every other 1x16 mode (row-scaled, float32): ``rowwise.QuantizeKernel``.

``compile_fake_quantize`` builds the same kernels with ``QuantizeConfig.fake``
(x_hat in place of the codes and scales) behind a three-tensor entry point.
"""

from __future__ import annotations

import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float8E4M3FN, Float32, Uint8

from .config import GROUP, FakeQuantizeKey, QuantizeConfig, compile_options
from .persistent import PersistentKernel
from .rowwise import QuantizeKernel
from .tile import TileKernel
from .tile_persistent import TilePersistentKernel


def compile_variant(key, extra_options: str = ""):
    """``compile_quantize`` for a ``config.VariantKey`` (its ``sms`` sizes the persistent grid)."""
    return compile_quantize(
        key.dtype, key.block, key.err_mode, key.bound, key.row_scaled, key.arch, extra_options,
        sms=key.sms,
    )  # fmt: skip


def compile_quantize(
    dtype: str,
    block: str,
    err_mode: str,
    bound: int,
    row_scaled: bool,
    arch: str,
    extra_options: str = "",
    **tuning,
):
    """Compile one variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors
    ``(x, global_amax () or (R,), codes uint8, scales float8_e4m3fn)`` and runs on
    the current CUDA stream; one binary serves every shape. ``x`` must be
    contiguous with a 16-byte-aligned base; the codes and scales buffers as
    ``quantize`` allocates them. ``arch`` is a CuTe DSL arch string such as
    ``"sm_90a"`` or ``"sm_100a"``; ``extra_options`` are appended to the
    DSL's compile options (``check`` passes ``--keep-ptx --dump-dir DIR``);
    ``tuning`` sets ``QuantizeConfig``'s tuning knobs (same bits, other speed).
    """
    cfg = QuantizeConfig(dtype, block, err_mode, bound, row_scaled, **tuning)
    kernel = _kernel(cfg)
    rows = cute.sym_int64()
    cols = cute.sym_int64(divisibility=GROUP)
    half_cols = cute.sym_int64(divisibility=GROUP // 2)
    groups = cute.sym_int64()
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(cfg.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (rows,) if row_scaled else (), assumed_align=4)
    codes = fake(Uint8, (rows, half_cols), stride_order=(1, 0), assumed_align=16)
    # float8_e4m3fn, so callers allocate the scales in their returned dtype (no view per
    # call); the kernels store bytes at raw addresses, the same PTX as a uint8 argument.
    scales = fake(Float8E4M3FN, (rows, groups), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(arch, cfg.ptxas_opt, extra_options)
    return cute.compile(kernel, x, amax, codes, scales, stream, options=options)


def _kernel(cfg: QuantizeConfig):
    """The kernel class that runs ``cfg``'s mode."""
    if cfg.block == "16x16":
        return TilePersistentKernel(cfg) if cfg.persistent else TileKernel(cfg)
    if cfg.persistent:
        return PersistentKernel(cfg)
    return QuantizeKernel(cfg)


class FakeQuantizeKernel:
    """A quantize kernel with ``QuantizeConfig.fake``, called as ``(x, amax, out, stream)``.

    The kernel's codes argument is the output (its scales argument, unused, too).
    """

    def __init__(self, config: QuantizeConfig):
        assert config.fake is not None
        self.kernel = _kernel(config)

    @cute.jit
    def __call__(self, mX: cute.Tensor, mAmax: cute.Tensor, mOut: cute.Tensor, stream: CUstream):
        self.kernel(mX, mAmax, mOut, mOut, stream)


def compile_fake_variant(key: FakeQuantizeKey, extra_options: str = ""):
    """``compile_fake_quantize`` for a ``config.FakeQuantizeKey``."""
    return compile_fake_quantize(
        key.dtype, key.out_dtype, key.block, key.err_mode, key.bound, key.row_scaled, key.arch,
        extra_options, sms=key.sms,
    )  # fmt: skip


def compile_fake_quantize(
    dtype: str,
    out_dtype: str,
    block: str,
    err_mode: str,
    bound: int,
    row_scaled: bool,
    arch: str,
    extra_options: str = "",
    **tuning,
):
    """Compile one fake-quantize variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors ``(x, global_amax ()
    or (R,), out)``: ``out`` (R, C) of ``out_dtype``, contiguous and 16-byte
    aligned, receives ``dequantize(quantize(x))``; codes and scales are never
    stored. Otherwise as ``compile_quantize``.
    """
    cfg = QuantizeConfig(dtype, block, err_mode, bound, row_scaled, fake=out_dtype, **tuning)
    rows = cute.sym_int64()
    cols = cute.sym_int64(divisibility=GROUP)
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(cfg.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (rows,) if row_scaled else (), assumed_align=4)
    out = fake(cfg.out_element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(arch, cfg.ptxas_opt, extra_options)
    return cute.compile(FakeQuantizeKernel(cfg), x, amax, out, stream, options=options)
