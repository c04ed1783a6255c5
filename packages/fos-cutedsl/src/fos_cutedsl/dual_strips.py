"""Rowwise and columnwise 1x16 from one DRAM read of x, by warps on 16-row strips, no barrier.

Why. ``dual`` transposes each 64 x 128 tile through shared memory: a CTA waits at
two barriers a tile and rebuilds the scale table for every tile, and its columnwise
half ran twice as long as its rowwise half with about the same instructions
(``bench/NOTES.md``, v20-v30). Here each warp works alone.

A task is ``blocks`` blocks of 16 rows of one strip: 32 words (128 bytes) of every
row, 64 columns of a 16-bit x or 32 of a float32 one. For each block, lane ``l``

1. loads its word column ``l`` of the 16 rows, one 32-bit load a row (the warp
   reads each row's 128 bytes in one request), and its ``halves`` rowwise groups of
   the block (group ``l + 32 k`` of the block's 16 x ``32 / words`` groups, 16-byte
   loads of lines the column loads just brought into L1, so DRAM is read once);
2. quantizes the rowwise groups (``group.fast_group``, codes and scales at their
   rowwise places) and the ``halves`` column groups of its word column
   (``dual.column_words``, then ``fast_group``, at their columnwise places).

The groups that the fast path flags take the exact path after the task
(``exact.exact_group`` rowwise; columnwise, ``exact.exact_words`` on the column
words loaded again). Columnwise undecided groups go there too (the inline branch
rereads its group from x in row order); rowwise ones stay inline. Bits are the
rowwise kernels' by construction: the same steps on the same 16 values.

Persistent: one CTA of ``threads`` per SM builds the scale table once; CTA ``b``
takes tasks ``b + grid * i``, each warp its first ``i`` by its index, later ones
from a shared counter (``persistent.draw_unit``). Tasks run along a strip row
first, so the warps in flight cover a few whole row blocks of x.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint32

from .choice import choice_margin, global_scale
from .config import GROUP, H100_SMS, TABLE, QuantizeConfig, compile_options, launch_bounds
from .dual import DualKey, column_words, swizzled_index
from .exact import exact_group, exact_words
from .group import build_scale_table, fast_group, load_group, scaled_margin, store_group
from .ieee import div_rn
from .memory import prefetch_line_l2, reload_u32
from .persistent import WARP, draw_unit

STRIP_WORDS = WARP  # 32-bit words of a row in a strip: one a lane


@dataclass(frozen=True)
class StripsConfig:
    """One variant's knobs: the outputs it writes, and tunings (same bits at any setting)."""

    dtype: str
    err_mode: str
    bound: int
    rowwise: bool
    columnwise: bool
    swizzle: bool
    threads: int = 768  # one CTA per SM
    blocks: int = 1  # 16-row blocks a task
    l2_next: bool = False  # prefetch the warp's next task into L2 as this one starts
    band: int = 0  # > 0: tasks run down each strip of a band of this many chunks in turn
    sms: int = H100_SMS  # the grid (speed only, never bits)

    def __post_init__(self):
        if not (self.rowwise or self.columnwise):
            raise ValueError("rowwise, columnwise or both")
        if self.threads % WARP or not TABLE <= self.threads <= 1024:
            raise ValueError(f"threads: whole warps, {TABLE} (a table entry each) to 1024")
        if self.blocks < 1:
            raise ValueError("blocks: at least one")
        if self.band < 0:
            raise ValueError("band: 0 (along rows) or chunks a band")

    @property
    def quantize(self) -> QuantizeConfig:
        """The per-group configuration ``group``'s functions take (1x16 per tensor)."""
        return QuantizeConfig(
            self.dtype, "1x16", self.err_mode, self.bound, False, threads=self.threads,
            persistent=False, l2_ahead=0,
        )  # fmt: skip

    @property
    def halves(self) -> int:
        """Columns in a word, which is also a lane's rowwise groups a block."""
        return 2 if self.quantize.width == 16 else 1

    @property
    def strip_groups(self) -> int:
        """Rowwise groups of a row in a strip."""
        return STRIP_WORDS // self.quantize.words


class StripsKernel:
    """Called as ``dual.DualKernel``: ``(x (R, C), amax (1,), row codes, row scales,
    column codes, column scales, stream)``, the outputs flat uint8."""

    def __init__(self, config: StripsConfig):
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
        stream: CUstream,
    ):
        cfg = self.cfg
        rows = Int64(mX.shape[0])
        groups = Int64(mX.shape[1]) // GROUP
        strips = (groups * cfg.quantize.words + (STRIP_WORDS - 1)) // STRIP_WORDS
        chunk_rows = GROUP * cfg.blocks
        chunks = (rows + (chunk_rows - 1)) // chunk_rows
        tasks = chunks * strips
        grid = Int32(cutlass.max(cutlass.min(tasks, Int64(cfg.sms)), Int64(1)))
        kernel = self.kernel(mX, mAmax, mRowCodes, mRowScales, mColCodes, mColScales, rows,
                             groups, Int32(strips), Int32(chunks), Int32(tasks))  # fmt: skip
        kernel.launch(grid=[grid, 1, 1], block=[cfg.threads, 1, 1], smem=TABLE * 16 + 16,
                      stream=stream, **launch_bounds(cfg.threads, 1))  # fmt: skip

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mRowCodes: cute.Tensor,
        mRowScales: cute.Tensor,
        mColCodes: cute.Tensor,
        mColScales: cute.Tensor,
        rows: Int64,
        groups: Int64,
        strips: Int32,
        chunks: Int32,
        tasks: Int32,
    ):
        cfg = self.cfg
        q = cfg.quantize
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        grid, _, _ = cute.arch.grid_dim()
        d = Float32(q.d)
        smem = cutlass.memory.SmemAllocator()
        table = smem.allocate_tensor(
            Float32, cute.make_layout((TABLE, 4), stride=(4, 1)), byte_alignment=16
        )
        counter = smem.allocate_tensor(Int32, cute.make_layout(1), byte_alignment=16)
        first_task, stride = Int32(bidx), Int32(grid)
        task = first_task + (Int32(tidx) // WARP) * stride
        if tidx == 0:
            counter[0] = Int32(cfg.threads // WARP)

        gamax = mAmax[0]
        s = global_scale(gamax, d)
        s_dec = div_rn(Float32(1.0), s)
        consts = (gamax, s, scaled_margin(q, choice_margin(gamax, q.d, q.choice_margin)))
        build_scale_table(q, table, s_dec, gamax)  # (its barrier also publishes the counter)
        shape = (rows, groups, strips, chunks)
        outs = (mRowCodes, mRowScales, mColCodes, mColScales)
        while task < tasks:
            following = draw_unit(counter, first_task, stride)
            if cutlass.const_expr(cfg.l2_next):
                _prefetch_task(cfg, mX, shape, following, tasks)
            run_task(cfg, mX, outs, table, consts, s_dec, shape, task)
            task = following


@cute.jit
def run_task(cfg, mX, outs, table, consts, s_dec, shape, task):
    """The warp's task: each of its blocks' groups through the fast path, then the
    flagged ones through the exact path."""
    q = cfg.quantize
    mRowCodes, mRowScales, mColCodes, mColScales = outs
    rows, groups = shape[:2]
    gamax = consts[0]
    d = Float32(q.d)
    row_q = q
    col_q = replace(q, undecided_inline=False)  # undecided groups: the exact path
    lane = Int32(cute.arch.thread_idx()[0]) % WARP
    chunk, strip = task_place(cfg, shape, task)
    row_words = groups * q.words
    wc = Int64(strip) * STRIP_WORDS + Int64(lane)  # the lane's word column
    row_flagged = Int32(0)  # bit (block * halves + k): that rowwise group is flagged
    col_flagged = Int32(0)  # bit (block * halves + half): that column group is flagged
    for b in cutlass.range_constexpr(cfg.blocks):
        row0 = (Int64(chunk) * cfg.blocks + b) * GROUP
        raw = None
        if cutlass.const_expr(cfg.columnwise):
            raw = _column_loads(q, mX, row0, wc, rows, row_words)
        loaded = []
        for k in cutlass.range_constexpr(cfg.halves):
            loaded.append(load_group(q, mX, _row_group(cfg, lane, k, row0, strip, rows, groups)))
        if cutlass.const_expr(cfg.rowwise):
            for k in cutlass.range_constexpr(cfg.halves):
                words, (t, r, in_range) = loaded[k]
                g = t - r * groups
                at = swizzled_index(r, g, groups) if cfg.swizzle else None
                slow = fast_group(row_q, words, t, in_range, consts, 0, table, None, mX,
                                  mRowCodes, mRowScales, at)  # fmt: skip
                row_flagged = row_flagged | (slow << (b * cfg.halves + k))
        if cutlass.const_expr(cfg.columnwise):
            for h in cutlass.range_constexpr(cfg.halves):
                t, in_range, at = _column_place(cfg, wc, h, row0, rows, row_words)
                words = [Uint32(w) for w in column_words(q, raw, h)]
                slow = fast_group(col_q, words, t, in_range, consts, 0, table, None, mX,
                                  mColCodes, mColScales, at)  # fmt: skip
                col_flagged = col_flagged | (slow << (b * cfg.halves + h))

    # ======== exact path, rare: run-time loops over the flags
    if cutlass.const_expr(cfg.rowwise):  # noqa: SIM102 (DSL: own if)
        if row_flagged != 0:
            for bit in cutlass.range(cfg.blocks * cfg.halves, unroll=1):
                if (row_flagged >> bit) & 1 != 0:
                    row0 = (Int64(chunk) * cfg.blocks + Int64(bit // cfg.halves)) * GROUP
                    position = _row_group(cfg, lane, bit % cfg.halves, row0, strip, rows, groups)
                    t, r, in_range = position
                    exact = exact_group(q, mX, None, position, s_dec, gamax, d)
                    if in_range:  # (a clamped group may be flagged too)
                        g = t - r * groups
                        at = swizzled_index(r, g, groups) if cfg.swizzle else None
                        store_group(mRowCodes, mRowScales, t, *exact[2:5], at)
    if cutlass.const_expr(cfg.columnwise):  # noqa: SIM102 (DSL: own if)
        if col_flagged != 0:
            for bit in cutlass.range(cfg.blocks * cfg.halves, unroll=1):
                if (col_flagged >> bit) & 1 != 0:
                    row0 = (Int64(chunk) * cfg.blocks + Int64(bit // cfg.halves)) * GROUP
                    half = bit % cfg.halves
                    t, in_range, at = _column_place(cfg, wc, half, row0, rows, row_words)
                    raw = _column_loads(q, mX, row0, wc, rows, row_words, again=True)
                    words = [Uint32(w) for w in column_words(q, raw, half)]
                    word0, word1, scale = exact_words(q, words, s_dec, gamax, d)
                    if in_range:
                        store_group(mColCodes, mColScales, t, word0, word1, scale, at)


def task_place(cfg, shape, task):
    """Task ``task``'s (chunk, strip). Along rows (``band`` 0): the strips of chunk 0, then
    of chunk 1, ... With ``band``: chunk ``i`` of strip ``j`` of a band of ``band`` chunks
    is task ``j * n + i`` of that band (``n`` its chunks), so the warps at work write
    each x^T row's codes of a band close together in time."""
    strips, chunks = shape[2], shape[3]
    if cutlass.const_expr(cfg.band == 0):
        return task // strips, task % strips
    per_band = strips * cfg.band
    first = (task // per_band) * cfg.band  # the band's first chunk
    n = cutlass.min(chunks - first, Int32(cfg.band))
    within = task % per_band
    return first + within % n, within // n


def _prefetch_task(cfg, mX, shape, task, tasks):
    """An L2 prefetch of each row segment of ``task`` (one line a lane), if it exists."""
    rows, groups = shape[:2]
    lane = Int32(cute.arch.thread_idx()[0]) % WARP
    row_words = groups * cfg.quantize.words
    chunk, strip = task_place(cfg, shape, cutlass.min(task, tasks - 1))
    r = (Int64(chunk) * cfg.blocks) * GROUP + Int64(lane)
    wc = Int64(strip) * STRIP_WORDS
    wanted = (task < tasks) & (lane < GROUP * cfg.blocks) & (r < rows)
    addr = mX.iterator.toint() + (cutlass.min(r, rows - 1) * row_words + wc) * 4
    prefetch_line_l2(Int32(wanted), addr)


def _column_loads(q, mX, row0, wc, rows, row_words, again=False):
    """Word column ``wc`` of rows ``row0 .. row0 + 15`` (R % 16 == 0; a block past x's end
    and a word column past a row's end load valid addresses, read by nothing);
    ``again``: loaded again (``memory.reload_u32``), not merged with the first loads."""
    first = cutlass.min(row0, rows - GROUP) * row_words + cutlass.min(wc, row_words - 1)
    addr = mX.iterator.toint() + first * 4
    step = row_words * 4
    raw = []
    for _ in range(GROUP):
        if again:
            raw.append(reload_u32(addr))
        else:
            ptr = cute.make_ptr(Uint32, addr, cute.AddressSpace.gmem, assumed_align=4)
            raw.append(cute.make_tensor(ptr, cute.make_layout(1))[0])
        addr = addr + step
    return raw


def _row_group(cfg, lane, k, row0, strip, rows, groups):
    """The lane's rowwise group ``k`` of the block at ``row0``: (its index t, its row, in
    range); t clamped to a valid group past x's edges."""
    j = lane + WARP * k
    r = row0 + Int64(j // cfg.strip_groups)
    g = Int64(strip) * cfg.strip_groups + Int64(j % cfg.strip_groups)
    in_range = (r < rows) & (g < groups)
    t = cutlass.min(r, rows - 1) * groups + cutlass.min(g, groups - 1)
    return t, r, in_range


def _column_place(cfg, wc, half, row0, rows, row_words):
    """Column ``half`` of word column ``wc`` over the block at ``row0``: (its group index in
    x^T, in range, its scale byte's place: None for the plain layout)."""
    halves = cfg.halves
    col = wc * halves + Int64(half)
    row_groups = rows // GROUP  # x^T's groups a row
    block_g = row0 // GROUP
    in_range = (wc < row_words) & (block_g < row_groups)
    t = col * row_groups + block_g
    at = swizzled_index(col, block_g, row_groups) if cfg.swizzle else None
    return t, in_range, at


class StripsKey(NamedTuple):
    """``dual.DualKey`` and this kernel's tunings."""

    dual: DualKey
    threads: int = 768
    blocks: int = 1


def compile_strips(key: DualKey, extra_options: str = "", **tuning):
    """Compile one variant against fake tensors with symbolic sizes; called as
    ``dual.compile_dual``'s result (R % 16 == 0 when columnwise). ``tuning`` sets
    ``StripsConfig``'s knobs."""
    cfg = StripsConfig(key.dtype, key.err_mode, key.bound, key.rowwise, key.columnwise,
                       key.swizzle, **tuning)  # fmt: skip
    fake = cute.runtime.make_fake_compact_tensor
    rows, cols = cute.sym_int64(), cute.sym_int64(divisibility=GROUP)
    x = fake(cfg.quantize.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (1,), assumed_align=4)
    outs = [fake(cutlass.Uint8, (cute.sym_int64(),), assumed_align=16) for _ in range(4)]
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(key.arch, cfg.quantize.ptxas_opt, extra_options)
    return cute.compile(StripsKernel(cfg), x, amax, *outs, stream, options=options)
