"""The one-read kernel's shared-memory stage (``dual``), and SPEC's swizzled scale index.

A CTA stages its tile of x, ``tile_rows`` rows of ``tile_words`` 32-bit words, and
reads it back two ways: a rowwise group's words (the inline undecided branch's
reload) and a 32-bit word column over 16 rows, repacked into the words of a group of
x^T (``column_words``). Within each group the 16-byte vectors are XOR-permuted by the
group's position (``staged_word``), so that the rowwise stores (8 threads a row, one
vector each) hit 32 distinct banks while a column read (a warp on 32 consecutive
words of one row) stays conflict-free.

With ``stage_columns`` the tile's columnwise codes and scales are staged too
(``stage_column``) and written out per x^T row in 16-byte pieces
(``flush_columns``). ``cfg`` is a ``dual.DualConfig`` throughout.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64, Uint32

from .config import GROUP
from .ieee import halves_of
from .memory import (
    load_shared,
    load_shared_v4,
    store_if,
    store_shared,
    store_shared_vector,
    store_vector_if,
)

THREADS = 256
TILE_GROUPS = 8  # a tile is 8 groups (128 elements) wide
TILE_COLUMNS = TILE_GROUPS * GROUP


def swizzled_index(r, g, groups):
    """Byte of scale ``(r, g)`` of an (R, ``groups``) scale matrix in SPEC's swizzled layout."""
    tiles_across = (groups + 3) >> 2
    tile = (r >> 7) * tiles_across + (g >> 2)
    return tile * 512 + ((r & 31) << 4) + (((r >> 5) & 3) << 2) + (g & 3)


def staged_word(cfg, w):
    """Where logical word ``w`` of a tile row sits: its group's vectors XOR-permuted by the
    group's position (``vectors`` a group; 8 / ``vectors`` groups share a permutation)."""
    words = cfg.quantize.words
    vectors = words // 4
    g = w // words
    swap = (g // (TILE_GROUPS // vectors)) % vectors
    return g * words + (((w % words) >> 2) ^ swap) * 4 + (w & 3)


def staged_row_vector(cfg, staged, local, gcol, v):
    """Shared address of vector ``v`` (4 words) of group ``gcol`` of tile row ``local``."""
    w = staged_word(cfg, gcol * cfg.quantize.words + 4 * v)
    return staged + (local * cfg.tile_words + w) * 4


def staged_row(cfg, staged, local, gcol):
    """Rowwise group ``gcol`` of tile row ``local``: its words read again from the staged
    tile (the inline undecided branch's reload)."""
    vectors = cfg.quantize.words // 4
    return [Uint32(w) for v in range(vectors)
            for w in load_shared_v4(staged_row_vector(cfg, staged, local, gcol, v))]  # fmt: skip


def column_raw(cfg, staged, task):
    """The staged words of word column ``task % tile_words`` over 16-row block ``task /
    tile_words``, read once for both of a 16-bit word's columns."""
    wc = task % cfg.tile_words
    block = task // cfg.tile_words
    w = staged_word(cfg, wc)
    return [load_shared(staged + ((block * GROUP + i) * cfg.tile_words + w) * 4, 32)
            for i in range(GROUP)]  # fmt: skip


def staged_column(cfg, staged, task, half):
    """Column group ``half`` of task ``task``: its words read again from the staged tile
    (the inline undecided branch's reload)."""
    return [Uint32(v) for v in column_words(cfg.quantize, column_raw(cfg, staged, task), half)]


def column_group(cfg, raw, task, half, rows, groups, row0, g0):
    """Column group ``half`` of task ``task``'s words ``raw`` (``column_raw``): (its
    words, its group index in x^T, in range, its scale byte's place: None for the plain
    layout).

    ``half``: as ``column_words`` takes it.
    """
    q = cfg.quantize
    wc = task % cfg.tile_words
    block = task // cfg.tile_words
    words = column_words(q, raw, half)
    col = g0 * GROUP + Int64(wc * 2 + half if q.width == 16 else wc)
    row_groups = rows // GROUP  # x^T's groups a row
    block_g = (row0 // GROUP) + Int64(block)
    in_range = (col < groups * GROUP) & (block_g < row_groups)
    t = col * row_groups + block_g  # group (col, row block) of x^T
    at = None
    if cutlass.const_expr(cfg.swizzle):
        at = swizzled_index(col, block_g, row_groups)
    return [Uint32(v) for v in words], t, in_range, at


def column_words(q, raw, half):
    """The words of one column group of x^T from ``raw``, the 32-bit words at one word
    column of x over 16 rows (row order).

    16-bit: a word holds two adjacent columns (low half first); column ``half``'s
    group word ``m`` packs rows ``2m`` and ``2m + 1``. float32: one column, a word a
    row. ``half`` is a Python int, or a run-time one (an exact path's loop).
    """
    if cutlass.const_expr(q.width != 16):
        return list(raw)
    return [halves_of(raw[2 * m], raw[2 * m + 1], half) for m in range(8)]


def _column_of(cfg, task, half):
    """Task ``task``'s column ``half`` as (column within the tile, 16-row block)."""
    wc = task % cfg.tile_words
    col = wc * 2 + half if cfg.quantize.width == 16 else wc
    return col, task // cfg.tile_words


def stage_column(cfg, out, task, half, word0, word1, scale):
    """A columnwise group's code words and scale byte into the CTA's output stage:
    codes of (column, block) at byte ``8 (column * blocks + block)``, scales after them."""
    col, block = _column_of(cfg, task, half)
    slot = col * cfg.column_blocks + block
    store_shared_vector(out + slot * 8, [word0, word1])
    store_shared(out + TILE_COLUMNS * cfg.column_blocks * 8 + slot, scale, 8)


def flush_columns(cfg, out, mColCodes, mColScales, rows, groups, row0, g0):
    """The staged columnwise outputs to global memory: per x^T row, its ``8 blocks`` code
    bytes in 16-byte pieces (two 8-byte stores where a row of x^T is not 16-byte
    aligned, or the piece's second block is past the end) and its scale bytes."""
    tidx = Int32(cute.arch.thread_idx()[0])
    blocks = cfg.column_blocks
    row_groups = rows // GROUP  # x^T's groups a row
    first_block = row0 // GROUP
    aligned = Int32(row_groups % 2 == 0)  # every 16-byte piece then starts 16-byte aligned
    pieces = TILE_COLUMNS * blocks // 2
    for step in range((pieces + THREADS - 1) // THREADS):
        piece = tidx + THREADS * step
        col, pair = piece // (blocks // 2), piece % (blocks // 2)
        column = g0 * GROUP + Int64(col)
        block = first_block + Int64(2 * pair)
        last = cutlass.min(piece, pieces - 1)  # past the end: read a valid slot, store nothing
        words = load_shared_v4(
            out + ((last // (blocks // 2)) * blocks + 2 * (last % (blocks // 2))) * 8
        )
        inside = Int32(piece < pieces) & Int32(column < groups * GROUP)
        first = inside & Int32(block < row_groups)
        second = inside & Int32(block + 1 < row_groups)
        both = second & aligned
        addr = mColCodes.iterator.toint() + (column * row_groups + block) * 8
        store_vector_if(both, addr, list(words))
        store_vector_if(first & (both ^ 1), addr, list(words[:2]))
        store_vector_if(second & (both ^ 1), addr + 8, list(words[2:]))
    scales_at = TILE_COLUMNS * blocks * 8
    for step in range((TILE_COLUMNS * blocks + THREADS - 1) // THREADS):
        slot = tidx + THREADS * step
        col, j = slot // blocks, slot % blocks
        column = g0 * GROUP + Int64(col)
        block = first_block + Int64(j)
        wanted = Int32(slot < TILE_COLUMNS * blocks) & Int32(column < groups * GROUP)
        wanted = wanted & Int32(block < row_groups)
        if cutlass.const_expr(cfg.swizzle):
            at = swizzled_index(column, block, row_groups)
        else:
            at = column * row_groups + block
        scale = load_shared(out + scales_at + cutlass.min(slot, TILE_COLUMNS * blocks - 1), 8)
        store_if(wanted, mColScales.iterator.toint() + at, scale, 8)
