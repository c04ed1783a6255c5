"""Four-over-six NVFP4 quantize in CuTe DSL: bit-identical to ``fos_reference``.

Bitwise contract (SPEC.md). Every float32 operation is one pinned PTX
instruction from ``pinned`` (``div.rn``, ``mul.rn``, ``add.rn``, ``sub.rn``,
NaN-dropping ``min``/``max``, no ``.ftz``, no approximations, no compiler
contracted ``fma``; the only ``fma`` is the magic-add rounding's, whose product
is an exact power of two). Per group, in SPEC's order:

1. ``s = min(D / gamax, FLT_MAX)``, 1 when gamax or s is 0; ``s_dec = 1 / s``
   (per tensor: once per thread).
2. Block amax: NaN-dropping ``max.f32`` of ``|x_i|`` from 0; a 16x16 tile then
   combines its 16 row amaxes with ``shfl.bfly`` 8, 4, 2, 1 (max is exact).
3. ``base = (a / 6) * s``; ``c6 = min(base, 448)``, ``c4 = min(base * 1.5, 448)``;
   both go through one ``cvt.rn.satfinite.e4m3x2.f32`` and decode exactly.
4. ``inv_k = min(1 / (f_k * s_dec), FLT_MAX)``: per tensor looked up in a
   256-entry table of every scale byte, built once per CTA in shared memory.
5.-6. Fast path. Signs drop out (``q_i`` has ``x_i``'s sign when ``inv > 0``,
   and ``|RN(v - a)| = |RN(-v + a)|``), so each candidate works on ``|x_i|``:
   ``m = RN(|x_i| * inv)``, E2M1 magnitude ``r = RN(m + C) - C`` with
   ``C = 2^22 * 2^floor(log2(max(m, 1)))`` (round-to-nearest-even on the grid),
   value ``V = 2^e(r) * W`` with ``W1 = RN(RN(f g) / D)`` or
   ``W15 = RN(RN(1.5 f g) / D)`` (SPEC's ``RN(RN(RN(r f) g) / D)`` exactly,
   because ``r f`` is exact and powers of two scale exactly while nothing is
   subnormal or overflows), ``d = RN(V - |x_i|)``, error summed for i = 0..15
   in order as ``err + |d|`` (mae) or ``err + d * d`` (mse). The winner's codes
   are the bits of ``r * 2^-126`` (0.5 is the subnormal 2^-127) with ``x``'s
   sign; on SM100+ ``cvt.rn.satfinite.e2m1x2.f32`` encodes the signed ``r``.
   Proofs: ``tests/cutedsl/fast_model.py`` and ``test_fast_algebra.py``.
   Exact path: a group whose candidates fail the fast path's preconditions
   (``W1 < 2^-125``, ``RN(1.5 f g) > 2^124``, ``inv <= 0``, ``RN(a * inv) >= 7``)
   or whose error is NaN (a NaN element) is recomputed per element exactly as
   SPEC writes it: ``q_i = x_i * inv``, a segment-scaled ``RN(y + 2^23)``
   E2M1 rounding (SM90) or the hardware conversion (SM100+), and
   ``val = ((dq * f) * gamax) / D`` with ``div.rn``.
7. 16x16: the 16 row errors fold with ``shfl.bfly`` 8, 4, 2, 1 and ``add.rn``;
   lane ``i`` adds ``e_i`` and ``e_(i^8)``, then 4, 2, 1, which equals SPEC's
   ``(((e0+e8)+(e4+e12))+...)`` bit for bit because IEEE addition commutes.
   The warp votes, so both tiles of a warp take the exact path together.
8. Map-to-4 only when ``err4 < err6`` (ordered: ties and NaN pick map-to-6).

Tiling. 256 threads per CTA, each taking ``GROUPS_PER_THREAD`` groups one
CTA-wide stride apart, with the next group's 16-byte loads issued before the
current group's arithmetic. 1x16: group ``t`` is elements ``[16t, 16t+16)``,
code bytes ``[8t, 8t+8)`` (one 8-byte store) and scale byte ``t``. 16x16: a
half-warp owns one tile, lane ``r`` its row ``r``. Threads past the end re-read
the last group and skip their stores, so every lane reaches the shuffles. All
addresses are computed in 64-bit integers (tensors over 2^31 elements are fine).
"""

from __future__ import annotations

from dataclasses import dataclass

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8, Uint32
from cutlass.base_dsl import BaseDSL
from cutlass.base_dsl.enums import Arch

from . import pinned as pin

GROUP = 16
FLT_MAX = 3.4028234663852886e38  # largest finite float32

GROUPS_PER_THREAD = 4  # amortizes the per-CTA table and the per-tensor step 1
TABLE = 256  # per-tensor constants for every scale byte (negative ones need a negative amax)
TABLE_BYTES = TABLE * 4 * 4

_DTYPES = {"bfloat16": cutlass.BFloat16, "float16": cutlass.Float16, "float32": cutlass.Float32}


@dataclass(frozen=True)
class QuantizeConfig:
    """Compile-time knobs of one kernel variant (one compiled binary each)."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    block: str  # "1x16" | "16x16"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    row_scaled: bool
    threads: int = 256

    @property
    def element(self) -> type:
        return _DTYPES[self.dtype]

    @property
    def d(self) -> float:
        return 6.0 * self.bound


class QuantizeKernel:
    """Host launcher and device kernel for one ``QuantizeConfig``."""

    def __init__(self, config: QuantizeConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16/f32, row-major
        mAmax: cute.Tensor,  # (1,) or (R,) float32
        mCodes: cute.Tensor,  # (R, C/2) uint8
        mScales: cute.Tensor,  # (R, C/16) uint8 (float8_e4m3fn bits)
        stream: CUstream,
    ):
        rows = Int64(mX.shape[0])
        groups_per_row = Int64(mX.shape[1]) // GROUP
        total = rows * groups_per_row  # one 1x16 group per thread and step
        threads = self.cfg.threads
        per_block = threads * GROUPS_PER_THREAD
        blocks = Int32((total + (per_block - 1)) // per_block)
        self.kernel(mX, mAmax, mCodes, mScales, groups_per_row, total).launch(
            grid=[blocks, 1, 1], block=[threads, 1, 1], smem=TABLE_BYTES, stream=stream
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
    ):
        cfg = self.cfg
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        d = Float32(cfg.d)
        smem = cutlass.memory.SmemAllocator()
        table = smem.allocate_tensor(
            Float32, cute.make_layout((TABLE, 4), stride=(4, 1)), byte_alignment=16
        )  # (128, 4): unused when row-scaled
        gamax = mAmax[0]
        s = pin.global_scale(gamax, d)
        s_dec = pin.div_rn(Float32(1.0), s)
        if cutlass.const_expr(not cfg.row_scaled):
            # Per tensor: step 1 once, and the per-scale-byte constants of steps
            # 4-6 (inv, W1, W15, fast-ok) once per CTA, one byte per thread.
            if tidx < TABLE:
                f = pin.e4m3x2_to_f32(Int32(tidx))[1]
                inv, w1, w15, ok = _scale_constants(f, s_dec, gamax, d)
                table[tidx, 0] = inv
                table[tidx, 1] = w1
                table[tidx, 2] = w15
                table[tidx, 3] = Float32(ok)
            cute.arch.sync_threads()
        # Each thread takes GROUPS_PER_THREAD groups, one CTA-wide stride apart
        # (coalesced); threads past the end redo the last group and store
        # nothing, so every lane reaches the 16x16 shuffles.
        first = Int64(bidx) * (cfg.threads * GROUPS_PER_THREAD) + Int64(tidx)
        ahead = _load_group(cfg, mX, groups_per_row, total, first)
        for k in cutlass.range_constexpr(GROUPS_PER_THREAD):
            # ======== one 1x16 group (a 16x16 tile row): load, candidates, select, store
            rX, t, in_range = ahead
            if cutlass.const_expr(k + 1 < GROUPS_PER_THREAD):
                # Software pipelining: the next group's loads fly during this one.
                ahead = _load_group(cfg, mX, groups_per_row, total, first + (k + 1) * cfg.threads)
            xv = rX.load().to(Float32)
            x = [xv[i] for i in range(GROUP)]

            # ---- step 1: global scale (row-scaled: this row's)
            if cutlass.const_expr(cfg.row_scaled):
                gamax = mAmax[t // groups_per_row]
                s = pin.global_scale(gamax, d)
                s_dec = pin.div_rn(Float32(1.0), s)

            # ---- step 2: block amax (NaN-dropping, from 0)
            ax = [pin.abs_f32(x[i]) for i in range(GROUP)]  # (16,) |x_i|
            a = Float32(0.0)
            for i in cutlass.range_constexpr(GROUP):
                a = pin.fmax(a, ax[i])
            if cutlass.const_expr(cfg.block == "16x16"):
                for off in (8, 4, 2, 1):
                    a = pin.fmax(a, cute.arch.shuffle_sync_bfly(a, offset=off))

            # ---- step 3: candidate scales, one cvt for both (c4 upper byte, c6 lower)
            base = pin.mul_rn(pin.div_rn(a, Float32(6.0)), s)
            c6 = pin.fmin(base, Float32(448.0))
            c4 = pin.fmin(pin.mul_rn(base, Float32(1.5)), Float32(448.0))
            pair = pin.cvt_e4m3x2(c4, c6)
            f4, f6 = pin.e4m3x2_to_f32(pair)

            # ---- steps 4-6, fast path: magic-add rounding and two-constant values
            if cutlass.const_expr(cfg.row_scaled):
                k4 = _scale_constants(f4, s_dec, gamax, d)
                k6 = _scale_constants(f6, s_dec, gamax, d)
            else:
                k4 = _lookup(table, (pair >> 8) & 0xFF)
                k6 = _lookup(table, pair & 0xFF)
            r4, err4, ok4 = _fast_candidate(cfg, ax, a, *k4)
            r6, err6, ok6 = _fast_candidate(cfg, ax, a, *k6)
            err4, err6 = _fold_tile(cfg, err4, err6)
            pick4 = pin.less_mask(err4, err6)  # all ones: map-to-4
            packed = _pack_winner([pin.pick_f32(pick4, r4[i], r6[i]) for i in range(GROUP)], x)
            word0 = Int32(packed[0])
            word1 = Int32(packed[1])
            scale = Int32(((pair >> 8) & pick4) | (pair & (pick4 ^ -1)))

            # ---- the exact per-element path, for groups the shortcuts do not cover:
            # extreme scales or magnitudes (fast-ok 0), or a NaN element (its code
            # drops the sign bit).
            slow = (ok4 & ok6) ^ 1
            slow = slow | pin.is_nan(err4) | pin.is_nan(err6)
            if cutlass.const_expr(cfg.block == "16x16"):
                slow = Int32(cute.arch.vote_any_sync(slow != 0))  # shuffles need the whole warp
            if slow != 0:
                exact = _exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d)
                word0 = Int32(exact[0])
                word1 = Int32(exact[1])
                scale = Int32(exact[2])
            if in_range:
                _store(mCodes, mScales, t, word0, word1, scale)


def _load_group(cfg, mX, groups_per_row, total, v):
    """Issue the 16-byte loads of group ``v``: (registers (16,), group index t, in range).

    Past the end, the last group is read again (valid memory) and marked out
    of range, so its lanes still reach the 16x16 shuffles but store nothing.
    """
    in_range = v < total
    u = cutlass.min(v, total - 1)
    if cutlass.const_expr(cfg.block == "16x16"):
        tile = u >> 4  # a half-warp per 16x16 tile
        tile_row = tile // groups_per_row
        col_group = tile - tile_row * groups_per_row
        row = tile_row * GROUP + (u & (GROUP - 1))
        t = row * groups_per_row + col_group
    else:
        t = u
    elem_bytes = cfg.element.width // 8
    x_addr = mX.iterator.toint() + t * (GROUP * elem_bytes)
    x_ptr = cute.make_ptr(cfg.element, x_addr, cute.AddressSpace.gmem, assumed_align=16)
    gX = cute.make_tensor(x_ptr, cute.make_layout(GROUP))  # (16,)
    rX = cute.make_rmem_tensor((GROUP,), cfg.element)
    cute.autovec_copy(gX, rX)
    return rX, t, in_range


def _exact_path(cfg, x, f4, f6, pair, s_dec, gamax, d):
    """Steps 4-8 exactly as SPEC writes them, per element: two code words and the scale byte."""
    words4, err4 = _candidate(cfg, x, f4, s_dec, gamax, d)
    words6, err6 = _candidate(cfg, x, f6, s_dec, gamax, d)
    err4, err6 = _fold_tile(cfg, err4, err6)
    pick4 = pin.less_mask(err4, err6)
    keep6 = pick4 ^ -1
    word0 = (words4[0] & pick4) | (words6[0] & keep6)
    word1 = (words4[1] & pick4) | (words6[1] & keep6)
    return word0, word1, ((pair >> 8) & pick4) | (pair & keep6)


def _store(mCodes, mScales, t, word0, word1, scale):
    """Group ``t``'s 8 code bytes (one 8-byte store) and its scale byte."""
    c_addr = mCodes.iterator.toint() + t * (GROUP // 2)
    c_ptr = cute.make_ptr(Uint32, c_addr, cute.AddressSpace.gmem, assumed_align=8)
    gC = cute.make_tensor(c_ptr, cute.make_layout(2))  # (2,) words = 8 bytes
    rC = cute.make_rmem_tensor((2,), Uint32)
    rC[0] = Uint32(word0)
    rC[1] = Uint32(word1)
    cute.autovec_copy(rC, gC)
    s_addr = mScales.iterator.toint() + t
    s_ptr = cute.make_ptr(Uint8, s_addr, cute.AddressSpace.gmem, assumed_align=1)
    gS = cute.make_tensor(s_ptr, cute.make_layout(1))
    gS[0] = Uint8(scale & 0xFF)


def _scale_constants(f, s_dec, gamax, d):
    """Per-candidate constants: ``inv`` (step 4), ``W1``, ``W15`` and the fast-ok flag."""
    inv = pin.fmin(pin.div_rn(Float32(1.0), pin.mul_rn(f, s_dec)), Float32(FLT_MAX))
    w1, w15, ok = pin.grid_constants(f, gamax, d)
    return inv, w1, w15, ok


def _lookup(table, byte):
    """The per-tensor constants of scale byte ``byte`` from the CTA's table."""
    return table[byte, 0], table[byte, 1], table[byte, 2], Int32(table[byte, 3])


def _fold_tile(cfg, err4, err6):
    """Step 7: a 16x16 tile folds its 16 row errors by 8, 4, 2, 1 (1x16: unchanged)."""
    if cutlass.const_expr(cfg.block == "16x16"):
        for off in (8, 4, 2, 1):
            err4 = pin.add_rn(err4, cute.arch.shuffle_sync_bfly(err4, offset=off))
            err6 = pin.add_rn(err6, cute.arch.shuffle_sync_bfly(err6, offset=off))
    return err4, err6


def _fast_candidate(cfg, ax, a, inv, w1, w15, ok):
    """Steps 4-6 for one candidate, fast: on-grid magnitudes ``r`` (16), error, fast-ok flag.

    Signs drop out: ``q_i`` has ``x_i``'s sign and ``|RN(-v + a)| = |RN(v - a)|``,
    so the error uses ``|x_i|`` and the magnitudes ``r_i`` alone; that needs
    ``inv > 0`` (a negative global amax can make it negative or -Inf). The
    rounding does not saturate, so the flag also asks ``RN(a * inv) < 7``: then
    every ``q_i`` is below 7 (RN is monotonic) and rounds to at most 6.
    """
    r = []
    err = Float32(0.0)
    for i in range(GROUP):
        r.append(pin.e2m1_round_magic(pin.mul_rn(ax[i], inv)))
        diff = pin.sub_rn(pin.grid_value(r[i], w1, w15), ax[i])
        if cutlass.const_expr(cfg.err_mode == "mae"):
            err = pin.add_rn(err, pin.abs_f32(diff))
        else:
            err = pin.add_rn(err, pin.mul_rn(diff, diff))
    below7 = pin.less_mask(pin.mul_rn(a, inv), Float32(7.0)) & 1
    positive = pin.less_mask(Float32(0.0), inv) & 1  # q_i has x_i's sign
    return r, err, ok & below7 & positive


def _pack_winner(r, x):
    """Two code words (element 2j low nibble) from on-grid magnitudes and ``x``'s signs."""
    hw_fp4 = BaseDSL._get_dsl().get_arch_enum() >= Arch.sm_100
    words = []
    for w in range(2):
        if cutlass.const_expr(hw_fp4):
            signed = [pin.signed_grid(r[8 * w + j], x[8 * w + j]) for j in range(8)]
            words.append(pin.cvt_e2m1x8(*signed))
        else:
            words.append(pin.pack_grid_codes8(r[8 * w : 8 * w + 8], x[8 * w : 8 * w + 8]))
    return words[0], words[1]


def _candidate(cfg, x, f, s_dec, gamax, d):
    """Steps 4-6 for one candidate scale ``f``: packed codes (two words) and error."""
    inv = pin.fmin(pin.div_rn(Float32(1.0), pin.mul_rn(f, s_dec)), Float32(FLT_MAX))
    q = [pin.mul_rn(x[i], inv) for i in range(GROUP)]
    hw_fp4 = BaseDSL._get_dsl().get_arch_enum() >= Arch.sm_100
    words = []
    dq = []
    if cutlass.const_expr(hw_fp4):
        for w in range(2):
            word = pin.cvt_e2m1x8(*q[8 * w : 8 * w + 8])
            words.append(word)
            for b in range(4):
                lo, hi = pin.e2m1x2_to_f32(word, b)
                dq.extend((lo, hi))
    else:
        for w in range(2):
            word = Int32(0)
            for j in range(8):
                code, value = pin.e2m1_round_sw(q[8 * w + j])
                dq.append(value)
                word = word | (code << (4 * j))
            words.append(word)
    err = Float32(0.0)
    for i in range(GROUP):
        val = pin.div_rn(pin.mul_rn(pin.mul_rn(dq[i], f), gamax), d)
        diff = pin.sub_rn(val, x[i])
        if cutlass.const_expr(cfg.err_mode == "mae"):
            err = pin.add_rn(err, pin.abs_f32(diff))
        else:
            err = pin.add_rn(err, pin.mul_rn(diff, diff))
    return words, err


def compile_quantize(
    dtype: str,
    block: str,
    err_mode: str,
    bound: int,
    row_scaled: bool,
    arch: str,
    extra_options: str = "",
):
    """Compile one variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors
    ``(x, global_amax (1,) or (R,), codes uint8, scales uint8)`` and runs on
    the current CUDA stream; one binary serves every shape. ``x`` must be
    contiguous with a 16-byte-aligned base; the codes and scales buffers as
    ``quantize`` allocates them. ``arch`` is a CuTe DSL arch string such as
    ``"sm_90a"`` or ``"sm_100a"``; ``extra_options`` are appended to the
    DSL's compile options (``check`` passes ``--keep-ptx --dump-dir DIR``).
    """
    cfg = QuantizeConfig(dtype, block, err_mode, bound, row_scaled)
    rows = cute.sym_int64()
    cols = cute.sym_int64(divisibility=GROUP)
    half_cols = cute.sym_int64(divisibility=GROUP // 2)
    groups = cute.sym_int64()
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(cfg.element, (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (rows if row_scaled else 1,), assumed_align=4)
    codes = fake(Uint8, (rows, half_cols), stride_order=(1, 0), assumed_align=16)
    scales = fake(Uint8, (rows, groups), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    return cute.compile(
        QuantizeKernel(cfg),
        x,
        amax,
        codes,
        scales,
        stream,
        options=f"--enable-tvm-ffi --gpu-arch {arch} {extra_options}".strip(),
    )
