"""Where a one-read (``dual``) tile lives: its group columns and staged words, and the
ways its words arrive.

A tile is ``tile_rows`` rows x ``TILE_GROUPS`` groups of x; thread ``tidx`` owns group
column ``tidx % 8`` of rows ``tidx / 8 + 32 k``. Its words come as ``load_group``'s
registers (``load_tile``), or (``async_tiles``) through ``cp.async`` into a shared
stage (``copy_tile``), read back as the same words (``read_tile``). In a stage each
group's 16-byte vectors are XOR-permuted by the group's position (``staged_word``).
"""

from __future__ import annotations

import cutlass
from cutlass import Int64, Uint32

from .config import GROUP
from .group import group_address, load_group
from .memory import commit_async_copies, copy_async_16, load_shared_v4

TILE_GROUPS = 8  # a tile is 8 groups (128 elements) wide
TILE_COLUMNS = TILE_GROUPS * GROUP


def staged_word(cfg, w):
    """Where logical word ``w`` of a tile row sits: its group's vectors XOR-permuted by the
    group's position (``vectors`` a group; 8 / ``vectors`` groups share a permutation)."""
    words = cfg.quantize.words
    vectors = words // 4
    g = w // words
    swap = (g // (TILE_GROUPS // vectors)) % vectors
    return g * words + (((w % words) >> 2) ^ swap) * 4 + (w & 3)


def position(cfg, tidx, row0, g0, rows, groups, k):
    """The thread's step-``k`` rowwise group: (t, row, in range), ``t`` clamped to a valid
    group (whose words an out-of-range group reads and never stores)."""
    g = g0 + Int64(tidx & (TILE_GROUPS - 1))
    r = row0 + Int64((tidx >> 3) + 32 * k)
    in_range = (r < rows) & (g < groups)
    t = cutlass.min(r, rows - 1) * groups + cutlass.min(g, groups - 1)
    return t, r, in_range


def load_tile(cfg, mX, tidx, row0, g0, rows, groups):
    """Issue the tile's loads: the thread's rowwise group of each step, as
    ``load_group``'s (words, (t, row, in range))."""
    return [
        load_group(cfg.quantize, mX, position(cfg, tidx, row0, g0, rows, groups, k))
        for k in range(cfg.row_steps)
    ]


def tile_origin(cfg, tile, across):
    """Tile ``tile``'s first row and first group column (``tiles_per_sm``: tiles in row
    order, ``across`` a row of tiles)."""
    return Int64(tile // across) * cfg.tile_rows, Int64(tile % across) * TILE_GROUPS


def staged_address(cfg, stage, tidx, k, v):
    """The shared address of vector ``v`` of the thread's step-``k`` group in a stage
    (``staged_word``'s place of the group's word ``4 v``)."""
    q = cfg.quantize
    local = (tidx >> 3) + 32 * k
    w = staged_word(cfg, (tidx & (TILE_GROUPS - 1)) * q.words + 4 * v)
    return stage + (local * cfg.tile_words + w) * 4


def copy_tile(cfg, mX, tidx, row0, g0, rows, groups, stage):
    """``async_tiles``: ``cp.async`` of the thread's groups of a tile into ``stage``, at
    the places the rowwise stores would stage them, committed as one group."""
    for k in range(cfg.row_steps):
        t, _, _ = position(cfg, tidx, row0, g0, rows, groups, k)
        for v in range(cfg.quantize.words // 4):
            addr = staged_address(cfg, stage, tidx, k, v)
            copy_async_16(addr, group_address(cfg.quantize, mX, t) + v * 16)
    commit_async_copies()


def read_tile(cfg, tidx, stage, row0, g0, rows, groups):
    """``async_tiles``: the thread's groups of the tile in ``stage``, as ``load_tile``'s
    (words, (t, row, in range))."""
    loaded = []
    for k in range(cfg.row_steps):
        vectors = range(cfg.quantize.words // 4)
        addresses = [staged_address(cfg, stage, tidx, k, v) for v in vectors]
        words = [Uint32(w) for addr in addresses for w in load_shared_v4(addr)]
        loaded.append((words, position(cfg, tidx, row0, g0, rows, groups, k)))
    return loaded
