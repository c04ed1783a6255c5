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
# search: the kernel's smem for every expert's first group (int64) and constants.
SEARCH_SMEM = (MAX_EXPERTS + 1) * 8 + 16 + MAX_EXPERTS * CONSTS * 4
LOCAL_EXPERTS = 16  # local_tables: at most this many experts, their tables built per CTA


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


def _margin(cfg, gamax):
    """``fast_group``'s choice margin under ``gamax`` (``persistent``'s, per expert)."""
    return scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))


class GroupedPersistentKernel:
    """Host launcher and device kernels for a persistent 16-bit 1x16 ``QuantizeConfig``."""

    def __init__(
        self,
        config: QuantizeConfig,
        search: bool = False,
        local_tables: bool = False,
    ):
        """``search``: no unit map; the kernel finds each unit's owner (``search_kernel``),
        the setup builds the tables alone. ``local_tables`` (at most ``LOCAL_EXPERTS``
        experts; the caller's to check): ``search`` with every table built per CTA, and
        no setup launch."""
        assert config.persistent and config.width == 16 and not config.fake
        self.cfg = config
        self.search = search or local_tables
        self.local_tables = local_tables

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
        map_units = Int64(0) if cutlass.const_expr(self.search) else units  # (search: no map)
        jobs = _setup_jobs(experts, map_units)
        setup_grid = (jobs + (SETUP_THREADS - 1)) // SETUP_THREADS
        if cutlass.const_expr(not self.local_tables):
            self.setup(mAmax, mOffsets, mWork, groups_per_row, total, map_units).launch(
                grid=[Int32(setup_grid), 1, 1],
                block=[SETUP_THREADS, 1, 1],
                smem=(MAX_EXPERTS + 1) * 8 + 16,  # the offsets
                stream=stream,
            )
        grid = Int32(cutlass.max(cutlass.min(units, Int64(cfg.sms)), Int64(1)))
        smem = 32  # the unit counter
        if cutlass.const_expr(self.search):
            smem += SEARCH_SMEM + (LOCAL_EXPERTS * TABLE * ENTRY * 4 if self.local_tables else 0)
        if cutlass.const_expr(self.search):
            body = self.search_kernel(
                mX, mAmax, mOffsets, mCodes, mScales, mWork, groups_per_row, total, units
            )
        else:
            body = self.kernel(mX, mOffsets, mCodes, mScales, mWork, groups_per_row, total, units)
        body.launch(
            grid=[grid, 1, 1],
            block=[cfg.threads, 1, 1],
            smem=smem,
            stream=stream,
            use_pdl=not self.local_tables,  # starts while the setup runs; waits before tables
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
        # The offsets into shared memory, for the unit map's searches.
        smem = cutlass.memory.SmemAllocator()
        offsets = smem.allocate_tensor(
            mOffsets.element_type, cute.make_layout(MAX_EXPERTS + 1), byte_alignment=16
        )
        count = cutlass.min(Int32(experts) + 1, Int32(MAX_EXPERTS + 1))  # (never past smem)
        for i in cutlass.range(Int32(tidx), count, threads, unroll=1):
            offsets[i] = mOffsets[i]
        cute.arch.sync_threads()
        shared = cute.make_tensor(offsets.iterator, cute.make_layout((count,)))
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
                    cfg, mX, mOffsets, mCodes, mScales, lambda e: _expert(tables, consts, e),
                    counter, buffers, u, None, first_unit, stride, total, groups_per_row,
                    owner_of,
                )  # fmt: skip

    @cute.kernel
    def search_kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mOffsets: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        mWork: cute.Tensor,
        groups_per_row: Int64,
        total: Int64,
        units: Int64,
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        experts = cutlass.min(Int32(mOffsets.shape[0]) - 1, Int32(MAX_EXPERTS))  # (smem's)
        tables, _, _ = _views(mWork, Int64(mOffsets.shape[0]) - 1, units)
        smem = cutlass.memory.SmemAllocator()
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)
        starts = smem.allocate_tensor(Int64, cute.make_layout(MAX_EXPERTS + 1), byte_alignment=16)
        consts = smem.allocate_tensor(
            Float32, cute.make_layout((MAX_EXPERTS, CONSTS), stride=(CONSTS, 1)), byte_alignment=16
        )
        u, first_unit, stride, full, buffers = start_units(cfg, mX, counter, total)

        # Each expert's first group and constants (the setup's, bit for bit), in smem.
        for i in cutlass.range(Int32(tidx), experts + 1, cfg.threads, unroll=1):
            starts[i] = Int64(mOffsets[i]) * groups_per_row
        for e in cutlass.range(Int32(tidx), experts, cfg.threads, unroll=1):
            values = _expert_consts(cfg, mAmax[e])
            for c in cutlass.range_constexpr(CONSTS):
                consts[e, c] = values[c]
        cute.arch.sync_threads()
        if cutlass.const_expr(self.local_tables):  # every table built here (E <= LOCAL_EXPERTS)
            local = smem.allocate_tensor(
                Float32,
                cute.make_layout((LOCAL_EXPERTS * TABLE, ENTRY), stride=(ENTRY, 1)),
                byte_alignment=16,
            )
            jobs = cutlass.min(experts, Int32(LOCAL_EXPERTS)) * TABLE
            for job in cutlass.range(Int32(tidx), jobs, cfg.threads, unroll=1):
                e = job // TABLE
                scale_entry(cfg, job % TABLE, consts[e, 3], consts[e, 0], local[job, None])
            cute.arch.sync_threads()
            tables = local

        expert = _Experts(tables, consts, LOCAL_EXPERTS if self.local_tables else MAX_EXPERTS)
        search = _OwnerSearch(starts, experts, cfg.groups_per_thread, total, Int32(units) - 1)
        owner = search(u)
        cute.arch.griddepcontrol_wait()  # the setup's tables, complete and visible

        while u < Int32(units):
            e = cutlass.max(owner, -1 - owner)  # (a mixed unit's first expert)
            if (owner >= 0) & (u < full):
                table, unit_consts, s_dec = expert(e)
                u, owner = run_unit(
                    cfg, mX, mCodes, mScales, table, counter, buffers, unit_consts, s_dec, u,
                    first_unit, stride, total, _search_from(search, e),
                )  # fmt: skip
            else:
                u, owner = _mixed_unit(
                    cfg, mX, mOffsets, mCodes, mScales, expert, counter, buffers, u, e,
                    first_unit, stride, total, groups_per_row, _search_from(search, e),
                )  # fmt: skip


def _expert_consts(cfg, gamax):
    """An expert's ``(gamax, s, margin, s_dec)``."""
    s = global_scale(gamax, Float32(cfg.d))
    return gamax, s, _margin(cfg, gamax), div_rn(Float32(1.0), s)


class _Experts:
    """``expert(e)``: expert ``e``'s table, ``fast_group`` constants and ``s_dec``, from
    ``tables`` (gmem or smem) and the constants in smem (``e`` kept below ``count``)."""

    def __init__(self, tables, consts, count):
        self.tables, self.consts, self.count = tables, consts, count

    def __call__(self, e):
        e = cutlass.min(e, Int32(self.count - 1))  # (never past smem)
        c = self.consts
        return _expert_table(self.tables, e), (c[e, 0], c[e, 1], c[e, 2]), c[e, 3]


class _OwnerSearch:
    """A warp's unit owners from the experts' first groups (``starts``, smem): unit ``v``'s
    expert, or ``-1 - e`` where its groups span experts from ``e`` on. A warp's units only
    grow, so the count of experts starting at or before a group resumes from the last
    owner (``_search_from``), 32 experts a step (a ballot); usually one step."""

    def __init__(self, starts, experts, groups_per_thread, total, last_unit, start=0):
        self.starts, self.experts, self.total, self.last_unit = starts, experts, total, last_unit
        self.unit = WARP * groups_per_thread
        self.start = start

    def __call__(self, v):
        """Unit ``v``'s owner (past the end: the last unit's)."""
        first = Int64(cutlass.min(v, self.last_unit)) * self.unit
        last = cutlass.min(first + self.unit, self.total) - 1
        return _find_owner(self.starts, self.experts, Int32(self.start), first, last)


def _search_from(search, e):
    """``search`` resumed from expert ``e`` (which owns a group at or before the next unit's;
    a function: the DSL takes a method call in a loop for a mutation)."""
    return _OwnerSearch(
        search.starts, search.experts, search.unit // WARP, search.total, search.last_unit, e
    )


@cute.jit
def _find_owner(starts, experts, start, first, last):
    """The last expert ``e >= start`` (below ``experts``) with ``starts[e] <= first``, or
    ``-1 - e`` if a later expert starts at or before ``last``. For any offsets an index
    in ``[start, experts)``: never past smem."""
    tidx, _, _ = cute.arch.thread_idx()
    lane = Int32(tidx) % WARP
    e = start
    below = Int32(WARP)
    below_last = Int32(WARP)
    while below == WARP:
        at = e + 1 + lane
        inside = at < experts
        bound = starts[cutlass.min(at, experts)]
        below = cute.arch.popc(cute.arch.vote_ballot_sync(inside & (bound <= first)))
        below_last = cute.arch.popc(cute.arch.vote_ballot_sync(inside & (bound <= last)))
        e = e + below
    owner = e
    if below_last != below:
        owner = -1 - e
    return owner


@cute.jit
def _mixed_unit(
    cfg, mX, mOffsets, mCodes, mScales, expert, counter, buffers, u, first_expert, first_unit,
    stride, total, groups_per_row, lookup,
):  # fmt: skip
    """Unit ``u`` one group per lane and step, each under its row's expert (a unit whose
    rows span experts from ``first_expert`` on (None: the unit map's, through
    ``lookup(u)``), or the ragged last one); then the next unit's first loads.
    ``expert(e)``: expert ``e``'s table, ``fast_group`` constants and ``s_dec``. Returns
    the next unit and ``lookup`` of it, as ``run_unit``."""
    tidx, _, _ = cute.arch.thread_idx()
    lane = Int32(tidx) % WARP
    unit = WARP * cfg.groups_per_thread
    following = draw_unit(counter, first_unit, stride)
    looked_up = lookup(following)
    single = dataclasses.replace(cfg, undecided_inline=False)
    if cutlass.const_expr(first_expert is None):
        first_expert = lookup(u)[0]
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
            table, fast_consts, s_dec = expert(e)
            words, _ = load_group(cfg, mX, (t, None, True))
            slow = fast_group(
                single, words, t, True, fast_consts, 0, table, None, mX, mCodes, mScales
            )
            if slow != 0:
                exact_store(cfg, mX, mCodes, mScales, t, s_dec, fast_consts)
    load_unit_start(cfg, mX, following, buffers, total)
    return following, looked_up
