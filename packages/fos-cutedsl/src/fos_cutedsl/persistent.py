"""16-bit 1x16 per tensor: one CTA per SM, its warps taking units of work from a counter.

Why. With one CTA per block of groups (``rowwise``), a freed CTA slot stays
empty for a while before the next CTA starts, and every CTA builds the scale
table again. A static split over persistent CTAs does not help by itself:
co-resident CTAs progress at different rates, so the first ones finish early
and leave the SM half empty (``bench/NOTES.md``, "persistent kernel").

Here each CTA holds every warp an SM can (``threads`` = 768 at 80 registers)
and every ``grid``-th unit: CTA ``b`` takes units ``b + grid * i``, so the SMs
sweep the tensor side by side instead of each streaming its own far-apart
range. A unit is ``32 * groups_per_thread`` consecutive groups, lane ``l``'s
group ``k`` being ``32 k + l``. Each warp starts on ``i = warp``, then takes
the next ``i`` in order from a shared-memory counter (one atomic per unit), so
a warp that runs ahead takes more. The scale table and step 1 are built once
per SM.

Loads: ``prefetch`` groups ahead within a unit, and the next unit's first
``prefetch`` groups during this unit's last steps (``buffers``), so a warp's
loads never wait for a unit change. The groups go through
``group.fast_group`` and ``group.exact_group``: only who computes which group
differs from ``rowwise``, never a bit. The tensor's last unit, if it is
ragged, runs one group per lane and step, its undecided groups in the exact
path (inline, ptxas would predicate them for every group).
"""

from __future__ import annotations

import dataclasses

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint32

from .choice import choice_margin, global_scale
from .config import GROUP, QuantizeConfig, launch_bounds
from .exact import exact_group
from .fake import store_fake_group
from .group import (
    build_scale_table,
    fast_group,
    load_group,
    load_group_into,
    scaled_margin,
    store_group,
)
from .ieee import div_rn
from .offsets import amax_vector

WARP = 32


class PersistentKernel:
    """Host launcher and device kernel for a ``QuantizeConfig`` with ``persistent``."""

    def __init__(self, config: QuantizeConfig):
        assert config.persistent and config.threads % WARP == 0
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16, row-major
        mAmax: cute.Tensor,  # () float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        mAmax = amax_vector(mAmax)
        unit = WARP * self.cfg.groups_per_thread
        total = Int64(mX.shape[0]) * (Int64(mX.shape[1]) // GROUP)
        units = (total + (unit - 1)) // unit
        grid = Int32(cutlass.max(cutlass.min(units, Int64(self.cfg.sms)), Int64(1)))
        self.kernel(mX, mAmax, mCodes, mScales, total, units).launch(
            grid=[grid, 1, 1],
            block=[self.cfg.threads, 1, 1],
            smem=self.cfg.smem_bytes + 16,  # the table and the unit counter
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
        total: Int64,
        units: Int64,
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        lane = Int32(tidx) % WARP
        unit = WARP * cfg.groups_per_thread
        d = Float32(cfg.d)
        smem = cutlass.memory.SmemAllocator()
        table = smem.allocate_tensor(
            Float32, cute.make_layout((cfg.table_rows, 4), stride=(4, 1)), byte_alignment=16
        )
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)
        u, first_unit, stride, full, buffers = start_units(cfg, mX, counter, total)

        gamax = mAmax[0]
        s = global_scale(gamax, d)
        s_dec = div_rn(Float32(1.0), s)
        margin = scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))
        consts = (gamax, s, margin)
        if cutlass.const_expr(cfg.fake):  # fake-quantize: the dequantize's RN(1 / D)
            consts = (gamax, s, margin, div_rn(Float32(1.0), d))
        build_scale_table(cfg, table, s_dec, gamax)  # (its barrier also publishes the counter)

        while u < full:
            u = run_unit(
                cfg, mX, mCodes, mScales, table, counter, buffers, consts, s_dec, u,
                first_unit, stride, total,
            )  # fmt: skip

        # ======== the tensor's last unit, if ragged: the one warp that drew it
        if u == full:  # noqa: SIM102 (DSL: own if)
            if u < Int32(units):
                single = dataclasses.replace(cfg, undecided_inline=False)
                for k in cutlass.range(cfg.groups_per_thread, unroll=1):
                    t = Int64(u) * unit + Int64(lane + k * WARP)
                    if t < total:
                        words, _ = load_group(cfg, mX, (t, None, True))
                        slow = fast_group(
                            single, words, t, True, consts, 0, table, None, mX, mCodes, mScales
                        )
                        if slow != 0:
                            exact_store(cfg, mX, mCodes, mScales, t, s_dec, consts)


@cute.jit
def draw_unit(counter, first_unit, stride):
    """The warp's next unit, ``first_unit + stride * i`` for the next ``i`` of the counter."""
    tidx, _, _ = cute.arch.thread_idx()
    taken = Int32(0)
    if Int32(tidx) % WARP == 0:
        taken = cute.arch.atomic_add(counter.iterator, Int32(1), scope="cta")
    return first_unit + stride * cute.arch.shuffle_sync(taken, offset=0)


@cute.jit
def run_unit(
    cfg, mX, mCodes, mScales, table, counter, buffers, consts, s_dec, u, first_unit,
    stride, total, lookup=None,
):  # fmt: skip
    """Warp's unit ``u``: draws the next unit, runs this one's groups (the next one's
    first loads into ``buffers`` during the last steps) and returns the next unit (and,
    with ``lookup``, ``lookup(next unit)``, issued before this unit's groups)."""
    tidx, _, _ = cute.arch.thread_idx()
    lane = Int32(tidx) % WARP
    unit = WARP * cfg.groups_per_thread
    depth = min(cfg.prefetch, cfg.groups_per_thread)
    following = draw_unit(counter, first_unit, stride)
    looked_up = lookup(following) if lookup is not None else None
    first = Int64(u) * unit + Int64(lane)
    ahead = [(buffers[j], (first + j * WARP, None, True)) for j in range(depth)]
    flagged = Int32(0)  # bit k: group k needs the exact path
    for k in cutlass.range_constexpr(cfg.groups_per_thread):
        words, (t, _, in_range) = ahead[0]
        ahead = ahead[1:]
        if cutlass.const_expr(k + depth < cfg.groups_per_thread):
            ahead.append(load_group(cfg, mX, (first + (k + depth) * WARP, None, True)))
        else:  # the next unit's group j (its buffer was last read at step j < k)
            j = k + depth - cfg.groups_per_thread
            ahead_t = clamped_group(following, lane + j * WARP, unit, total)
            load_group_into(cfg, mX, ahead_t, buffers[j])
        slow = fast_group(cfg, words, t, in_range, consts, k, table, None, mX, mCodes, mScales)
        flagged = flagged | (slow << k)
    # ======== exact path, rare: the flagged groups of this unit
    if flagged != 0:
        for k in cutlass.range(cfg.groups_per_thread, unroll=1):
            if (flagged >> k) & 1 != 0:
                t = first + Int64(k) * WARP
                exact_store(cfg, mX, mCodes, mScales, t, s_dec, consts)
    return following if lookup is None else (following, looked_up)


@cute.jit
def start_units(cfg, mX, counter, total):
    """The warp's first unit, its first loads in flight, and the unit counter set:
    ``(u, first_unit, stride, full, buffers)`` (``counter`` is published by a later
    CTA barrier).

    This CTA's units are bidx + grid * i (i = 0, 1, ...): the SMs sweep the tensor
    side by side. Units below ``full`` hold whole groups only. (Unit indices fit 32
    bits: a drawn one passes ``units`` by less than warps * grid, and 2^31 units would
    be 2^42 elements.) Each warp's first unit is i = warp (its loads fly during the
    kernel's setup); the counter hands out the later i.
    """
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    grid, _, _ = cute.arch.grid_dim()
    unit = WARP * cfg.groups_per_thread
    first_unit, stride = Int32(bidx), Int32(grid)
    full = Int32(total // unit)
    u = first_unit + (Int32(tidx) // WARP) * stride
    depth = min(cfg.prefetch, cfg.groups_per_thread)
    buffers = [cute.make_rmem_tensor((cfg.words,), Uint32) for _ in range(depth)]
    load_unit_start(cfg, mX, u, buffers, total)
    if tidx == 0:
        counter[0] = Int32(cfg.threads // WARP)
    return u, first_unit, stride, full, buffers


def load_unit_start(cfg, mX, u, buffers, total):
    """Issue the loads of unit ``u``'s first ``len(buffers)`` groups of this lane."""
    tidx, _, _ = cute.arch.thread_idx()
    lane = Int32(tidx) % WARP
    unit = WARP * cfg.groups_per_thread
    for j in range(len(buffers)):
        load_group_into(cfg, mX, clamped_group(u, lane + j * WARP, unit, total), buffers[j])


def clamped_group(u, offset, unit, total):
    """Group ``offset`` of unit ``u``, or the tensor's last group past its end (valid memory)."""
    return cutlass.min(Int64(u) * unit + Int64(offset), total - 1)


@cute.jit
def exact_store(cfg, mX, mCodes, mScales, t, s_dec, consts):
    """Group ``t`` (in range) through the exact path, stored (``consts`` as ``fast_group``'s)."""
    gamax = consts[0]
    exact = exact_group(cfg, mX, None, (t, None, True), s_dec, gamax, Float32(cfg.d))
    t, _, word0, word1, scale = exact[:5]
    if cutlass.const_expr(cfg.fake):
        store_fake_group(cfg, mCodes, t, word0, word1, scale, None, gamax, consts[3])
    else:
        store_group(mCodes, mScales, t, word0, word1, scale)
