"""The 1x16 kernel with one CTA per block of groups: float32, and row-scaled 1x16.

(16-bit 1x16 per tensor runs ``persistent`` unless ``QuantizeConfig.persistent``
is False; 16x16 runs ``tile``. ``compile`` picks.)

Per thread: ``groups_per_thread`` 1x16 groups one CTA-wide stride apart, each
through ``group.fast_group`` (``prefetch`` later groups' 16-byte loads in
flight meanwhile); then, only if a group flagged itself, the exact path for
the flagged groups, one copy of its code in a run-time loop. With
``l2_ahead`` a CTA first asks L2 (one bulk prefetch from thread 0) for the
input of the CTA ``l2_ahead`` launches later.

Tiling. 256 threads per CTA (16-bit row-scaled: ``ROW_SCALED_THREADS``). Per
tensor, group ``t`` of the tensor is thread ``t % threads``'s of CTA
``t / (threads * groups_per_thread)``; a full CTA addresses its groups as
constant offsets from the thread's first, and only a ragged last CTA runs a
second, clamped copy of the loop. Row-scaled is 2-D: a CTA covers 64
consecutive groups of ``cta_rows`` rows (``threads / 64`` rows per step,
group ``k`` of a thread ``k`` steps below its first), so a thread's row needs
no division and the CTA's rows fit a small table. Threads past the end
re-read the last group and skip their stores. All addresses are computed in
64-bit integers (tensors over 2^31 elements are fine).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64

from .choice import choice_margin, global_scale
from .config import GROUP, QuantizeConfig, launch
from .exact import exact_group
from .fake import store_fake_group
from .group import (
    build_row_entry,
    build_scale_table,
    fast_group,
    group_address,
    load_group,
    scaled_margin,
    store_group,
)
from .ieee import div_rn
from .memory import prefetch_l2
from .offsets import RowAmax, amax_of_row, amax_vector, expert_of_row


class QuantizeKernel:
    """Host launcher and device kernel for one ``QuantizeConfig``."""

    def __init__(self, config: QuantizeConfig):
        if config.row_tables:
            raise ValueError("row_tables: only row_amax's kernels build the per-row tables")
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16/f32, row-major
        mAmax: cute.Tensor,  # () or (R,) float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        mAmax = amax_vector(mAmax)
        groups_per_row, total, grid = self.grid(mX)
        launch(self.cfg, self.kernel(mX, mAmax, mCodes, mScales, groups_per_row, total), grid,
               stream)  # fmt: skip

    def grid(self, mX: cute.Tensor):
        """(groups per row, groups, the launch grid) of ``mX``."""
        rows = Int64(mX.shape[0])
        groups_per_row = Int64(mX.shape[1]) // GROUP
        total = rows * groups_per_row  # one 1x16 group per thread and step
        per_block = self.cfg.threads * self.cfg.groups_per_thread
        grid = [Int32((total + (per_block - 1)) // per_block), 1, 1]
        if cutlass.const_expr(self.cfg.row_scaled):
            # 2-D: CTA (x, y) covers rows [x * cta_rows, ...) and groups [64 y, 64 y + 64)
            # (row blocks first: measured faster than column blocks first).
            rows_per = self.cfg.cta_rows
            grid = [
                Int32((rows + (rows_per - 1)) // rows_per),
                Int32((groups_per_row + 63) // 64),
                1,
            ]
        return groups_per_row, total, grid

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        groups_per_row: Int64,
        total: Int64,
    ):
        quantize_groups(self.cfg, mX, RowAmax(mAmax), mCodes, mScales, groups_per_row, total)


@cute.jit
def quantize_groups(cfg, mX, amax: RowAmax, mCodes, mScales, groups_per_row: Int64, total: Int64):
    """The kernel's body: this CTA's groups; row-scaled rows take their amax from ``amax``."""
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    rows = Int64(mX.shape[0])
    d = Float32(cfg.d)
    smem = cutlass.memory.SmemAllocator()
    # Per tensor: (inv, y, K, J) per scale byte; row-scaled: (gamax, s, inv of a
    # zero scale, margin) per row of the CTA, and (Y_j, INV_j) per row and mantissa.
    table = smem.allocate_tensor(
        Float32, cute.make_layout((cfg.table_rows, 4), stride=(4, 1)), byte_alignment=16
    )
    mantissas = None
    if cutlass.const_expr(cfg.row_scaled):
        mantissas = smem.allocate_tensor(
            Float32, cute.make_layout((cfg.table_rows * 8, 2), stride=(2, 1)), byte_alignment=16
        )
    chunk = Int64(bidx) * (cfg.threads * cfg.groups_per_thread)
    first = chunk + Int64(tidx)
    flagged = Int32(0)  # bit k: group k needs the exact path
    gamax = amax.tensor[0]
    grouped_tables = amax.offsets is not None and not cfg.row_scaled
    expert_end = total  # grouped tables: the groups of the CTA's expert end here
    if cutlass.const_expr(grouped_tables):
        gamax, expert_end = _cta_expert(amax, chunk, groups_per_row)
    s = global_scale(gamax, d)
    s_dec = div_rn(Float32(1.0), s)
    margin = scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))
    consts = (gamax, s, margin)
    factor_inv = None
    if cutlass.const_expr(cfg.fake):  # fake-quantize: the dequantize's RN(1 / D)
        factor_inv = div_rn(Float32(1.0), d)
        consts = (gamax, s, margin, factor_inv)
    # Full CTAs run a copy without clamps (each group's addresses are
    # constant offsets from the thread's first); the last CTA, if ragged,
    # runs a clamped copy.
    per_block = cfg.threads * cfg.groups_per_thread
    full = Int32(chunk + per_block <= total)
    row_lo = Int64(0)
    if cutlass.const_expr(cfg.row_scaled):
        row_lo = Int64(bidx) * cfg.cta_rows
        full = Int32(row_lo + cfg.cta_rows <= rows) & Int32(
            (Int64(cute.arch.block_idx()[1]) + 1) * 64 <= groups_per_row
        )
    for copy in cutlass.range_constexpr(2):
        ragged = copy == 1
        if (full if copy == 0 else 1 - full) != 0:
            # Each thread takes groups_per_thread groups, one CTA-wide stride apart
            # (coalesced); threads past the end redo the last group and store
            # nothing. Software
            # pipelining: ``prefetch`` groups' loads are in flight while one is
            # computed; the first ones fly during step 1 and the table build.
            at = _Position(cfg, first, rows, groups_per_row, total, ragged)
            if cutlass.const_expr(cfg.l2_ahead > 0 and not ragged):
                _prefetch_later_cta(cfg, mX, chunk, total)
            depth = min(cfg.prefetch, cfg.groups_per_thread)
            ahead = [load_group(cfg, mX, at.group(k)) for k in range(depth)]
            if cutlass.const_expr(cfg.row_scaled):
                # Row-scaled: step 1 once per row of the CTA, and per row and
                # mantissa j the constants of ``choice.row_candidate`` (8 threads
                # a row). Rows outside choose_by_bound's model get NaN there, so
                # their nonzero scales take the exact path.
                if tidx < cfg.cta_rows * 8:
                    i, j = Int32(tidx) >> 3, Int32(tidx) & 7
                    g = amax_of_row(amax, cutlass.min(row_lo + Int64(i), rows - 1))
                    build_row_entry(cfg, table, mantissas, i, j, g)
                cute.arch.sync_threads()
            else:
                # Per tensor: step 1 once, and the per-scale-byte constants of steps
                # 4-6 (inv, y, K, J) once per CTA, one byte per thread.
                build_scale_table(cfg, table, s_dec, gamax)
            for k in cutlass.range_constexpr(cfg.groups_per_thread):
                # ======== fast path of one 1x16 group
                words, (t, _, in_range) = ahead[0]
                ahead = ahead[1:]
                if cutlass.const_expr(k + depth < cfg.groups_per_thread):
                    ahead.append(load_group(cfg, mX, at.group(k + depth)))
                store_it = in_range
                if cutlass.const_expr(grouped_tables):  # a later expert's group: exact path
                    ours = t < expert_end
                    store_it = ours if in_range is True else in_range & ours
                slow = fast_group(
                    cfg, words, t, store_it, consts, k, table, mantissas,
                    mX, mCodes, mScales,
                )  # fmt: skip
                if cutlass.const_expr(grouped_tables):
                    slow = slow | (Int32(ours) ^ 1)
                flagged = flagged | (slow << k)

    # ======== exact path, rare: one copy of its code, run-time loop over the flags
    if flagged != 0:
        for k in cutlass.range(cfg.groups_per_thread, unroll=1):
            if (flagged >> k) & 1 != 0:
                redo = _Position(cfg, first, Int64(mX.shape[0]), groups_per_row, total, True)
                if cutlass.const_expr(grouped_tables):  # the group's own expert's amax
                    exact = _exact_own_expert(cfg, mX, amax, redo.group(k), groups_per_row, d)
                else:
                    exact = exact_group(cfg, mX, amax, redo.group(k), s_dec, gamax, d)
                t, in_range, word0, word1, scale = exact[:5]
                if in_range:
                    if cutlass.const_expr(cfg.fake):
                        g = exact[5]  # the group's global amax (row-scaled: its row's)
                        fi = factor_inv
                        store_fake_group(cfg, mCodes, t, word0, word1, scale, None, g, fi)
                    else:
                        store_group(mCodes, mScales, t, word0, word1, scale)


def _cta_expert(amax: RowAmax, chunk, groups_per_row):
    """Grouped tables: the global amax of the expert owning the CTA's first group, and
    the group index where that expert's rows end (its later groups take the exact path)."""
    e = expert_of_row(amax.offsets, chunk // groups_per_row)
    return amax.tensor[e], Int64(amax.offsets[e + 1]) * groups_per_row


def _exact_own_expert(cfg, mX, amax: RowAmax, position, groups_per_row, d):
    """``exact_group`` of a per-tensor group under its own row's expert's amax."""
    t, _, in_range = position
    row = t // groups_per_row
    g = amax_of_row(amax, row)
    return exact_group(cfg, mX, amax, (t, row, in_range), div_rn(Float32(1.0), global_scale(g, d)),
                       g, d)  # fmt: skip


def _prefetch_later_cta(cfg, mX, chunk, total):
    """Ask L2 for the input of the CTA ``l2_ahead`` launches later, if that one is full.

    A CTA's groups are one contiguous range, so one thread's one
    ``cp.async.bulk.prefetch.L2`` covers it. The loads a thread keeps in flight
    (``prefetch``) do not hide the DRAM latency for 16-bit inputs; this holds no
    registers, and the later CTA's loads then hit L2.
    """
    tidx, _, _ = cute.arch.thread_idx()
    per_block = cfg.threads * cfg.groups_per_thread
    later = chunk + cfg.l2_ahead * per_block
    wanted = Int32(tidx == 0) & Int32(later + per_block <= total)
    start = cutlass.min(later, total - 1)  # a valid address even where not wanted
    prefetch_l2(wanted, group_address(cfg, mX, start), per_block * cfg.words * 4)


class _Position:
    """Where a thread's k-th group lies: (group index t, its row, in range).

    1x16 per tensor: ``first + k * threads`` (no row). Row-scaled 1x16 (2-D
    grid): column ``64 * block_y + tid % 64`` of row
    ``cta_rows * block_x + tid / 64 + k * row_lanes``, no division. Past the
    end a thread takes the last row or column: valid memory, no store.
    """

    def __init__(self, cfg, first, rows, groups_per_row, total, ragged):
        self.cfg = cfg
        self.first = first
        self.groups_per_row = groups_per_row
        self.total = total
        self.ragged = ragged
        if cutlass.const_expr(cfg.row_scaled):
            tidx, _, _ = cute.arch.thread_idx()
            bidx, bidy, _ = cute.arch.block_idx()
            self.col = Int64(bidy) * 64 + Int64(Int32(tidx) & 63)
            self.row0 = Int64(bidx) * cfg.cta_rows + Int64(Int32(tidx) >> 6)
            self.t0 = self.row0 * groups_per_row + self.col
            self.step = groups_per_row * cfg.row_lanes  # k -> k + 1: row_lanes rows down
            self.rows = rows

    def group(self, k):
        cfg = self.cfg
        v = self.first + k * cfg.threads
        if cutlass.const_expr(cfg.row_scaled):
            row, col = self.row0 + k * cfg.row_lanes, self.col
            if cutlass.const_expr(not self.ragged):
                return (self.t0 + k * self.step, row, True)  # a full CTA
            in_range = (row < self.rows) & (col < self.groups_per_row)
            row = cutlass.min(row, self.rows - 1)
            col = cutlass.min(col, self.groups_per_row - 1)
            return (row * self.groups_per_row + col, row, in_range)
        if cutlass.const_expr(self.ragged):
            t, in_range = cutlass.min(v, self.total - 1), v < self.total
        else:
            t, in_range = v, True  # a full CTA: every group exists
        return (t, None, in_range)
