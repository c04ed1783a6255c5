"""SPEC's dequantize arithmetic for one group, pinned in inline PTX.

Per group ``ds = RN(RN(f(scale) * gamax) * RN(1 / D))`` (a zero scale byte gives
exactly +0), per element ``RN(dq * ds)`` with ``dq`` the exact E2M1 value, then
the round-to-nearest-even cast to the output dtype. Shared by the dequantize
kernel and the fake-quantize stores of the quantize kernels.
"""

from __future__ import annotations

from cutlass import Float32, Int32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

from .ieee import _asm, _f, _i, f32_bits

# 2^126 as a float32 (PTX hex): ``_e2m1_value_ptx`` scales 2^-126-sized code values by it.
_TWO_126 = "0f7E800000"


def _words(res, n: int, loc, ip) -> list[Int32]:
    return [Int32(llvm.extractvalue(T.i32(), res, [k], loc=loc, ip=ip)) for k in range(n)]


def _e2m1_value_ptx(dst: str, word: str, j: int) -> str:
    """PTX that sets the f32 register ``dst`` to the exact E2M1 value of nibble ``j`` of ``word``.

    The code's 3 magnitude bits placed at bits 24..22 of a float32 give exactly
    ``|dq| 2^-126`` (0.5 is the subnormal 2^-127; 1 is the smallest normal),
    its sign bit goes to bit 31, and ``mul.rn`` by 2^126 is exact (a power of
    two, the result normal or zero): code 8 gives -0.0.
    """
    shift = 28 - 4 * j  # moves the code to bits 31..28
    lift = f"shl.b32 u, {word}, {shift};" if shift else f"mov.b32 u, {word};"
    return (
        f" {lift} shr.u32 m, u, 6; and.b32 m, m, 0x01C00000; and.b32 u, u, 0x80000000;"
        f" or.b32 u, u, m; mov.b32 {dst}, u; mul.rn.f32 {dst}, {dst}, {_TWO_126};"
    )


@dsl_user_op
def e2m1_scaled_f32(word, ds, count: int = 8, *, loc=None, ip=None) -> list[Float32]:
    """The ``RN(dq_j * ds)`` of a word of E2M1 codes (code ``j`` in nibble ``j``), float32.

    ``dq_j`` exact (``_e2m1_value_ptx``), then one ``mul.rn.f32`` by ``ds``:
    SPEC's ``RN(dq * ds)`` (no fma can absorb it: nothing is added). ``count``
    (8 or 4): the codes of nibbles ``0 .. count - 1``.
    """
    n = count
    body = "".join(
        _e2m1_value_ptx("v", f"${n}", j) + f" mul.rn.f32 ${j}, v, ${n + 1};" for j in range(n)
    )
    text = "{ .reg .b32 u, m; .reg .f32 v;" + body + " }"
    res = _asm(
        llvm.StructType.get_literal([T.f32()] * n),
        [_i(word, loc, ip), _f(ds, loc, ip)],
        text,
        ",".join(["=f"] * n) + ",r,f",
    )
    return [Float32(llvm.extractvalue(T.f32(), res, [k], loc=loc, ip=ip)) for k in range(n)]


@dsl_user_op
def e2m1_scaled_16x2(word, ds, kind: str, count: int = 8, *, loc=None, ip=None) -> list[Int32]:
    """``e2m1_scaled_f32``'s products cast to ``kind`` ("bf16" | "f16"), two to a word.

    ``cvt.rn.{kind}x2.f32``: round-to-nearest-even, overflow to Inf, no
    ``.ftz`` and no ``.satfinite``: torch's ``.to(out_dtype)``. Word ``k``
    holds element ``2k`` in its low half (the PTX's first source goes high).
    ``count`` (8 or 4) codes give ``count / 2`` words.
    """
    n = count // 2
    body = []
    for k in range(n):
        body.append(_e2m1_value_ptx("a", f"${n}", 2 * k) + f" mul.rn.f32 a, a, ${n + 1};")
        body.append(_e2m1_value_ptx("b", f"${n}", 2 * k + 1) + f" mul.rn.f32 b, b, ${n + 1};")
        body.append(f" cvt.rn.{kind}x2.f32 ${k}, b, a;")
    text = "{ .reg .b32 u, m; .reg .f32 a, b;" + "".join(body) + " }"
    res = _asm(
        llvm.StructType.get_literal([T.i32()] * n),
        [_i(word, loc, ip), _f(ds, loc, ip)],
        text,
        ",".join(["=r"] * n) + ",r,f",
    )
    return _words(res, n, loc, ip)


def scaled_words(out_dtype: str, word, ds, count: int = 8) -> list:
    """The output words (32-bit) of ``count`` codes of ``word`` scaled by ``ds``, for
    ``out_dtype`` ("bfloat16" | "float16" | "float32"): ``count / 2`` or ``count`` words."""
    if out_dtype == "float32":
        return [f32_bits(v) for v in e2m1_scaled_f32(word, ds, count)]
    return e2m1_scaled_16x2(word, ds, "bf16" if out_dtype == "bfloat16" else "f16", count)


@dsl_user_op
def group_scale(scale_byte, f, gamax, factor_inv, *, loc=None, ip=None) -> Float32:
    """SPEC's per-group ``ds = RN(RN(f * gamax) * factor_inv)``, exactly +0 for a zero byte.

    Two ``mul.rn.f32`` (no fma); a byte whose bits 6..0 are zero is E4M3 +-0
    (the reference's ``f == 0``) and selects +0; NaN bytes (0x7F, 0xFF) keep
    their NaN ``ds``.
    """
    text = (
        "{ .reg .f32 p; .reg .b32 z; .reg .pred q;"
        " mul.rn.f32 p, $2, $3; mul.rn.f32 p, p, $4;"
        " and.b32 z, $1, 0x7F; setp.eq.u32 q, z, 0; selp.f32 $0, 0f00000000, p, q; }"
    )
    ops = [_i(scale_byte, loc, ip), _f(f, loc, ip), _f(gamax, loc, ip), _f(factor_inv, loc, ip)]
    return Float32(_asm(T.f32(), ops, text, "=f,r,f,f,f"))
