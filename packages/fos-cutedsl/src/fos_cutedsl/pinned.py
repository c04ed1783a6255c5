"""Pinned PTX helpers: each float operation the quantizer relies on, spelled out.

The contract (SPEC.md) rounds every float32 operation on its own with
round-to-nearest-even, keeps subnormals, uses NaN-dropping min/max and never
fuses a multiply into an add. Left to itself, the compiler may contract
``a * b + c`` into ``fma.rn.f32`` or pick other forms, so every arithmetic step
of the kernel goes through one of these ``llvm.inline_asm`` wrappers, whose PTX
instruction is fixed. No helper uses ``.ftz`` or an approximate instruction.

All helpers are pure (``has_side_effects=False``) so LLVM may still schedule
and deduplicate them; it cannot change their rounding.
"""

from __future__ import annotations

from cutlass import Float32, Int32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op


def _asm(result_type, operands, text: str, constraints: str):
    return llvm.inline_asm(
        result_type,
        operands,
        text,
        constraints,
        has_side_effects=False,
        is_align_stack=False,
        asm_dialect=llvm.AsmDialect.AD_ATT,
    )


def _pair_type():
    return llvm.StructType.get_literal([T.f32(), T.f32()])


def _f(v, loc, ip):
    return Float32(v).ir_value(loc=loc, ip=ip)


def _i(v, loc, ip):
    return Int32(v).ir_value(loc=loc, ip=ip)


def _binary_f32(op: str, a, b, loc, ip) -> Float32:
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
def global_scale(gamax, d, *, loc=None, ip=None) -> Float32:
    """SPEC step 1 in one block: ``s = min(RN(d / gamax), FLT_MAX)``, then 1 if gamax or s is 0.

    ``div.rn.f32`` (exact IEEE division), ``min.f32`` (NaN-dropping: a NaN
    gamax gives FLT_MAX) and ``setp.eq.f32`` without ``.ftz`` (a subnormal
    gamax is not zero; -0 is).
    """
    text = (
        "{ .reg .f32 s; .reg .pred p, q;"
        " div.rn.f32 s, $2, $1; min.f32 s, s, 0f7F7FFFFF;"
        " setp.eq.f32 p, $1, 0f00000000; setp.eq.f32 q, s, 0f00000000; or.pred p, p, q;"
        " selp.f32 $0, 0f3F800000, s, p; }"
    )
    return Float32(_asm(T.f32(), [_f(gamax, loc, ip), _f(d, loc, ip)], text, "=f,f,f"))


@dsl_user_op
def less_mask(a, b, *, loc=None, ip=None) -> Int32:
    """``set.lt.u32.f32``: all ones if ``a < b`` (ordered: false when either is NaN), else 0.

    SPEC step 8 picks map-to-4 only when ``err4 < err6``; ties and NaN pick map-to-6.
    """
    text = "set.lt.u32.f32 $0, $1, $2;"
    return Int32(_asm(T.i32(), [_f(a, loc, ip), _f(b, loc, ip)], text, "=r,f,f"))


@dsl_user_op
def e2m1_encode_sw(q, *, loc=None, ip=None) -> Int32:
    """Software E2M1 encode of one float32 (SM90 has no FP4 conversion), SPEC step 5.

    ``m = |q|`` (``abs.f32``, subnormals kept); the code counts the thresholds
    ``m`` passes, each tested with an *unordered* compare (``gtu``/``geu``, i.e.
    ``!(m <= t)`` / ``!(m < t)``) so a NaN passes all seven and gives 7 (+6).
    Strict ``>`` at 0.25, 1.25, 2.5, 5 and ``>=`` at 0.75, 1.75, 3.5 is
    round-to-nearest-even on the E2M1 grid, saturating at 6. Bit 3 is ``q``'s
    sign bit, cleared for NaN. Returns the code in 0..15.
    """
    steps = (
        ("gtu", "0f3E800000"),  # 0.25 -> 0
        ("geu", "0f3F400000"),  # 0.75 -> 1.0
        ("gtu", "0f3FA00000"),  # 1.25 -> 1.0
        ("geu", "0f3FE00000"),  # 1.75 -> 2.0
        ("gtu", "0f40200000"),  # 2.5  -> 2.0
        ("geu", "0f40600000"),  # 3.5  -> 4.0
        ("gtu", "0f40A00000"),  # 5.0  -> 4.0
    )
    body = "".join(f" set.{cmp}.u32.f32 t, m, {lit}; sub.u32 c, c, t;" for cmp, lit in steps)
    text = (
        "{ .reg .f32 m; .reg .u32 c, t, s; .reg .pred p;"
        " abs.f32 m, $1; mov.u32 c, 0;" + body + " setp.num.f32 p, $1, $1;"
        " mov.b32 s, $1; shr.u32 s, s, 31; selp.u32 s, s, 0, p; shl.b32 s, s, 3;"
        " or.b32 $0, c, s; }"
    )
    return Int32(_asm(T.i32(), [_f(q, loc, ip)], text, "=r,f"))


@dsl_user_op
def e2m1_decode_sw(code, *, loc=None, ip=None) -> Float32:
    """Exact float32 value of an E2M1 code (0..15) built from bits, no arithmetic.

    Magnitude code ``c``: ``c >= 2`` gives the float32 bits ``(c + 252) << 22``
    (1, 1.5, 2, 3, 4, 6), ``c == 1`` gives 0.5, ``c == 0`` gives 0; bit 3 of
    the code becomes the float sign bit (0x8 decodes to -0.0).
    """
    text = (
        "{ .reg .u32 c, b, s; .reg .pred p;"
        " and.b32 c, $1, 7; add.u32 b, c, 252; shl.b32 b, b, 22;"
        " setp.eq.u32 p, c, 1; selp.b32 b, 0x3F000000, b, p;"
        " setp.eq.u32 p, c, 0; selp.b32 b, 0, b, p;"
        " and.b32 s, $1, 8; shl.b32 s, s, 28; or.b32 b, b, s; mov.b32 $0, b; }"
    )
    return Float32(_asm(T.f32(), [_i(code, loc, ip)], text, "=f,r"))


@dsl_user_op
def cvt_e4m3x2(hi, lo, *, loc=None, ip=None) -> Int32:
    """``cvt.rn.satfinite.e4m3x2.f32``: two float32 to E4M3, nearest-even, saturating.

    Returns the 16-bit pair in an Int32: ``hi``'s byte in bits 15..8 and
    ``lo``'s in bits 7..0 (in PTX the FIRST source goes to the UPPER byte, so
    ``hi`` is passed first). ``.satfinite`` clamps finite overflow to +-448;
    SPEC only converts values already capped to [0, 448], where this
    matches torch's ``float8_e4m3fn`` cast bit for bit.
    """
    text = "{ .reg .b16 t; cvt.rn.satfinite.e4m3x2.f32 t, $1, $2; cvt.u32.u16 $0, t; }"
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
    res = _asm(_pair_type(), [_i(pair, loc, ip)], text, "=f,=f,r")
    hi = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    lo = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return hi, lo


@dsl_user_op
def cvt_e2m1x8(q0, q1, q2, q3, q4, q5, q6, q7, *, loc=None, ip=None) -> Int32:
    """SM100 only: ``cvt.rn.satfinite.e2m1x2.f32`` on four pairs, packed into 32 bits.

    Element ``i`` lands in nibble ``i`` (element 2j low, 2j+1 high in byte j):
    the FIRST source goes to the UPPER nibble, so each pair is passed as
    ``(q[2j+1], q[2j])``. Round-to-nearest-even, saturating to +-6; the sign
    of a result rounded to zero is kept (-0 gives 0x8). Per the PTX ISA, a NaN
    source gives +MAX_NORM (0x7) with ``.satfinite``, as SPEC requires.
    ptxas rejects this instruction for sm_90a.
    """
    text = (
        "{ .reg .b8 b0, b1, b2, b3;"
        " cvt.rn.satfinite.e2m1x2.f32 b0, $2, $1;"
        " cvt.rn.satfinite.e2m1x2.f32 b1, $4, $3;"
        " cvt.rn.satfinite.e2m1x2.f32 b2, $6, $5;"
        " cvt.rn.satfinite.e2m1x2.f32 b3, $8, $7;"
        " mov.b32 $0, {b0, b1, b2, b3}; }"
    )
    ops = [_f(q, loc, ip) for q in (q0, q1, q2, q3, q4, q5, q6, q7)]
    return Int32(_asm(T.i32(), ops, text, "=r," + ",".join(["f"] * 8)))


@dsl_user_op
def e2m1x2_to_f32(word, byte: int, *, loc=None, ip=None) -> tuple[Float32, Float32]:
    """SM100 only: exact values of the two E2M1 codes in byte ``byte`` of ``word``.

    ``cvt.rn.f16x2.e2m1x2`` (upper nibble to the upper half) then ``cvt.f32.f16``;
    every E2M1 value is exact in float16. Returns ``(low nibble, high nibble)``.
    """
    regs = ["b0", "b1", "b2", "b3"]
    text = (
        "{ .reg .b8 b0, b1, b2, b3; .reg .b16 lo, hi; .reg .b32 h;"
        f" mov.b32 {{b0, b1, b2, b3}}, $2; cvt.rn.f16x2.e2m1x2 h, {regs[byte]};"
        " mov.b32 {lo, hi}, h; cvt.f32.f16 $0, lo; cvt.f32.f16 $1, hi; }"
    )
    res = _asm(_pair_type(), [_i(word, loc, ip)], text, "=f,=f,r")
    lo = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    hi = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return lo, hi
