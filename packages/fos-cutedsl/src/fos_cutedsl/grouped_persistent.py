"""16-bit grouped 1x16: the persistent per-tensor kernel with each unit under its expert's table.

Why. The row-scaled grouped kernel (``grouped.GroupedQuantizeKernel``) pays a
binary search of the offsets and a row's constants ahead of each CTA, and the
row-scaled fast path's per-group arithmetic; the per-tensor ``persistent``
kernel needs neither, only the scale table of one global amax, which a CTA
cannot hold for hundreds of experts (4 KB each).

So two launches from one call, on the caller's stream:

1. ``setup``: every expert's scale table (``group.scale_entry`` under
   ``gamax[e]``) and constants ``(gamax, s, margin, s_dec)``, and for every
   unit (``persistent``'s 32 x ``groups_per_thread`` consecutive groups) the
   expert owning all its rows, or ``-1 - e`` where its rows span experts from
   ``e`` on. The offsets are searched in shared memory (``offsets.expert_of_row``).
2. ``kernel``: ``persistent``'s unit loop (``run_unit``) with the unit's
   expert's constants and table, read through L1 from the workspace. A mixed
   unit (at most E - 1) and the tensor's ragged last unit run one group per
   lane and step, each group under its own row's expert. The kernel is a
   programmatic dependent launch: its CTAs start, and issue their first loads
   of x, while the setup finishes, and wait for it (``griddepcontrol.wait``)
   before reading the workspace.

The workspace is caller-owned float32 (``workspace_floats``): tables, then
constants, then the unit map (expert indices as float32 bit patterns). Same
bits as the row-scaled grouped kernel: each slice under its expert's amax,
group by group as SPEC says.
"""

from __future__ import annotations

import dataclasses

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64

from .choice import choice_margin, global_scale
from .config import GROUP, PERSISTENT_TUNING, TABLE, QuantizeConfig, launch_bounds
from .group import fast_group, load_group, scale_entry, scaled_margin
from .ieee import as_f32, div_rn, f32_bits
from .offsets import expert_of_row
from .persistent import WARP, draw_unit, exact_store, load_unit_start, run_unit, start_units

ENTRY = 4  # floats a table entry: (inv, y, K, J)
CONSTS = 4  # floats an expert's constants: (gamax, s, margin, s_dec)
# Experts up to this many take this kernel (their offsets fit the setup's shared memory,
# the tables 4 MB); more take the row-scaled grouped kernel.
MAX_EXPERTS = 1024
SETUP_THREADS = 256


def units_of(rows: int, cols: int, groups_per_thread: int = PERSISTENT_TUNING[0]) -> int:
    """The persistent kernel's units of a (rows, cols) input."""
    unit = WARP * groups_per_thread
    return (rows * (cols // GROUP) + unit - 1) // unit


def workspace_floats(
    rows: int, cols: int, experts: int, groups_per_thread: int = PERSISTENT_TUNING[0]
) -> int:
    """float32 elements of the workspace: E tables, E constants, the unit map (for a
    kernel of ``groups_per_thread``: the default tuning's unless the caller's differs)."""
    return experts * (TABLE * ENTRY + CONSTS) + units_of(rows, cols, groups_per_thread) * CONSTS


def _views(mWork: cute.Tensor, experts, units):
    """The workspace as (tables (E * TABLE, 4), consts (E, 4), unit map (U, 4))."""
    base = mWork.iterator
    tables = cute.make_tensor(base, cute.make_layout((experts * TABLE, ENTRY), stride=(ENTRY, 1)))
    consts_at = base + experts * (TABLE * ENTRY)
    consts = cute.make_tensor(consts_at, cute.make_layout((experts, CONSTS), stride=(CONSTS, 1)))
    unit_map = cute.make_tensor(
        consts_at + experts * CONSTS, cute.make_layout((units, CONSTS), stride=(CONSTS, 1))
    )
    return tables, consts, unit_map


def _expert_table(tables, e):
    """Expert ``e``'s (TABLE, 4) scale table of ``tables`` (gmem or smem; 16-byte entries,
    read as one load each)."""
    base = tables.iterator
    at = base.toint() + type(base.toint())(e) * (TABLE * ENTRY * 4)
    base = cute.make_ptr(Float32, at, base.memspace, assumed_align=16)
    return cute.make_tensor(base, cute.make_layout((TABLE, ENTRY), stride=(ENTRY, 1)))


def _expert(tables, consts, e):
    """Expert ``e``'s scale table, ``fast_group`` constants ``(gamax, s, margin)``, ``s_dec``."""
    return _expert_table(tables, e), (consts[e, 0], consts[e, 1], consts[e, 2]), consts[e, 3]


def _setup_jobs(experts, units):
    """The setup's jobs: a table entry each (E x TABLE), a unit's owner each (U), overlaid."""
    return cutlass.max(experts * TABLE, units)


@cute.jit
def _shared_offsets(smem, mOffsets, experts, threads):
    """The E + 1 offsets copied into shared memory by the CTA's ``threads`` (visible after
    the caller's barrier), as a tensor (at most ``MAX_EXPERTS`` + 1 of them)."""
    tidx, _, _ = cute.arch.thread_idx()
    offsets = smem.allocate_tensor(
        mOffsets.element_type, cute.make_layout(MAX_EXPERTS + 1), byte_alignment=16
    )
    count = cutlass.min(Int32(experts) + 1, Int32(MAX_EXPERTS + 1))  # (never past smem)
    for i in cutlass.range(Int32(tidx), count, threads, unroll=1):
        offsets[i] = mOffsets[i]
    return cute.make_tensor(offsets.iterator, cute.make_layout((count,)))


def _margin(cfg, gamax):
    """``fast_group``'s choice margin under ``gamax`` (``persistent``'s, per expert)."""
    return scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))


class GroupedPersistentKernel:
    """Host launcher and device kernels for a persistent 16-bit 1x16 ``QuantizeConfig``."""

    def __init__(self, config: QuantizeConfig):
        assert config.persistent and config.width == 16 and not config.fake
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (T, C) bf16/f16, row-major
        mAmax: cute.Tensor,  # (E,) float32, 1 <= E <= MAX_EXPERTS
        mOffsets: cute.Tensor,  # (E + 1,) int32 or int64
        mCodes: cute.Tensor,  # (T, C/2) uint8
        mScales: cute.Tensor,  # (T, C/16) uint8
        mWork: cute.Tensor,  # (workspace_floats,) float32
        stream: CUstream,
    ):
        cfg = self.cfg
        unit = WARP * cfg.groups_per_thread
        groups_per_row = Int64(mX.shape[1]) // GROUP
        total = Int64(mX.shape[0]) * groups_per_row
        units = (total + (unit - 1)) // unit
        experts = Int64(mAmax.shape[0])
        jobs = _setup_jobs(experts, units)
        setup_grid = (jobs + (SETUP_THREADS - 1)) // SETUP_THREADS
        self.setup(mAmax, mOffsets, mWork, groups_per_row, total, units).launch(
            grid=[Int32(setup_grid), 1, 1],
            block=[SETUP_THREADS, 1, 1],
            smem=(MAX_EXPERTS + 1) * 8 + 16,  # the offsets
            stream=stream,
        )
        grid = Int32(cutlass.max(cutlass.min(units, Int64(cfg.sms)), Int64(1)))
        self.kernel(mX, mOffsets, mCodes, mScales, mWork, groups_per_row, total, units).launch(
            grid=[grid, 1, 1],
            block=[cfg.threads, 1, 1],
            smem=32,  # the unit counter
            stream=stream,
            use_pdl=True,  # starts while the setup runs; waits before the workspace
            **launch_bounds(cfg.threads, cfg.min_blocks),
        )

    @cute.kernel
    def setup(
        self,
        mAmax: cute.Tensor,
        mOffsets: cute.Tensor,
        mWork: cute.Tensor,
        groups_per_row: Int64,
        total: Int64,
        units: Int64,
    ):
        threads = SETUP_THREADS
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        cute.arch.griddepcontrol_launch_dependents()  # (the kernel still waits for the end)
        job = Int64(bidx) * threads + Int64(tidx)
        experts = Int64(mAmax.shape[0])
        tables, consts, unit_map = _views(mWork, experts, units)
        shared = _shared_offsets(cutlass.memory.SmemAllocator(), mOffsets, experts, threads)
        cute.arch.sync_threads()  # (the offsets, for the unit map's searches)
        self.setup_job(mAmax, tables, consts, unit_map, shared, job, groups_per_row, total, units)

    @cute.jit
    def setup_job(self, mAmax, tables, consts, unit_map, shared, job, groups_per_row, total, units):
        """Setup job ``job``: a table entry (and an expert's constants), a unit's owner."""
        cfg = self.cfg
        experts = Int64(mAmax.shape[0])
        if job < experts * TABLE:  # table entry (e, byte), and expert e's constants
            e, byte = job // TABLE, Int32(job % TABLE)
            gamax = mAmax[e]
            s = global_scale(gamax, Float32(cfg.d))
            s_dec = div_rn(Float32(1.0), s)
            scale_entry(cfg, byte, s_dec, gamax, tables[job, None])
            if byte == 0:
                values = (gamax, s, _margin(cfg, gamax), s_dec)
                for c in cutlass.range_constexpr(CONSTS):
                    consts[e, c] = values[c]
        if job < units:  # unit `job`'s owner (mixed: -1 - its first expert), its constants
            unit = WARP * cfg.groups_per_thread
            first = job * unit
            last = cutlass.min(first + unit, total) - 1
            first_expert = expert_of_row(shared, first // groups_per_row)
            owner = first_expert
            if last // groups_per_row >= Int64(shared[first_expert + 1]):
                owner = -1 - first_expert
            unit_gamax = mAmax[first_expert]
            margin = _margin(cfg, unit_gamax)
            values = (as_f32(owner), unit_gamax, global_scale(unit_gamax, Float32(cfg.d)), margin)
            for c in cutlass.range_constexpr(CONSTS):
                unit_map[job, c] = values[c]

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mOffsets: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        mWork: cute.Tensor,
        groups_per_row: Int64,
        total: Int64,
        units: Int64,
    ):
        cfg = self.cfg
        experts = Int64(mOffsets.shape[0]) - 1
        tables, consts, unit_map = _views(mWork, experts, units)
        last_unit = Int32(units) - 1
        smem = cutlass.memory.SmemAllocator()
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)

        def owner_of(v):  # unit v's (owner, gamax, s, margin); past the end: the last's
            i = cutlass.min(v, last_unit)
            owner = f32_bits(unit_map[i, 0])
            return owner, (unit_map[i, 1], unit_map[i, 2], unit_map[i, 3])

        u, first_unit, stride, full, buffers = start_units(cfg, mX, counter, total)
        cute.arch.sync_threads()
        cute.arch.griddepcontrol_wait()  # the setup's workspace, complete and visible
        owner, unit_consts = owner_of(u)

        while u < Int32(units):
            if (owner >= 0) & (u < full):
                table = _expert_table(tables, owner)
                s_dec = consts[owner, 3]  # (the exact path's)
                u, looked_up = run_unit(
                    cfg, mX, mCodes, mScales, table, counter, buffers, unit_consts, s_dec, u,
                    first_unit, stride, total, owner_of,
                )  # fmt: skip
                owner, unit_consts = looked_up
            else:
                u, (owner, unit_consts) = _mixed_unit(
                    cfg, mX, mOffsets, mCodes, mScales, tables, consts, counter, buffers, u,
                    first_unit, stride, total, groups_per_row, owner_of,
                )  # fmt: skip


@cute.jit
def _mixed_unit(
    cfg, mX, mOffsets, mCodes, mScales, tables, consts, counter, buffers, u, first_unit,
    stride, total, groups_per_row, owner_of,
):  # fmt: skip
    """Unit ``u`` one group per lane and step, each under its row's expert (a unit whose
    rows span experts, or the ragged last one); then the next unit's first loads.
    Returns the next unit and its owner, as ``run_unit``."""
    tidx, _, _ = cute.arch.thread_idx()
    lane = Int32(tidx) % WARP
    unit = WARP * cfg.groups_per_thread
    following = draw_unit(counter, first_unit, stride)
    looked_up = owner_of(following)
    single = dataclasses.replace(cfg, undecided_inline=False)
    first_expert = owner_of(u)[0]
    if first_expert < 0:
        first_expert = -1 - first_expert
    first_end = Int64(mOffsets[first_expert + 1])  # the first expert's rows end here
    for k in cutlass.range(cfg.groups_per_thread, unroll=1):
        t = Int64(u) * unit + Int64(lane + k * WARP)
        if t < total:
            row = t // groups_per_row
            e = first_expert
            if row >= first_end:
                e = expert_of_row(mOffsets, row)
            table, fast_consts, s_dec = _expert(tables, consts, e)
            words, _ = load_group(cfg, mX, (t, None, True))
            slow = fast_group(
                single, words, t, True, fast_consts, 0, table, None, mX, mCodes, mScales
            )
            if slow != 0:
                exact_store(cfg, mX, mCodes, mScales, t, s_dec, fast_consts)
    load_unit_start(cfg, mX, following, buffers, total)
    return following, looked_up
