"""One-warp register rows that loop over several rows (``RowAmaxConfig.rows_per_warp``),
the next row's copy in flight while this one is reduced and quantized.

Warp ``r`` of CTA ``b`` owns rows ``(b * rows_per_warp + k) * rows_per_cta + r`` for
``k < rows_per_warp`` (a CTA's warps read neighbouring rows at every step). Each lane
copies its groups of the next row into its own slots of the warp's shared stage
(``cp.async``, zeros past the row's end or the tensor's), so the copy needs no register
and no barrier: a lane reads back only the bytes it copied, after ``wait_copies``. A
step then runs the one-warp register row (``row_registers``): load the held groups from
the stage, fold, issue the next row's copies, butterfly, the row's table entry by 8 lanes
behind warp barriers, the groups through ``fast_group``. No CTA barrier, so a warp never
waits for another.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Int64, Uint8

from .config import GROUP
from .group import build_row_entry
from .memory import commit_copies, copy_async_if, load_shared_v4, wait_copies
from .row_fold import butterfly, finish, init_maxima
from .row_registers import VECTOR, WARP, fold_loaded, hold_group, quantize_held
from .row_tables import allocate_row_bytes, build_row_bytes


@cute.jit
def looping_rows(cfg, mX, mAmax, mCodes, mScales):
    """``rows_per_warp`` rows a warp, as the module says."""
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    team = Int32(tidx) // WARP
    lane = Int32(tidx) % WARP
    rows = Int64(mX.shape[0])
    cols = Int32(mX.shape[1])
    groups = cols // GROUP
    group_bytes = GROUP * cfg.itemsize
    vectors = group_bytes // VECTOR  # a group's 16-byte vectors

    smem = cutlass.memory.SmemAllocator()
    table = smem.allocate_tensor(
        Float32, cute.make_layout((cfg.rows_per_cta, 4), stride=(4, 1)), byte_alignment=16
    )
    mantissas = smem.allocate_tensor(
        Float32, cute.make_layout((cfg.rows_per_cta * 8, 2), stride=(2, 1)), byte_alignment=16
    )
    lookups = allocate_row_bytes(cfg, smem, mantissas)
    stage = smem.allocate_tensor(Uint8, cute.make_layout(cfg.stage_bytes), byte_alignment=16)
    # Slot (j, q) of a lane: vector q of its held group j, the warp's 32 lanes side by
    # side (512 contiguous bytes a slot: conflict-free 16-byte shared reads).
    mine = (
        Int32(stage.iterator.toint()) + team * (cfg.stage_bytes // cfg.rows_per_cta) + lane * VECTOR
    )

    first_row = Int64(bidx) * (cfg.rows_per_warp * cfg.rows_per_cta) + Int64(team)
    copy_row(cfg, mX, first_row, lane, mine)
    for k in cutlass.range(cfg.rows_per_warp, unroll=1):
        row = first_row + Int64(k) * cfg.rows_per_cta
        valid = Int32(row < rows)  # uniform over the warp
        wait_copies()
        held = []  # (here, group in the row, its words, group_amax: its maximum)
        acc = init_maxima(cfg)
        for j in cutlass.range_constexpr(cfg.groups_per_lane):
            g = lane + j * WARP
            words = []
            for q in cutlass.range_constexpr(vectors):
                vector = load_shared_v4(mine + (j * vectors + q) * (WARP * VECTOR))
                acc = fold_loaded(cfg, acc, vector)
                words += list(vector)
            acc, m = hold_group(cfg, acc, j, words)
            held.append((valid & Int32(g < groups), g, words, m))
        a = butterfly(finish(cfg, acc))  # every slot read: the next copies may land
        if k + 1 < cfg.rows_per_warp:
            copy_row(cfg, mX, row + cfg.rows_per_cta, lane, mine)
        cute.arch.sync_warp()  # the previous row's table reads are done
        if lane < 8:
            build_row_entry(cfg.quantize, table, mantissas, team, lane, a)
            if lane == 0 and valid != 0:
                mAmax[row] = a
        cute.arch.sync_warp()
        build_row_bytes(cfg, table, mantissas, lookups, team, lane)
        first = row * Int64(groups)  # the row's first group
        quantize_held(cfg, held, first, row, lane, table, lookups, mX, mAmax, mCodes, mScales)


@cute.jit
def copy_row(cfg, mX, row, lane, mine):
    """The lane's groups of ``row`` into its slots at ``mine`` (zeros where the row or a
    group does not exist), one copy group."""
    rows = Int64(mX.shape[0])
    groups = Int32(mX.shape[1]) // GROUP
    group_bytes = GROUP * cfg.itemsize
    vectors = group_bytes // VECTOR
    valid = Int32(row < rows)
    x_row = mX.iterator.toint() + cutlass.min(row, rows - 1) * Int64(groups * group_bytes)
    for j in cutlass.range_constexpr(cfg.groups_per_lane):
        g = lane + j * WARP
        here = valid & Int32(g < groups)
        at = x_row + Int64(g) * group_bytes  # not read where absent
        for q in cutlass.range_constexpr(vectors):
            copy_async_if(here, mine + (j * vectors + q) * (WARP * VECTOR), at + q * VECTOR)
    commit_copies()
