"""The row-amax kernel's rows held in registers (``RowAmaxConfig.register_rows``), and the
meeting of several warps' maxima that both of its tilings use.

A team of ``row_warps`` warps owns a row; a lane holds ``groups_per_lane`` of its groups,
loaded straight from x (nothing staged), folds them (``row_fold``), and the team's amax
builds the row's table entry; the groups then go from registers through ``fast_group``.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Int64

from .config import GROUP
from .exact import exact_group
from .group import build_row_entry, fast_group, store_group
from .ieee import fmax
from .memory import load_v4_if, prefetch_l2
from .offsets import RowAmax
from .row_fold import butterfly, finish, fold_group, fold_vector, group_max, init_maxima
from .row_tables import allocate_row_bytes, build_row_bytes

WARP = 32
VECTOR = 16  # bytes per load


def prefetch_later_rows(cfg, mX, row_lo, rows, row_bytes):
    """``l2_ahead``: one thread asks L2 for the rows of the CTA ``l2_ahead`` launches later
    (one ``cp.async.bulk.prefetch.L2``, no registers held), if that CTA's rows all exist."""
    if cutlass.const_expr(cfg.l2_ahead > 0):
        tidx, _, _ = cute.arch.thread_idx()
        later = row_lo + cfg.l2_ahead * cfg.rows_per_cta
        wanted = Int32(tidx == 0) & Int32(later + cfg.rows_per_cta <= rows)
        start = cutlass.min(later, rows - 1)  # a valid address even where not wanted
        at = mX.iterator.toint() + start * Int64(row_bytes)
        prefetch_l2(wanted, at, row_bytes * cfg.rows_per_cta)


@cute.jit
def register_rows(cfg, mX, mAmax, mCodes, mScales):
    """``register_rows``: team ``r`` (``row_warps`` warps) of CTA ``b`` owns row
    ``b * rows_per_cta + r``; its thread ``l`` holds the row's groups ``l + team * j``
    (``j < groups_per_lane``, predicated past the row's end). The amax: a butterfly per
    warp (then the team's warps through shared memory); 8 threads build the row's
    table entry (table row ``r``: ``row_threads`` = team); the groups then go from
    registers through ``fast_group``."""
    qcfg = cfg.quantize
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    team = Int32(tidx) // cfg.team
    member = Int32(tidx) % cfg.team
    rows = Int64(mX.shape[0])
    cols = Int32(mX.shape[1])
    groups = cols // GROUP
    row_lo = Int64(bidx) * cfg.rows_per_cta
    row = row_lo + Int64(team)
    valid = Int32(row < rows)  # uniform over the team
    group_bytes = GROUP * cfg.itemsize
    x_row = mX.iterator.toint() + cutlass.min(row, rows - 1) * Int64(cols * cfg.itemsize)
    first = row * Int64(groups)  # the row's first group

    smem = cutlass.memory.SmemAllocator()
    table = smem.allocate_tensor(
        Float32, cute.make_layout((cfg.rows_per_cta, 4), stride=(4, 1)), byte_alignment=16
    )
    mantissas = smem.allocate_tensor(
        Float32, cute.make_layout((cfg.rows_per_cta * 8, 2), stride=(2, 1)), byte_alignment=16
    )

    prefetch_later_rows(cfg, mX, row_lo, rows, cols * cfg.itemsize)
    held = []  # (here, group in the row, its words, group_amax: its maximum)
    acc = init_maxima(cfg)
    for j in cutlass.range_constexpr(cfg.groups_per_lane):
        g = member + j * cfg.team
        here = valid & Int32(g < groups)
        at = x_row + Int64(g) * group_bytes
        words = []
        for q in cutlass.range_constexpr(group_bytes // VECTOR):
            vector = load_v4_if(here, at + q * VECTOR)
            if cutlass.const_expr(not cfg.given_amax and not cfg.group_amax):
                acc = fold_vector(cfg, acc, vector)
            words += list(vector)
        m = None
        if cutlass.const_expr(cfg.group_amax):
            m = group_max(cfg, words)
            acc = fold_group(cfg, acc, j % 4, m)
        held.append((here, g, words, m))
    if cutlass.const_expr(cfg.given_amax):
        # Each row's table entry from the caller's amax: 8 threads of its team, then
        # the barrier of the team's width.
        if member < 8:
            given = mAmax[cutlass.min(row, rows - 1)]
            build_row_entry(qcfg, table, mantissas, team, member, given)
        if cutlass.const_expr(cfg.row_warps == 1):
            cute.arch.sync_warp()
        else:
            cute.arch.sync_threads()
    elif cutlass.const_expr(cfg.row_warps == 1 and not cfg.cta_build):
        a = butterfly(finish(cfg, acc))
        if member < 8:
            build_row_entry(qcfg, table, mantissas, team, member, a)
            if member == 0 and valid != 0:
                mAmax[row] = a
        cute.arch.sync_warp()
    else:
        partial = smem.allocate_tensor(
            Float32, cute.make_layout(cfg.threads // WARP), byte_alignment=16
        )  # one per warp
        warp_partials_rows(cfg, butterfly(finish(cfg, acc)), partial, table, mantissas,
                            mAmax, row_lo, rows)  # fmt: skip

    lookups = allocate_row_bytes(cfg, smem, mantissas)
    build_row_bytes(cfg, table, mantissas, lookups, team, member)
    zero = Float32(0.0)  # fast_group reads (gamax, s, margin) from the table
    flagged = Int32(0)  # bit j: group member + team * j needs the exact path
    for j in cutlass.range_constexpr(cfg.groups_per_lane):
        here, g, words, m = held[j]
        slow = fast_group(
            qcfg, words, first + Int64(g), here != 0, (zero, zero, zero), 0, table, lookups,
            mX, mCodes, mScales, group_amax=m,
        )  # fmt: skip
        flagged = flagged | ((slow & here) << j)
    if flagged != 0:
        d = Float32(qcfg.d)
        for j in cutlass.range(cfg.groups_per_lane, unroll=1):
            if (flagged >> j) & 1 != 0:
                t = first + Int64(member + j * cfg.team)
                t, _, word0, word1, scale = exact_group(
                    qcfg, mX, RowAmax(mAmax), (t, row, True), zero, zero, d
                )
                store_group(mCodes, mScales, t, word0, word1, scale)


@cute.jit
def warp_partials_rows(cfg, a, partial, table, mantissas, mAmax, row_lo, rows):
    """Rows of several warps each (``cfg.team`` threads): the warps' maxima ``a`` meet in
    ``partial``; 8 threads a row build its table entry (step 1 and the mantissa
    constants, ``rowwise``'s table) and one writes its amax. Ends on a CTA barrier: the
    table is ready."""
    tidx, _, _ = cute.arch.thread_idx()
    warp = Int32(tidx) // WARP
    warps = cfg.team // WARP  # per row
    if Int32(tidx) % WARP == 0:
        partial[warp] = a
    cute.arch.sync_threads()
    if tidx < cfg.rows_per_cta * 8:
        i, m = Int32(tidx) >> 3, Int32(tidx) & 7
        row_amax = partial[warps * i]
        for w in cutlass.range_constexpr(1, warps):
            row_amax = fmax(row_amax, partial[warps * i + w])
        build_row_entry(cfg.quantize, table, mantissas, i, m, row_amax)
        if m == 0 and row_lo + Int64(i) < rows:
            mAmax[row_lo + Int64(i)] = row_amax
    cute.arch.sync_threads()
