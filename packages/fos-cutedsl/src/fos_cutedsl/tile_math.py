"""A 16x16 unit's arithmetic across its tile's lanes, for ``tile``'s kernel.

A lane holds a *unit*: ``E`` elements (8 16-bit, 4 float32) on each of rows ``r4``,
``r4 + 4``, ``r4 + 8`` and ``r4 + 12`` of a tile, which is ``L = 16 / E`` lanes wide
and 4 lanes tall (``tile``'s docstring has the layout). Here: the unit's loads, the
fast path's candidates, tile amax and error sums over the tile's 8 lanes, and the two
rare paths that run after the unit loop, the whole warp together:

- ``undecided_unit``: the fast path holds but its bound left the choice open. The
  fast path's codes stand; SPEC's errors come from ``grid_value`` (the table's K and
  J, as ``group._exact_errors`` for a 1x16 group) and are summed in SPEC's order.
- ``exact_unit``: a shortcut's precondition failed (extreme scales, NaN, Inf): the
  tile as SPEC writes it, per element.

Both sum SPEC's errors in its order: a row's chain over its 16 elements crosses the
``L`` lanes of the row (``row_error``: part ``p`` continues part ``p - 1``'s chain
by ``shfl.up``), then the rows fold as SPEC step 7 writes it (``spec_tile_error``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Float32, Int32, Uint32

from .choice import add_error, add_fast_error
from .config import GROUP, QuantizeConfig
from .e2m1 import code_word, e2m1_round_magic, grid_value, with_signs
from .exact import exact_codes, exact_inv
from .group import (
    block_amax,
    block_amax_fast,
    candidate_scales,
    grid_codes,
    sign_nibbles8,
    unpack_word,
)
from .ieee import (
    abs_f32,
    add_rn,
    as_f32,
    fmax,
    high_byte16,
    less_mask,
    mul_rn,
    pick_f32,
    select_bits,
    sub_rn,
)

ROWS_PER_LANE = 4  # rows r4, r4 + 4, r4 + 8, r4 + 12


def lane_elements(cfg: QuantizeConfig) -> int:
    """``E``: the elements of one 16-byte load (8 16-bit or 4 float32)."""
    return 128 // cfg.width


def load_unit(lanes, k):
    """Issue unit ``k``'s four 16-byte loads: its 16 raw 32-bit words, rows in order."""
    words = []
    for i in range(ROWS_PER_LANE):
        rX = cute.make_rmem_tensor((4,), Uint32)
        load_row_into(lanes, k, i, rX)
        words.extend(rX[w] for w in range(4))
    return words


def load_unit_into(lanes, k, rows):
    """Issue unit ``k``'s four 16-byte loads into ``rows``, 4 register tensors of 4 words."""
    for i in range(ROWS_PER_LANE):
        load_row_into(lanes, k, i, rows[i])


def load_row_into(lanes, k, i, rX):
    """Issue the 16-byte load of the lane's ``i``-th row (``r4 + 4 i``) of unit ``k`` into
    the register tensor ``rX`` (4 words)."""
    addr = lanes.address(lanes.x, k, ROWS_PER_LANE * i)
    ptr = cute.make_ptr(Uint32, addr, cute.AddressSpace.gmem, assumed_align=16)
    cute.autovec_copy(cute.make_tensor(ptr, cute.make_layout(4)), rX)


def tile_offsets(cfg):
    """``shfl.bfly`` offsets over a tile's 8 lanes: its parts (1, or 1 and 2), then rows."""
    parts = [1 << b for b in range((GROUP // lane_elements(cfg)).bit_length() - 1)]
    return [*parts, 16, 8]


def tile_max(cfg, a):
    """Step 2 over the tile's 8 lanes (max is exact, so any order)."""
    for off in tile_offsets(cfg):
        a = fmax(a, cute.arch.shuffle_sync_bfly(a, offset=off))
    return a


def fast_candidates(cfg, words, inv4, inv6):
    """Steps 4-6 for both candidates, fast, 8 elements (one code word) at a time.

    Returns each candidate's code words and per-row approximate errors (the
    sum of ``|RN(r_i - m_i)|``, mae, or its square, in units of ``m``, as
    ``group._fast_candidate`` for a 1x16 group), and the sign nibbles. Going
    word by word lets each input word die early (registers bound the CTAs
    per SM).
    """
    e = lane_elements(cfg)
    per_word = len(words) // ROWS_PER_LANE * 8 // e  # raw words per 8 elements
    codes4, codes6, signs = [], [], []
    rows4, rows6 = [None] * ROWS_PER_LANE, [None] * ROWS_PER_LANE  # add_error's start
    for w in range(len(words) // per_word):
        raw = words[per_word * w : per_word * (w + 1)]
        signs.append(sign_nibbles8(cfg, raw))
        r4, r6 = [], []
        for j, v in enumerate(v for word in raw for v in unpack_word(cfg, word)):
            row = (8 * w + j) // e
            ax = abs_f32(v)
            for inv, r, rows in ((inv4, r4, rows4), (inv6, r6, rows6)):
                m = mul_rn(ax, inv)
                r.append(e2m1_round_magic(m, 2.0 * cfg.code_scale))
                rows[row] = add_fast_error(cfg, rows[row], sub_rn(r[-1], m))
        codes4.append(grid_codes(cfg, r4))
        codes6.append(grid_codes(cfg, r6))
    return codes4, codes6, rows4, rows6, signs


def fold_rows(rows):
    """The lane's rows as SPEC step 7 folds them: (r4 + r4+8) + (r4+4 + r4+12)."""
    return add_rn(add_rn(rows[0], rows[2]), add_rn(rows[1], rows[3]))


def tile_sum(cfg, e):
    """The approximate error summed over the tile's parts, then its rows."""
    for off in tile_offsets(cfg):
        e = add_rn(e, cute.arch.shuffle_sync_bfly(e, offset=off))
    return e


def undecided_unit(cfg, lanes, k, s, table):
    """Unit ``k`` again where the fast path holds but its bound left a tile's choice
    open: SPEC's errors of both candidates (``grid_tile_errors``), then the chosen
    candidate's fast-path codes. The warp runs it together; a tile whose choice was
    decided comes out as the fast path stored it.
    """
    words = load_unit(lanes, k)
    x = [as_f32(w) for w in words] if cfg.dtype == "float32" else None
    a = tile_max(cfg, block_amax_fast(cfg, words, x))
    pair, _, _ = candidate_scales(a, s)
    byte4, byte6 = high_byte16(pair), pair & 0xFF
    err4, err6 = grid_tile_errors(cfg, lanes, words, table, byte4, byte6)
    pick4 = less_mask(err4, err6)
    codes = candidate_codes(cfg, words, table[select_bits(pick4, byte4, byte6), 0])
    return codes, select_bits(pick4, byte4, pair)


@cute.jit
def candidate_codes(cfg, words, inv):
    """One candidate's code words with signs, as ``fast_candidates`` makes them: a run-time
    loop over the code words (``code_step``), for the same reason as ``grid_tile_errors``."""
    codes = [Int32(0)] * (ROWS_PER_LANE * lane_elements(cfg) // 8)
    for w in cutlass.range(len(codes), unroll=1):
        codes = code_step(cfg, words, inv, w, codes)
    return codes


def code_step(cfg, words, inv, w, codes):
    """``candidate_codes``' step: code word ``w`` (run-time) into its place in ``codes``."""
    raw = word_of(cfg, words, w)
    ax = [abs_f32(v) for word in raw for v in unpack_word(cfg, word)]
    r = [e2m1_round_magic(mul_rn(v, inv), 2.0 * cfg.code_scale) for v in ax]
    word = grid_codes(cfg, r)
    if cutlass.const_expr(cfg.e4m3_codes):
        word = code_word(*word)
    word = with_signs(word, sign_nibbles8(cfg, raw))
    return [select_bits(Int32(0) - Int32(w == q), word, c) for q, c in enumerate(codes)]


def word_of(cfg, words, w):
    """The raw words of the lane's code word ``w`` (8 elements; ``w`` a run-time value),
    picked from ``words`` by ``lop3``."""
    steps = ROWS_PER_LANE * lane_elements(cfg) // 8  # code words a lane
    cols = len(words) // steps  # raw words a code word
    raw = []
    for c in range(cols):
        word = words[c]
        for other in range(1, steps):
            word = select_bits(Int32(0) - Int32(w == other), words[cols * other + c], word)
        raw.append(word)
    return raw


@cute.jit
def grid_tile_errors(cfg, lanes, words, table, byte4, byte6):
    """SPEC's errors of both candidates (scale bytes ``byte4``, ``byte6``) over the tile,
    summed in SPEC's order from ``error_step``'s rows.

    One run-time loop step a (candidate, code word): the branch holds an eighth of the
    unrolled sums' code, so a tile that is an SM's first undecided one waits less for
    that code to be fetched (``bench/NOTES.md``, v40).
    """
    rows = [Float32(0.0)] * (2 * ROWS_PER_LANE)  # candidate 4's rows, then candidate 6's
    for step in cutlass.range(2 * ROWS_PER_LANE * lane_elements(cfg) // 8, unroll=1):
        rows = error_step(cfg, lanes, words, table, byte4, byte6, step, rows)
    return (
        spec_tile_error(cfg, lanes, rows[:ROWS_PER_LANE]),
        spec_tile_error(cfg, lanes, rows[ROWS_PER_LANE:]),
    )


def error_step(cfg, lanes, words, table, byte4, byte6, step, rows):
    """``grid_tile_errors``' step ``step`` (run-time): candidate ``step // steps``'s
    errors of code word ``w = step % steps`` (``word_of``), each from ``grid_value``:
    ``r_i`` the fast path's magnitudes (``inv`` in ``e4m3_codes`` units is scaled back
    up, exactly), ``d_i = RN(V_i - |x_i|)``, whose magnitude is SPEC's. Returns ``rows``
    with the word's row errors in their places."""
    steps = ROWS_PER_LANE * lane_elements(cfg) // 8  # code words a candidate
    six = Int32(step >= steps)
    w = step - six * steps
    byte = select_bits(Int32(0) - six, byte6, byte4)
    inv = table[byte, 0]
    if cutlass.const_expr(cfg.code_scale != 1.0):
        inv = mul_rn(inv, Float32(1.0 / cfg.code_scale))
    k, j = table[byte, 2], table[byte, 3]
    ax = [abs_f32(v) for word in word_of(cfg, words, w) for v in unpack_word(cfg, word)]
    diffs = [sub_rn(grid_value(e2m1_round_magic(mul_rn(v, inv)), k, j), v) for v in ax]
    return place_rows(cfg, lanes, diffs, step, rows)


def place_rows(cfg, lanes, diffs, step, rows):
    """``rows`` with the row errors (``row_error``) of loop step ``step``'s code word
    (``diffs``, 8 elements) in their places: row ``step * 8 / E + i``."""
    e = lane_elements(cfg)
    rows = list(rows)
    for i in range(8 // e):
        err = row_error(cfg, lanes, diffs[e * i : e * (i + 1)])
        for q in range(len(rows)):
            rows[q] = pick_f32(Int32(q == step * (8 // e) + i), err, rows[q])
    return rows


def spec_tile_error(cfg, lanes, rows):
    """SPEC step 7 from the lane's 4 row errors (``row_error``, valid in its last part):
    rows fold by 8 and 4 in the lane, by 2 and 1 across lanes; every lane of the tile
    takes the result of its last part."""
    err = fold_rows(rows)
    for off in (16, 8):
        err = add_rn(err, cute.arch.shuffle_sync_bfly(err, offset=off))
    parts = GROUP // lane_elements(cfg)
    return cute.arch.shuffle_sync(err, offset=lanes.lane | (parts - 1))


def exact_unit(cfg, lanes, k, s, s_dec, gamax, d):
    """Unit ``k``'s tile as SPEC writes it: (code words, scale byte). The warp runs it together.

    The unit is loaded once and both candidates work from its raw words, unpacking
    a code word's elements at a time: one memory round trip, not one per code word
    and candidate, so a flagged tile in a kernel's last CTAs delays its end less
    (``bench/NOTES.md``, v25).
    """
    words = load_unit(lanes, k)
    x = [v for w in words for v in unpack_word(cfg, w)]
    a = tile_max(cfg, block_amax(x))
    pair, f4, f6 = candidate_scales(a, s, fast=False)
    codes, err4, err6 = exact_candidates(cfg, lanes, words, f4, f6, s_dec, gamax, d)
    n = len(codes) // 2
    pick4 = less_mask(err4, err6)
    codes = [select_bits(pick4, codes[w], codes[n + w]) for w in range(n)]
    return codes, select_bits(pick4, pair >> 8, pair)


@cute.jit
def exact_candidates(cfg, lanes, words, f4, f6, s_dec, gamax, d):
    """SPEC steps 4-7 for both candidates ``f4`` and ``f6`` of the unit's raw ``words``
    (``load_unit``): the code words (candidate 4's, then 6's) and each candidate's tile
    error (every lane), in a run-time loop of one step a (candidate, code word)
    (``exact_step``), as ``grid_tile_errors`` does and for the same reason: the exact
    path's code is cold when a kernel first needs it."""
    steps = ROWS_PER_LANE * lane_elements(cfg) // 8  # code words a candidate
    candidates = (f4, exact_inv(f4, s_dec), f6, exact_inv(f6, s_dec))
    codes = [Int32(0)] * (2 * steps)
    rows = [Float32(0.0)] * (2 * ROWS_PER_LANE)  # candidate 4's rows, then candidate 6's
    for step in cutlass.range(2 * steps, unroll=1):
        codes, rows = exact_step(cfg, lanes, words, candidates, gamax, d, step, codes, rows)
    return (
        codes,
        spec_tile_error(cfg, lanes, rows[:ROWS_PER_LANE]),
        spec_tile_error(cfg, lanes, rows[ROWS_PER_LANE:]),
    )


def exact_step(cfg, lanes, words, candidates, gamax, d, step, codes, rows):
    """``exact_candidates``' step ``step`` (run-time): code word ``w = step % steps``
    (``word_of``) under candidate ``step // steps`` as SPEC writes it (``exact_codes``).
    Returns ``codes`` and ``rows`` with its code word and row errors in their places."""
    steps = ROWS_PER_LANE * lane_elements(cfg) // 8
    f4, inv4, f6, inv6 = candidates
    six = Int32(step >= steps)
    w = step - six * steps
    x = [v for word in word_of(cfg, words, w) for v in unpack_word(cfg, word)]
    word, diffs = exact_codes(x, pick_f32(six, f6, f4), pick_f32(six, inv6, inv4), gamax, d)
    codes = [select_bits(Int32(0) - Int32(q == step), word[0], c) for q, c in enumerate(codes)]
    return codes, place_rows(cfg, lanes, diffs, step, rows)


def row_error(cfg, lanes, diffs):
    """SPEC step 6's chain over one tile row, whose 16 elements lie in L lanes.

    Part ``p`` starts where part ``p - 1`` ended (``shfl.up`` by one lane);
    after ``L`` steps the last part holds the row's error.
    """
    acc = Float32(0.0)
    for step in range(GROUP // lane_elements(cfg)):
        err = Float32(0.0) if step == 0 else cute.arch.shuffle_sync_up(acc, offset=1)
        for diff in diffs:
            err = add_error(cfg, err, diff)
        acc = pick_f32(Int32(lanes.part == step), err, acc)
    return acc
