"""Fake-quantize stores: x_hat where the quantize kernels store codes and scales.

With ``QuantizeConfig.fake`` (the output dtype's name) every place that
stores a group's or a tile unit's code words and scale byte stores instead
SPEC's dequantize of them (``decode``): ``ds = RN(RN(f * gamax) * RN(1 / D))``
(+0 for a zero byte), then ``cast(RN(dq * ds))`` per element. The code words
are the ones the codes path stores (element ``8w + j`` in nibble ``j`` of
word ``w``, sign included), so x_hat has the bits of dequantizing the codes
and scales, which are never written. ``factor_inv = RN(1 / D)`` is computed
once per thread by the kernel; ``gamax`` is the group's global amax (the
row's when row-scaled). The codes path never calls into this module.
"""

from __future__ import annotations

from cutlass import Int32

from .config import GROUP
from .decode import group_scale, scaled_words
from .ieee import e4m3_to_f32
from .memory import store_vector_if


def store_fake_group(cfg, mOut, t, word0, word1, scale, f, gamax, factor_inv):
    """1x16 group ``t``'s x_hat at output elements ``[16t, 16t + 16)``, in 16-byte stores.

    ``f`` is the scale byte's exact value (None: decoded here from ``scale``'s
    low byte).
    """
    if f is None:
        f = e4m3_to_f32(scale)
    ds = group_scale(scale, f, gamax, factor_inv)
    words = scaled_words(cfg.fake, word0, ds) + scaled_words(cfg.fake, word1, ds)
    addr = mOut.iterator.toint() + t * (GROUP * cfg.out_width // 8)
    for q in range(len(words) // 4):
        store_vector_if(Int32(1), addr + q * 16, words[4 * q : 4 * q + 4])


def store_fake_rows(cfg, in_range, addresses, codes, scale, gamax, factor_inv):
    """A 16x16 tile unit's x_hat: ``E`` outputs on each of its rows, at ``addresses``.

    ``codes`` as the tile kernel stores them: 16-bit inputs a word a row (8
    codes), float32 rows ``2w`` and ``2w + 1`` in word ``w``'s low and high
    halves (4 codes each). Each row's outputs go in one or two predicated 8- or
    16-byte stores where ``in_range`` is nonzero.
    """
    ds = group_scale(scale, e4m3_to_f32(scale), gamax, factor_inv)
    per_word = len(addresses) // len(codes)  # rows per code word: 1 or 2
    for i, addr in enumerate(addresses):
        shift = 16 * (i % per_word)
        word = codes[i // per_word] >> shift if shift else codes[i // per_word]
        words = scaled_words(cfg.fake, word, ds, 8 // per_word)
        for q in range(0, len(words), 4):
            store_vector_if(in_range, addr + q * 4, words[q : q + 4])
