"""16x16 tiles: one scale per 16x16 tile, with every load a whole cache line.

Same arithmetic as the 1x16 kernels (``group``'s fast path and exact path, SPEC.md
steps 1-8); what differs is how a tile's 256 elements are spread over lanes.

Lane layout. A warp works on a *strip*: 16 rows x 128 bytes, i.e. 4 16-bit
tiles or 2 float32 tiles side by side. Lane ``8 r4 + c8`` holds the 16 bytes
at byte ``16 c8`` of rows ``r4``, ``r4 + 4``, ``r4 + 8`` and ``r4 + 12`` (a
*unit*: 4 loads, ``E`` = 8 16-bit or 4 float32 elements each), so every
16-byte load of the warp reads 4 whole 128-byte lines. A tile is ``L = 16 / E``
lanes wide (``part = c8 % L``) and 4 lanes tall: its 8 lanes combine the
amax and the errors with ``shfl.bfly`` (xor 1 [and 2] across parts, then 16
and 8 across rows).

- Fast path (``group``'s, per unit): the errors are approximate, so any sum
  order within the proven bound will do: per row a chain over the lane's
  ``E`` elements, then ``(row r4 + row r4+8) + (row r4+4 + row r4+12)``, the
  parts, the rows, and one multiply by ``y``: at most 13 roundings, fewer
  than the 1x16 chain and fold that ``choice.choose_by_bound``'s bound
  allows for. A tile whose choice the bound leaves open is marked undecided; one
  where a shortcut's precondition fails is flagged.
- Rare paths (after the loop, per marked unit, the warp together; ``tile_math``):
  an undecided unit keeps the fast path's codes and takes SPEC's errors from
  ``grid_value``; a flagged unit is redone as SPEC writes it. Both sum SPEC's errors
  in its order: a row's chain over 16 elements crosses the row's lanes (``shfl.up``),
  then the rows fold as SPEC step 7 writes it (8 and 4 inside the lane, 2 and 1
  across lanes), and the part ``L - 1`` lane's result is broadcast.

16-bit inputs use the E4M3 code packing (``e4m3_codes``). With ``l2_ahead``
each CTA first asks L2 for the input of the CTA ``l2_ahead`` launches later,
one 128-byte line per thread (``prefetch.global.L2``); with E4M3 codes it is
slower, so it is off by default (``bench/NOTES.md``, "L2 prefetch").

float32 stages its stores (``stage_stores``). A lane's codes are 2 bytes on each of 4
rows and its scale byte goes on 4 rows, so a warp's store instruction writes 16-byte or
2-byte pieces of 4 to 16 rows, which keeps L2 busier than DRAM. Staged, each unit's
codes and scale bytes go to shared memory (``_stage_unit``), and after the last unit
(and the exact path) the CTA writes its rows out whole: 128 bytes of codes and 16 scale
bytes a row (``_flush_stage``). 16-bit 16x16 is faster unstaged (``bench/NOTES.md``,
"staged stores").

Fake-quantize (``QuantizeConfig.fake``, never staged): each unit's x_hat, ``E``
outputs on each of its 4 rows in 8- or 16-byte stores (``fake.store_fake_rows``).

Grid: CTA ``(x, y, z)`` takes strips ``[8 x, 8 x + 8)``, one per warp, and
tile rows ``[b K, b K + K)`` with ``b = z * gridDim.y + y`` (``K`` =
``groups_per_thread``, a unit per tile row; z only past grid.y's 65535).
Lanes past the right or bottom edge redo the last tile (valid memory, the
same shuffles) and store nothing.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8

from .choice import (
    choice_margin,
    choose_by_bound,
    fast_path_fails,
    global_scale,
)
from .config import GROUP, TABLE, QuantizeConfig, launch
from .e2m1 import with_signs
from .fake import store_fake_rows
from .group import (
    block_amax_fast,
    build_scale_table,
    candidate_scales,
    scaled_margin,
    select_codes,
)
from .ieee import (
    as_f32,
    div_rn,
    high_byte16,
    mul_rn,
    select_bits,
)
from .memory import load_shared, prefetch_line_l2, store_if, store_shared
from .offsets import RowAmax, amax_of_row, amax_vector
from .tile_math import (
    ROWS_PER_LANE,
    exact_unit,
    fast_candidates,
    fold_rows,
    lane_elements,
    load_unit,
    tile_max,
    tile_sum,
    undecided_unit,
)

WARPS = 8  # 256 threads: one strip per warp
LINE = 128  # bytes that one prefetch.global.L2 asks for


def strip_tiles(cfg: QuantizeConfig) -> int:
    """Tiles side by side in a warp's 128-byte strip (4 16-bit, 2 float32)."""
    return 8 * lane_elements(cfg) // GROUP


class TileKernel:
    """Host launcher and device kernel for one 16x16 ``QuantizeConfig``."""

    def __init__(self, config: QuantizeConfig):
        assert config.block == "16x16" and not config.row_scaled and config.threads == 256
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16/f32, row-major, R % 16 == 0
        mAmax: cute.Tensor,  # () float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        mAmax = amax_vector(mAmax)
        tile_rows, tile_cols, grid = self.grid(mX)
        launch(self.cfg, self.kernel(mX, mAmax, mCodes, mScales, tile_rows, tile_cols), grid,
               stream)  # fmt: skip

    def grid(self, mX: cute.Tensor):
        """(tile rows, tile columns, the launch grid) of ``mX``."""
        tile_rows = Int64(mX.shape[0]) // GROUP
        tile_cols = Int64(mX.shape[1]) // GROUP
        units = self.cfg.groups_per_thread
        per_y = WARPS * strip_tiles(self.cfg)
        # Strip blocks in x (measured faster than tile rows first), row blocks in y,
        # z past grid.y's 65535.
        row_blocks = (tile_rows + (units - 1)) // units
        layers = (row_blocks + 65534) // 65535
        grid = [
            Int32((tile_cols + (per_y - 1)) // per_y),
            Int32((row_blocks + (layers - 1)) // layers),
            Int32(layers),
        ]
        return tile_rows, tile_cols, grid

    @cute.kernel
    def kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        tile_rows: Int64,
        tile_cols: Int64,
    ):
        quantize_tiles(self.cfg, mX, RowAmax(mAmax), mCodes, mScales, tile_rows, tile_cols)


@cute.jit
def quantize_tiles(cfg, mX, amax: RowAmax, mCodes, mScales, tile_rows: Int64, tile_cols: Int64):
    """The kernel's body: this CTA's tiles under ``amax`` (grouped: its row block's expert's)."""
    d = Float32(cfg.d)
    smem = cutlass.memory.SmemAllocator()
    table = smem.allocate_tensor(
        Float32, cute.make_layout((TABLE, 4), stride=(4, 1)), byte_alignment=16
    )
    lanes = Lanes(cfg, mX, mCodes, mScales, tile_rows, tile_cols)
    if cutlass.const_expr(amax.offsets is None):
        gamax = amax.tensor[0]
    else:
        _, row_block, layer = cute.arch.block_idx()
        row_block = Int64(layer) * cute.arch.grid_dim()[1] + Int64(row_block)
        gamax = amax_of_row(amax, row_block * (cfg.groups_per_thread * GROUP))
    if cutlass.const_expr(cfg.fake):  # fake-quantize: the dequantize's constants
        lanes.gamax, lanes.factor_inv = gamax, div_rn(Float32(1.0), d)
    s = global_scale(gamax, d)
    s_dec = div_rn(Float32(1.0), s)
    margin = scaled_margin(cfg, choice_margin(gamax, cfg.d, cfg.choice_margin))
    # The first units' loads fly during step 1 and the table build.
    depth = min(cfg.prefetch, cfg.groups_per_thread)
    ahead = [load_unit(lanes, k) for k in range(depth)]
    if cutlass.const_expr(cfg.l2_ahead > 0):
        _prefetch_later_cta(cfg, mX, tile_rows, tile_cols)
    stage = None
    if cutlass.const_expr(cfg.stage_stores):
        stage = smem.allocate_tensor(
            Uint8, cute.make_layout(cfg.stage_bytes), byte_alignment=16
        ).iterator.toint()
    build_scale_table(cfg, table, s_dec, gamax)  # K, J: the undecided units' exact errors
    flagged = Int32(0)  # bit k: unit k's tile needs the exact path
    undecided_units = Int32(0)  # bit k: unit k's choice needs SPEC's errors (fast path valid)
    for k in cutlass.range_constexpr(cfg.groups_per_thread):
        words = ahead[0]
        ahead = ahead[1:]
        if cutlass.const_expr(k + depth < cfg.groups_per_thread):
            ahead.append(load_unit(lanes, k + depth))
        slow, undecided = fast_unit(cfg, lanes, stage, k, words, s, margin, table)
        flagged = flagged | (slow << k)
        undecided_units = undecided_units | (undecided << k)
    rare_units(cfg, lanes, stage, flagged, undecided_units, s, s_dec, gamax, d, table)
    if cutlass.const_expr(cfg.stage_stores):
        cute.arch.sync_threads()  # every unit staged, the exact path's included
        _flush_stage(cfg, lanes, stage, mCodes, mScales)


def fast_unit(cfg, lanes, stage, k, words, s, margin, table):
    """Unit ``k`` (its raw ``words``) through the fast path, stored: returns (flagged,
    undecided), each 0 or 1. Flagged: a shortcut's precondition failed, so the exact path
    redoes the tile. Undecided (and not flagged): only the bound left the choice open (and
    the scales differ), so ``undecided_unit`` redoes the choice from SPEC's errors."""
    # ---- steps 2-3: tile amax, candidate scales
    x = [as_f32(w) for w in words] if cfg.dtype == "float32" else None
    a = tile_max(cfg, block_amax_fast(cfg, words, x))
    pair, _, _ = candidate_scales(a, s)

    # ---- steps 4-6: table constants, magic rounding, approximate errors
    byte4, byte6 = high_byte16(pair), pair & 0xFF
    inv4, y4 = table[byte4, 0], table[byte4, 1]
    inv6, y6 = table[byte6, 0], table[byte6, 1]
    codes4, codes6, rows4, rows6, signs = fast_candidates(cfg, words, inv4, inv6)
    err4 = mul_rn(tile_sum(cfg, fold_rows(rows4)), y4)
    err6 = mul_rn(tile_sum(cfg, fold_rows(rows6)), y6)

    # ---- step 8: the choice where the bound decides it, codes with signs, store
    pick4, decided = choose_by_bound(err4, err6, y4, y6, margin, cfg.choice_relative)
    codes = [
        with_signs(select_codes(cfg, pick4, codes4[w], codes6[w]), signs[w])
        for w in range(len(signs))
    ]
    _store_unit(lanes, stage, k, codes, select_bits(pick4, byte4, pair))
    same = (byte4 ^ pair) & 0xFF  # 0: one scale byte, so one candidate
    undecided = Int32(decided == 0) & Int32(same != 0)
    slow = fast_path_fails(a, inv6, err4, err6, 7.0 * cfg.code_scale)
    return slow, undecided & (slow ^ 1)


@cute.jit
def rare_units(
    cfg, lanes, stage, flagged, undecided_units, s, s_dec, gamax, d, table, after=None
):  # fmt: skip
    """The rare paths of the units whose bit is set, the whole warp together: a flagged
    unit through the exact path, an undecided one through ``undecided_unit``. ``after()``,
    if given, runs at the end of the rare branch (``tile_persistent``: the next item's
    loads issued again, so none of its registers stay live through the branch)."""
    if Int32(cute.arch.vote_any_sync((flagged | undecided_units) != 0)) != 0:
        for k in cutlass.range(cfg.groups_per_thread, unroll=1):
            if Int32(cute.arch.vote_any_sync(((flagged >> k) & 1) != 0)) != 0:
                # Fresh names: the DSL would carry the fast loop's lists through here.
                exact, exact_scale = exact_unit(cfg, lanes, k, s, s_dec, gamax, d)
                _store_unit(lanes, stage, k, exact, exact_scale)
            else:
                if Int32(cute.arch.vote_any_sync(((undecided_units >> k) & 1) != 0)) != 0:
                    chosen, chosen_scale = undecided_unit(cfg, lanes, k, s, table)
                    _store_unit(lanes, stage, k, chosen, chosen_scale)
        if cutlass.const_expr(after is not None):
            after()


class Lanes:
    """Where a lane's unit ``k`` lies (see the module docstring): in ``TileKernel``'s
    grid, or (``strip`` and ``row_block`` given) in the strip and row block of a work item.

    Each array has the lane's own base address (tile row 0) and a row stride,
    so a unit's addresses are its tile row's offset plus multiples of the
    stride. ``k`` may be a run-time value (the exact path's loop). All
    addresses are 64-bit; a unit past the bottom or right edge is clamped
    onto the last tile row or column and ``in_range(k)`` is false.
    """

    def __init__(self, cfg, mX, mCodes, mScales, tile_rows, tile_cols, strip=None, row_block=None):
        tidx, _, _ = cute.arch.thread_idx()
        if cutlass.const_expr(strip is None):  # the CTA's warp's: ``TileKernel``'s grid
            strip_block, row_block, layer = cute.arch.block_idx()
            row_block = Int64(layer) * cute.arch.grid_dim()[1] + Int64(row_block)
        e = lane_elements(cfg)
        parts = GROUP // e
        lane = Int32(tidx) & 31
        c8 = lane & 7
        self.cfg, self.e, self.parts, self.lane = cfg, e, parts, lane
        self.part = c8 & (parts - 1)
        if cutlass.const_expr(strip is None):
            tile = Int64(strip_block) * (WARPS * strip_tiles(cfg)) + Int64(
                (Int32(tidx) >> 5) * strip_tiles(cfg) + (c8 >> (parts.bit_length() - 1))
            )
        else:  # strip ``strip`` (its tiles ``strip * strip_tiles`` on), tile rows of ``row_block``
            tile = Int64(strip) * strip_tiles(cfg) + Int64(c8 >> (parts.bit_length() - 1))
        self.col_ok = tile < tile_cols
        tile = cutlass.min(tile, tile_cols - 1)
        self.tile_row0 = row_block * cfg.groups_per_thread  # past the end in a last layer
        self.tile_rows = tile_rows
        r4 = Int64(lane >> 3)
        cols = tile_cols * GROUP  # elements per row
        first = r4 * cols + tile * GROUP + Int64(self.part * e)  # element, tile row 0
        esize = cfg.width // 8
        self.x = (mX.iterator.toint() + first * esize, cols * esize)
        self.codes = (mCodes.iterator.toint() + first // 2, cols // 2)
        if cutlass.const_expr(cfg.fake):  # fake-quantize: ``mCodes`` is the (R, C) output
            osize = cfg.out_width // 8
            self.out = (mCodes.iterator.toint() + first * osize, cols * osize)
        # the scale byte of row r4 + 4 part (the first row this lane stores it on)
        self.scales = (
            mScales.iterator.toint() + (r4 + 4 * self.part) * tile_cols + tile,
            tile_cols,
        )
        if cutlass.const_expr(cfg.stage_stores):
            # Where this lane's bytes sit in the CTA's staged rows (not clamped: a
            # position past the edge is staged and never flushed).
            strip_block, _, _ = cute.arch.block_idx()
            self.r4 = lane >> 3
            self.code_byte = ((Int32(tidx) >> 5) * 8 + c8) * (e // 2)
            self.cta_tile = (Int32(tidx) >> 5) * strip_tiles(cfg) + (c8 >> (parts.bit_length() - 1))
            self.strip_block = Int64(strip_block)
            self.tile_cols = tile_cols

    def in_range(self, k):
        return self.col_ok & (self.tile_row0 + k < self.tile_rows)

    def address(self, array, k, row):
        """Address in ``array`` (``self.x`` ...) of the lane's ``row`` (0..15) of unit ``k``."""
        base, stride = array
        tile_row = cutlass.min(self.tile_row0 + k, self.tile_rows - 1)
        return base + (tile_row * GROUP + row) * stride


def _prefetch_later_cta(cfg, mX, tile_rows, tile_cols):
    """Ask L2 for the input of the CTA ``l2_ahead`` launches later (x fastest), if its
    strips are whole: ``16 K`` rows of 1 KB, one 128-byte line per thread and step.

    Each thread's loads in flight do not hide the DRAM latency; a line per
    thread covers the later CTA's rows in a few instructions and holds no
    registers (one bulk prefetch per row is slower: ``bench/NOTES.md``, "L2
    prefetch").
    """
    tidx, _, _ = cute.arch.thread_idx()
    strip_block, row_block, layer = cute.arch.block_idx()
    blocks_x = Int64(cute.arch.grid_dim()[0])
    row_block = Int64(layer) * cute.arch.grid_dim()[1] + Int64(row_block)
    later = row_block * blocks_x + Int64(strip_block) + cfg.l2_ahead
    later_x, later_y = later % blocks_x, later // blocks_x
    per_x = WARPS * strip_tiles(cfg)  # tiles a CTA covers along a row
    esize = cfg.width // 8
    per_row = per_x * GROUP * esize // LINE  # lines of a CTA row
    rows = tile_rows * GROUP
    cta_rows = cfg.groups_per_thread * GROUP
    whole = Int32((later_x + 1) * per_x <= tile_cols)
    for i in range((cta_rows * per_row + cfg.threads - 1) // cfg.threads):
        line = Int32(tidx) + i * cfg.threads
        row = later_y * cta_rows + Int64(line // per_row)
        wanted = Int32(line < cta_rows * per_row) & Int32(row < rows) & whole
        element = cutlass.min(row, rows - 1) * (tile_cols * GROUP) + later_x * (per_x * GROUP)
        addr = mX.iterator.toint() + element * esize + Int64(line % per_row) * LINE
        prefetch_line_l2(wanted, addr)


def _store_unit(lanes, stage, k, codes, scale):
    """Unit ``k``'s codes (``E / 2`` bytes a row) and its tile's scale byte on its rows.

    Part ``p`` of a tile stores the scale byte on its rows ``i = p, p + L, ..``
    (``r4 + 4 i``), so each of the tile's 16 rows gets it once. Predicated
    stores: a lane past the edge stores nothing. ``stage_stores``: into the
    CTA's staged rows instead (``_flush_stage`` writes them out).
    """
    if cutlass.const_expr(lanes.cfg.stage_stores):
        _stage_unit(lanes, stage, k, codes, scale)
        return
    if cutlass.const_expr(lanes.cfg.fake):
        rows = [lanes.address(lanes.out, k, ROWS_PER_LANE * i) for i in range(ROWS_PER_LANE)]
        in_range = Int32(lanes.in_range(k))
        store_fake_rows(lanes.cfg, in_range, rows, codes, scale, lanes.gamax, lanes.factor_inv)
        return
    in_range = Int32(lanes.in_range(k))
    for i in range(ROWS_PER_LANE):
        c_addr = lanes.address(lanes.codes, k, ROWS_PER_LANE * i)
        if cutlass.const_expr(lanes.e == 8):
            store_if(in_range, c_addr, codes[i], 32)
        else:  # float32: a code word holds rows 2w and 2w + 1
            store_if(in_range, c_addr, codes[i // 2] >> (16 * (i % 2)), 16)
    for t in range(ROWS_PER_LANE // lanes.parts):
        s_addr = lanes.address(lanes.scales, k, ROWS_PER_LANE * lanes.parts * t)
        store_if(in_range, s_addr, scale, 8)


def _stage_layout(cfg):
    """``stage_stores``: (tiles a CTA row, bytes of codes a CTA row, start of the scales)."""
    tiles = WARPS * strip_tiles(cfg)
    code_row = tiles * GROUP // 2
    scales_at = cfg.groups_per_thread * GROUP * code_row
    assert cfg.stage_bytes == scales_at + cfg.groups_per_thread * GROUP * tiles  # smem sized
    return tiles, code_row, scales_at


def _stage_unit(lanes, stage, k, codes, scale):
    """Unit ``k``'s codes and scale byte into the CTA's staged rows (shared memory).

    Staged row ``16 k + j`` holds the CTA's codes of tile row ``tile_row0 + k``,
    row ``j``, then (after every unit's codes) its scale bytes, one per tile.
    """
    tiles, code_row, scales_at = _stage_layout(lanes.cfg)
    for i in range(ROWS_PER_LANE):
        row = k * GROUP + lanes.r4 + ROWS_PER_LANE * i
        addr = stage + row * code_row + lanes.code_byte
        if cutlass.const_expr(lanes.e == 8):
            store_shared(addr, codes[i], 32)
        else:  # float32: a code word holds rows 2w and 2w + 1
            store_shared(addr, codes[i // 2] >> (16 * (i % 2)), 16)
    for t in range(ROWS_PER_LANE // lanes.parts):
        row = k * GROUP + lanes.r4 + ROWS_PER_LANE * (lanes.part + lanes.parts * t)
        store_shared(stage + scales_at + row * tiles + lanes.cta_tile, scale, 8)


def _flush_stage(cfg, lanes, stage, mCodes, mScales):
    """The CTA's staged codes (4-byte words) and scale bytes to global memory.

    Consecutive threads take consecutive 4-byte words of codes (and
    consecutive scale bytes) of a row, so one warp store covers 128 contiguous
    bytes of codes, or the CTA's scale bytes of one or two rows, where each
    lane of ``_store_unit`` writes 2-4 bytes on rows 4 apart. Positions past
    the tensor's right or bottom edge are skipped. Rows of codes start 8-byte
    aligned (``C / 2`` is a multiple of 8); scale rows at any byte.
    """
    tidx, _, _ = cute.arch.thread_idx()
    tiles, code_row, scales_at = _stage_layout(cfg)
    code_stride = lanes.tile_cols * (GROUP // 2)  # bytes of codes a tensor row
    first_tile = lanes.strip_block * tiles
    words, count = GROUP * code_row // 4, GROUP * tiles  # a unit's words of codes, scale bytes
    for k in range(cfg.groups_per_thread):
        tile_row = lanes.tile_row0 + k
        row_ok = Int32(tile_row < lanes.tile_rows)
        for p in range((words + cfg.threads - 1) // cfg.threads):
            w = Int32(tidx) + p * cfg.threads
            row, col = w // (code_row // 4), w % (code_row // 4)
            col_byte = first_tile * (GROUP // 2) + Int64(col * 4)
            ok = row_ok & Int32(col_byte < code_stride) & Int32(w < words)
            addr = (
                mCodes.iterator.toint() + (tile_row * GROUP + Int64(row)) * code_stride + col_byte
            )
            value = load_shared(stage + (k * GROUP + row) * code_row + col * 4, 32)
            store_if(ok, addr, value, 32)
        for p in range((count + cfg.threads - 1) // cfg.threads):
            b = Int32(tidx) + p * cfg.threads
            row, col = b // tiles, b % tiles
            tile = first_tile + Int64(col)
            ok = row_ok & Int32(tile < lanes.tile_cols) & Int32(b < count)
            addr = (
                mScales.iterator.toint() + (tile_row * GROUP + Int64(row)) * lanes.tile_cols + tile
            )
            value = load_shared(stage + scales_at + (k * GROUP + row) * tiles + col, 8)
            store_if(ok, addr, value, 8)
