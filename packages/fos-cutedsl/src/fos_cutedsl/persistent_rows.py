"""Row-scaled 1x16 on the persistent kernel: each unit under the constants of its rows.

Why. The row-scaled ``rowwise`` kernel runs a CTA per 4 rows x 64 groups, and
its CTA slots stand empty between CTAs as the per-tensor kernel's did before
``persistent`` (``bench/NOTES.md``, v11: 83% of the slots busy). Here the
per-tensor ``persistent`` unit loop (``run_unit``) runs row-scaled groups.

A unit is 128 consecutive groups of the flattened tensor, so with 2048 or more
columns (128 groups a row) it covers at most two rows: ``row0`` and, from
position ``b1`` of the unit on, ``row0 + 1``. Each warp keeps two pairs of table
rows in shared memory (``PERSISTENT_ROW_SLOTS``): the rows of the unit it runs,
read by ``fast_group`` as the ``rowwise`` kernel reads its CTA's, and those of
the unit it drew next, built by 16 lanes (``group.build_row_entry``: 8 mantissas
a row) after the unit's first group, from amaxes loaded at the unit's start.
A warp barrier between units orders the pairs' reads and writes.

A unit that reaches a third row (narrower rows) and the tensor's ragged last
unit run every group through the exact path, under its own row's amax: exact
at any width, but slow below 2048 columns, where the launcher keeps ``rowwise``.
Same bits as ``rowwise``: the same ``fast_group`` and ``exact_group`` per group,
only who computes which group differs.
"""

from __future__ import annotations

from functools import partial

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint32
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

from .config import GROUP, PERSISTENT_ROW_SLOTS, QuantizeConfig, launch_bounds
from .group import build_row_entry, exact_group, load_group_into, store_group
from .ieee import _asm
from .offsets import RowAmax
from .persistent import WARP, clamped_group, draw_unit, run_unit


@dsl_user_op
def divmod_exact(n, d, *, loc=None, ip=None) -> tuple[Int64, Int64]:
    """``(n // d, n % d)`` for ``0 <= n < 2^52`` and ``d >= 1``, without a 64-bit divide.

    The float64 quotient ``RN(n * RN(1 / d))`` (``rcp.rn``: correctly rounded) is
    within ``n / d * 2^-51 < 1`` of ``n / d``, so its truncation is ``q`` or ``q - 1``
    (``q + 1`` only past ``2^52``); one step each way corrects it.
    """
    text = (
        "{ .reg .f64 a, r; .reg .s64 q, m; .reg .pred p;"
        " cvt.rn.f64.s64 a, $2; cvt.rn.f64.s64 r, $3; rcp.rn.f64 r, r; mul.rn.f64 a, a, r;"
        " cvt.rzi.s64.f64 q, a; mul.lo.s64 m, q, $3; sub.s64 m, $2, m;"
        " setp.ge.s64 p, m, $3; @p add.s64 q, q, 1; @p sub.s64 m, m, $3;"
        " setp.lt.s64 p, m, 0; @p sub.s64 q, q, 1; @p add.s64 m, m, $3;"
        " mov.b64 $0, q; mov.b64 $1, m; }"
    )
    res = _asm(
        llvm.StructType.get_literal([T.i64(), T.i64()]),
        [Int64(n).ir_value(loc=loc, ip=ip), Int64(d).ir_value(loc=loc, ip=ip)],
        text,
        "=l,=l,l,l",
    )
    q = Int64(llvm.extractvalue(T.i64(), res, [0], loc=loc, ip=ip))
    m = Int64(llvm.extractvalue(T.i64(), res, [1], loc=loc, ip=ip))
    return q, m


def unit_rows(v, unit, groups_per_row):
    """Unit ``v``'s first row and the position in it where the next row starts (>= 1)."""
    row0, rem = divmod_exact(Int64(v) * unit, groups_per_row)
    return row0, Int32(groups_per_row - rem)


class PersistentRowsKernel:
    """Host launcher and device kernel for a row-scaled ``QuantizeConfig`` with ``persistent``."""

    def __init__(self, config: QuantizeConfig):
        assert config.persistent and config.row_scaled and config.fake is None
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) row-major
        mAmax: cute.Tensor,  # (R,) float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        unit = WARP * self.cfg.groups_per_thread
        groups_per_row = Int64(mX.shape[1]) // GROUP
        total = Int64(mX.shape[0]) * groups_per_row
        units = (total + (unit - 1)) // unit
        grid = Int32(cutlass.max(cutlass.min(units, Int64(self.cfg.sms)), Int64(1)))
        self.kernel(mX, mAmax, mCodes, mScales, groups_per_row, total, units).launch(
            grid=[grid, 1, 1],
            block=[self.cfg.threads, 1, 1],
            smem=self.cfg.smem_bytes + 16,  # the table rows, mantissas and the unit counter
            stream=stream,
            **launch_bounds(self.cfg.threads, self.cfg.min_blocks),
        )

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        groups_per_row: Int64,
        total: Int64,
        units: Int64,
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        grid, _, _ = cute.arch.grid_dim()
        warp = Int32(tidx) // WARP
        lane = Int32(tidx) % WARP
        unit = WARP * cfg.groups_per_thread
        smem = cutlass.memory.SmemAllocator()
        table = smem.allocate_tensor(
            Float32, cute.make_layout((cfg.table_rows, 4), stride=(4, 1)), byte_alignment=16
        )
        mantissas = smem.allocate_tensor(
            Float32, cute.make_layout((cfg.table_rows * 8, 2), stride=(2, 1)), byte_alignment=16
        )
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)

        # As ``persistent``: this CTA's units are bidx + grid * i, below ``full`` whole.
        first_unit, stride = Int32(bidx), Int32(grid)
        full = Int32(total // unit)
        u = first_unit + warp * stride
        depth = min(cfg.prefetch, cfg.groups_per_thread)
        buffers = [cute.make_rmem_tensor((cfg.words,), Uint32) for _ in range(depth)]
        for j in cutlass.range_constexpr(depth):
            load_group_into(cfg, mX, clamped_group(u, lane + j * WARP, unit, total), buffers[j])
        if tidx == 0:
            counter[0] = Int32(cfg.threads // WARP)
        unused = (Float32(0.0),) * 3  # (fast_group reads row-scaled constants from the table)
        looked_up = _lookup(u, unit, groups_per_row, mAmax, lane)
        b1 = _build(cfg, table, mantissas, warp, lane, Int32(0), looked_up)[1]
        pair = Int32(0)  # the table rows of unit u
        cute.arch.sync_threads()  # the counter and the first table rows

        while u < Int32(units):
            wide = (b1 + Int32(groups_per_row) >= unit) & (u < full)  # two rows at most
            # Hooks as partials: the DSL's staged code takes no closure over Python objects.
            lookup = partial(_lookup, unit=unit, groups_per_row=groups_per_row, mAmax=mAmax,
                             lane=lane)  # fmt: skip
            build_next = partial(_build, cfg, table, mantissas, warp, lane, 1 - pair)
            exact_row = partial(_exact_row, cfg, mX, mAmax, mCodes, mScales, groups_per_row)
            if wide:
                base = warp * PERSISTENT_ROW_SLOTS + pair * 2

                def table_row(k, base=base, b1=b1):  # group k's row: row0, or row0 + 1
                    return base + Int32(lane + k * WARP >= b1)

                u, looked_up = run_unit(
                    cfg, mX, mCodes, mScales, table, counter, buffers, unused, None, u,
                    first_unit, stride, total, lookup, build_next,
                    (mantissas, table_row, exact_row),
                )  # fmt: skip
                b1 = looked_up[1]
            else:
                following = draw_unit(counter, first_unit, stride)
                for k in cutlass.range(cfg.groups_per_thread, unroll=1):
                    t = Int64(u) * unit + Int64(lane + k * WARP)
                    if t < total:
                        exact_row(t)
                b1 = build_next(lookup(following))[1]
                for j in cutlass.range_constexpr(depth):
                    at = clamped_group(following, lane + j * WARP, unit, total)
                    load_group_into(cfg, mX, at, buffers[j])
                u = following
            pair = 1 - pair
            cute.arch.sync_warp()  # this unit's table rows read, the next unit's written


def _lookup(v, unit, groups_per_row, mAmax, lane):
    """Unit ``v``'s ``(row0, b1)`` and the amax of this lane's row to build (lanes 0-7:
    row0, 8-15: row0 + 1; clamped to the last row)."""
    row0, b1 = unit_rows(v, unit, groups_per_row)
    last = Int64(mAmax.shape[0]) - 1
    return row0, b1, mAmax[cutlass.min(row0 + Int64(lane >> 3), last)]


@cute.jit
def _build(cfg, table, mantissas, warp, lane, pair, looked_up):
    """The table rows of ``_lookup``'s unit into the warp's ``pair``: lanes 0-15, 8
    mantissas a row (``group.build_row_entry``). Returns ``looked_up``."""
    if lane < 16:
        i = warp * PERSISTENT_ROW_SLOTS + pair * 2 + (lane >> 3)
        build_row_entry(cfg, table, mantissas, i, lane & 7, looked_up[2])
    return looked_up


@cute.jit
def _exact_row(cfg, mX, mAmax, mCodes, mScales, groups_per_row, t):
    """Group ``t`` through the exact path under its row's amax, stored."""
    row = t // groups_per_row
    exact = exact_group(cfg, mX, RowAmax(mAmax), (t, row, True), None, None, Float32(cfg.d))
    store_group(mCodes, mScales, exact[0], *exact[2:5])
