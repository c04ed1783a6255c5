"""The row-amax kernels' fold of ``|x|``: running maxima, each group's maximum, the warp's.

A row's amax is the NaN-dropping max of ``|x_i|`` from +0 (``amax``'s rule): 16-bit
words fold by the packed ``max.bf16x2`` / ``max.f16x2`` of sign-cleared words
(``abs_max_16x2``) or, with ``xorsign_fold``, by ``max.xorsign.abs`` (one instruction a
word, the signs garbage until ``finish`` clears them); float32 by ``abs.f32`` then
``max.f32``. Every max is exact, so neither the order nor the grouping changes a bit.

``group_amax``: each group's own maximum word first (``group_max``, a tree of
``max.xorsign.abs``, as ``group.block_amax_fast`` computes step 2), then that word into
the running maxima (``fold_group``). ``fast_group`` takes the word as the group's block
amax, so the group's words are folded once, not twice. A NaN element can leave a NaN
half in a group's word (only when all of that half's elements are NaN); the running
maxima start at +0 and drop it, and the group takes the exact path for its NaN anyway.
"""

from __future__ import annotations

import cutlass
from cutlass import Float32, Int32

from .ieee import (
    abs_f32,
    abs_max_16x2,
    abs_max_f32,
    as_f32,
    fmax,
    max_abs_16x2,
    unpack_bf16x2,
    unpack_f16x2,
)
from .memory import shfl_bfly_f32


def _kind(cfg) -> str:
    return "bf16x2" if cfg.dtype == "bfloat16" else "f16x2"


def init_maxima(cfg):
    """A thread's running maxima, one per word of a vector: +0."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return [Float32(0.0) for _ in range(4)]
    return [Int32(0) for _ in range(4)]


def fold_vector(cfg, acc, words):
    """Each word of a loaded vector into its running NaN-dropping maximum of ``|x|``."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return [abs_max_f32(acc[w], as_f32(words[w])) for w in range(4)]
    if cutlass.const_expr(cfg.xorsign_fold):  # signs garbage until ``finish``
        return [max_abs_16x2(acc[w], words[w], _kind(cfg)) for w in range(4)]
    return [abs_max_16x2(acc[w], words[w], _kind(cfg)) for w in range(4)]


def group_max(cfg, words):
    """A group's raw words as one maximum: 16-bit, a packed word of per-half ``|x|`` maxima
    (signs garbage); float32, ``max |x_i|`` (NaN only where every element is NaN)."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        level = [fmax(abs_f32(as_f32(words[i])), abs_f32(as_f32(words[i + 1])))
                 for i in range(0, len(words), 2)]  # fmt: skip
        while len(level) > 1:
            level = [fmax(level[i], level[i + 1]) for i in range(0, len(level), 2)]
        return level[0]
    level = list(words)
    while len(level) > 1:
        level = [max_abs_16x2(level[i], level[i + 1], _kind(cfg)) for i in range(0, len(level), 2)]
    return level[0]


def fold_group(cfg, acc, slot: int, word):
    """A ``group_max`` word into running maximum ``slot`` (NaN halves dropped)."""
    acc = list(acc)
    if cutlass.const_expr(cfg.dtype == "float32"):
        acc[slot] = fmax(acc[slot], word)
    elif cutlass.const_expr(cfg.xorsign_fold):
        acc[slot] = max_abs_16x2(acc[slot], word, _kind(cfg))
    else:
        acc[slot] = abs_max_16x2(acc[slot], word, _kind(cfg))
    return acc


def finish(cfg, acc):
    """A thread's running maxima as one float32 (16-bit halves widen exactly)."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return fmax(fmax(acc[0], acc[1]), fmax(acc[2], acc[3]))
    kind = _kind(cfg)
    if cutlass.const_expr(cfg.xorsign_fold):  # magnitudes of non-NaN maxima, then +
        low, high = max_abs_16x2(acc[0], acc[1], kind), max_abs_16x2(acc[2], acc[3], kind)
        m = max_abs_16x2(low, high, kind) & 0x7FFF7FFF
    else:  # non-negative, non-NaN maxima: their packed max is their max
        m = abs_max_16x2(
            abs_max_16x2(acc[0], acc[1], kind), abs_max_16x2(acc[2], acc[3], kind), kind
        )
    lo, hi = unpack_bf16x2(m) if cfg.dtype == "bfloat16" else unpack_f16x2(m)
    return fmax(lo, hi)


def butterfly(a):
    """``max.f32`` of ``a`` over the warp (every lane gets it)."""
    for lane_mask in (16, 8, 4, 2, 1):
        a = fmax(a, shfl_bfly_f32(a, lane_mask))
    return a
