"""NVFP4 dequantize in CuTe DSL: the bits of ``fos_reference.dequantize``.

Bitwise contract (SPEC.md, Dequantize). ``factor_inv = RN(1 / D)``
(``div.rn.f32``, D = 6 bound); per group ``ds = RN(RN(f * gamax) * factor_inv)``
with two ``mul.rn.f32`` (no fma), and ``ds = +0`` for a zero scale byte (E4M3
+-0, the reference's ``f == 0``); per element ``x_hat = cast(RN(dq * ds))``:
``dq`` the exact E2M1 value (code 8 is -0.0; built from the code's bits,
``decode.e2m1_scaled_f32``), one ``mul.rn.f32``, then for 16-bit outputs
``cvt.rn.bf16x2.f32`` / ``cvt.rn.f16x2.f32`` (nearest-even, overflow to Inf,
no ``.ftz``, no ``.satfinite``). The scale byte decodes exactly through
``cvt.rn.f16x2.e4m3x2`` (its NaN bytes 0x7F/0xFF give NaN). Where the
arithmetic makes a NaN (a NaN scale or gamax, ``0 * Inf``), the result is a
NaN of whatever pattern the hardware makes: SPEC fixes only NaN-ness.

Tiling. Group ``t`` (16 elements, row-major over (R, C/16)) is code bytes
``[8t, 8t + 8)``, scale byte ``t`` and outputs ``[16t, 16t + 16)``. A CTA of
``threads`` threads covers ``2 * threads * pairs`` consecutive groups; a
thread takes group pairs ``(2p, 2p + 1)`` one CTA-wide stride apart: per
pair one 16-byte code load (``ld.global.v4``), one 2-byte scale load and 64
bytes (bf16/f16; 128 for float32) of 16-byte stores (``st.global.v4``). The
last CTA, if ragged, takes single groups (an 8-byte code load each), so no
load reads past the codes. Row-scaled: a thread divides once for its first
group's row and steps rows by a host-computed quotient and remainder. All
addresses are 64-bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8, Uint16, Uint32

from . import decode, ieee

GROUP = 16
_DTYPES = {"bfloat16": cutlass.BFloat16, "float16": cutlass.Float16, "float32": cutlass.Float32}
_WIDTH = {"bfloat16": 2, "float16": 2, "float32": 4}


class DequantizeKey(NamedTuple):
    """Everything that selects a compiled dequantize binary; the shape is symbolic."""

    out_dtype: str  # "bfloat16" | "float16" | "float32"
    bound: int  # 256 | 448
    row_scaled: bool
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"


@dataclass(frozen=True)
class DequantizeConfig:
    """Compile-time configuration of one dequantize kernel (tuning knobs never change bits)."""

    out_dtype: str
    bound: int
    row_scaled: bool
    threads: int = 256
    pairs: int = 4  # group pairs per thread

    def __post_init__(self):
        assert self.out_dtype in _DTYPES and self.bound in (256, 448) and self.pairs >= 1

    @property
    def d(self) -> float:
        return 6.0 * self.bound

    @property
    def group_out_bytes(self) -> int:
        return GROUP * _WIDTH[self.out_dtype]

    @property
    def groups_per_block(self) -> int:
        return 2 * self.threads * self.pairs


class DequantizeKernel:
    """Host launcher and device kernel for one ``DequantizeConfig``."""

    def __init__(self, config: DequantizeConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        mAmax: cute.Tensor,  # (1,) or (R,) float32
        mOut: cute.Tensor,  # (R, C) bf16/f16/f32, row-major
        stream: CUstream,
    ):
        cfg = self.cfg
        groups_per_row = Int64(mScales.shape[1])
        total = Int64(mScales.shape[0]) * groups_per_row
        per_block = cfg.groups_per_block
        grid = Int32((total + (per_block - 1)) // per_block)
        # Row-scaled: a thread's next pair is 2 * threads groups on, i.e. ``step_rows``
        # rows and ``step_rem`` groups (the launcher never calls with zero groups).
        step = Int64(2 * cfg.threads)
        step_rows = step // cutlass.max(groups_per_row, Int64(1))
        step_rem = step - step_rows * groups_per_row
        steps = (total, groups_per_row, step_rows, step_rem)
        self.kernel(mCodes, mScales, mAmax, mOut, *steps).launch(
            grid=[grid, 1, 1], block=[cfg.threads, 1, 1], stream=stream
        )

    @cute.kernel
    def kernel(
        self,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        mAmax: cute.Tensor,
        mOut: cute.Tensor,
        total: Int64,
        groups_per_row: Int64,
        step_rows: Int64,
        step_rem: Int64,
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        factor_inv = ieee.div_rn(Float32(1.0), Float32(cfg.d))
        gamax = Float32(0.0)
        if cutlass.const_expr(not cfg.row_scaled):
            gamax = mAmax[0]
        start = Int64(bidx) * cfg.groups_per_block
        if start + cfg.groups_per_block <= total:
            # ======== a full CTA: group pairs, 16-byte code loads
            g = start + 2 * Int64(tidx)
            row = Int64(0)
            rem = Int64(0)
            if cutlass.const_expr(cfg.row_scaled):
                row = g // groups_per_row
                rem = g - row * groups_per_row
            for k in cutlass.range_constexpr(cfg.pairs):
                gk = g + Int64(k * 2 * cfg.threads)
                codes = _load_words(mCodes.iterator.toint() + gk * (GROUP // 2), 4)
                pair = Int32(_load_scalar(Uint16, mScales.iterator.toint() + gk)) & 0xFFFF
                f_odd, f_even = ieee.e4m3x2_to_f32(pair)
                g_even, g_odd = gamax, gamax
                if cutlass.const_expr(cfg.row_scaled):
                    g_even = mAmax[row]
                    g_odd = mAmax[row + Int64(rem + 1 == groups_per_row)]
                ds_even = decode.group_scale(pair & 0xFF, f_even, g_even, factor_inv)
                ds_odd = decode.group_scale(pair >> 8, f_odd, g_odd, factor_inv)
                words = _decode(cfg, codes[0], ds_even) + _decode(cfg, codes[1], ds_even)
                words += _decode(cfg, codes[2], ds_odd) + _decode(cfg, codes[3], ds_odd)
                _store_words(mOut.iterator.toint() + gk * cfg.group_out_bytes, words)
                if cutlass.const_expr(cfg.row_scaled and k + 1 < cfg.pairs):
                    rem = rem + step_rem
                    row = row + step_rows
                    wrap = Int64(rem >= groups_per_row)
                    rem = rem - wrap * groups_per_row
                    row = row + wrap
        else:
            # ======== the ragged last CTA: single groups, 8-byte code loads
            g = start + Int64(tidx)
            while g < total:
                codes = _load_words(mCodes.iterator.toint() + g * (GROUP // 2), 2)
                byte = Int32(_load_scalar(Uint8, mScales.iterator.toint() + g))
                f = ieee.e4m3_to_f32(byte)
                gamax_g = gamax
                if cutlass.const_expr(cfg.row_scaled):
                    gamax_g = mAmax[g // groups_per_row]
                ds = decode.group_scale(byte, f, gamax_g, factor_inv)
                words = _decode(cfg, codes[0], ds) + _decode(cfg, codes[1], ds)
                _store_words(mOut.iterator.toint() + g * cfg.group_out_bytes, words)
                g = g + cfg.threads


def _load_words(addr, n: int):
    """``n`` 32-bit words at the ``4 n``-byte aligned global ``addr`` (one vector load)."""
    ptr = cute.make_ptr(Uint32, addr, cute.AddressSpace.gmem, assumed_align=4 * n)
    words = cute.make_rmem_tensor((n,), Uint32)
    cute.autovec_copy(cute.make_tensor(ptr, cute.make_layout(n)), words)
    return words


def _load_scalar(dtype, addr):
    """One ``dtype`` at the global ``addr`` (aligned to its size)."""
    ptr = cute.make_ptr(dtype, addr, cute.AddressSpace.gmem, assumed_align=dtype.width // 8)
    return cute.make_tensor(ptr, cute.make_layout(1))[0]


def _decode(cfg, word, ds):
    """The output words of the 8 codes in ``word`` scaled by ``ds`` (4 for 16-bit, 8 for f32)."""
    if cutlass.const_expr(cfg.out_dtype == "float32"):
        return [ieee.f32_bits(v) for v in decode.e2m1_scaled_f32(word, ds)]
    kind = "bf16" if cfg.out_dtype == "bfloat16" else "f16"
    return decode.e2m1_scaled_16x2(word, ds, kind)


def _store_words(addr, words):
    """``words`` at the 16-byte aligned global ``addr`` (16-byte stores)."""
    n = len(words)
    regs = cute.make_rmem_tensor((n,), Uint32)
    for k in range(n):
        regs[k] = Uint32(words[k])
    ptr = cute.make_ptr(Uint32, addr, cute.AddressSpace.gmem, assumed_align=16)
    cute.autovec_copy(regs, cute.make_tensor(ptr, cute.make_layout(n)))


def compile_dequantize(
    out_dtype: str, bound: int, row_scaled: bool, arch: str, extra_options: str = "", **tuning
):
    """Compile one dequantize variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors ``(codes uint8 (R, C/2),
    scales uint8 (R, C/16), global_amax float32 (1,) or (R,), out (R, C))`` on
    the current CUDA stream. Every tensor contiguous; codes and out 16-byte
    aligned, scales 2-byte aligned; at least one group (the launcher skips
    empty inputs). ``tuning`` sets ``DequantizeConfig``'s knobs (same bits).
    """
    cfg = DequantizeConfig(out_dtype, bound, row_scaled, **tuning)
    rows = cute.sym_int64()
    groups = cute.sym_int64()
    half_cols = cute.sym_int64(divisibility=GROUP // 2)
    cols = cute.sym_int64(divisibility=GROUP)
    fake = cute.runtime.make_fake_compact_tensor
    codes = fake(Uint8, (rows, half_cols), stride_order=(1, 0), assumed_align=16)
    scales = fake(Uint8, (rows, groups), stride_order=(1, 0), assumed_align=2)
    amax = fake(Float32, (rows if row_scaled else 1,), assumed_align=4)
    out = fake(_DTYPES[out_dtype], (rows, cols), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = " ".join(o for o in ("--enable-tvm-ffi --gpu-arch", arch, extra_options) if o)
    return cute.compile(DequantizeKernel(cfg), codes, scales, amax, out, stream, options=options)


def compile_key(key: DequantizeKey, extra_options: str = ""):
    """``compile_dequantize`` for a ``DequantizeKey``."""
    return compile_dequantize(key.out_dtype, key.bound, key.row_scaled, key.arch, extra_options)


def variants(arch: str) -> list[DequantizeKey]:
    """Every dequantize variant ``dequantize`` can ask for on ``arch``."""
    return [
        DequantizeKey(out_dtype, bound, row_scaled, arch)
        for out_dtype in _DTYPES
        for bound in (256, 448)
        for row_scaled in (False, True)
    ]
