"""The per-group arithmetic every kernel shares: SPEC's steps for one 1x16 group.

Bitwise contract (SPEC.md). Every float32 operation is one pinned PTX
instruction (``ieee``: ``div.rn``, ``mul.rn``, ``add.rn``, ``sub.rn``,
NaN-dropping ``min``/``max``; no ``.ftz``, no approximations, no compiler
contracted ``fma``). The only ``fma`` are the magic rounding's, whose products
are exact powers of two, ``grid_value``'s, whose sum is representable, and
the exact divisions by 6 and by the constant D. The kernels differ in who
computes which group, never in a bit.

Fast path (``fast_group``), per group in SPEC's order:

1. ``s = min(D / gamax, FLT_MAX)``, 1 when gamax or s is 0; ``s_dec = 1 / s``
   (per tensor: once a thread; row-scaled: once a row of the CTA, in a table).
2. Block amax: NaN-dropping max of ``|x_i|`` from 0 (16-bit inputs: packed
   ``max.xorsign.abs`` on bf16x2/f16x2 words, signs cleared at the end).
3. ``base = (a / 6) * s`` (``a / 6`` as a multiply and an exact fma
   correction); ``c6 = min(base, 448)``, ``c4 = min(base * 1.5, 448)``; both go
   through one ``cvt.rn.satfinite.e4m3x2.f32`` (whose ``.satfinite`` is the
   ``min``) and decode exactly.
4. Per candidate ``y = f s_dec`` and ``inv = min(1 / y, FLT_MAX)``: per tensor
   looked up in a 256-entry table of every scale byte, built once per CTA in
   shared memory (``build_scale_table``); row-scaled from the row's 8 mantissa
   constants ``Y_j = RN((1 + j/8) s_dec)``, ``INV_j = RN(1 / Y_j)`` scaled by
   f's power of two (``choice.row_candidate``: exact while y stays in a normal
   range). ``inv`` is NaN where the fast path's preconditions fail, which
   flags the group.
5.-6. Signs drop out (``q_i`` has ``x_i``'s sign when ``inv > 0``, and
   ``|RN(v - a)| = |RN(-v + a)|``), so each candidate works on ``|x_i|``:
   ``m = RN(|x_i| inv)``; E2M1 magnitude ``r = RN(m - C) + C`` with
   ``C = max(m, 2) 2^22``, packed into codes at once (``e2m1.grid_codes8``;
   16-bit inputs, ``e4m3_codes``: the same steps on ``m 2^-6``, whose E4M3
   byte is the code shifted left by 2, so 4 ``cvt.rn.satfinite.e4m3x2.f32``
   and a shift-add pack 8 codes after the choice); an approximate error
   ``e = sum |RN(r - m)|`` (mse: squares) in units of ``m``, scaled by ``y``
   (mse: ``y^2``).
7. (16x16 tiles only: ``tile``.)
8. Map-to-4 only when ``err4 < err6`` (ordered: ties and NaN pick map-to-6).
   The approximate errors are within a proven bound of SPEC's
   (``choice.choose_by_bound``), so where they differ by more than it, their
   order is SPEC's. Otherwise (about 0.1% of random groups; ties, NaN) a group
   whose candidates dequantize every element to the same value keeps map-to-6
   (``same_values``: a tie; most of the open groups of data with outlier
   channels), and any other computes SPEC's errors exactly: ``fma(r, K, 2^e(r) J)`` is SPEC's
   ``RN(RN(RN(r f) g) / D)`` with per-candidate constants ``K``, ``J``, then
   ``d = RN(V - |x_i|)`` summed in order; the signs come from the input words'
   sign bits (``prmt``). Proofs: ``tests/cutedsl/fast_model.py``, ``test_fast_algebra.py``.

A group takes the exact path (``exact_group``) when a candidate's
preconditions fail (table ``inv`` NaN: extreme scales; ``RN(a inv) >= 7``: the
rounding does not saturate) or its error is NaN (a NaN element). The exact
path recomputes the group as SPEC writes it, per element: ``q_i = x_i * inv``,
a segment-scaled ``RN(y + 2^23)`` E2M1 rounding (SM90) or the hardware
conversion (SM100+), and ``val = ((dq * f) * gamax) / D`` with ``div.rn``.

Group ``t`` is elements ``[16t, 16t+16)``, code bytes ``[8t, 8t+8)`` (one
8-byte store) and scale byte ``t``. Fake-quantize (``QuantizeConfig.fake``)
stores instead SPEC's dequantize of the same code words and scale byte
(``decode``) at output elements ``[16t, 16t+16)``, in 16-byte stores (``store_fake_group``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Uint8, Uint32

from .choice import (
    add_error,
    add_fast_error,
    bound_scale,
    choice_margin,
    choose_by_bound,
    div6,
    fast_path_fails,
    global_scale,
    mantissa_scale,
    row_candidate,
    zero_scale_inv,
)
from .config import FLT_MAX, GROUP, NAN, ROW_BYTES, TABLE
from .e2m1 import (
    code_word,
    codes_off_1_5,
    e2m1_round_magic,
    grid_code_bytes,
    grid_codes8,
    grid_constants,
    grid_ok,
    grid_value,
    sign_nibbles16,
    sign_nibbles32,
    with_signs,
)
from .fake import store_fake_group
from .ieee import (
    abs_f32,
    as_f32,
    cvt_e4m3x2,
    div_rn,
    e4m3x2_to_f32,
    equal_mask,
    f32_bits,
    fmax,
    fmin,
    high_byte16,
    less_mask,
    max_abs_16x2,
    mul_rn,
    pick_f32,
    select_bits,
    sub_rn,
    unpack_bf16x2,
    unpack_f16x2,
)
from .memory import reload_v4


def group_address(cfg, mX, t):
    """Global byte address of group ``t``'s first element."""
    return mX.iterator.toint() + t * (cfg.words * 4)


def load_group(cfg, mX, position):
    """Issue the 16-byte loads of the group at ``position``: (raw 32-bit words, position)."""
    rX = cute.make_rmem_tensor((cfg.words,), Uint32)
    load_group_into(cfg, mX, position[0], rX)
    return rX, position


def load_group_into(cfg, mX, t, rX):
    """Issue the 16-byte loads of group ``t`` into the register tensor ``rX`` (``cfg.words``)."""
    x_ptr = cute.make_ptr(
        Uint32, group_address(cfg, mX, t), cute.AddressSpace.gmem, assumed_align=16
    )
    cute.autovec_copy(cute.make_tensor(x_ptr, cute.make_layout(cfg.words)), rX)


def reload_group(cfg, mX, t):
    """Group ``t``'s raw words, read again from global memory (``memory.reload_v4``)."""
    x_addr = group_address(cfg, mX, t)
    return [w for q in range(cfg.words // 4) for w in reload_v4(x_addr + q * 16)]


def unpack_group(cfg, words):
    """The group's 16 elements as exact float32, from its raw words."""
    return [v for w in range(cfg.words) for v in unpack_word(cfg, words[w])]


def unpack_word(cfg, w):
    """The elements of one raw 32-bit word (16-bit inputs: low half first)."""
    if cutlass.const_expr(cfg.dtype == "bfloat16"):
        return list(unpack_bf16x2(w))
    if cutlass.const_expr(cfg.dtype == "float16"):
        return list(unpack_f16x2(w))
    return [as_f32(w)]


def block_amax_fast(cfg, words, x):
    """Step 2 for the fast path over raw ``words`` (elements ``x``); exact without NaN.

    A NaN element flags the group (its errors are NaN). 16-bit inputs take the
    packed magnitude max over the raw words, two elements per instruction;
    the sign bits it leaves are cleared by the final ``abs``.
    """
    if cutlass.const_expr(cfg.dtype == "float32"):
        return block_amax(x)
    m = words[0]
    for w in words[1:]:
        m = max_abs_16x2(m, w, "bf16x2" if cfg.dtype == "bfloat16" else "f16x2")
    return amax_of_word(cfg, m)


def amax_of_word(cfg, m):
    """Step 2 from a group's folded maximum: 16-bit, a packed word of ``|x|`` maxima with
    garbage signs (``max.xorsign.abs``); float32, the amax itself (``row_fold.group_max``)."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return m
    lo, hi = unpack_word(cfg, m)
    return fmax(abs_f32(lo), abs_f32(hi))


def block_amax(x):
    """Step 2 as SPEC writes it: NaN-dropping ``max.f32`` of ``|x_i|`` from 0."""
    a = Float32(0.0)
    for v in x:
        a = fmax(a, abs_f32(v))
    return a


def candidate_scales(a, s, fast=True):
    """Step 3: the E4M3 pair (c4 byte high, c6 byte low) and both exact values.

    ``fast``: ``a / 6`` by ``div6`` (its small-``a`` range flags the group), and no
    ``min(., 448)``: the conversion's ``.satfinite`` caps the same way except for a
    NaN ``a``, whose group fails the fast path anyway.
    """
    a6 = div6(a) if fast else div_rn(a, Float32(6.0))
    base = mul_rn(a6, s)
    c6, c4 = base, mul_rn(base, Float32(1.5))
    if cutlass.const_expr(not fast):
        c6, c4 = fmin(c6, Float32(448.0)), fmin(c4, Float32(448.0))
    pair = cvt_e4m3x2(c4, c6)
    f4, f6 = e4m3x2_to_f32(pair)
    return pair, f4, f6


@cute.jit
def build_scale_table(cfg, table, s_dec, gamax, exact_values: cutlass.Constexpr = True):
    """Per tensor: ``scale_entry`` for every scale byte, one a thread, then a CTA barrier
    (``exact_values=False``: no K and J, which only the inline undecided branch uses)."""
    tidx, _, _ = cute.arch.thread_idx()
    if tidx < TABLE:
        scale_entry(cfg, Int32(tidx), s_dec, gamax, table[tidx, None], exact_values)
    cute.arch.sync_threads()


def scale_entry(cfg, byte, s_dec, gamax, entry, exact_values=True):
    """Scale byte ``byte``'s table entry into ``entry``: (inv, y) and (exact_values) (K, J)."""
    f = e4m3x2_to_f32(byte)[1]
    inv, yb = _candidate_inv(cfg, f, s_dec, gamax)
    if cutlass.const_expr(cfg.code_scale != 1.0):
        inv, yb = _scaled_candidate(cfg, inv, yb)
    entry[0] = inv
    entry[1] = yb
    if cutlass.const_expr(exact_values):
        k, j, _ = grid_constants(f, gamax, cfg.d)
        entry[2] = k
        entry[3] = j


def _candidate_inv(cfg, f, s_dec, gamax):
    """Per-candidate ``inv`` (step 4) and ``choose_by_bound``'s scale of its errors.

    ``inv`` is NaN where the fast path does not apply (``grid_constants``'
    range, or ``inv <= 0`` from a negative global amax), so every such group
    gets a NaN error and takes the exact path.
    """
    y = mul_rn(f, s_dec)
    inv = fmin(div_rn(Float32(1.0), y), Float32(FLT_MAX))
    ok = grid_ok(f, gamax, cfg.d)
    positive = less_mask(Float32(0.0), inv) & 1  # q_i has x_i's sign
    inv = pick_f32(ok & positive, inv, Float32(NAN))
    return inv, bound_scale(y, cfg.err_mode == "mse")


def _scaled_candidate(cfg, inv, yb):
    """``e4m3_codes``: ``inv * 2^-6`` (NaN unless normal) and ``yb`` scaled back up.

    ``m_s = RN(|x| inv_s) = m 2^-6`` exactly while it is normal; the errors in
    these units times ``yb * 2^6`` (mse: ``2^12``) are the unscaled ones.
    """
    scale = cfg.code_scale
    small = less_mask(inv, Float32(2.0**-126 / scale))  # (a NaN inv stays NaN)
    inv_s = pick_f32(small, Float32(NAN), mul_rn(inv, Float32(scale)))
    return inv_s, _scaled_bound(cfg, yb)


def _scaled_bound(cfg, yb):
    """``e4m3_codes``: ``choose_by_bound``'s error scale ``yb`` times ``2^6`` (mse: ``2^12``)."""
    scale = cfg.code_scale
    up = 1.0 / scale if cfg.err_mode == "mae" else 1.0 / (scale * scale)
    return mul_rn(yb, Float32(up))


def scaled_margin(cfg, margin):
    """``choose_by_bound``'s margin for errors and bound scales in ``e4m3_codes`` units."""
    if cutlass.const_expr(cfg.code_scale == 1.0):
        return margin
    down = cfg.code_scale if cfg.err_mode == "mae" else cfg.code_scale**2
    return mul_rn(margin, Float32(down))


def row_scale_entry(cfg, mantissas, i, f, zero_inv, byte=None):
    """Row-scaled step 4 from row ``i``'s mantissa tables (``choice.row_candidate``);
    ``row_tables``: row ``i``'s entry of scale byte ``byte`` (``f``'s), built by it."""
    if cutlass.const_expr(cfg.row_tables):  # (a negative amax's bytes: its entries are NaN)
        at = i * ROW_BYTES + (byte & (ROW_BYTES - 1))
        return mantissas[at, 0], mantissas[at, 1]
    k = i * 8 + ((f32_bits(f) >> 20) & 7)
    inv, y = row_candidate(f, mantissas[k, 0], mantissas[k, 1], zero_inv, cfg.code_scale)
    yb = bound_scale(y, cfg.err_mode == "mse")
    if cutlass.const_expr(cfg.code_scale != 1.0):
        # e4m3_codes: what ``_scaled_candidate`` makes of (inv, yb). inv's 2^-6 is
        # folded into ``row_candidate`` (exact: there inv >= 2^-110, never "small").
        yb = _scaled_bound(cfg, yb)
    return inv, yb


@cute.jit
def fast_group(
    cfg, words, t, in_range, consts, k, table, mantissas, mX, mCodes, mScales, scale_at=None,
    group_amax=None, reload=None,
):  # fmt: skip
    """One 1x16 group through the fast path (steps 1-8), its codes and scale stored
    if ``in_range``; returns 1 where the group needs the exact path.

    ``consts`` is ``(gamax, s, margin)``; row-scaled reads them from ``table``, at
    the row of the thread's ``k``-th group. The scale goes to byte ``scale_at`` (or t);
    with ``mCodes`` None nothing is stored and it returns (slow, word0, word1, scale).
    ``group_amax``: the group's words already folded (``amax_of_word``'s argument), so
    step 2 does not fold them again. ``reload``: a function giving the group's raw words
    again, for the inline undecided branch (None: read from ``mX`` at group ``t``).
    """
    gamax, s, margin = consts[:3]  # fake-quantize: consts[3] is RN(1 / D)
    x = unpack_group(cfg, words)

    # ---- step 1: global scale (row-scaled: this row's)
    if cutlass.const_expr(cfg.row_scaled):
        tidx, _, _ = cute.arch.thread_idx()
        i = Int32(tidx) // cfg.row_threads + k * cfg.row_lanes  # the row within the CTA
        gamax, s, zero_inv, margin = (
            table[i, 0],
            table[i, 1],
            table[i, 2],
            table[i, 3],
        )

    # ---- steps 2-3: block amax, candidate scales
    if cutlass.const_expr(group_amax is None):
        a = block_amax_fast(cfg, [words[w] for w in range(cfg.words)], x)
    else:
        a = amax_of_word(cfg, group_amax)
    pair, f4, f6 = candidate_scales(a, s)

    # ---- steps 4-6: per-candidate constants, magic rounding, approximate error
    byte4, byte6 = high_byte16(pair), pair & 0xFF
    if cutlass.const_expr(cfg.row_scaled):
        inv4, y4 = row_scale_entry(cfg, mantissas, i, f4, zero_inv, byte4)
        inv6, y6 = row_scale_entry(cfg, mantissas, i, f6, zero_inv, byte6)
    else:
        inv4, y4 = table[byte4, 0], table[byte4, 1]
        inv6, y6 = table[byte6, 0], table[byte6, 1]
    ax = [abs_f32(v) for v in x]
    codes4, e4 = _fast_candidate(cfg, ax, inv4)
    codes6, e6 = _fast_candidate(cfg, ax, inv6)
    err4, err6 = mul_rn(e4, y4), mul_rn(e6, y6)

    # ---- step 8: the choice, from the approximate errors where a bound decides
    pick4, decided = choose_by_bound(err4, err6, y4, y6, margin, cfg.choice_relative)
    same = (byte4 ^ pair) & 0xFF  # 0: one scale byte, so one candidate
    signs = _sign_nibbles(cfg, words)  # the last use of the group's words
    undecided = Int32(decided == 0) & Int32(same != 0)
    if undecided != 0:
        # Rare: about 0.1% of random groups, 2% with outlier channels, most of those ties
        # of equal values, which keep map-to-6 (pick4 is 0 wherever the bound is open).
        undecided = undecided & (same_values(cfg, f4, f6, codes4, codes6) ^ 1)
        if cutlass.const_expr(cfg.undecided_inline):  # noqa: SIM102 (DSL: own if)
            if undecided != 0:
                # SPEC's errors, exactly.
                if cutlass.const_expr(cfg.row_scaled):
                    k4, j4, _ = grid_constants(f4, gamax, cfg.d)
                    k6, j6, _ = grid_constants(f6, gamax, cfg.d)
                else:
                    k4, j4 = table[byte4, 2], table[byte4, 3]
                    k6, j6 = table[byte6, 2], table[byte6, 3]
                again = reload_group(cfg, mX, t) if reload is None else reload()
                ax = [abs_f32(v) for v in unpack_group(cfg, again)]
                e_inv4, e_inv6 = inv4, inv6
                if cutlass.const_expr(cfg.code_scale != 1.0):
                    up = Float32(1.0 / cfg.code_scale)  # e4m3_codes: inv again
                    e_inv4, e_inv6 = mul_rn(inv4, up), mul_rn(inv6, up)
                err4 = _exact_errors(cfg, ax, e_inv4, k4, j4)
                err6 = _exact_errors(cfg, ax, e_inv6, k6, j6)
                pick4 = less_mask(err4, err6)

    # ---- step 8: select, codes with the input's signs, store
    codes = [select_codes(cfg, pick4, codes4[w], codes6[w]) for w in range(2)]
    word0 = with_signs(codes[0], signs[0])
    word1 = with_signs(codes[1], signs[1])
    scale = select_bits(pick4, byte4, pair)
    if cutlass.const_expr(mCodes is not None):  # noqa: SIM102 (DSL: own if)
        if in_range:
            if cutlass.const_expr(cfg.fake):
                f = pick_f32(pick4, f4, f6)  # the chosen scale byte's value
                store_fake_group(cfg, mCodes, t, word0, word1, scale, f, gamax, consts[3])
            else:
                store_group(mCodes, mScales, t, word0, word1, scale, scale_at)
    # The exact path redoes the group where a shortcut's precondition failed (extreme
    # scale: NaN inv, so NaN errors; a magnitude >= 7: the rounding does not saturate)
    # or an error is NaN (a NaN element).
    slow = fast_path_fails(a, inv6, err4, err6, 7.0 * cfg.code_scale)
    if cutlass.const_expr(not cfg.undecided_inline):
        slow = slow | undecided  # SPEC's errors in the exact path instead
    return slow if mCodes is not None else (slow, word0, word1, scale)


def _fast_candidate(cfg, ax, inv):
    """Steps 4-6 for one candidate, fast: its packed codes (two words) and approximate error.

    The error sums ``|RN(r_i - m_i)|`` (mae) or its square (mse) in order, in
    units of ``m``; ``choose_by_bound`` turns it into SPEC's choice or asks for
    ``_exact_errors``. Packing both candidates' codes here keeps no magnitudes
    alive (registers are what limits the CTAs per SM).
    """
    r = []
    err = None
    for i in range(GROUP):
        m = mul_rn(ax[i], inv)
        r.append(e2m1_round_magic(m, 2.0 * cfg.code_scale))
        err = add_fast_error(cfg, err, sub_rn(r[i], m))
    return [grid_codes(cfg, r[0:8]), grid_codes(cfg, r[8:16])], err


def grid_codes(cfg, r):
    """Eight fast-path magnitudes as codes: ``e4m3_codes``, the E4M3 word pair of
    ``e2m1.grid_code_bytes``; otherwise one word of codes (``e2m1.grid_codes8``)."""
    if cutlass.const_expr(cfg.e4m3_codes):
        return grid_code_bytes(r)
    return grid_codes8(r)


def same_values(cfg, f4, f6, codes4, codes6):
    """1 where both candidates dequantize every element to the same value, else 0.

    That is ``f4 = 1.5 f6`` (exact products) with each map-to-6 code 1.5 times its
    map-to-4 code (``e2m1.codes_off_1_5``): every ``RN(r f)`` is then one number, so
    SPEC's two error sums are equal term by term, a tie, which keeps map-to-6. A group
    with one element far above the others (an outlier channel) is such a tie when the
    others round to 0 under both scales; its approximate errors are too close for the
    bound to tell.
    """
    low = 0x04040404 if cfg.e4m3_codes else 0x11111111  # bit 0 of each code
    if cutlass.const_expr(cfg.e4m3_codes):
        words4 = [w for pair in codes4 for w in pair]
        words6 = [w for pair in codes6 for w in pair]
    else:
        words4, words6 = codes4, codes6
    off = Int32(0)
    for w4, w6 in zip(words4, words6, strict=True):
        off = off | codes_off_1_5(w4, w6, low)
    return equal_mask(f4, mul_rn(f6, Float32(1.5))) & Int32(off == 0)


def select_codes(cfg, pick4, codes4, codes6):
    """The chosen candidate's code word from ``grid_codes``' results (``pick4``: a mask)."""
    if cutlass.const_expr(cfg.e4m3_codes):
        even = select_bits(pick4, codes4[0], codes6[0])
        return code_word(even, select_bits(pick4, codes4[1], codes6[1]))
    return select_bits(pick4, codes4, codes6)


def _exact_errors(cfg, ax, inv, k, j):
    """SPEC step 6's error of one candidate, exactly: magnitudes again, then ``grid_value``."""
    err = Float32(0.0)
    for i in range(GROUP):
        r = e2m1_round_magic(mul_rn(ax[i], inv))
        err = add_error(cfg, err, sub_rn(grid_value(r, k, j), ax[i]))
    return err


def _sign_nibbles(cfg, words):
    """Per code word (8 elements), the group's sign nibbles (``sign_nibbles8``)."""
    n = cfg.words // 2
    return [sign_nibbles8(cfg, [words[n * h + i] for i in range(n)]) for h in range(2)]


def sign_nibbles8(cfg, raw):
    """The raw words of 8 elements: 0xF in nibble j where element j's sign bit is set."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return sign_nibbles32(raw)
    return sign_nibbles16(*raw)


def store_group(mCodes, mScales, t, word0, word1, scale, scale_at=None):
    """Group ``t``'s 8 code bytes (one 8-byte store), its scale at byte ``scale_at`` (or t)."""
    c_addr = mCodes.iterator.toint() + t * (GROUP // 2)
    c_ptr = cute.make_ptr(Uint32, c_addr, cute.AddressSpace.gmem, assumed_align=8)
    gC = cute.make_tensor(c_ptr, cute.make_layout(2))  # (2,) words = 8 bytes
    rC = cute.make_rmem_tensor((2,), Uint32)
    rC[0] = Uint32(word0)
    rC[1] = Uint32(word1)
    cute.autovec_copy(rC, gC)
    s_addr = mScales.iterator.toint() + (t if scale_at is None else scale_at)
    s_ptr = cute.make_ptr(Uint8, s_addr, cute.AddressSpace.gmem, assumed_align=1)
    gS = cute.make_tensor(s_ptr, cute.make_layout(1))
    gS[0] = Uint8(scale & 0xFF)


@cute.jit
def build_row_entry(cfg, table, mantissas, i, j, g):
    """Row-scaled: step 1 and step 4's constants for mantissa ``j`` of row ``i`` (gamax ``g``).

    Writes ``mantissas[8 i + j]`` = (Y_j, INV_j) of ``choice.row_candidate`` and,
    for ``j == 0``, ``table[i]`` = (gamax, s, inv of a zero scale, margin). Rows
    outside ``choose_by_bound``'s model get NaN constants, so their nonzero
    scales take the exact path. ``e4m3_codes``: the zero scale's inv and the
    margin come in the fast path's units (``_scaled_candidate``, ``scaled_margin``).
    """
    s_row = global_scale(g, Float32(cfg.d))
    s_dec_row = div_rn(Float32(1.0), s_row)
    margin_row = choice_margin(g, cfg.d, cfg.choice_margin)
    in_model = less_mask(Float32(0.0), margin_row) & 1
    y_j = mul_rn(mantissa_scale(j), s_dec_row)
    inv_j = div_rn(Float32(1.0), y_j)
    mantissas[i * 8 + j, 0] = pick_f32(in_model, y_j, Float32(NAN))
    mantissas[i * 8 + j, 1] = pick_f32(in_model, inv_j, Float32(NAN))
    if j == 0:
        zero_inv = zero_scale_inv(g)
        if cutlass.const_expr(cfg.code_scale != 1.0):  # FLT_MAX 2^-6 (exact) or NaN
            zero_inv = mul_rn(zero_inv, Float32(cfg.code_scale))
        table[i, 0] = g
        table[i, 1] = s_row
        table[i, 2] = zero_inv
        table[i, 3] = scaled_margin(cfg, margin_row)
