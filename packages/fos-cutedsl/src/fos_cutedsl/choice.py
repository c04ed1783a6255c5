"""The fast path's scales, the candidates' error sums and the bounded choice between them.

Step 1 (``global_scale``) and the shortcuts around it: ``div6`` (``a / 6``
without a division), ``row_candidate`` with ``mantissa_scale`` and
``zero_scale_inv`` (row-scaled step 4 without a division) and
``fast_path_fails`` (the preconditions the fast path needs). Then step 8 from
approximate errors: ``choose_by_bound`` decides the choice wherever the
errors differ by more than their proven distance to SPEC's (``choice_margin``
and ``bound_scale`` give that distance its scale, NaN where the error model
does not hold); an undecided group computes SPEC's errors exactly.
Proofs: ``tests/cutedsl/fast_model.py`` and ``test_fast_algebra.py``.
"""

from __future__ import annotations

import math
import struct

import cutlass
from cutlass import Float32, Int32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

from .config import CHOICE_ABSOLUTE as CHOICE_ABSOLUTE  # re-exported: the absolute margin
from .e2m1 import DIV_D_FMA_TAG
from .ieee import _asm, _f, _f32_hex, _i, abs_f32, add_rn, mul_rn


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


# Marks choose_by_bound's threshold fma (a bound with slack; ``check`` allows this shape).
BOUND_FMA_TAG = "// fos: bound fma"
# Marks the mse fast path's error-sum fma (``add_square``; ``check`` allows this shape).
ERROR_FMA_TAG = "// fos: error fma"


@dsl_user_op
def choice_margin(gamax, d: float, absolute: float, *, loc=None, ip=None) -> Float32:
    """``absolute`` where ``choose_by_bound``'s error model holds for this gamax, else NaN.

    The model needs ``s = RN(D / g)`` and ``s_dec = RN(1 / s)`` normal and
    uncapped: ``D 2^-126 <= g <= FLT_MAX`` (a NaN, zero or negative gamax fails).
    """
    lo = f"0f{_f32_hex(d * 2.0**-126)}"
    text = (
        "{ .reg .pred a, b;"
        f" setp.ge.f32 a, $1, {lo}; setp.le.f32 b, $1, 0f7F7FFFFF; and.pred a, a, b;"
        f" selp.f32 $0, 0f{_f32_hex(absolute)}, 0f7FFFFFFF, a; }}"
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
def choose_by_bound(
    p4, p6, y4, y6, margin, relative: float, *, loc=None, ip=None
) -> tuple[Int32, Int32]:
    """SPEC step 8's choice from approximate errors where a bound decides it: (pick4 mask, decided).

    ``p_k = RN(e_k y_k)`` with ``e_k`` the float32 sum of ``|RN(r_i - m_i)|``
    (mae; for mse ``d d``, each term fused into its add: ``add_square``) in the
    candidate's own units ``m = RN(|x| inv)``; for mse ``y_k`` stands for ``RN(y y)``.
    Since ``inv y = 1`` and ``f g inv / D = 1`` within a few ulps (``s``,
    ``s_dec``, ``y``, ``inv`` normal: ``choice_margin``, ``bound_scale`` and the
    fast-ok flag), ``inv |V_i - |x_i|| = |d_i + eps_i|`` with ``d_i = r_i - m_i``
    and ``|eps_i| <= 7u r_i + u m_i <= 50u`` (``u = 2^-24``; ``r <= 6``, ``m < 7``).

    - mae: SPEC's error is ``p_k (1 +- 44u) +- 1.02 * n * 50u * y_k`` over the
      ``n`` elements (16; a 16x16 tile 256).
    - mse: ``(d + eps)^2 = d^2 + 2 d eps + eps^2``, and by Cauchy-Schwarz
      ``|sum 2 d_i eps_i| <= 100u sqrt(n S) <= 50u sqrt(n / c) (S + c)`` with
      ``S = sum d_i^2``, for any ``c > 0`` (``sqrt(S) <= (S + c) / (2 sqrt(c))``); with
      ``c = n / 16`` that is ``200u S + 12.5u n``. So SPEC's error is ``p_k (1 +- 250u)
      +- 1.02 * 12.5u * n * y_k`` (the ``eps^2`` terms are below ``10^-5 u`` each).

    The choice is decided when ``|p6 - p4| > relative (p4 + p6) + margin (y4 + y6)``
    (``config.CHOICE_RELATIVE``, ``CHOICE_ABSOLUTE``: 2^-16 and 2^-13 a group for mae,
    2^-15 and 2^-15 for mse, a tile 16 times the absolute one; each at least twice
    its bound) and is then SPEC's: ``pick4`` exactly when ``p6 - p4`` exceeds it. NaN
    or Inf anywhere leaves it undecided. ``tests/cutedsl/test_fast_algebra.py`` checks
    the decided choices against SPEC's on near-tie groups.
    """
    text = (
        "{ .reg .f32 s, dl, yy, m, nm; .reg .pred a, b;"
        " add.rn.f32 s, $2, $3; sub.rn.f32 dl, $3, $2; add.rn.f32 yy, $4, $5;"
        " mul.rn.f32 yy, yy, $6;"
        f" fma.rn.f32 m, s, 0f{_f32_hex(relative)}, yy; {BOUND_FMA_TAG}\n neg.f32 nm, m;"
        " setp.gt.f32 a, dl, m; setp.lt.f32 b, dl, nm;"
        " selp.s32 $0, -1, 0, a; or.pred a, a, b; selp.u32 $1, 1, 0, a; }"
    )
    ops = [_f(v, loc, ip) for v in (p4, p6, y4, y6, margin)]
    res = _asm(llvm.StructType.get_literal([T.i32(), T.i32()]), ops, text, "=r,=r,f,f,f,f,f")
    pick4 = Int32(llvm.extractvalue(T.i32(), res, [0], loc=loc, ip=ip))
    decided = Int32(llvm.extractvalue(T.i32(), res, [1], loc=loc, ip=ip))
    return pick4, decided


@dsl_user_op
def add_square(err, d, *, loc=None, ip=None) -> Float32:
    """``RN(err + d d)`` in one ``fma``: the mse fast path's approximate error sum.

    SPEC rounds the square too (``RN(err + RN(d d))``, as the exact path does);
    the fast error needs only to lie within ``choose_by_bound``'s bound of SPEC's,
    and one rounding per term where two were counted keeps it within (fewer
    roundings, each at most half an ulp of the same partial sum). One instruction
    a term instead of two (``fast_model.bounded_choice`` models it exactly).
    """
    text = f"fma.rn.f32 $0, $1, $1, $2; {ERROR_FMA_TAG}\n"
    return Float32(_asm(T.f32(), [_f(d, loc, ip), _f(err, loc, ip)], text, "=f,f,f"))


def add_error(cfg, err, diff):
    """SPEC step 6's running sum: ``err + |d|`` (mae) or ``err + d * d`` (mse).

    ``err`` None is the sum's start: ``0 + |d|`` is ``|d|`` exactly (and ``0 + d d``
    is ``d d``), so the fast path saves that add (ptxas folds the ``abs`` into the next).
    """
    term = abs_f32(diff) if cfg.err_mode == "mae" else mul_rn(diff, diff)
    return term if err is None else add_rn(err, term)


def add_fast_error(cfg, err, diff):
    """The fast path's running sum: ``add_error``'s for mae, for mse ``RN(err + d d)``
    in one fma (``choice.add_square``: an approximate error, within the bound)."""
    if cutlass.const_expr(cfg.err_mode == "mae" or err is None):
        return add_error(cfg, err, diff)
    return add_square(err, diff)


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
        f" add.rn.f32 m, m, e; setp.lt.f32 p, m, 0f{_f32_hex(limit)};"
        f" mov.b32 ab, $1; sub.u32 ab, ab, 1; setp.lt.u32 lo, ab, {low - 1};"
        " not.pred p, p; or.pred p, p, lo; selp.u32 $0, 1, 0, p; }"
    )
    ops = [_f(v, loc, ip) for v in (a, inv6, err4, err6)]
    return Int32(_asm(T.i32(), ops, text, "=r,f,f,f,f"))


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
    ``e4m3_codes``) returns ``inv * inv_scale`` instead, exactly: it is folded
    into ``2^-e``, which stays normal (``|e| <= 9`` for E4M3), and so does the
    product (``inv >= 2^-110`` where ``y`` is in range). ``zero_inv`` must come
    scaled already. ``fast_model.row_candidate`` checks it on the CPU.
    """
    lo, hi = f"0f{_f32_hex(ROW_Y_LOW)}", f"0f{_f32_hex(ROW_Y_HIGH)}"
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
def zero_scale_inv(gamax, *, loc=None, ip=None) -> Float32:
    """The fast path's ``inv`` for a zero scale ``f`` in a row of this gamax: FLT_MAX or NaN.

    SPEC's ``min(1 / RN(0 * s_dec), FLT_MAX)`` is FLT_MAX where ``s_dec >= 0``
    (``gamax >= 0``, -0 and NaN give ``s = 1`` or FLT_MAX) and -Inf where it
    is negative; ``group._candidate_inv`` keeps it only for a finite gamax with a
    positive result: FLT_MAX exactly for ``0 <= gamax < Inf``, else NaN.
    """
    text = (
        "{ .reg .pred a, b; setp.ge.f32 a, $1, 0f00000000; setp.lt.f32 b, $1, 0f7F800000;"
        " and.pred a, a, b; selp.f32 $0, 0f7F7FFFFF, 0f7FFFFFFF, a; }"
    )
    return Float32(_asm(T.f32(), [_f(gamax, loc, ip)], text, "=f,f"))
