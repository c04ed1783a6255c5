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
``[8t, 8t + 8)``, scale byte ``t`` and outputs ``[16t, 16t + 16)``; its half
``h = 2t + i`` (``i`` in 0, 1) is the 4-byte code word ``h`` and outputs
``[8h, 8h + 8)``. A thread takes one half-group a step: a CTA of ``threads``
threads covers ``threads * steps`` consecutive half-groups, step ``k`` of
thread ``x`` half-group ``threads * k + x``. So one warp instruction loads
128 contiguous code bytes (``ld.global.u32``; lanes ``2m, 2m + 1`` share a
scale byte, ``ld.global.u8``) and stores 512 contiguous output bytes
(``st.global.v4``, 16 bytes a lane; float32: 32 bytes a lane, two
``st.global.v4`` that together fill 1024 contiguous bytes). A full CTA
issues every load of its ``steps`` steps (codes, scale bytes and, row-scaled,
the rows' gamax) before the first decode and store: the stores may alias the
loads, so only this program order keeps all of them in flight at once. The
last CTA, if ragged, loops over single half-groups with the same accesses,
so no load reads past the codes. Row-scaled: a thread divides once for its
first group's row and steps rows by a host-computed quotient and remainder.
All addresses are 64-bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8, Uint32

from . import decode, ieee
from .config import compile_options
from .offsets import amax_vector

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
    threads: int = 512  # even: a thread's half of its group is ``tidx & 1``
    steps: int = 8  # half-groups per thread (all loads in flight before the first store)

    def __post_init__(self):
        assert self.out_dtype in _DTYPES and self.bound in (256, 448)
        assert self.steps >= 1 and self.threads % 64 == 0

    @property
    def d(self) -> float:
        return 6.0 * self.bound

    @property
    def group_out_bytes(self) -> int:
        return GROUP * _WIDTH[self.out_dtype]

    @property
    def half_out_bytes(self) -> int:
        return self.group_out_bytes // 2

    @property
    def halves_per_block(self) -> int:
        return self.threads * self.steps

    @property
    def groups_per_block(self) -> int:
        return self.halves_per_block // 2


class DequantizeKernel:
    """Host launcher and device kernel for one ``DequantizeConfig``."""

    def __init__(self, config: DequantizeConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        mAmax: cute.Tensor,  # () or (R,) float32
        mOut: cute.Tensor,  # (R, C) bf16/f16/f32, row-major
        stream: CUstream,
    ):
        mAmax = amax_vector(mAmax)
        cfg = self.cfg
        groups_per_row = Int64(mScales.shape[1])
        halves = Int64(mScales.shape[0]) * groups_per_row * 2
        per_block = cfg.halves_per_block
        grid = Int32((halves + (per_block - 1)) // per_block)
        # Row-scaled: a thread's next step is ``threads`` half-groups (threads / 2 groups)
        # on, i.e. ``step_rows`` rows and ``step_rem`` groups (never called with zero groups).
        step = Int64(cfg.threads // 2)
        step_rows = step // cutlass.max(groups_per_row, Int64(1))
        step_rem = step - step_rows * groups_per_row
        steps = (halves, groups_per_row, step_rows, step_rem)
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
        halves: Int64,
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
        code_base = mCodes.iterator.toint()
        scale_base = mScales.iterator.toint()
        out_base = mOut.iterator.toint()
        start = Int64(bidx) * cfg.halves_per_block
        h0 = start + Int64(tidx)
        if start + cfg.halves_per_block <= halves:
            # ======== a full CTA: every load first, then decode and store
            words, bytes_, gamaxes = [], [], []
            g0 = h0 >> 1  # step k's group is g0 + k threads / 2 (threads is even)
            row = Int64(0)
            rem = Int64(0)
            if cutlass.const_expr(cfg.row_scaled):
                row = g0 // groups_per_row
                rem = g0 - row * groups_per_row
            for k in cutlass.range_constexpr(cfg.steps):
                h = h0 + Int64(k * cfg.threads)
                words.append(_load_scalar(Uint32, code_base + h * 4))
                g = g0 + Int64(k * (cfg.threads // 2))
                bytes_.append(Int32(_load_scalar(Uint8, scale_base + g)) & 0xFF)
                if cutlass.const_expr(cfg.row_scaled):
                    gamaxes.append(mAmax[row])
                    if cutlass.const_expr(k + 1 < cfg.steps):
                        rem = rem + step_rem
                        row = row + step_rows
                        wrap = Int64(rem >= groups_per_row)
                        rem = rem - wrap * groups_per_row
                        row = row + wrap
                else:
                    gamaxes.append(gamax)
            for k in cutlass.range_constexpr(cfg.steps):
                h = h0 + Int64(k * cfg.threads)
                byte = bytes_[k]
                ds = decode.group_scale(byte, ieee.e4m3_to_f32(byte), gamaxes[k], factor_inv)
                out = _decode(cfg, words[k], ds)
                _store_words(out_base + h * cfg.half_out_bytes, out)
        else:
            # ======== the ragged last CTA: one half-group a step while in range
            h = h0
            while h < halves:
                word = _load_scalar(Uint32, code_base + h * 4)
                byte = Int32(_load_scalar(Uint8, scale_base + (h >> 1))) & 0xFF
                gamax_g = gamax
                if cutlass.const_expr(cfg.row_scaled):
                    gamax_g = mAmax[(h >> 1) // groups_per_row]
                ds = decode.group_scale(byte, ieee.e4m3_to_f32(byte), gamax_g, factor_inv)
                _store_words(out_base + h * cfg.half_out_bytes, _decode(cfg, word, ds))
                h = h + cfg.threads


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
    scales uint8 (R, C/16), global_amax float32 () or (R,), out (R, C))`` on
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
    amax = fake(Float32, (rows,) if row_scaled else (), assumed_align=4)
    out = fake(_DTYPES[out_dtype], (rows, cols), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(arch, extra=extra_options)
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
