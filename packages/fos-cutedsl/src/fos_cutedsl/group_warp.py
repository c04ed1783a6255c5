"""One 1x16 group's SPEC choice computed by a whole warp (``QuantizeConfig.undecided_warp``).

``persistent`` marks the groups whose choice the fast path's bound leaves open and,
after each unit, hands them here one at a time: the warp's 32 lanes are both
candidates' 16 elements, so no lane runs SPEC's sums alone while the others wait
(``group.fast_group``'s inline branch does). Same arithmetic as
``group._exact_errors``, the same order, so the same bits.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Uint32

from .choice import add_error
from .config import GROUP
from .e2m1 import e2m1_round_magic, grid_value
from .group import candidate_scales, group_address, unpack_word
from .ieee import (
    abs_f32,
    as_f32,
    f32_bits,
    fmax,
    high_byte16,
    less_mask,
    mul_rn,
    pick_f32,
    select_bits,
    sub_rn,
)


@cute.jit
def warp_exact_group(cfg, mX, table, s, t):
    """``undecided_warp``: SPEC's choice for group ``t``, the whole warp together (it
    must call this converged, every lane with the same ``t``): (pick4, code words of
    map-to-4, its scale byte), the same in every lane.

    Lane ``c * 16 + i`` reads element i and computes its term of candidate c (0:
    map-to-4) as ``_exact_errors`` does; each half sums its 16 terms in SPEC's order
    through shuffles. The amax is a max over the half's lanes, so step 3 gives the
    fast path's pair. The map-to-4 codes are SPEC's (the unscaled ``r`` is the fast
    path's, ``_scaled_candidate``), with the input's sign bits. About 100 instructions
    for the warp, against about 300 for one lane's inline branch while the warp waits.
    """
    lane = cute.arch.lane_idx()
    half = lane >> 4  # 0: map-to-4, 1: map-to-6
    element = lane & 15
    x = group_element(cfg, mX, t, element)
    v = abs_f32(x)
    a = v
    for off in (1, 2, 4, 8):
        a = fmax(a, cute.arch.shuffle_sync_bfly(a, offset=off))
    pair, _, _ = candidate_scales(a, s)
    byte4 = high_byte16(pair)
    byte = select_bits(Int32(0) - half, pair & 0xFF, byte4)
    inv, k, j = table[byte, 0], table[byte, 2], table[byte, 3]
    if cutlass.const_expr(cfg.code_scale != 1.0):
        inv = mul_rn(inv, Float32(1.0 / cfg.code_scale))  # e4m3_codes: inv again
    r = e2m1_round_magic(mul_rn(v, inv))
    d = sub_rn(grid_value(r, k, j), v)
    err = Float32(0.0)
    for i in range(GROUP):
        err = add_error(cfg, err, cute.arch.shuffle_sync(d, offset=(lane & 16) | i))
    pick4 = less_mask(cute.arch.shuffle_sync(err, offset=0), cute.arch.shuffle_sync(err, offset=16))
    # the nibble: r's code (bits of r 2^-126 >> 22) and x's sign bit; 8 lanes a word
    code = (f32_bits(mul_rn(r, Float32(2.0**-126))) >> 22) | ((f32_bits(x) >> 28) & 8)
    word = code << ((element & 7) * 4)
    for off in (1, 2, 4):
        word = word | cute.arch.shuffle_sync_bfly(word, offset=off)
    word0 = cute.arch.shuffle_sync(word, offset=0)
    word1 = cute.arch.shuffle_sync(word, offset=8)
    return pick4, word0, word1, byte4


def group_element(cfg, mX, t, i):
    """Element ``i`` (a run-time index) of group ``t``, read from global memory."""
    per_word = 1 if cfg.dtype == "float32" else 2
    addr = group_address(cfg, mX, t) + (i // per_word) * 4
    ptr = cute.make_ptr(Uint32, addr, cute.AddressSpace.gmem, assumed_align=4)
    word = cute.make_tensor(ptr, cute.make_layout(1))[0]
    if cutlass.const_expr(per_word == 1):
        return as_f32(word)
    lo, hi = unpack_word(cfg, word)
    return pick_f32(i & 1, hi, lo)
