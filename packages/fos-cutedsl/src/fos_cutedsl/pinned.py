"""Pinned PTX helpers: each float operation the quantizer relies on, spelled out.

The contract (SPEC.md) rounds every float32 operation on its own with
round-to-nearest-even, keeps subnormals, uses NaN-dropping min/max and never
fuses a multiply into an add. Left to itself, the compiler may contract
``a * b + c`` into ``fma.rn.f32`` or pick other forms, so every arithmetic step
of the kernel goes through one of these ``llvm.inline_asm`` wrappers, whose PTX
instruction is fixed. No helper uses ``.ftz`` or an approximate instruction.

The arithmetic helpers are pure (``has_side_effects=False``) so LLVM may still
schedule and deduplicate them; it cannot change their rounding. The memory ones
(``reload_v4``, the prefetches, ``store_if``) have side effects.
"""

from __future__ import annotations

import math
import struct

from cutlass import Float32, Int32, Int64
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op


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


def _f32_pair(text: str, word, loc, ip) -> tuple[Float32, Float32]:
    """Run ``text`` with one 32-bit input (``$2``) and two float32 outputs (``$0``, ``$1``)."""
    pair = llvm.StructType.get_literal([T.f32(), T.f32()])
    res = _asm(pair, [_i(word, loc, ip)], text, "=f,=f,r")
    first = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    second = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return first, second


def _f(v, loc, ip):
    return Float32(v).ir_value(loc=loc, ip=ip)


def _i(v, loc, ip):
    return Int32(v).ir_value(loc=loc, ip=ip)


def _f32_bits(v: float) -> str:
    """PTX hex digits of the float32 ``v`` (for ``0f...`` literals)."""
    return struct.pack(">f", v).hex().upper()


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
def e2m1_round_sw(q, *, loc=None, ip=None) -> tuple[Int32, Float32]:
    """Software E2M1 rounding of one float32 (SM90 has no FP4 conversion), SPEC step 5.

    Returns ``(code, value)``: the code in 0..15 and its exact float32 value.
    With ``m = |q|`` (``abs.f32``, subnormals kept) the E2M1 grid has step 0.5
    below 2, 1 in [2, 4) and 2 from 4 on, so with ``k`` = 2, 1, 0.5 and offset
    ``o`` = 0, 2, 4 per segment, ``code = o + rint(min(m * k, cap))``: ``m * k``
    is exact (a power of two), ``cap`` (3 in the top segment) saturates at 6,
    and ``rint`` is ``RN(y + 2^23)`` (``add.rn.f32``: ties to even, so
    0.25->0, 0.75->1, 1.25->1, 1.75->2, 2.5->2, 3.5->4, 5->4). NaN fails both
    ordered segment tests and the NaN-dropping ``min.f32`` turns it into the
    cap: code 7 (+6). The value is ``rint / k`` (exact). Bit 3 of the code and
    the value's sign are ``q``'s sign bit, cleared for NaN.
    """
    text = (
        "{ .reg .f32 m, k, kinv, cap, y, r, v; .reg .b32 c, o, kb, s, vb;"
        " .reg .pred lt2, lt4, num;"
        " abs.f32 m, $2;"
        " setp.lt.f32 lt2, m, 0f40000000; setp.lt.f32 lt4, m, 0f40800000;"
        " selp.f32 k, 0f3F800000, 0f3F000000, lt4; selp.f32 k, 0f40000000, k, lt2;"
        " selp.b32 o, 2, 4, lt4; selp.b32 o, 0, o, lt2;"
        " selp.f32 cap, 0f40800000, 0f40400000, lt4;"
        " mul.rn.f32 y, m, k; min.f32 y, y, cap; add.rn.f32 y, y, 0f4B000000;"
        " mov.b32 c, y; and.b32 c, c, 7; add.u32 c, c, o;"
        " sub.rn.f32 r, y, 0f4B000000;"
        " mov.b32 kb, k; sub.u32 kb, 0x7F000000, kb; mov.b32 kinv, kb; mul.rn.f32 v, r, kinv;"
        " mov.b32 s, $2; and.b32 s, s, 0x80000000; setp.num.f32 num, $2, $2;"
        " selp.b32 s, s, 0, num;"
        " mov.b32 vb, v; or.b32 vb, vb, s; mov.b32 $1, vb;"
        " shr.u32 s, s, 28; or.b32 $0, c, s; }"
    )
    res = _asm(llvm.StructType.get_literal([T.i32(), T.f32()]), [_f(q, loc, ip)], text, "=r,=f,f")
    code = Int32(llvm.extractvalue(T.i32(), res, [0], loc=loc, ip=ip))
    value = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return code, value


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
    return _f32_pair(text, word, loc, ip)


# ---- The fast path's exact shortcuts (proofs: tests/cutedsl/fast_model.py and
# ---- test_fast_algebra.py; the rounding is checked on every non-negative float32).

# Marks the one fma whose product is not a power of two but whose sum is exact
# (``grid_value``); ``check`` allows exactly this shape besides the magic ones.
EXACT_FMA_TAG = "// fos: exact-sum fma"


@dsl_user_op
def e2m1_round_magic(m, low: float = 2.0, *, loc=None, ip=None) -> Float32:
    """E2M1 magnitude of ``0 <= m < 7`` (round-to-nearest-even) by a magic subtract.

    ``C = max(m, 2) * 2^22``, ``t = RN(m - C)``, ``r = t + C``: ``|m - C|`` lies
    in the binade whose ulp is the E2M1 spacing at ``m`` (0.5 below 2, 1 below
    4, 2 above) and ``C`` is an even multiple of it wherever ``m`` is a tie, so
    ``r`` is ``m`` rounded to the grid with ties to even (just above 2 and 4 the
    difference drops into a finer binade, harmlessly: ``m`` is within 2 ulps of
    its grid point there). Both ``fma.rn.f32`` are pinned on purpose: their
    products ``M * (+-2^22)`` are exact, so each rounds once, like the add it
    stands for. One ``max`` and no bit masks; no saturation: below 7 the
    result is at most 6 (the caller checks the group's largest ``m``); a NaN
    stays NaN. ``low`` = 2 * s rounds ``m * s`` for a power of two ``s``
    (``CODE_SCALE``): the same steps scaled, exact while ``m * s`` is normal.
    """
    text = (
        f"{{ .reg .f32 c, t; max.f32 c, $1, 0f{_f32_bits(low)};"
        " fma.rn.f32 t, c, 0fCA800000, $1; fma.rn.f32 $0, c, 0f4A800000, t; }"
    )
    return Float32(_asm(T.f32(), [_f(m, loc, ip)], text, "=f,f"))


@dsl_user_op
def grid_value(r, k, j, *, loc=None, ip=None) -> Float32:
    """SPEC's ``RN(RN(RN(r * f) * gamax) / D)`` for an on-grid magnitude ``r``, in 3 ops.

    ``r = 2^e`` or ``1.5 * 2^e`` and the value is ``2^e * W1`` or ``2^e * W15``
    (powers of two scale exactly while nothing is subnormal or overflows,
    which ``grid_constants`` checks). With ``K = 2 (W15 - W1)`` and
    ``J = W1 - K`` both are the exact sum ``r K + 2^e J``: one ``fma`` (exact
    product, one rounding of a representable sum, so no rounding at all).
    ``2^e`` is ``r``'s exponent bits (0 for r = 0); ``2^e J`` is exact because
    ``J`` is a multiple of 2^-148 when ``W1 >= 2^-124``.
    """
    text = (
        "{ .reg .b32 b; .reg .f32 p, pj; mov.b32 b, $1; and.b32 b, b, 0x7F800000;"
        f" mov.b32 p, b; mul.rn.f32 pj, p, $3; fma.rn.f32 $0, $1, $2, pj; {EXACT_FMA_TAG}\n }}"
    )
    ops = [_f(r, loc, ip), _f(k, loc, ip), _f(j, loc, ip)]
    return Float32(_asm(T.f32(), ops, text, "=f,f,f,f"))


# D = d * 2^k: RN(1/d), -d and 2^-k as float32 bit patterns, and D * 2^-124.
_DIVISORS = {
    1536.0: ("0f3EAAAAAB", "0fC0400000", "0f3B000000", "0f06C00000"),  # 3 * 2^9
    2688.0: ("0f3D430C31", "0fC1A80000", "0f3C000000", "0f07280000"),  # 21 * 2^7
}
DIV_D_FMA_TAG = "// fos: div-d fma"


def _div_d_ptx(dst: str, src: str, d: float, tmp: str) -> str:
    """PTX for ``dst = RN(src / D)`` when ``src >= D * 2^-124``, without a division.

    ``y = src * 2^-k`` (exact there), ``w = RN(y c)``, ``rho = fma(-d, w, y)``
    (exact), ``dst = fma(rho, c, w)`` with ``c = RN(1/d)``; checked against
    ``div.rn`` on every such float32 (``fast_model.div_d``).
    """
    c, minus_d, scale, _ = _DIVISORS[d]
    return (
        f" mul.rn.f32 {tmp}y, {src}, {scale}; mul.rn.f32 {tmp}w, {tmp}y, {c};"
        f" fma.rn.f32 {tmp}r, {tmp}w, {minus_d}, {tmp}y; {DIV_D_FMA_TAG}\n"
        f" fma.rn.f32 {dst}, {tmp}r, {c}, {tmp}w; {DIV_D_FMA_TAG}\n"
    )


def _grid_ok_ptx(d: float, f: str, g: str) -> str:
    """PTX setting predicate ``lo`` from ``p = RN(f g)`` and ``q = RN(RN(1.5 f) g)``.

    True when ``p >= D 2^-124`` and ``q <= 2^124``, or ``f == 0`` with a finite
    gamax; ``f`` and ``g`` name the operands holding f and gamax.
    """
    low = _DIVISORS[d][3]
    return (
        f" setp.ge.f32 lo, p, {low}; setp.le.f32 hi, q, 0f7D800000; and.pred lo, lo, hi;"
        f" abs.f32 ag, {g}; setp.lt.f32 fin, ag, 0f7F800000; setp.eq.f32 z, {f}, 0f00000000;"
        " and.pred z, z, fin; or.pred lo, lo, z;"
    )


@dsl_user_op
def grid_constants(f, gamax, d: float, *, loc=None, ip=None) -> tuple[Float32, Float32, Int32]:
    """Per-candidate slope constants ``K``, ``J`` of ``grid_value`` and a fast-ok flag.

    ``W1 = RN(RN(f g) / D)``, ``W15 = RN(RN(RN(1.5 f) g) / D)``, ``K = 2 (W15 - W1)``,
    ``J = W1 - K``. The flag is 1 when ``RN(f g) >= D 2^-124`` (so ``W1 >= 2^-124``:
    every value, ``2^e J`` and ``W1 / 2`` normal or exact, and the division by
    the constant ``D`` exact without ``div.rn``) and ``RN(1.5 f g) <= 2^124``
    (``6 f g`` finite), or when ``f == 0`` with a finite gamax (every value is
    0). Then ``W15 / W1`` is 1.5 within a few ulps, so ``W15 - W1`` and
    ``W1 - K`` are exact (Sterbenz) and so is ``2 (W15 - W1)``. ``d`` is D as
    a Python float (1536 or 2688).
    """
    text = (
        "{ .reg .f32 p, q, w1, w15, k, ag, ay, aw, ar, by, bw, br; .reg .pred lo, hi, z, fin;"
        " mul.rn.f32 p, $3, $4;"
        + _div_d_ptx("w1", "p", d, "a")
        + " mul.rn.f32 q, $3, 0f3FC00000; mul.rn.f32 q, q, $4;"
        + _div_d_ptx("w15", "q", d, "b")
        + " sub.rn.f32 k, w15, w1; mul.rn.f32 k, k, 0f40000000; sub.rn.f32 $1, w1, k;"
        " mov.f32 $0, k;" + _grid_ok_ptx(d, "$3", "$4") + " selp.u32 $2, 1, 0, lo; }"
    )
    res = _asm(
        llvm.StructType.get_literal([T.f32(), T.f32(), T.i32()]),
        [_f(f, loc, ip), _f(gamax, loc, ip)],
        text,
        "=f,=f,=r,f,f",
    )
    k = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    j = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    ok = Int32(llvm.extractvalue(T.i32(), res, [2], loc=loc, ip=ip))
    return k, j, ok


@dsl_user_op
def grid_ok(f, gamax, d: float, *, loc=None, ip=None) -> Int32:
    """``grid_constants``' fast-ok flag alone (1 or 0), without computing ``K`` and ``J``."""
    text = (
        "{ .reg .f32 p, q, ag; .reg .pred lo, hi, z, fin; .reg .b32 u;"
        " mul.rn.f32 p, $1, $2; mul.rn.f32 q, $1, 0f3FC00000; mul.rn.f32 q, q, $2;"
        + _grid_ok_ptx(d, "$1", "$2")
        + " selp.u32 $0, 1, 0, lo; }"
    )
    return Int32(_asm(T.i32(), [_f(f, loc, ip), _f(gamax, loc, ip)], text, "=r,f,f"))


# The bounded choice (``choose_by_bound``): relative and absolute margins.
# Marks choose_by_bound's threshold fma (a bound with slack; ``check`` allows this shape).
BOUND_FMA_TAG = "// fos: bound fma"
CHOICE_RELATIVE = 2.0**-16
CHOICE_ABSOLUTE = {"mae": 2.0**-13, "mse": 2.0**-12}  # per 1x16 group, in m-units


@dsl_user_op
def choice_margin(gamax, d: float, absolute: float, *, loc=None, ip=None) -> Float32:
    """``absolute`` where ``choose_by_bound``'s error model holds for this gamax, else NaN.

    The model needs ``s = RN(D / g)`` and ``s_dec = RN(1 / s)`` normal and
    uncapped: ``D 2^-126 <= g <= FLT_MAX`` (a NaN, zero or negative gamax fails).
    """
    lo = f"0f{_f32_bits(d * 2.0**-126)}"
    text = (
        "{ .reg .pred a, b;"
        f" setp.ge.f32 a, $1, {lo}; setp.le.f32 b, $1, 0f7F7FFFFF; and.pred a, a, b;"
        f" selp.f32 $0, 0f{_f32_bits(absolute)}, 0f7FFFFFFF, a; }}"
    )
    return Float32(_asm(T.f32(), [_f(gamax, loc, ip)], text, "=f,f"))


@dsl_user_op
def bound_scale(y, square: bool, *, loc=None, ip=None) -> Float32:
    """``y`` (mae) or ``RN(y y)`` (mse) for ``choose_by_bound``; NaN unless ``y > 0``.

    ``y = RN(f s_dec)``; a zero scale (``f = 0``, capped ``inv``) is outside the
    error model, so its NaN makes the choice undecided.
    """
    sq = " mul.rn.f32 v, v, v;" if square else ""
    text = (
        "{ .reg .f32 v; .reg .pred p; mov.f32 v, $1;" + sq + " setp.gt.f32 p, $1, 0f00000000;"
        " selp.f32 $0, v, 0f7FFFFFFF, p; }"
    )
    return Float32(_asm(T.f32(), [_f(y, loc, ip)], text, "=f,f"))


@dsl_user_op
def choose_by_bound(p4, p6, y4, y6, margin, *, loc=None, ip=None) -> tuple[Int32, Int32]:
    """SPEC step 8's choice from approximate errors where a bound decides it: (pick4 mask, decided).

    ``p_k = RN(e_k y_k)`` with ``e_k`` the float32 sum of ``|RN(r_i - m_i)|``
    (mae; ``RN(d d)`` for mse) in the candidate's own units ``m = RN(|x| inv)``.
    Since ``inv y = 1`` and ``f g inv / D = 1`` within a few ulps (``s``,
    ``s_dec``, ``y``, ``inv`` normal: ``choice_margin``, ``bound_scale`` and the
    fast-ok flag), ``inv |V_i - |x_i|| = |r_i - m_i| + eps_i`` with
    ``|eps_i| <= 7u r_i + u m_i <= 50u`` (``u = 2^-24``; ``r <= 6``, ``m < 7``),
    so SPEC's error is ``p_k (1 +- 44u) +- 1.02 * 16 * 50u * y_k`` (mse:
    ``16 * 2 * 50u`` since ``|r - m| <= 1``; a 16x16 tile 16 times that). The
    choice is decided when ``|p6 - p4| > 2^-16 (p4 + p6) + margin (y4 + y6)``,
    with ``margin`` about 2.5 times the absolute bound, and is then SPEC's:
    ``pick4`` exactly when ``p6 - p4`` exceeds it. NaN or Inf anywhere leaves it
    undecided. ``tests/cutedsl/test_fast_algebra.py`` checks the decided
    choices against SPEC's on near-tie groups.
    """
    text = (
        "{ .reg .f32 s, dl, yy, m, nm; .reg .pred a, b;"
        " add.rn.f32 s, $2, $3; sub.rn.f32 dl, $3, $2; add.rn.f32 yy, $4, $5;"
        " mul.rn.f32 yy, yy, $6;"
        f" fma.rn.f32 m, s, 0f{_f32_bits(CHOICE_RELATIVE)}, yy; {BOUND_FMA_TAG}\n neg.f32 nm, m;"
        " setp.gt.f32 a, dl, m; setp.lt.f32 b, dl, nm;"
        " selp.s32 $0, -1, 0, a; or.pred a, a, b; selp.u32 $1, 1, 0, a; }"
    )
    ops = [_f(v, loc, ip) for v in (p4, p6, y4, y6, margin)]
    res = _asm(llvm.StructType.get_literal([T.i32(), T.i32()]), ops, text, "=r,=r,f,f,f,f,f")
    pick4 = Int32(llvm.extractvalue(T.i32(), res, [0], loc=loc, ip=ip))
    decided = Int32(llvm.extractvalue(T.i32(), res, [1], loc=loc, ip=ip))
    return pick4, decided


DIV6_LOW = 6.0 * 2.0**-124  # div6 matches div.rn for a = 0 and every a >= this


@dsl_user_op
def div6(a, *, loc=None, ip=None) -> Float32:
    """``RN(a / 6)`` for ``a = 0`` or ``a >= 6 * 2^-124``, without ``div.rn``.

    ``w = RN(a c)``, ``rho = fma(w, -6, a)`` (exact), ``fma(rho, c, w)`` with
    ``c = RN(1/6)``: twice ``_div_d_ptx``'s division by 3 of ``y = a / 2``
    (``RN(1/6)`` is ``RN(1/3) / 2``), which matches ``div.rn`` for every
    ``y >= 3 * 2^-124`` (``fast_model.div6``). Smaller nonzero ``a`` fail
    ``fast_path_fails``.
    """
    text = (
        "{ .reg .f32 w, r; mul.rn.f32 w, $1, 0f3E2AAAAB;"
        f" fma.rn.f32 r, w, 0fC0C00000, $1; {DIV_D_FMA_TAG}\n"
        f" fma.rn.f32 $0, r, 0f3E2AAAAB, w; {DIV_D_FMA_TAG}\n }}"
    )
    return Float32(_asm(T.f32(), [_f(a, loc, ip)], text, "=f,f"))


@dsl_user_op
def fast_path_fails(a, inv6, err4, err6, limit=7.0, *, loc=None, ip=None) -> Int32:
    """1 unless ``RN(a * inv6) < 7``, both errors finite and ``div6(a)`` exact, else 0.

    The magic rounding does not saturate: below 7 every ``m_i <= RN(a * inv)``
    rounds to at most 6 (RN is monotonic). One product covers both candidates:
    ``f4 >= f6``, so ``inv4 <= inv6`` (``RN`` and ``min`` are monotonic). A NaN
    ``inv`` (or element) makes that candidate's error NaN, and
    ``0 * (err4 + err6)`` is NaN exactly when an error is NaN or Inf; added to
    the product, it makes the ordered ``setp.lt`` fail. An infinite error needs
    an infinite element or value, so the group takes the exact path then too.
    ``0 < a < 6 * 2^-124`` fails (``div6``): one unsigned compare of
    ``bits(a) - 1`` (``a >= 0``).
    """
    low = struct.unpack("<I", struct.pack("<f", DIV6_LOW))[0]
    text = (
        "{ .reg .f32 m, e; .reg .b32 ab; .reg .pred p, lo;"
        " mul.rn.f32 m, $1, $2; add.rn.f32 e, $3, $4; mul.rn.f32 e, e, 0f00000000;"
        f" add.rn.f32 m, m, e; setp.lt.f32 p, m, 0f{_f32_bits(limit)};"
        f" mov.b32 ab, $1; sub.u32 ab, ab, 1; setp.lt.u32 lo, ab, {low - 1};"
        " not.pred p, p; or.pred p, p, lo; selp.u32 $0, 1, 0, p; }"
    )
    ops = [_f(v, loc, ip) for v in (a, inv6, err4, err6)]
    return Int32(_asm(T.i32(), ops, text, "=r,f,f,f,f"))


@dsl_user_op
def pick_f32(mask, a, b, *, loc=None, ip=None) -> Float32:
    """``a`` where the Int32 ``mask`` is nonzero, else ``b`` (``selp.f32``; no arithmetic)."""
    text = "{ .reg .pred p; setp.ne.u32 p, $1, 0; selp.f32 $0, $2, $3, p; }"
    ops = [_i(mask, loc, ip), _f(a, loc, ip), _f(b, loc, ip)]
    return Float32(_asm(T.f32(), ops, text, "=f,r,f,f"))


@dsl_user_op
def grid_codes8(r, *, loc=None, ip=None) -> Int32:
    """Eight on-grid magnitudes ``r`` as one word of unsigned E2M1 codes (element j in nibble j).

    Each ``r * 2^-126`` is exact (0.5 lands on the subnormal 2^-127, 1 on the
    smallest normal) and its bit pattern is the code shifted left by 22;
    ``mad.hi``/``mad.lo`` by a power of two moves it to nibble ``j`` and adds
    it in (the nibbles are disjoint), on the multiply pipe rather than the
    logic pipe.
    """
    body = []
    for j in range(8):
        body.append(f" mul.rn.f32 t, ${j + 1}, 0f00800000; mov.b32 b, t;")
        if 4 * j + 10 < 32:
            body.append(f" mad.hi.u32 w, b, {1 << (4 * j + 10)}, w;")
        else:
            body.append(f" mad.lo.u32 w, b, {1 << (4 * j - 22)}, w;")
    text = "{ .reg .f32 t; .reg .b32 b, w; mov.b32 w, 0;" + "".join(body) + " mov.b32 $0, w; }"
    return Int32(_asm(T.i32(), [_f(v, loc, ip) for v in r], text, "=r," + ",".join(["f"] * 8)))


@dsl_user_op
def sign_nibbles16(w0, w1, w2, w3, *, loc=None, ip=None) -> Int32:
    """Signs of eight 16-bit elements (two per word, element 2k low) as 0xF / 0x0 nibbles.

    Nibble ``j`` is all ones when element ``j`` is negative. ``prmt`` gathers
    the high bytes, then its sign-replicate mode turns each into 0xFF or 0x00;
    one ``lop3`` interleaves even (low nibble) and odd (high nibble) elements.
    """
    text = (
        "{ .reg .b32 a, b, odd, even;"
        " prmt.b32 a, $1, $2, 0x7351; prmt.b32 b, $3, $4, 0x7351;"
        " prmt.b32 odd, a, b, 0xFEBA; prmt.b32 even, a, b, 0xDC98;"
        " lop3.b32 $0, odd, even, 0xF0F0F0F0, 0xE4; }"
    )
    ops = [_i(w, loc, ip) for w in (w0, w1, w2, w3)]
    return Int32(_asm(T.i32(), ops, text, "=r,r,r,r,r"))


@dsl_user_op
def sign_nibbles32(w, *, loc=None, ip=None) -> Int32:
    """Signs of eight 32-bit elements as 0xF / 0x0 nibbles (nibble ``j``: element ``j``)."""
    text = (
        "{ .reg .b32 a, b, c, e, odd, even;"
        " prmt.b32 a, $2, $4, 0x0073; prmt.b32 b, $6, $8, 0x0073;"
        " prmt.b32 c, $1, $3, 0x0073; prmt.b32 e, $5, $7, 0x0073;"
        " prmt.b32 odd, a, b, 0xDC98; prmt.b32 even, c, e, 0xDC98;"
        " lop3.b32 $0, odd, even, 0xF0F0F0F0, 0xE4; }"
    )
    ops = [_i(v, loc, ip) for v in w]
    return Int32(_asm(T.i32(), ops, text, "=r," + ",".join(["r"] * 8)))


@dsl_user_op
def with_signs(codes, signs, *, loc=None, ip=None) -> Int32:
    """``codes | (signs & 0x88888888)``: each nibble's bit 3 from its sign nibble."""
    text = "lop3.b32 $0, $1, $2, 0x88888888, 0xF8;"
    return Int32(_asm(T.i32(), [_i(codes, loc, ip), _i(signs, loc, ip)], text, "=r,r,r"))


@dsl_user_op
def select_bits(mask, a, b, *, loc=None, ip=None) -> Int32:
    """``(a & mask) | (b & ~mask)`` in one ``lop3``."""
    text = "lop3.b32 $0, $1, $2, $3, 0xCA;"
    return Int32(_asm(T.i32(), [_i(v, loc, ip) for v in (mask, a, b)], text, "=r,r,r,r"))


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
def reload_v4(addr, *, loc=None, ip=None) -> tuple[Int32, Int32, Int32, Int32]:
    """Four 32-bit words at the 16-byte aligned global address ``addr``, loaded again.

    ``ld.global.v4`` marked as having side effects, so the compiler neither
    merges it with the group's first load nor keeps that load's registers
    alive for it: the rare exact-error branch rereads its group (an L1/L2 hit).
    """
    quad = llvm.StructType.get_literal([T.i32()] * 4)
    text = "ld.global.v4.u32 {$0, $1, $2, $3}, [$4];"
    res = _asm(quad, [Int64(addr).ir_value(loc=loc, ip=ip)], text, "=r,=r,=r,=r,l", True)
    return tuple(Int32(llvm.extractvalue(T.i32(), res, [i], loc=loc, ip=ip)) for i in range(4))


@dsl_user_op
def as_f32(w, *, loc=None, ip=None) -> Float32:
    """The float32 whose bits are ``w``."""
    return Float32(_asm(T.f32(), [_i(w, loc, ip)], "mov.b32 $0, $1;", "=f,r"))


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


# The row-scaled shortcut's range for y = 2^e Y_j (``row_candidate``): inside it y and
# inv are normal, so the power-of-two scaling is exact, and f g = y D within 4 ulps
# (s, s_dec normal) puts ``grid_ok`` in force: RN(f g) >= D 2^-124, RN(1.5 f g) <= 2^124.
ROW_Y_LOW = 2.0**-123
ROW_Y_HIGH = 2.0**110


@dsl_user_op
def row_candidate(
    f, y_j, inv_j, zero_inv, inv_scale: float = 1.0, *, loc=None, ip=None
) -> tuple[Float32, Float32]:
    """Row-scaled step 4 without a division: (inv, y) for scale ``f`` from the row's tables.

    ``f = 2^e M_j`` (``M_j = 1 + j/8``, ``j`` = f's top 3 mantissa bits; every
    E4M3 value is one) and the row holds ``Y_j = RN(M_j s_dec)`` and
    ``INV_j = RN(1 / Y_j)``. Where ``y = Y_j 2^e`` lies in [``ROW_Y_LOW``,
    ``ROW_Y_HIGH``] nothing is subnormal or overflows, so ``y = RN(f s_dec)``
    and ``inv = INV_j 2^-e = RN(1 / y)`` exactly (``2^e`` and ``2^-e`` built
    from f's exponent bits). Elsewhere inv is NaN (the exact path), except
    ``f = 0``, which takes the row's ``zero_inv`` (SPEC's capped ``1 / 0``, or
    NaN). Checked against SPEC on the CPU (``fast_model.row_candidate``).

    ``inv_scale`` (a power of two in [2^-14, 1]; ``CODE_SCALE`` for
    ``f16_codes``) returns ``inv * inv_scale`` instead, exactly: it is folded
    into ``2^-e``, which stays normal (``|e| <= 9`` for E4M3), and so does the
    product (``inv >= 2^-110`` where ``y`` is in range). ``zero_inv`` must come
    scaled already. ``fast_model.row_candidate`` checks it on the CPU.
    """
    lo, hi = f"0f{_f32_bits(ROW_Y_LOW)}", f"0f{_f32_bits(ROW_Y_HIGH)}"
    shift = math.log2(inv_scale)
    assert shift == int(shift) and -14 <= shift <= 0, inv_scale
    bias = 0x7F000000 + (int(shift) << 23)
    text = (
        "{ .reg .b32 e, ne; .reg .f32 pe, pn, y, v, w; .reg .pred ok, in, z;"
        f" mov.b32 e, $2; and.b32 e, e, 0x7F800000; sub.s32 ne, 0x{bias:08X}, e;"
        " mov.b32 pe, e; mov.b32 pn, ne; mul.rn.f32 y, $3, pe; mul.rn.f32 v, $4, pn;"
        f" setp.ge.f32 ok, y, {lo}; setp.le.f32 in, y, {hi}; and.pred ok, ok, in;"
        " setp.eq.f32 z, $2, 0f00000000; selp.f32 w, $5, 0f7FFFFFFF, z;"
        " selp.f32 $0, v, w, ok; mov.f32 $1, y; }"
    )
    ops = [_f(v, loc, ip) for v in (f, y_j, inv_j, zero_inv)]
    res = _asm(llvm.StructType.get_literal([T.f32(), T.f32()]), ops, text, "=f,=f,f,f,f,f")
    inv = Float32(llvm.extractvalue(T.f32(), res, [0], loc=loc, ip=ip))
    y = Float32(llvm.extractvalue(T.f32(), res, [1], loc=loc, ip=ip))
    return inv, y


@dsl_user_op
def mantissa_scale(j, *, loc=None, ip=None) -> Float32:
    """``M_j = 1 + j/8`` for ``0 <= j < 8``, built from its bits (exact)."""
    text = "{ .reg .b32 b; shl.b32 b, $1, 20; or.b32 b, b, 0x3F800000; mov.b32 $0, b; }"
    return Float32(_asm(T.f32(), [_i(j, loc, ip)], text, "=f,r"))


@dsl_user_op
def f32_bits(v, *, loc=None, ip=None) -> Int32:
    """The bit pattern of the float32 ``v``."""
    return Int32(_asm(T.i32(), [_f(v, loc, ip)], "mov.b32 $0, $1;", "=r,f"))


@dsl_user_op
def zero_scale_inv(gamax, *, loc=None, ip=None) -> Float32:
    """The fast path's ``inv`` for a zero scale ``f`` in a row of this gamax: FLT_MAX or NaN.

    SPEC's ``min(1 / RN(0 * s_dec), FLT_MAX)`` is FLT_MAX where ``s_dec >= 0``
    (``gamax >= 0``, -0 and NaN give ``s = 1`` or FLT_MAX) and -Inf where it
    is negative; ``_candidate_inv`` keeps it only for a finite gamax with a
    positive result: FLT_MAX exactly for ``0 <= gamax < Inf``, else NaN.
    """
    text = (
        "{ .reg .pred a, b; setp.ge.f32 a, $1, 0f00000000; setp.lt.f32 b, $1, 0f7F800000;"
        " and.pred a, a, b; selp.f32 $0, 0f7F7FFFFF, 0f7FFFFFFF, a; }"
    )
    return Float32(_asm(T.f32(), [_f(gamax, loc, ip)], text, "=f,f"))


@dsl_user_op
def prefetch_l2(mask, addr, nbytes: int, *, loc=None, ip=None) -> None:
    """``cp.async.bulk.prefetch.L2`` of ``nbytes`` at ``addr`` where ``mask`` is nonzero.

    One instruction asks L2 for a whole contiguous range; no registers wait for it.
    """
    text = (
        "{ .reg .pred p; setp.ne.u32 p, $0, 0;"
        f" @p cp.async.bulk.prefetch.L2.global [$1], {nbytes}; }}"
    )
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
    _asm(None, ops, text, "r,l", side_effects=True)


@dsl_user_op
def prefetch_line_l2(mask, addr, *, loc=None, ip=None) -> None:
    """``prefetch.global.L2`` of the line at ``addr`` where ``mask`` is nonzero (one per thread)."""
    text = "{ .reg .pred p; setp.ne.u32 p, $0, 0; @p prefetch.global.L2 [$1]; }"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
    _asm(None, ops, text, "r,l", side_effects=True)


@dsl_user_op
def store_if(mask, addr, value, bits: int, *, loc=None, ip=None) -> None:
    """``st.global.u{bits}`` of ``value``'s low bits at ``addr`` where ``mask`` is nonzero.

    A predicated store instead of a branch: lanes past a tensor's edge skip it
    without splitting the code into blocks.
    """
    text = f"{{ .reg .pred p; setp.ne.u32 p, $0, 0; @p st.global.u{bits} [$1], $2; }}"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip), _i(value, loc, ip)]
    _asm(None, ops, text, "r,l,r", side_effects=True)


@dsl_user_op
def store_shared(addr, value, bits: int, *, loc=None, ip=None) -> None:
    """``st.shared.u{bits}`` of ``value``'s low bits at the shared-memory address ``addr``."""
    text = f"st.shared.u{bits} [$0], $1;"
    ops = [_i(addr, loc, ip), _i(value, loc, ip)]
    _asm(None, ops, text, "r,r", side_effects=True)


@dsl_user_op
def load_shared(addr, bits: int, *, loc=None, ip=None) -> Int32:
    """``ld.shared.u{bits}`` at the shared-memory address ``addr`` (zero-extended)."""
    text = f"ld.shared.u{bits} $0, [$1];"
    return Int32(_asm(T.i32(), [_i(addr, loc, ip)], text, "=r,r", True))


CODE_SCALE = 2.0**-6  # an on-grid r * 2^-6 as an E4M3 byte is its E2M1 code shifted left by 2


@dsl_user_op
def grid_code_bytes(r, *, loc=None, ip=None) -> tuple[Int32, Int32]:
    """Eight on-grid magnitudes ``r * CODE_SCALE`` as E4M3 bytes: (even elements, odd elements).

    As E4M3 each is exact (0.5 lands on the subnormal 2^-7) and its byte is
    ``code << 2`` (``(E + 1) << 3 | M << 2`` for ``r = 2^E (1 + M / 2)``):
    ``cvt.rn.satfinite.e4m3x2.f32`` converts two per instruction, elements
    0, 2, 4, 6 into the first word's bytes and 1, 3, 5, 7 into the second's.
    ``code_word`` lays them into nibbles, after the candidate is chosen (one
    selection per word pair, not per finished word).
    """
    text = (
        "{ .reg .b16 h0, h1, h2, h3;"
        " cvt.rn.satfinite.e4m3x2.f32 h0, $4, $2; cvt.rn.satfinite.e4m3x2.f32 h1, $8, $6;"
        " cvt.rn.satfinite.e4m3x2.f32 h2, $5, $3; cvt.rn.satfinite.e4m3x2.f32 h3, $9, $7;"
        " mov.b32 $0, {h0, h1}; mov.b32 $1, {h2, h3}; }"
    )
    res = _asm(
        llvm.StructType.get_literal([T.i32(), T.i32()]),
        [_f(v, loc, ip) for v in r],
        text,
        "=r,=r," + ",".join(["f"] * 8),
    )
    even = Int32(llvm.extractvalue(T.i32(), res, [0], loc=loc, ip=ip))
    odd = Int32(llvm.extractvalue(T.i32(), res, [1], loc=loc, ip=ip))
    return even, odd


@dsl_user_op
def code_word(even, odd, *, loc=None, ip=None) -> Int32:
    """``grid_code_bytes``' words as one word of codes (code j in nibble j).

    ``(even >> 2) + (odd << 2)``: bytes hold ``code << 2``, so the even codes land in
    the low nibbles and the odd ones in the high nibbles, without overlap.
    """
    text = "{ .reg .b32 e; shr.u32 e, $1, 2; mad.lo.u32 $0, $2, 4, e; }"
    return Int32(_asm(T.i32(), [_i(even, loc, ip), _i(odd, loc, ip)], text, "=r,r,r"))


@dsl_user_op
def high_byte16(pair, *, loc=None, ip=None) -> Int32:
    """Bits 15..8 of ``pair`` as a byte (``prmt``: one instruction, upper bytes zero)."""
    text = "prmt.b32 $0, $1, 0, 0x4441;"
    return Int32(_asm(T.i32(), [_i(pair, loc, ip)], text, "=r,r"))
