"""E2M1 rounding, encoding and decoding, and the packing of codes into words.

Two families. The exact path's: ``e2m1_round_sw`` (SM90, which has no FP4
conversion) and ``cvt_e2m1x8``/``e2m1x2_to_f32`` (SM100+ hardware), which
round SPEC's ``q_i`` and give each code's exact value. The fast path's exact
shortcuts: ``e2m1_round_magic`` rounds a magnitude with one ``max`` and two
exact ``fma``; ``grid_value`` is SPEC's dequantized value of an on-grid
magnitude in one exact ``fma`` from the per-candidate constants of
``grid_constants`` (whose flag ``grid_ok`` says where that holds); and the
packers turn magnitudes and sign bits into code words without per-nibble
shifts (``grid_codes8``, ``grid_code_bytes``/``code_word``, ``sign_nibbles16``/
``sign_nibbles32``, ``with_signs``).

Proofs of the shortcuts: ``tests/cutedsl/fast_model.py`` and
``test_fast_algebra.py`` (the rounding is checked on every non-negative
float32). The ``fma`` that are pinned on purpose carry a tag that ``check``
looks for (``EXACT_FMA_TAG``, ``DIV_D_FMA_TAG``).
"""

from __future__ import annotations

from cutlass import Float32, Int32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

from .config import CODE_SCALE as CODE_SCALE  # re-exported: the packing's scale
from .ieee import _asm, _f, _f32_hex, _f32_pair, _i


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
        f"{{ .reg .f32 c, t; max.f32 c, $1, 0f{_f32_hex(low)};"
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
def codes_off_1_5(c4, c6, low: int, *, loc=None, ip=None) -> Int32:
    """0 where every code of word ``c6`` stands for 1.5 times the magnitude of ``c4``'s code.

    Unsigned codes, bit 0 of each at a set bit of ``low``: nibbles (``grid_codes8``,
    0x11111111) or ``grid_code_bytes``' ``code << 2`` (0x04040404). On the E2M1 grid
    ``1.5 r`` is on the grid only for ``r = 0, 1, 2, 4`` (even codes), and it is 0 or
    the next code up: so ``c4`` must have no odd code, and ``c6`` must be ``c4`` with
    bit 0 set in every nonzero code.
    """
    text = (
        "{ .reg .b32 a, b; shr.b32 a, $1, 1; shr.b32 b, $1, 2; or.b32 a, a, b;"
        f" and.b32 a, a, {low}; or.b32 a, a, $1; xor.b32 a, a, $2;"
        f" and.b32 b, $1, {low}; or.b32 $0, a, b; }}"
    )
    return Int32(_asm(T.i32(), [_i(c4, loc, ip), _i(c6, loc, ip)], text, "=r,r,r"))


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
