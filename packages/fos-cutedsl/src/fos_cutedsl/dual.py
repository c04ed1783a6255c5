"""Rowwise and columnwise 1x16 codes and scales from one read of x (per-tensor amax).

SPEC's columnwise output is ``quantize(x^T)``: its groups run down x's
columns, 16 rows each. A CTA reads a tile of ``tile_rows`` rows x 128 elements
of x once, 16-byte loads as the rowwise kernel makes them, and

1. quantizes the tile's rowwise groups straight from the registers
   (``group.fast_group``, codes and scales at their rowwise places);
2. stores the same words into shared memory, then each thread reads back one
   32-bit word column over 16 rows (two adjacent bf16/fp16 columns, or one
   float32 column), repacks it into the word layout of a group of x^T and runs
   it through the same ``fast_group``, codes and scales at their columnwise
   places. Bits are the rowwise kernels' by construction: the same steps on
   the same 16 values.

Groups whose approximate errors leave the choice open compute SPEC's errors
inline (``group.fast_group``'s undecided branch) from their words read again
from the staged tile (rowwise alone: from x). Groups the fast path flags take
SPEC's exact path (``group.exact_group`` for rowwise, ``group.exact_words`` on
the staged words for columnwise). With ``swizzle`` each scale byte goes to its
place in SPEC's 128 x 4 GEMM tiles (``swizzled_index``); the codes are the
same either way.

Shared memory: the staged tile and the staged columnwise outputs, laid out and
read back by ``dual_stage``.

Grid: x over 128-element tiles across, y over ``tile_rows`` row blocks;
threads past an edge load clamped (valid) addresses and store nothing.

The scale table (``group.scale_entry`` for every scale byte) and the constants
of step 1 come from a one-CTA setup launch into a caller-owned workspace
(``setup_table``): the tile kernel is a programmatic dependent launch whose CTAs
issue their loads of x, wait for the setup (``griddepcontrol.wait``) and copy
the table into shared memory, instead of each CTA computing it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8, Uint32

from .choice import choice_margin, global_scale
from .config import GROUP, TABLE, QuantizeConfig, compile_options, launch_bounds
from .dual_stage import (
    THREADS,
    TILE_COLUMNS,
    TILE_GROUPS,
    column_group,
    column_raw,
    flush_columns,
    stage_column,
    staged_column,
    staged_row,
    staged_row_vector,
    swizzled_index,
)
from .exact import exact_group, exact_words
from .group import (
    build_scale_table,
    fast_group,
    load_group,
    scale_entry,
    scaled_margin,
    store_group,
)
from .ieee import div_rn
from .memory import store_shared_vector

TILE_ROWS = 64  # rows a CTA reads, by default
DTYPES = ("bfloat16", "float16", "float32")
WORK_FLOATS = TABLE * 4 + 4  # ``setup_table``'s workspace: the table, then the constants
LAYOUTS = ((True, False), (False, True), (True, True))  # (rowwise, columnwise)


class DualKey(NamedTuple):
    """Everything that selects a compiled rowwise/columnwise binary; shapes are symbolic."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    rowwise: bool
    columnwise: bool
    swizzle: bool  # scales in SPEC's 128 x 4 GEMM tiles
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"


@dataclass(frozen=True)
class DualConfig:
    """One variant's knobs: the outputs it writes, and tunings (same bits at any setting)."""

    dtype: str
    err_mode: str
    bound: int
    rowwise: bool
    columnwise: bool
    swizzle: bool
    tile_rows: int = TILE_ROWS  # rows a CTA reads (a multiple of 32: 8 threads a row)
    min_blocks: int = 0  # > 0: ask ptxas to fit this many CTAs per SM (a register cap)
    # Columnwise codes and scales through shared memory, then written as each x^T row's
    # whole segment (16-byte code stores) instead of one 8-byte store a group
    # (``compile_dual``'s default with columnwise outputs; ``bench/NOTES.md``, v21).
    stage_columns: bool = False
    # False: rowwise (columnwise) undecided groups take the exact path instead of SPEC's
    # errors inline; with both False the scale table is built without the inline
    # branch's K and J.
    rows_undecided_inline: bool = True
    columns_undecided_inline: bool = True
    # The scale table and constants built once, by a setup launch into a workspace, and
    # copied by each CTA (the kernel a programmatic dependent launch), not built per CTA
    # (``compile_dual``'s default; ``bench/NOTES.md``, v44).
    setup_table: bool = False

    def __post_init__(self):
        if not (self.rowwise or self.columnwise):
            raise ValueError("rowwise, columnwise or both")
        if self.tile_rows % 32 or not 32 <= self.tile_rows <= 256:
            raise ValueError("tile_rows: a multiple of 32, at most 256")
        if self.tile_words * (self.tile_rows // GROUP) % THREADS:
            raise ValueError(
                f"tile_rows: whole column tasks per thread ({self.dtype}: 64 rows or more)"
            )
        if self.stage_columns and not self.columnwise:
            raise ValueError("stage_columns: only with columnwise outputs")

    @property
    def quantize(self) -> QuantizeConfig:
        """The per-group configuration ``group``'s functions take (1x16 per tensor)."""
        return QuantizeConfig(
            self.dtype, "1x16", self.err_mode, self.bound, False, threads=THREADS,
            persistent=False, l2_ahead=0,
        )  # fmt: skip

    @property
    def table_exact_values(self) -> bool:
        """The scale table holds the inline undecided branch's K and J."""
        return self.rows_undecided_inline or (self.columnwise and self.columns_undecided_inline)

    @property
    def tile_words(self) -> int:
        """32-bit words in a tile row (128 elements)."""
        return TILE_GROUPS * self.quantize.words

    @property
    def row_steps(self) -> int:
        """Rowwise groups per thread (32 tile rows a step)."""
        return self.tile_rows // (THREADS // TILE_GROUPS)

    @property
    def column_steps(self) -> int:
        """Word columns x 16-row blocks per thread."""
        return self.tile_words * (self.tile_rows // GROUP) // THREADS

    @property
    def column_blocks(self) -> int:
        """16-row blocks in a tile (a column's groups in it)."""
        return self.tile_rows // GROUP

    @property
    def out_bytes(self) -> int:
        """``stage_columns``: the tile's columnwise codes (8 bytes) and scales, per group."""
        return TILE_COLUMNS * self.column_blocks * 9 if self.stage_columns else 0

    @property
    def smem_bytes(self) -> int:
        """The scale table, the staged tile and (``stage_columns``) its columnwise outputs."""
        staged = self.tile_rows * self.tile_words * 4 if self.columnwise else 0
        return TABLE * 16 + staged + self.out_bytes


class DualKernel:
    """Called as ``(x (R, C), amax (1,), row codes, row scales, column codes, column
    scales, workspace, stream)``; the four outputs flat uint8 (an output not asked for is
    never touched, any tensor will do), the workspace ``WORK_FLOATS`` float32 with
    ``setup_table`` (else never touched: ``amax`` will do)."""

    def __init__(self, config: DualConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mRowCodes: cute.Tensor,
        mRowScales: cute.Tensor,
        mColCodes: cute.Tensor,
        mColScales: cute.Tensor,
        mWork: cute.Tensor,
        stream: CUstream,
    ):
        cfg = self.cfg
        if cutlass.const_expr(cfg.setup_table):
            self.setup(mAmax, mWork).launch(grid=[1, 1, 1], block=[TABLE, 1, 1], stream=stream)
        rows = Int64(mX.shape[0])
        groups = Int64(mX.shape[1]) // GROUP
        across = (groups + (TILE_GROUPS - 1)) // TILE_GROUPS
        down = (rows + (cfg.tile_rows - 1)) // cfg.tile_rows
        kernel = self.kernel(mX, mAmax, mRowCodes, mRowScales, mColCodes, mColScales, mWork,
                             rows, groups)  # fmt: skip
        kernel.launch(grid=[Int32(across), Int32(down), 1], block=[THREADS, 1, 1],
                      smem=cfg.smem_bytes, stream=stream, use_pdl=cfg.setup_table,
                      **launch_bounds(THREADS, cfg.min_blocks))  # fmt: skip

    @cute.kernel
    def setup(self, mAmax: cute.Tensor, mWork: cute.Tensor):
        """``setup_table``: the table (an entry a thread) and the constants, into the workspace."""
        q = self.cfg.quantize
        cute.arch.griddepcontrol_launch_dependents()  # (the kernel still waits for the end)
        tidx = Int32(cute.arch.thread_idx()[0])
        gamax = mAmax[0]
        s = global_scale(gamax, Float32(q.d))
        s_dec = div_rn(Float32(1.0), s)
        table = cute.make_tensor(mWork.iterator, cute.make_layout((TABLE, 4), stride=(4, 1)))
        scale_entry(q, tidx, s_dec, gamax, table[tidx, None], self.cfg.table_exact_values)
        if tidx == 0:
            margin = scaled_margin(q, choice_margin(gamax, q.d, q.choice_margin))
            for i, v in enumerate((gamax, s, margin, s_dec)):
                mWork[TABLE * 4 + i] = v

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mRowCodes: cute.Tensor,
        mRowScales: cute.Tensor,
        mColCodes: cute.Tensor,
        mColScales: cute.Tensor,
        mWork: cute.Tensor,
        rows: Int64,
        groups: Int64,
    ):
        quantize_tile(self.cfg, mX, mAmax, mRowCodes, mRowScales, mColCodes, mColScales, mWork,
                      rows, groups)  # fmt: skip


def _row_swizzled(cfg, row_at, r, g, k, groups):
    """Step ``k``'s swizzled scale byte (row ``r``), from step 0's (``row_at``) where the
    tile rows divide 128 or are a multiple of it: a step is the next 32-row band of a
    128-row GEMM tile, every 4 steps the next tile."""
    if cutlass.const_expr(128 % cfg.tile_rows == 0 or cfg.tile_rows % 128 == 0):
        tiles_across = (groups + 3) >> 2
        return row_at + (k // 4) * tiles_across * 512 + (k % 4) * 4
    return swizzled_index(r, g, groups)


@cute.jit
def quantize_tile(cfg, mX, mAmax, mRowCodes, mRowScales, mColCodes, mColScales, mWork, rows,
                  groups):  # fmt: skip
    """The kernel's body: one tile of x, rowwise and/or columnwise."""
    q = cfg.quantize
    tidx = Int32(cute.arch.thread_idx()[0])
    bidx, bidy, _ = cute.arch.block_idx()
    row0 = Int64(bidy) * cfg.tile_rows
    g0 = Int64(bidx) * TILE_GROUPS  # the tile's first group column
    d = Float32(q.d)
    smem = cutlass.memory.SmemAllocator()
    table = smem.allocate_tensor(
        Float32, cute.make_layout((TABLE, 4), stride=(4, 1)), byte_alignment=16
    )
    staged = 0
    if cutlass.const_expr(cfg.columnwise):
        staged = smem.allocate_tensor(
            Uint32, cute.make_layout(cfg.tile_rows * cfg.tile_words), byte_alignment=16
        ).iterator.toint()
    out = 0
    if cutlass.const_expr(cfg.stage_columns):
        out = smem.allocate_tensor(
            Uint8, cute.make_layout(cfg.out_bytes), byte_alignment=16
        ).iterator.toint()

    # ======== the tile's loads: rowwise group (row, column g) of each step
    gcol = tidx & (TILE_GROUPS - 1)
    g = g0 + Int64(gcol)
    loaded = []
    for k in cutlass.range_constexpr(cfg.row_steps):
        r = row0 + Int64((tidx >> 3) + 32 * k)
        in_range = (r < rows) & (g < groups)
        t = cutlass.min(r, rows - 1) * groups + cutlass.min(g, groups - 1)
        loaded.append(load_group(q, mX, (t, r, in_range)))

    if cutlass.const_expr(cfg.setup_table):
        cute.arch.griddepcontrol_wait()  # the setup's workspace, complete and visible
        if tidx < TABLE:
            for i in cutlass.range_constexpr(4):
                table[tidx, i] = mWork[tidx * 4 + i]
        gamax, s, margin, s_dec = (mWork[TABLE * 4 + i] for i in range(4))
        consts = (gamax, s, margin)
        cute.arch.sync_threads()
    else:
        gamax = mAmax[0]
        s = global_scale(gamax, d)
        s_dec = div_rn(Float32(1.0), s)
        consts = (gamax, s, scaled_margin(q, choice_margin(gamax, q.d, q.choice_margin)))
        build_scale_table(q, table, s_dec, gamax, cfg.table_exact_values)
    row_q = replace(q, undecided_inline=cfg.rows_undecided_inline)

    row_at = 0
    if cutlass.const_expr(cfg.rowwise and cfg.swizzle):
        row_at = swizzled_index(row0 + Int64(tidx >> 3), g, groups)  # step 0's scale byte

    # ======== rowwise groups from the registers (and the words staged for columnwise)
    row_flagged = Int32(0)  # bit k: step k's group needs the exact path
    for k in cutlass.range_constexpr(cfg.row_steps):
        row_words, (t, r, in_range) = loaded[k]
        local = (tidx >> 3) + 32 * k  # the group's row in the tile
        reload = None  # the inline undecided branch's words: from x, or the staged tile
        if cutlass.const_expr(cfg.columnwise):
            for v in cutlass.range_constexpr(q.words // 4):
                addr = staged_row_vector(cfg, staged, local, gcol, v)
                store_shared_vector(addr, [row_words[4 * v + i] for i in range(4)])
            reload = partial(staged_row, cfg, staged, local, gcol)
        if cutlass.const_expr(cfg.rowwise):
            at = _row_swizzled(cfg, row_at, r, g, k, groups) if cfg.swizzle else None
            slow = fast_group(
                row_q, row_words, t, in_range, consts, 0, table, None, mX, mRowCodes,
                mRowScales, at, reload=reload,
            )  # fmt: skip
            row_flagged = row_flagged | (slow << k)

    # ======== columnwise groups from shared memory
    col_flagged = Int32(0)  # bit (step * halves + half): that group needs the exact path
    if cutlass.const_expr(cfg.columnwise):
        cute.arch.sync_threads()
        col_q = replace(q, undecided_inline=cfg.columns_undecided_inline)
        halves = 2 if q.width == 16 else 1
        for k in cutlass.range_constexpr(cfg.column_steps):
            col_task = tidx + THREADS * k
            raw = column_raw(cfg, staged, col_task)
            for h in cutlass.range_constexpr(halves):
                col_words, t, in_range, at = column_group(cfg, raw, col_task, h, rows, groups,
                                                          row0, g0)  # fmt: skip
                reload = partial(staged_column, cfg, staged, col_task, h)
                if cutlass.const_expr(cfg.stage_columns):
                    slow, code0, code1, code_scale = fast_group(
                        col_q, col_words, t, in_range, consts, 0, table, None, mX, None, None,
                        reload=reload,
                    )  # fmt: skip
                    stage_column(cfg, out, col_task, h, code0, code1, code_scale)
                else:
                    slow = fast_group(
                        col_q, col_words, t, in_range, consts, 0, table, None, mX, mColCodes,
                        mColScales, at, reload=reload,
                    )  # fmt: skip
                col_flagged = col_flagged | (slow << (k * halves + h))

    # ======== exact path, rare: one copy of each layout's code, run-time loops over the flags
    if cutlass.const_expr(cfg.rowwise):  # noqa: SIM102 (DSL: own if)
        if row_flagged != 0:
            for k in cutlass.range(cfg.row_steps, unroll=1):
                if (row_flagged >> k) & 1 != 0:
                    r = row0 + Int64((tidx >> 3) + 32 * k)
                    t = cutlass.min(r, rows - 1) * groups + cutlass.min(g, groups - 1)
                    exact = exact_group(q, mX, None, (t, r, True), s_dec, gamax, d)
                    if (r < rows) & (g < groups):
                        at = swizzled_index(r, g, groups) if cfg.swizzle else None
                        store_group(mRowCodes, mRowScales, t, *exact[2:5], at)
    if cutlass.const_expr(cfg.columnwise):  # noqa: SIM102 (DSL: own if)
        if col_flagged != 0:
            halves = 2 if q.width == 16 else 1
            for bit in cutlass.range(cfg.column_steps * halves, unroll=1):
                if (col_flagged >> bit) & 1 != 0:
                    task = tidx + THREADS * (bit // halves)
                    raw = column_raw(cfg, staged, task)
                    redo, t, in_range, at = column_group(cfg, raw, task, bit % halves, rows,
                                                         groups, row0, g0)  # fmt: skip
                    word0, word1, scale = exact_words(q, redo, s_dec, gamax, d)
                    if cutlass.const_expr(cfg.stage_columns):
                        stage_column(cfg, out, task, bit % halves, word0, word1, scale)
                    elif in_range:
                        store_group(mColCodes, mColScales, t, word0, word1, scale, at)
    if cutlass.const_expr(cfg.stage_columns):
        cute.arch.sync_threads()  # every group staged, the exact path's included
        flush_columns(cfg, out, mColCodes, mColScales, rows, groups, row0, g0)


def default_min_blocks(dtype: str) -> int:
    """CTAs an SM the compiled kernel is fitted for: 16-bit inputs fit 4 (64 registers,
    no spill in the plain layout); float32 takes what it needs (104 registers, 2 CTAs),
    since 64 would spill."""
    return 0 if dtype == "float32" else 4


def compile_dual(key: DualKey, extra_options: str = "", **tuning):
    """Compile one variant against fake tensors with symbolic sizes.

    Called positionally with torch tensors ``(x (R, C), amax (1,) float32, row codes,
    row scales, column codes, column scales, workspace)``, the outputs flat uint8 of the
    sizes the layout needs (``api_dual`` allocates them), the workspace ``WORK_FLOATS``
    float32 (``amax`` will do with ``setup_table=False``); ``x`` contiguous and 16-byte
    aligned, R % 16 == 0 when columnwise. ``tuning`` sets ``DualConfig``'s knobs
    (``stage_columns`` defaults to ``key.columnwise``, ``setup_table`` to True,
    ``min_blocks`` to ``default_min_blocks``).
    """
    defaults = {"stage_columns": key.columnwise, "setup_table": True,
                "min_blocks": default_min_blocks(key.dtype)}  # fmt: skip
    tuning = {**defaults, **tuning}
    cfg = DualConfig(key.dtype, key.err_mode, key.bound, key.rowwise, key.columnwise,
                     key.swizzle, **tuning)  # fmt: skip
    fake = cute.runtime.make_fake_compact_tensor
    rows, cols = cute.sym_int64(), cute.sym_int64(divisibility=GROUP)
    x = fake(cfg.quantize.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (1,), assumed_align=4)
    outs = [fake(Uint8, (cute.sym_int64(),), assumed_align=16) for _ in range(4)]
    work = fake(Float32, (cute.sym_int64(),), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(key.arch, cfg.quantize.ptxas_opt, extra_options)
    return cute.compile(DualKernel(cfg), x, amax, *outs, work, stream, options=options)


def variants(arch: str) -> list[DualKey]:
    """Every rowwise/columnwise variant on ``arch``."""
    return [
        DualKey(dtype, err_mode, bound, rowwise, columnwise, swizzle, arch)
        for dtype in DTYPES
        for err_mode in ("mae", "mse")
        for bound in (256, 448)
        for rowwise, columnwise in LAYOUTS
        for swizzle in (False, True)
    ]
