"""Row-scaled 1x16 quantize with each row's amax found in the same read of x.

Computes, for every row, ``fos_reference.nan_amax(x, dim=1)`` and writes it,
with the codes and scales of ``fos_reference.quantize(x, that amax,
block="1x16", ...)``, reading x from DRAM once.

Bitwise contract (SPEC.md). The row amax is the NaN-dropping max of ``|x_i|``
from +0, as ``amax`` computes it: 16-bit inputs take the packed ``max.bf16x2``
/ ``max.f16x2`` (no ``.NaN``) of sign-cleared words (``ieee.abs_max_16x2``),
float32 ``abs.f32`` then NaN-dropping ``max.f32``; the halves widen exactly
and lanes combine with ``max.f32`` (shuffles, then shared memory). A max is
exact, so the order does not matter. The quantization is the row-scaled
``rowwise`` kernel's: the same ``QuantizeConfig`` knobs that decide bits
(``e4m3_codes``, ``undecided_inline``), ``group.build_row_entry`` for each
row's constants from its amax and ``group.fast_group`` per group, with
``group.exact_group`` for flagged groups; only who computes which group
differs, never an instruction.

Tiling. A row is owned by a team of 64 threads (``TEAM``); a CTA holds
``rows_per_cta`` teams, one row each, so a team's threads are one 64-thread
slice, which is the row ``fast_group`` reads from the CTA's table (``tid / 64``
with its ``k`` 0). Per thread:

1. Read: the row's 16-byte vectors ``lane, lane + 64, ...``, ``unroll`` loads
   in flight (``ld.global.v4``, predicated off past the row's end, so loads
   that do not exist give +0), folded into the running maxima and staged in
   shared memory at the row's own byte offsets (``st.shared.v4``).
2. Amax: butterfly shuffles per warp, then the team's two warp partials in
   shared memory; 8 threads per row build its constants (``group.build_row_entry``)
   and one writes the row's amax; a CTA barrier.
3. Quantize: groups ``lane, lane + 64, ...`` of the row, each from its staged
   words through ``fast_group`` (one copy of its code in a run-time loop),
   then the exact path for the flagged groups, reading x again (from L2) and
   the amax just written (the barrier orders it).

The staged rows need ``rows_per_cta * C * itemsize`` bytes of dynamic shared
memory (sized at launch, at most ``SMEM_LIMIT``); ``max_cols`` says how wide
a row may be. All global addresses are 64-bit.

``register_rows``: a team of ``row_warps`` warps per row holds its
groups in registers (``groups_per_lane`` a lane, loaded straight from x), so
nothing is staged; one warp's amax is a butterfly and its table entry is ordered
by a warp barrier, no CTA barrier (``row_registers``). ``TILINGS`` names the
variants the launcher picks from by row width. Tunings of every tiling:
``given_amax`` reads each row's amax instead of finding it (a row-scaled quantize
by whole rows), ``row_tables`` looks step 4 up in a per-row table (``row_tables``),
``xorsign_fold`` folds 16-bit ``|x|`` in one instruction a word; the team kernel's
``quantize_unroll`` sets its quantize loop's unroll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8

from .config import GROUP, PTXAS_OPT, ROW_BYTES, QuantizeConfig, compile_options, launch_bounds
from .exact import exact_group
from .group import build_row_entry, fast_group, store_group
from .ieee import as_f32, f32_bits
from .memory import load_shared, load_shared_v4, load_v4_if, store_shared_if, store_shared_v4_if
from .offsets import RowAmax
from .row_fold import butterfly, finish, fold_group, fold_vector, group_max, init_maxima
from .row_registers import VECTOR, WARP, prefetch_later_rows, register_rows, warp_partials_rows
from .row_tables import allocate_row_bytes, build_row_bytes

TEAM = 64  # threads per row: one ``fast_group`` table row (``tid / 64``)
SMEM_LIMIT = 48 * 1024  # dynamic shared memory without an opt-in attribute
#: The tilings a ``RowAmaxKey`` names, in the order the launcher tries them: the first
#: whose ``max_cols`` holds the row. "warp" holds rows to 2048 columns, "pair" to 4096;
#: wider register rows ran slower than ``team`` (``bench/NOTES.md``, v21). Each carries
#: the tunings measured fastest for it (v29; v31: ``group_amax``, no faster in "pair";
#: ``cta_build``; ``l2_ahead``, slower in the register rows). "wide" is "team" without
#: ``group_amax``, whose 4 bytes a group in shared memory cost the widest rows.
TILINGS = {
    "warp": {"register_rows": True, "row_warps": 1, "groups_per_lane": 4, "rows_per_cta": 4,
             "xorsign_fold": True, "group_amax": True, "cta_build": True},
    "pair": {"register_rows": True, "row_warps": 2, "groups_per_lane": 4, "rows_per_cta": 2,
             "xorsign_fold": True, "row_tables": True},
    "team": {"quantize_unroll": 1, "group_amax": True, "l2_ahead": 132},
    "wide": {"quantize_unroll": 1, "l2_ahead": 132},
}  # fmt: skip
#: float32 rows keep the compiler's unroll and their reads by vectors in the team kernel:
#: 1% (v30) and 18% (v31, whole-group reads) faster there.
FLOAT32_TILINGS = {**TILINGS, "team": {"l2_ahead": 132}, "wide": {"l2_ahead": 132}}
_ITEMSIZE = {"bfloat16": 2, "float16": 2, "float32": 4}


class RowAmaxKey(NamedTuple):
    """Everything that selects a compiled row-amax quantize binary; the shape is symbolic."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"
    tiling: str = "team"  # a ``TILINGS`` name


@dataclass(frozen=True)
class RowAmaxConfig:
    """Compile-time configuration of one kernel (tuning knobs never change bits)."""

    dtype: str
    err_mode: str
    bound: int
    rows_per_cta: int = 1  # teams (rows) per CTA
    unroll: int = 4  # 16-byte loads in flight per thread in the read
    ptxas_opt: int = PTXAS_OPT
    # Rows held in registers by teams of ``row_warps`` warps, ``groups_per_lane`` groups
    # a lane, nothing staged: rows of at most 32 * row_warps * 16 * groups_per_lane.
    register_rows: bool = False
    row_warps: int = 1
    groups_per_lane: int = 4
    # Read each row's amax from the amax argument instead of finding it: a row-scaled
    # quantize by whole rows (register rows: not faster than ``rowwise``, v22).
    given_amax: bool = False
    # Each row's (inv, bound scale) of every scale byte in shared memory, built once the
    # row's constants are (``QuantizeConfig.row_tables``); faster only in the pair rows
    # (with ``xorsign_fold``), slower in the team kernel unless it is not unrolled (v29).
    row_tables: bool = False
    # 16-bit: fold |x| by ``max.xorsign.abs`` (one instruction a word, the signs cleared
    # once at the end) instead of ``and`` then ``max`` (float32's fold is one already).
    xorsign_fold: bool = False
    # The staged (team) kernel's quantize loop unrolled this many times; 0 leaves it to
    # the compiler, which unrolls the plain loop twice and the row-tables loop 4 times.
    quantize_unroll: int = 0
    # The fold keeps each group's maximum (``row_fold.group_max``) for its quantize step,
    # which then does not fold the group's words again: register rows hold it, the team
    # kernel stages it in shared memory after the rows (4 bytes a group).
    group_amax: bool = False
    # Register rows of one warp: the CTA's row entries built by its first threads behind
    # CTA barriers (all 32 lanes of a warp at work), as for teams of several warps,
    # instead of by 8 lanes of each row's warp behind a warp barrier.
    cta_build: bool = False
    # Ask L2 for the rows of the CTA this many launches later (0: not at all).
    l2_ahead: int = 0
    # > 0: ask ptxas to fit this many CTAs per SM (a register cap; 0: ptxas's choice).
    min_blocks: int = 0

    def __post_init__(self):
        if self.dtype not in _ITEMSIZE:
            raise ValueError(f"dtype: one of {sorted(_ITEMSIZE)}")
        if not 1 <= self.rows_per_cta <= 8 or self.unroll < 1:
            raise ValueError("rows_per_cta in [1, 8] (8 builder threads a row), unroll >= 1")
        if not 1 <= self.groups_per_lane <= 8 or not 1 <= self.row_warps <= 16:
            raise ValueError("groups_per_lane in [1, 8], row_warps in [1, 16]")
        if self.quantize_unroll < 0 or (self.quantize_unroll and self.register_rows):
            raise ValueError("quantize_unroll >= 0, and 0 with register_rows (no loop)")
        if self.cta_build and not (self.register_rows and not self.given_amax):
            raise ValueError("cta_build: register rows that find their amax")
        if self.l2_ahead < 0 or self.min_blocks < 0:
            raise ValueError("l2_ahead, min_blocks: counts >= 0")
        if self.group_amax and self.given_amax:
            raise ValueError("group_amax folds the row's amax: not with given_amax")
        if self.threads > 1024:
            raise ValueError("row_warps * rows_per_cta: at most 32 warps (1024 threads) a CTA")

    @property
    def quantize(self) -> QuantizeConfig:
        """The row-scaled ``QuantizeConfig`` whose arithmetic this kernel runs: one
        group step (``groups_per_thread=1``), ``rows_per_cta`` table rows."""
        return QuantizeConfig(
            self.dtype, "1x16", self.err_mode, self.bound, True,
            threads=self.threads, groups_per_thread=1, prefetch=1, row_threads=self.team,
            row_tables=self.row_tables,
        )  # fmt: skip

    @property
    def team(self) -> int:
        """Threads per row: ``row_warps`` warps (``register_rows``) or ``TEAM``."""
        return WARP * self.row_warps if self.register_rows else TEAM

    @property
    def threads(self) -> int:
        return self.team * self.rows_per_cta

    @property
    def itemsize(self) -> int:
        return _ITEMSIZE[self.dtype]

    @property
    def reserve(self) -> int:
        """Shared bytes before the staged rows: the table, the mantissa tables, the
        warp partials (16-byte aligned each) and a margin for the allocator."""
        rows = self.rows_per_cta
        partials = 4 * rows * (self.team // WARP)
        byte_tables = 8 * ROW_BYTES * rows if self.row_tables else 0
        return 16 * rows + 64 * rows + 16 * ((partials + 15) // 16) + byte_tables + 128

    @property
    def max_cols(self) -> int:
        """The widest row (a multiple of 16 elements): held by a warp's registers
        (``register_rows``), else staged within ``SMEM_LIMIT``."""
        if self.register_rows:
            return self.team * GROUP * self.groups_per_lane
        per_row = (SMEM_LIMIT - self.reserve) // self.rows_per_cta
        return per_row // (GROUP * self.itemsize + self.staged_group_amax) * GROUP

    @property
    def staged_group_amax(self) -> int:
        """Shared bytes a group's maximum takes in the team kernel (``group_amax``)."""
        return 4 if self.group_amax and not self.register_rows else 0


class RowAmaxKernel:
    """Host launcher and device kernel for one ``RowAmaxConfig``."""

    def __init__(self, config: RowAmaxConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16/f32, row-major, 16-byte aligned
        mAmax: cute.Tensor,  # (R,) float32: written
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        cfg = self.cfg
        rows = Int64(mX.shape[0])
        row_bytes = Int32(Int64(mX.shape[1]) * cfg.itemsize)
        grid = Int32((rows + (cfg.rows_per_cta - 1)) // cfg.rows_per_cta)
        smem = Int32(cfg.reserve)
        if cutlass.const_expr(not cfg.register_rows):
            smem = smem + row_bytes * cfg.rows_per_cta
            smem = smem + Int32(mX.shape[1]) // GROUP * (cfg.staged_group_amax * cfg.rows_per_cta)
        self.kernel(mX, mAmax, mCodes, mScales).launch(
            grid=[grid, 1, 1], block=[cfg.threads, 1, 1], smem=smem, stream=stream,
            **launch_bounds(cfg.threads, cfg.min_blocks),
        )  # fmt: skip

    @cute.kernel
    def kernel(
        self, mX: cute.Tensor, mAmax: cute.Tensor, mCodes: cute.Tensor, mScales: cute.Tensor
    ):
        cfg = self.cfg
        if cutlass.const_expr(cfg.register_rows):
            register_rows(cfg, mX, mAmax, mCodes, mScales)
        else:
            qcfg = cfg.quantize
            tidx, _, _ = cute.arch.thread_idx()
            bidx, _, _ = cute.arch.block_idx()
            rows = Int64(mX.shape[0])
            cols = Int32(mX.shape[1])
            team = Int32(tidx) // TEAM
            lane = Int32(tidx) % TEAM
            row_lo = Int64(bidx) * cfg.rows_per_cta
            row = row_lo + Int64(team)
            valid = row < rows  # uniform over the team (and its warps)
            row_bytes = cols * cfg.itemsize
            vectors = Int32(0)  # an absent row reads nothing and quantizes nothing
            groups = Int32(0)
            if valid:
                vectors = row_bytes // VECTOR
                groups = cols // GROUP

            smem = cutlass.memory.SmemAllocator()
            # (gamax, s, inv of a zero scale, margin) per row; (Y_j, INV_j) per row and mantissa.
            table = smem.allocate_tensor(
                Float32, cute.make_layout((cfg.rows_per_cta, 4), stride=(4, 1)), byte_alignment=16
            )
            mantissas = smem.allocate_tensor(
                Float32,
                cute.make_layout((cfg.rows_per_cta * 8, 2), stride=(2, 1)),
                byte_alignment=16,
            )
            partial = smem.allocate_tensor(
                Float32, cute.make_layout(cfg.threads // WARP), byte_alignment=16
            )  # one per warp
            lookups = allocate_row_bytes(cfg, smem, mantissas)
            # The staged rows follow (dynamic size: ``reserve`` + rows_per_cta * row_bytes).
            stage = smem.allocate_tensor(Uint8, cute.make_layout(16), byte_alignment=16)
            stage_row = Int32(stage.iterator.toint()) + team * row_bytes
            maxima_row = None  # group_amax: each group's maximum, after the staged rows
            if cutlass.const_expr(cfg.group_amax):
                maxima_row = (Int32(stage.iterator.toint()) + cfg.rows_per_cta * row_bytes
                              + team * (cols // GROUP) * cfg.staged_group_amax)  # fmt: skip

            # ======== 1. read the row once: running maxima, and the words staged in shared memory
            prefetch_later_rows(cfg, mX, row_lo, rows, row_bytes)
            x_row = mX.iterator.toint() + cutlass.min(row, rows - 1) * Int64(row_bytes)
            if cutlass.const_expr(cfg.group_amax):
                acc = _stage_groups(cfg, x_row, stage_row, maxima_row, lane, groups)
            else:
                acc = _stage_vectors(cfg, x_row, stage_row, lane, vectors)

            # ======== 2. the row's amax: warp butterflies, then the team's two warps
            if cutlass.const_expr(cfg.given_amax):  # the caller's: 8 threads a row's entry
                if lane < 8:
                    given = mAmax[cutlass.min(row, rows - 1)]
                    build_row_entry(qcfg, table, mantissas, team, lane, given)
                cute.arch.sync_threads()
            else:
                warp_partials_rows(cfg, butterfly(finish(cfg, acc)), partial, table,
                                    mantissas, mAmax, row_lo, rows)  # fmt: skip
            build_row_bytes(cfg, table, mantissas, lookups, team, lane)

            # ======== 3. quantize the staged groups (fast path), then the flagged ones exactly
            first = row * Int64(cols // GROUP)  # the row's first group
            zero = Float32(0.0)
            flagged = Int32(0)  # bit k: group lane + 64 k needs the exact path
            k = Int32(0)
            if cutlass.const_expr(cfg.quantize_unroll == 0):
                g = lane
                while g < groups:
                    flagged = flagged | (_staged_group(cfg, stage_row, maxima_row, g, first,
                                                       table, lookups, mX, mCodes, mScales)
                                         << k)  # fmt: skip
                    k = k + 1
                    g = g + TEAM
            else:
                k = (groups - lane + (TEAM - 1)) // TEAM  # groups > lane or none at all
                for kk in cutlass.range(k, unroll=cfg.quantize_unroll):
                    g = lane + kk * TEAM
                    flagged = flagged | (_staged_group(cfg, stage_row, maxima_row, g, first,
                                                       table, lookups, mX, mCodes, mScales)
                                         << kk)  # fmt: skip
            if flagged != 0:
                d = Float32(qcfg.d)
                for kk in cutlass.range(k, unroll=1):
                    if (flagged >> kk) & 1 != 0:
                        t = first + Int64(lane + kk * TEAM)
                        t, _, word0, word1, scale = exact_group(
                            qcfg, mX, RowAmax(mAmax), (t, row, True), zero, zero, d
                        )
                        store_group(mCodes, mScales, t, word0, word1, scale)


@cute.jit
def _stage_vectors(cfg, x_row, stage_row, lane, vectors):
    """The row's 16-byte vectors ``lane, lane + TEAM, ...`` (``unroll`` loads in flight)
    staged at their own offsets and folded (not ``given_amax``): the running maxima."""
    acc = init_maxima(cfg)
    j = lane
    while j < vectors:
        loaded = []
        for u in cutlass.range_constexpr(cfg.unroll):
            v = j + u * TEAM
            here = Int32(v < vectors)
            loaded.append((here, v, load_v4_if(here, x_row + Int64(v) * VECTOR)))
        for u in cutlass.range_constexpr(cfg.unroll):
            here, v, words = loaded[u]
            if cutlass.const_expr(not cfg.given_amax):
                acc = fold_vector(cfg, acc, words)
            store_shared_v4_if(here, stage_row + v * VECTOR, words)
        j = j + cfg.unroll * TEAM
    return acc


@cute.jit
def _stage_groups(cfg, x_row, stage_row, maxima_row, lane, groups):
    """``group_amax``: the row's groups ``lane, lane + TEAM, ...`` read whole (``unroll``
    16-byte loads in flight) and staged, each one's ``group_max`` staged at
    ``maxima_row`` and folded: the running maxima."""
    acc = init_maxima(cfg)
    group_bytes = GROUP * cfg.itemsize
    per_group = group_bytes // VECTOR
    ahead = max(1, cfg.unroll // per_group)  # groups in flight
    j = lane
    while j < groups:
        loaded = []
        for u in cutlass.range_constexpr(ahead):
            g = j + u * TEAM
            here = Int32(g < groups)
            at = x_row + Int64(g) * group_bytes
            vectors = [load_v4_if(here, at + q * VECTOR) for q in range(per_group)]
            loaded.append((here, g, vectors))
        for u in cutlass.range_constexpr(ahead):
            here, g, vectors = loaded[u]
            m = group_max(cfg, [w for v in vectors for w in v])
            acc = fold_group(cfg, acc, u % 4, m)
            for q in cutlass.range_constexpr(per_group):
                store_shared_v4_if(here, stage_row + g * group_bytes + q * VECTOR, vectors[q])
            bits = f32_bits(m) if cutlass.const_expr(cfg.dtype == "float32") else m
            store_shared_if(here, maxima_row + g * 4, bits)
        j = j + ahead * TEAM
    return acc


@cute.jit
def _staged_group(cfg, stage_row, maxima_row, g, first, table, lookups, mX, mCodes, mScales):
    """The staged row's group ``g`` through ``fast_group``: 1 where it needs the exact path."""
    group_bytes = GROUP * cfg.itemsize
    at = stage_row + g * group_bytes
    words = [w for q in range(group_bytes // VECTOR) for w in load_shared_v4(at + 16 * q)]
    m = None
    if cutlass.const_expr(maxima_row is not None):
        m = load_shared(maxima_row + g * 4, 32)
        if cutlass.const_expr(cfg.dtype == "float32"):
            m = as_f32(m)
    zero = Float32(0.0)  # fast_group reads (gamax, s, margin) from the table
    return fast_group(
        cfg.quantize, words, first + Int64(g), True, (zero, zero, zero), 0, table, lookups,
        mX, mCodes, mScales, group_amax=m,
    )  # fmt: skip


def compile_row_amax(
    dtype: str, err_mode: str, bound: int, arch: str, extra_options: str = "", **tuning
):
    """Compile one variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors ``(x (R, C), amax
    float32 (R,), codes uint8 (R, C/2), scales uint8 (R, C/16))`` on the
    current CUDA stream. Every tensor contiguous, ``x`` 16-byte aligned,
    ``R >= 1`` and ``16 <= C <= max_cols`` (the launcher handles the rest).
    ``tuning`` sets ``RowAmaxConfig``'s knobs (same bits, other speed).
    """
    cfg = RowAmaxConfig(dtype, err_mode, bound, **tuning)
    rows = cute.sym_int64()
    cols = cute.sym_int64(divisibility=GROUP)
    half_cols = cute.sym_int64(divisibility=GROUP // 2)
    groups = cute.sym_int64()
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(cfg.quantize.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (rows,), assumed_align=4)
    codes = fake(Uint8, (rows, half_cols), stride_order=(1, 0), assumed_align=16)
    scales = fake(Uint8, (rows, groups), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(arch, cfg.ptxas_opt, extra_options)
    return cute.compile(RowAmaxKernel(cfg), x, amax, codes, scales, stream, options=options)


def compile_key(key: RowAmaxKey, extra_options: str = ""):
    """``compile_row_amax`` for a ``RowAmaxKey``."""
    return compile_row_amax(
        key.dtype, key.err_mode, key.bound, key.arch, extra_options,
        **tiling_tuning(key.dtype, key.tiling),
    )  # fmt: skip


def tiling_tuning(dtype: str, tiling: str) -> dict:
    """The knobs of ``tiling`` (a ``TILINGS`` name) for ``dtype``'s rows."""
    return (FLOAT32_TILINGS if dtype == "float32" else TILINGS)[tiling]


def variants(arch: str) -> list[RowAmaxKey]:
    """Every variant ``quantize_row_amax`` can ask for on ``arch``."""
    return [
        RowAmaxKey(dtype, err_mode, bound, arch, tiling)
        for dtype in _ITEMSIZE
        for err_mode in ("mae", "mse")
        for bound in (256, 448)
        for tiling in TILINGS
    ]


def tiling_for(dtype: str, err_mode: str, bound: int, cols: int) -> str:
    """The first of ``TILINGS`` whose rows hold ``cols`` columns (ValueError if none does:
    ``max_cols`` says how wide a row may be)."""
    for name in TILINGS:
        if cols <= tiling_config(dtype, err_mode, bound, name).max_cols:
            return name
    raise ValueError(f"{cols} columns: the row-amax kernel takes at most "
                     f"{max_cols(dtype, err_mode, bound)} for {dtype}")  # fmt: skip


def tiling_config(dtype: str, err_mode: str, bound: int, tiling: str) -> RowAmaxConfig:
    """The ``RowAmaxConfig`` of ``tiling`` (a ``TILINGS`` name) for these knobs."""
    return RowAmaxConfig(dtype, err_mode, bound, **tiling_tuning(dtype, tiling))


def max_cols(dtype: str, err_mode: str, bound: int) -> int:
    """The widest row any of ``TILINGS`` holds."""
    return max(tiling_config(dtype, err_mode, bound, name).max_cols for name in TILINGS)
