"""16-bit 16x16 per tensor: one CTA per SM, its warps taking strips of tile rows from a counter.

Why: as for 1x16 (``persistent``). ``TileKernel`` runs a CTA per 8 strips and
``K`` tile rows, so every CTA builds the scale table again and a freed CTA slot
stays empty until the next CTA starts.

Work item ``i`` is one warp's share of a ``TileKernel`` CTA: a strip (16 rows x 128
bytes, ``tile``'s lane layout) over ``K`` = ``groups_per_thread`` tile rows, in row
block ``i // strips`` and strip ``i % strips`` (strips fastest, as ``TileKernel``'s
grid). CTA ``b`` takes the items ``b + grid * j``, so the SMs sweep the tensor side by
side; each warp starts on ``j = warp`` and draws its next ``j`` from a shared-memory
counter (``persistent.draw_unit``). The next item's first ``prefetch`` units are
loaded during this item's last units. The arithmetic is ``tile``'s (``fast_unit`` per
unit, then ``rare_units``): only who computes which tile differs, never a bit.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint32

from .choice import choice_margin, global_scale
from .config import GROUP, QuantizeConfig, launch_bounds
from .group import build_scale_table, scaled_margin
from .ieee import div_rn
from .offsets import amax_vector
from .persistent import WARP, draw_unit
from .tile import Lanes, fast_unit, rare_units, strip_tiles
from .tile_math import ROWS_PER_LANE, load_unit_into


class TilePersistentKernel:
    """Host launcher and device kernel for a 16x16 ``QuantizeConfig`` with ``persistent``."""

    def __init__(self, config: QuantizeConfig):
        cfg = config
        assert cfg.block == "16x16" and cfg.persistent and not cfg.stage_stores and not cfg.fake
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16, row-major, R % 16 == 0
        mAmax: cute.Tensor,  # () float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        cfg = self.cfg
        mAmax = amax_vector(mAmax)
        tile_rows = Int64(mX.shape[0]) // GROUP
        tile_cols = Int64(mX.shape[1]) // GROUP
        per_strip = strip_tiles(cfg)
        strips = (tile_cols + (per_strip - 1)) // per_strip
        items = strips * ((tile_rows + (cfg.groups_per_thread - 1)) // cfg.groups_per_thread)
        grid = Int32(cutlass.max(cutlass.min(items, Int64(cfg.sms)), Int64(1)))
        kernel = self.kernel(
            mX, mAmax, mCodes, mScales, tile_rows, tile_cols, Int32(strips), Int32(items)
        )
        kernel.launch(
            grid=[grid, 1, 1],
            block=[cfg.threads, 1, 1],
            smem=cfg.smem_bytes + 16,  # the table and the item counter
            stream=stream,
            **launch_bounds(cfg.threads, cfg.min_blocks),
        )

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        tile_rows: Int64,
        tile_cols: Int64,
        strips: Int32,
        items: Int32,
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        grid, _, _ = cute.arch.grid_dim()
        d = Float32(cfg.d)
        smem = cutlass.memory.SmemAllocator()
        table = smem.allocate_tensor(
            Float32, cute.make_layout((cfg.table_rows, 4), stride=(4, 1)), byte_alignment=16
        )
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)
        arrays = (mX, mCodes, mScales, tile_rows, tile_cols)

        # The warp's first item, its first units' loads in flight during the setup.
        first, stride = Int32(bidx), Int32(grid)
        item = first + (Int32(tidx) // WARP) * stride
        row_block = item // strips
        strip = item - row_block * strips
        depth = min(cfg.prefetch, cfg.groups_per_thread)
        buffers = [
            [cute.make_rmem_tensor((4,), Uint32) for _ in range(ROWS_PER_LANE)]
            for _ in range(depth)
        ]
        start = Lanes(cfg, *arrays, cutlass.min(strip, strips - 1), Int64(row_block))
        for j in cutlass.range_constexpr(depth):
            load_unit_into(start, j, buffers[j])
        if tidx == 0:
            counter[0] = Int32(cfg.threads // WARP)

        gamax = mAmax[0]
        s = global_scale(gamax, d)
        s_dec = div_rn(Float32(1.0), s)
        margin = scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))
        consts = (gamax, s, s_dec, margin, d)
        build_scale_table(cfg, table, s_dec, gamax)  # (its barrier also publishes the counter)

        while item < items:
            item, row_block, strip = run_item(
                cfg, arrays, table, counter, buffers, consts, item, row_block, strip,
                first, stride, strips, items,
            )  # fmt: skip


@cute.jit
def run_item(
    cfg, arrays, table, counter, buffers, consts, item, row_block, strip, first, stride,
    strips, items,
):  # fmt: skip
    """The warp's item (in ``row_block`` and ``strip``): draws the next item, runs this
    one's units (the next one's first loads into ``buffers`` during the last units) and
    returns the next item with its row block and strip."""
    gamax, s, s_dec, margin, d = consts
    following = draw_unit(counter, first, stride)
    next_block = following // strips
    next_strip = following - next_block * strips
    lanes = Lanes(cfg, *arrays, strip, Int64(row_block))
    depth = min(cfg.prefetch, cfg.groups_per_thread)
    ahead = [[b[w] for b in buffers[j] for w in range(4)] for j in range(depth)]
    flagged = Int32(0)  # bit k: unit k's tile needs the exact path
    undecided_units = Int32(0)  # bit k: unit k's choice needs SPEC's errors
    for k in cutlass.range_constexpr(cfg.groups_per_thread):
        words = ahead[0]
        ahead = ahead[1:]
        if cutlass.const_expr(k + depth < cfg.groups_per_thread):
            rows = [cute.make_rmem_tensor((4,), Uint32) for _ in range(ROWS_PER_LANE)]
            load_unit_into(lanes, k + depth, rows)
            ahead.append([b[w] for b in rows for w in range(4)])
        else:  # the next item's unit j (its buffer's words were read at step j <= k)
            j = k + depth - cfg.groups_per_thread
            # Past the last item the loads read a valid strip's tiles, and nothing uses them.
            later = Lanes(cfg, *arrays, cutlass.min(next_strip, strips - 1), Int64(next_block))
            load_unit_into(later, j, buffers[j])
        slow, undecided = fast_unit(cfg, lanes, None, k, words, s, margin, table)
        flagged = flagged | (slow << k)
        undecided_units = undecided_units | (undecided << k)
    later = Lanes(cfg, *arrays, cutlass.min(next_strip, strips - 1), Int64(next_block))
    rare_units(
        cfg, lanes, None, flagged, undecided_units, s, s_dec, gamax, d, table,
        after=lambda: reload(later, buffers),
    )  # fmt: skip
    return following, next_block, next_strip


def reload(later, buffers):
    """The next item's first units loaded again (its words are not kept through the
    rare branch, so they cost it no registers)."""
    for j, rows in enumerate(buffers):
        load_unit_into(later, j, rows)
