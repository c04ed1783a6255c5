"""Pinned PTX helpers of the elementwise kernels (``amax``, ``dequantize``).

Same pattern as ``pinned``: one ``llvm.inline_asm`` per helper, whose PTX is
fixed, so the compiler cannot change a rounding, fuse a multiply into an add
or flush a subnormal. No helper uses ``.ftz`` or an approximate instruction.
Pure helpers are ``has_side_effects=False``; the shuffle, the atomic and the
stores are not.
"""

from __future__ import annotations

from cutlass import Float32, Int32, Int64
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

# 2^126 as a float32 (PTX hex): ``e2m1_words`` scales 2^-126-sized code values by it.
_TWO_126 = "0f7E800000"


def _asm(result_type, operands, text: str, constraints: str, side_effects: bool = False):
    return llvm.inline_asm(
        result_type,
        operands,
        text,
        constraints,
        has_side_effects=side_effects,
        is_align_stack=False,
        asm_dialect=llvm.AsmDialect.AD_ATT,
    )


def _f(v, loc, ip):
    return Float32(v).ir_value(loc=loc, ip=ip)


def _i(v, loc, ip):
    return Int32(v).ir_value(loc=loc, ip=ip)


def _words(res, n: int, loc, ip) -> list[Int32]:
    return [Int32(llvm.extractvalue(T.i32(), res, [k], loc=loc, ip=ip)) for k in range(n)]


@dsl_user_op
def abs_max_16x2(acc, w, kind: str, *, loc=None, ip=None) -> Int32:
    """Per 16-bit half ``max(acc, |w|)`` of ``kind`` ("bf16x2" | "f16x2") words; NaN dropped.

    ``and`` clears both sign bits (``|w|``, -0 becomes +0), then the packed
    ``max.{kind}`` without ``.NaN`` returns the other operand where one is NaN
    (PTX ISA, half-precision ``max``), and no ``.ftz`` keeps subnormals. The
    running ``acc`` starts at +0 and is never NaN, so it ends as the largest
    non-NaN ``|w|`` of each half; +Inf is an ordinary (largest) value.
    """
    text = f"{{ .reg .b32 a; and.b32 a, $2, 0x7FFF7FFF; max.{kind} $0, $1, a; }}"
    return Int32(_asm(T.i32(), [_i(acc, loc, ip), _i(w, loc, ip)], text, "=r,r,r"))


@dsl_user_op
def abs_max_f32(acc, v, *, loc=None, ip=None) -> Float32:
    """``max.f32(acc, |v|)``: NaN-dropping (IEEE maxNum), subnormals kept, -0 becomes +0."""
    text = "{ .reg .f32 a; abs.f32 a, $2; max.f32 $0, $1, a; }"
    return Float32(_asm(T.f32(), [_f(acc, loc, ip), _f(v, loc, ip)], text, "=f,f,f"))


@dsl_user_op
def shfl_bfly_f32(v, lane_mask: int, *, loc=None, ip=None) -> Float32:
    """``shfl.sync.bfly.b32`` over the full warp: ``v`` of lane ``lane ^ lane_mask`` (bits only)."""
    text = f"shfl.sync.bfly.b32 $0, $1, {lane_mask}, 0x1f, 0xffffffff;"
    return Float32(_asm(T.f32(), [_f(v, loc, ip)], text, "=f,f", side_effects=True))


@dsl_user_op
def red_max_u32(addr, value, *, loc=None, ip=None) -> None:
    """``red.relaxed.gpu.global.max.u32 [addr], value`` (an atomic max, no result).

    On non-negative, non-NaN float32 bit patterns the unsigned order is the
    float order, so this is an exact float max of such values.
    """
    text = "red.relaxed.gpu.global.max.u32 [$0], $1;"
    ops = [Int64(addr).ir_value(loc=loc, ip=ip), _i(value, loc, ip)]
    _asm(None, ops, text, "l,r", side_effects=True)


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
def e2m1_scaled_f32(word, ds, *, loc=None, ip=None) -> list[Float32]:
    """The eight ``RN(dq_j * ds)`` of a word of E2M1 codes (code ``j`` in nibble ``j``), float32.

    ``dq_j`` exact (``_e2m1_value_ptx``), then one ``mul.rn.f32`` by ``ds``:
    SPEC's ``RN(dq * ds)`` (no fma can absorb it: nothing is added).
    """
    body = "".join(_e2m1_value_ptx("v", "$8", j) + f" mul.rn.f32 ${j}, v, $9;" for j in range(8))
    text = "{ .reg .b32 u, m; .reg .f32 v;" + body + " }"
    res = _asm(
        llvm.StructType.get_literal([T.f32()] * 8),
        [_i(word, loc, ip), _f(ds, loc, ip)],
        text,
        ",".join(["=f"] * 8) + ",r,f",
    )
    return [Float32(llvm.extractvalue(T.f32(), res, [k], loc=loc, ip=ip)) for k in range(8)]


@dsl_user_op
def e2m1_scaled_16x2(word, ds, kind: str, *, loc=None, ip=None) -> list[Int32]:
    """``e2m1_scaled_f32``'s eight products cast to ``kind`` ("bf16" | "f16"), packed in 4 words.

    ``cvt.rn.{kind}x2.f32``: round-to-nearest-even, overflow to Inf, no
    ``.ftz`` and no ``.satfinite``: torch's ``.to(out_dtype)``. Word ``k``
    holds element ``2k`` in its low half (the PTX's first source goes high).
    """
    body = []
    for k in range(4):
        body.append(_e2m1_value_ptx("a", "$4", 2 * k) + " mul.rn.f32 a, a, $5;")
        body.append(_e2m1_value_ptx("b", "$4", 2 * k + 1) + " mul.rn.f32 b, b, $5;")
        body.append(f" cvt.rn.{kind}x2.f32 ${k}, b, a;")
    text = "{ .reg .b32 u, m; .reg .f32 a, b;" + "".join(body) + " }"
    res = _asm(
        llvm.StructType.get_literal([T.i32()] * 4),
        [_i(word, loc, ip), _f(ds, loc, ip)],
        text,
        "=r,=r,=r,=r,r,f",
    )
    return _words(res, 4, loc, ip)


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


@dsl_user_op
def e4m3_to_f32(byte, *, loc=None, ip=None) -> Float32:
    """Exact float32 value of one E4M3 byte (bits 7..0 of ``byte``): via ``cvt.rn.f16x2.e4m3x2``."""
    text = (
        "{ .reg .b16 p, lo, hi; .reg .b32 h;"
        " cvt.u16.u32 p, $1; cvt.rn.f16x2.e4m3x2 h, p; mov.b32 {lo, hi}, h;"
        " cvt.f32.f16 $0, lo; }"
    )
    return Float32(_asm(T.f32(), [_i(byte, loc, ip)], text, "=f,r"))
