"""SPEC's steps exactly as written, per element: the path of every group the fast path flags.

``exact_group`` loads a group and computes its codes and scale byte with SPEC's own
operations (``div.rn`` for every division, the E2M1 rounding by ``e2m1_round_sw`` on SM90
or the hardware conversion on SM100+), no shortcut and no precondition: extreme scales,
NaN and Inf elements, near-tie errors. ``exact_words`` does the same for words already
in registers, ``exact_inv`` and ``exact_codes`` are the pieces 16x16 tiles share.
"""

from __future__ import annotations

import cutlass
from cutlass import Float32, Int32
from cutlass.base_dsl import BaseDSL
from cutlass.base_dsl.enums import Arch

from .choice import add_error, global_scale
from .config import FLT_MAX, GROUP
from .e2m1 import cvt_e2m1x8, e2m1_round_sw, e2m1x2_to_f32
from .group import block_amax, candidate_scales, load_group, unpack_group
from .ieee import div_rn, fmin, less_mask, mul_rn, sub_rn
from .offsets import amax_of_row


def exact_group(cfg, mX, amax, position, s_dec, gamax, d):
    """One group entirely as SPEC writes it (steps 1-8): (t, in range, two code words, scale),
    and for fake-quantize the group's global amax after them.

    Row-scaled: ``amax`` (an ``offsets.RowAmax``) gives the row's global amax; per
    tensor it is unused (``gamax`` and ``s_dec`` are the tensor's)."""
    words, (t, row, in_range) = load_group(cfg, mX, position)
    x = unpack_group(cfg, words)
    if cutlass.const_expr(cfg.row_scaled):
        gamax = amax_of_row(amax, row)
        s = global_scale(gamax, d)
        s_dec = div_rn(Float32(1.0), s)
    else:
        s = global_scale(gamax, d)
    pair, f4, f6 = candidate_scales(block_amax(x), s, fast=False)
    if cutlass.const_expr(cfg.fake):
        return t, in_range, *_exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d), gamax
    return t, in_range, *_exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d)


def exact_words(cfg, words, s_dec, gamax, d):
    """Raw ``words`` (per tensor) as ``exact_group``: (two code words, scale byte)."""
    x = unpack_group(cfg, words)
    pair, f4, f6 = candidate_scales(block_amax(x), global_scale(gamax, d), fast=False)
    return _exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d)


def _exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d):
    """Steps 4-8 exactly as SPEC writes them, per element: two code words and the scale byte."""
    words4, err4 = _candidate(cfg, x, f4, s_dec, gamax, d)
    words6, err6 = _candidate(cfg, x, f6, s_dec, gamax, d)
    pick4 = less_mask(err4, err6)
    keep6 = pick4 ^ -1
    word0 = (words4[0] & pick4) | (words6[0] & keep6)
    word1 = (words4[1] & pick4) | (words6[1] & keep6)
    return word0, word1, ((pair >> 8) & pick4) | (pair & keep6)


def _candidate(cfg, x, f, s_dec, gamax, d):
    """Steps 4-6 for one candidate scale ``f``: packed codes (two words) and error."""
    words, diffs = exact_codes(x, f, exact_inv(f, s_dec), gamax, d)
    err = Float32(0.0)
    for i in range(GROUP):
        err = add_error(cfg, err, diffs[i])
    return words, err


def exact_inv(f, s_dec):
    """SPEC step 4: ``inv = min(RN(1 / RN(f s_dec)), FLT_MAX)``."""
    return fmin(div_rn(Float32(1.0), mul_rn(f, s_dec)), Float32(FLT_MAX))


def exact_codes(x, f, inv, gamax, d):
    """Steps 5-6 as SPEC writes them for elements ``x`` (a multiple of 8), candidate ``f``.

    Returns the signed E2M1 codes, 8 to a word (element ``8w + j`` in nibble
    ``j`` of word ``w``), and each element's ``d_i = RN(val_i - x_i)``.
    """
    q = [mul_rn(v, inv) for v in x]
    hw_fp4 = BaseDSL._get_dsl().get_arch_enum() >= Arch.sm_100
    words = []
    dq = []
    if cutlass.const_expr(hw_fp4):
        for w in range(len(x) // 8):
            word = cvt_e2m1x8(*q[8 * w : 8 * w + 8])
            words.append(word)
            for b in range(4):
                lo, hi = e2m1x2_to_f32(word, b)
                dq.extend((lo, hi))
    else:
        for w in range(len(x) // 8):
            word = Int32(0)
            for j in range(8):
                code, value = e2m1_round_sw(q[8 * w + j])
                dq.append(value)
                word = word | (code << (4 * j))
            words.append(word)
    diffs = []
    for i in range(len(x)):
        val = div_rn(mul_rn(mul_rn(dq[i], f), gamax), d)
        diffs.append(sub_rn(val, x[i]))
    return words, diffs
