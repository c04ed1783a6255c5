"""One-instruction IEEE float32 and bit helpers, each pinned in inline PTX.

The contract (SPEC.md) rounds every float32 operation on its own with
round-to-nearest-even, keeps subnormals, uses NaN-dropping min/max and never
fuses a multiply into an add. Left to itself, the compiler may contract
``a * b + c`` into ``fma.rn.f32`` or pick other forms, so every arithmetic step
of the kernels goes through one of these ``llvm.inline_asm`` wrappers, whose PTX
instruction is fixed. No helper uses ``.ftz`` or an approximate instruction.

The helpers are pure (``has_side_effects=False``): LLVM may still schedule and
deduplicate them, but it cannot change their rounding. ``_asm`` and the operand
helpers below are the plumbing that ``e2m1``, ``choice`` and ``memory`` share.
"""

from __future__ import annotations

import struct

from cutlass import Float32, Int32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op


def _asm(result_type, operands, text: str, constraints: str, side_effects: bool = False):
    """One ``llvm.inline_asm`` of PTX ``text`` (``$n``: operands, results first)."""
    return llvm.inline_asm(
        result_type,
        operands,
        text,
        constraints,
        has_side_effects=side_effects,
        is_align_stack=False,
        asm_dialect=llvm.AsmDialect.AD_ATT,
    )


def _f32_pair(text: str, word, loc, ip) -> tuple[Float32, Float32]:
    """Run ``text`` with one 32-bit input (``$2``) and two float32 outputs (``$0``, ``$1``)."""
    pair = llvm.StructType.get_literal([T.f32(), T.f32()])
    res = _asm(pair, [_i(word, loc, ip)], text, "=f,=f,r")
    first = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    second = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return first, second


def _f(v, loc, ip):
    """``v`` as a float32 IR operand."""
    return Float32(v).ir_value(loc=loc, ip=ip)


def _i(v, loc, ip):
    """``v`` as a 32-bit integer IR operand."""
    return Int32(v).ir_value(loc=loc, ip=ip)


def _f32_hex(v: float) -> str:
    """PTX hex digits of the float32 ``v`` (for ``0f...`` literals)."""
    return struct.pack(">f", v).hex().upper()


def _binary_f32(op: str, a, b, loc, ip) -> Float32:
    """``op $0, a, b`` on two float32 operands."""
    text = f"{op} $0, $1, $2;"
    return Float32(_asm(T.f32(), [_f(a, loc, ip), _f(b, loc, ip)], text, "=f,f,f"))


@dsl_user_op
def div_rn(a, b, *, loc=None, ip=None) -> Float32:
    """``div.rn.f32``: IEEE division, correctly rounded to nearest-even.

    Pins SPEC's ``RN(a / b)``: never ``div.approx``/``div.full`` and never a
    reciprocal multiply (which is off by one ulp on some inputs); subnormal
    inputs and results are kept (no ``.ftz``).
    """
    return _binary_f32("div.rn.f32", a, b, loc, ip)


@dsl_user_op
def mul_rn(a, b, *, loc=None, ip=None) -> Float32:
    """``mul.rn.f32``: one rounded multiply.

    The explicit ``.rn`` forbids contracting the product into a following
    add (``fma``), which would skip the product's own rounding.
    """
    return _binary_f32("mul.rn.f32", a, b, loc, ip)


@dsl_user_op
def add_rn(a, b, *, loc=None, ip=None) -> Float32:
    """``add.rn.f32``: one rounded add that no multiply may be fused into."""
    return _binary_f32("add.rn.f32", a, b, loc, ip)


@dsl_user_op
def sub_rn(a, b, *, loc=None, ip=None) -> Float32:
    """``sub.rn.f32``: one rounded subtract that no multiply may be fused into."""
    return _binary_f32("sub.rn.f32", a, b, loc, ip)


@dsl_user_op
def fmin(a, b, *, loc=None, ip=None) -> Float32:
    """``min.f32``: IEEE minNum, NaN-dropping (``min(NaN, y) = y``), subnormals kept.

    SPEC's ``min`` (caps at 448 and FLT_MAX): a NaN operand yields the other one,
    which is how a NaN global amax gives ``s = FLT_MAX``.
    """
    return _binary_f32("min.f32", a, b, loc, ip)


@dsl_user_op
def fmax(a, b, *, loc=None, ip=None) -> Float32:
    """``max.f32``: IEEE maxNum, NaN-dropping (``max(NaN, y) = y``), subnormals kept.

    SPEC's block amax ignores NaN elements; ``max.NaN.f32`` would propagate them.
    """
    return _binary_f32("max.f32", a, b, loc, ip)


@dsl_user_op
def abs_f32(a, *, loc=None, ip=None) -> Float32:
    """``abs.f32`` without ``.ftz``: clears the sign bit, keeps subnormals and NaN."""
    return Float32(_asm(T.f32(), [_f(a, loc, ip)], "abs.f32 $0, $1;", "=f,f"))


@dsl_user_op
def less_mask(a, b, *, loc=None, ip=None) -> Int32:
    """``set.lt.u32.f32``: all ones if ``a < b`` (ordered: false when either is NaN), else 0.

    SPEC step 8 picks map-to-4 only when ``err4 < err6``; ties and NaN pick map-to-6.
    """
    text = "set.lt.u32.f32 $0, $1, $2;"
    return Int32(_asm(T.i32(), [_f(a, loc, ip), _f(b, loc, ip)], text, "=r,f,f"))


@dsl_user_op
def equal_mask(a, b, *, loc=None, ip=None) -> Int32:
    """``set.eq.u32.f32``: all ones if ``a == b`` (ordered: false when either is NaN), else 0."""
    text = "set.eq.u32.f32 $0, $1, $2;"
    return Int32(_asm(T.i32(), [_f(a, loc, ip), _f(b, loc, ip)], text, "=r,f,f"))


@dsl_user_op
def pick_f32(mask, a, b, *, loc=None, ip=None) -> Float32:
    """``a`` where the Int32 ``mask`` is nonzero, else ``b`` (``selp.f32``; no arithmetic)."""
    text = "{ .reg .pred p; setp.ne.u32 p, $1, 0; selp.f32 $0, $2, $3, p; }"
    ops = [_i(mask, loc, ip), _f(a, loc, ip), _f(b, loc, ip)]
    return Float32(_asm(T.f32(), ops, text, "=f,r,f,f"))


@dsl_user_op
def select_bits(mask, a, b, *, loc=None, ip=None) -> Int32:
    """``(a & mask) | (b & ~mask)`` in one ``lop3``."""
    text = "lop3.b32 $0, $1, $2, $3, 0xCA;"
    return Int32(_asm(T.i32(), [_i(v, loc, ip) for v in (mask, a, b)], text, "=r,r,r,r"))


@dsl_user_op
def as_f32(w, *, loc=None, ip=None) -> Float32:
    """The float32 whose bits are ``w``."""
    return Float32(_asm(T.f32(), [_i(w, loc, ip)], "mov.b32 $0, $1;", "=f,r"))


@dsl_user_op
def f32_bits(v, *, loc=None, ip=None) -> Int32:
    """The bit pattern of the float32 ``v``."""
    return Int32(_asm(T.i32(), [_f(v, loc, ip)], "mov.b32 $0, $1;", "=r,f"))


@dsl_user_op
def high_byte16(pair, *, loc=None, ip=None) -> Int32:
    """Bits 15..8 of ``pair`` as a byte (``prmt``: one instruction, upper bytes zero)."""
    text = "prmt.b32 $0, $1, 0, 0x4441;"
    return Int32(_asm(T.i32(), [_i(pair, loc, ip)], text, "=r,r"))


@dsl_user_op
def halves_of(a, b, high, *, loc=None, ip=None) -> Int32:
    """The low (``high`` 0) or high (``high`` 1) 16-bit halves of ``a`` and ``b`` in one
    word, ``a``'s half low (``prmt`` selector 0x5410 or 0x7632; ``high`` may be a
    run-time value)."""
    text = "prmt.b32 $0, $1, $2, $3;"
    selector = 0x5410 + 0x2222 * high
    ops = [_i(a, loc, ip), _i(b, loc, ip), _i(selector, loc, ip)]
    return Int32(_asm(T.i32(), ops, text, "=r,r,r,r"))


@dsl_user_op
def unpack_bf16x2(w, *, loc=None, ip=None) -> tuple[Float32, Float32]:
    """Exact float32 values of the two bfloat16 in ``w`` (low half first): bit moves only."""
    text = (
        "{ .reg .b32 l, h; shl.b32 l, $2, 16; and.b32 h, $2, 0xFFFF0000;"
        " mov.b32 $0, l; mov.b32 $1, h; }"
    )
    return _f32_pair(text, w, loc, ip)


@dsl_user_op
def unpack_f16x2(w, *, loc=None, ip=None) -> tuple[Float32, Float32]:
    """Exact float32 values of the two float16 in ``w`` (low half first): ``cvt.f32.f16``."""
    text = "{ .reg .b16 l, h; mov.b32 {l, h}, $2; cvt.f32.f16 $0, l; cvt.f32.f16 $1, h; }"
    return _f32_pair(text, w, loc, ip)


@dsl_user_op
def max_abs_16x2(a, b, kind: str, *, loc=None, ip=None) -> Int32:
    """Per 16-bit half ``max(|a|, |b|)`` of ``kind`` ("bf16x2" | "f16x2") words; signs garbage.

    ``max.xorsign.abs`` compares magnitudes and sets the result's sign to the
    XOR of the inputs' signs; chained, it keeps the running magnitude max, and
    the caller clears the signs. Exact for NaN-free inputs (a NaN element
    flags its group for the exact path, which takes SPEC's max again).
    """
    text = f"max.xorsign.abs.{kind} $0, $1, $2;"
    return Int32(_asm(T.i32(), [_i(a, loc, ip), _i(b, loc, ip)], text, "=r,r,r"))


@dsl_user_op
def cvt_e4m3x2(hi, lo, *, loc=None, ip=None) -> Int32:
    """``cvt.rn.satfinite.e4m3x2.f32``: two float32 to E4M3, nearest-even, saturating.

    Returns the 16-bit pair in an Int32: ``hi``'s byte in bits 15..8 and
    ``lo``'s in bits 7..0 (in PTX the FIRST source goes to the UPPER byte, so
    ``hi`` is passed first); bits 31..16 are zero (a ``mov`` from a zero half,
    so ptxas needs no mask). ``.satfinite`` clamps finite overflow to +-448,
    so ``cvt(min(c, 448)) = cvt(c)`` for every ``c >= 0`` but NaN; on [0, 448]
    this matches torch's ``float8_e4m3fn`` cast bit for bit.
    """
    text = (
        "{ .reg .b16 t, z; cvt.rn.satfinite.e4m3x2.f32 t, $1, $2; mov.b16 z, 0;"
        " mov.b32 $0, {t, z}; }"
    )
    return Int32(_asm(T.i32(), [_f(hi, loc, ip), _f(lo, loc, ip)], text, "=r,f,f"))


@dsl_user_op
def e4m3x2_to_f32(pair, *, loc=None, ip=None) -> tuple[Float32, Float32]:
    """Exact float32 values of an E4M3 pair: ``cvt.rn.f16x2.e4m3x2`` then ``cvt.f32.f16``.

    Every E4M3 value (subnormals included) is exact in float16 and float32, so
    the decode is exact. Takes ``cvt_e4m3x2``'s result; returns
    ``(value of bits 15..8, value of bits 7..0)``.
    """
    text = (
        "{ .reg .b16 p, lo, hi; .reg .b32 h;"
        " cvt.u16.u32 p, $2; cvt.rn.f16x2.e4m3x2 h, p; mov.b32 {lo, hi}, h;"
        " cvt.f32.f16 $0, hi; cvt.f32.f16 $1, lo; }"
    )
    return _f32_pair(text, pair, loc, ip)


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
def e4m3_to_f32(byte, *, loc=None, ip=None) -> Float32:
    """Exact float32 value of one E4M3 byte (bits 7..0 of ``byte``): via ``cvt.rn.f16x2.e4m3x2``."""
    text = (
        "{ .reg .b16 p, lo, hi; .reg .b32 h;"
        " cvt.u16.u32 p, $1; cvt.rn.f16x2.e4m3x2 h, p; mov.b32 {lo, hi}, h;"
        " cvt.f32.f16 $0, lo; }"
    )
    return Float32(_asm(T.f32(), [_i(byte, loc, ip)], text, "=f,r"))
