"""NaN-dropping amax of ``|x|`` in CuTe DSL: the bits of ``fos_reference.nan_amax``.

Bitwise contract (SPEC.md, Special values): the largest ``|x_i|`` ignoring
NaN, starting from +0, as float32; Inf counts, -0 gives +0, an empty input
(or row) gives 0. A max is exact, so any order gives the same bits; only the
NaN rule needs care:

* 16-bit inputs: per 32-bit word ``max.bf16x2`` / ``max.f16x2`` (no
  ``.NaN``) of the word with both sign bits cleared (``ieee.abs_max_16x2``):
  where one operand is NaN it returns the other, and the running maximum
  starts at +0, so it is never NaN. float32 inputs: ``abs.f32`` then the
  NaN-dropping ``max.f32``. Lanes then widen their two halves to float32
  (exact) and combine with ``max.f32`` (butterfly shuffles, then shared
  memory across warps).
* Per tensor, across CTAs: every partial is a non-NaN, non-negative float32,
  whose bit patterns order like unsigned integers, so one
  ``red.global.max.u32`` per CTA into an output the launcher zero-fills gives
  the float max.

Tiling. Reads are 16-byte vectors (``ld.global.v4``), addressed in 64 bits.
Per tensor: a grid of at most ``ctas_per_sm`` CTAs per SM sweeps the tensor
as a flat vector, CTA ``b`` taking chunks ``b, b + grid, ...`` of
``threads * unroll`` vectors (``unroll`` loads in flight per thread, each
coalesced across the CTA), then the last partial chunk one vector per thread.
Per row: one warp per row (``threads / 32`` rows per CTA), lane ``l`` taking
the row's vectors ``l, l + 32, ...``, ``unroll`` at a time; lane 0 stores the
row's amax. A row must be a whole number of 16-byte vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint32

from . import ieee, memory
from .config import compile_options
from .offsets import expert_of_row

WARP = 32
VECTOR_BYTES = 16
DTYPES = {"bfloat16": cutlass.BFloat16, "float16": cutlass.Float16, "float32": cutlass.Float32}
_WIDTH = {"bfloat16": 2, "float16": 2, "float32": 4}


class AmaxKey(NamedTuple):
    """Everything that selects a compiled amax binary; the shape is symbolic."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    per_row: bool
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"
    sms: int = 132  # the device's SMs: the per-tensor grid (speed only, never bits)


@dataclass(frozen=True)
class AmaxConfig:
    """Compile-time configuration of one amax kernel (tuning knobs never change bits)."""

    dtype: str
    per_row: bool
    sms: int = 132
    threads: int = 256
    unroll: int = 4  # 16-byte loads in flight per thread
    ctas_per_sm: int = 8  # per tensor: the grid is at most sms * ctas_per_sm CTAs

    def __post_init__(self):
        assert self.dtype in DTYPES and self.threads % WARP == 0 and self.unroll >= 1

    @property
    def elements_per_vector(self) -> int:
        return VECTOR_BYTES // _WIDTH[self.dtype]

    @property
    def warps(self) -> int:
        return self.threads // WARP


class AmaxKernel:
    """Host launcher and device kernel for one ``AmaxConfig``."""

    def __init__(self, config: AmaxConfig):
        self.cfg = config

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (R, C) bf16/f16/f32, row-major, C * size % 16 == 0
        mOut: cute.Tensor,  # () float32, zero-filled (per tensor) or (R,) float32 (per row)
        stream: CUstream,
    ):
        cfg = self.cfg
        rows = Int64(mX.shape[0])
        row_vectors = Int64(mX.shape[1]) // cfg.elements_per_vector
        if cutlass.const_expr(cfg.per_row):
            grid = Int32((rows + (cfg.warps - 1)) // cfg.warps)
        else:
            vectors = rows * row_vectors
            chunk = cfg.threads * cfg.unroll
            blocks = (vectors + (chunk - 1)) // chunk
            grid = Int32(cutlass.max(cutlass.min(blocks, Int64(cfg.sms * cfg.ctas_per_sm)), 1))
        self.kernel(mX, mOut, rows, row_vectors).launch(
            grid=[grid, 1, 1], block=[cfg.threads, 1, 1], stream=stream
        )

    @cute.kernel
    def kernel(self, mX: cute.Tensor, mOut: cute.Tensor, rows: Int64, row_vectors: Int64):
        cfg = self.cfg
        if cutlass.const_expr(cfg.per_row):
            per_row(cfg, mX, mOut, rows, row_vectors)
        else:
            _per_tensor(cfg, mX, mOut, rows * row_vectors)


def _load_vector(mX, v):
    """Issue the 16-byte load of vector ``v`` (Int64) of ``mX``: a (4,) register tensor of words."""
    ptr = cute.make_ptr(
        Uint32, mX.iterator.toint() + v * VECTOR_BYTES, cute.AddressSpace.gmem, assumed_align=16
    )
    words = cute.make_rmem_tensor((4,), Uint32)
    cute.autovec_copy(cute.make_tensor(ptr, cute.make_layout(4)), words)
    return words


def _init(cfg):
    """The running maxima of one thread, one per word of a vector: +0."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return [Float32(0.0) for _ in range(4)]
    return [Int32(0) for _ in range(4)]


def _fold(cfg, acc, words):
    """Each word of a loaded vector into its running maximum."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return [ieee.abs_max_f32(acc[w], ieee.as_f32(words[w])) for w in range(4)]
    kind = "bf16x2" if cfg.dtype == "bfloat16" else "f16x2"
    return [ieee.abs_max_16x2(acc[w], words[w], kind) for w in range(4)]


def _finish(cfg, acc):
    """A thread's running maxima as one float32 (exact widening of the 16-bit halves)."""
    if cutlass.const_expr(cfg.dtype == "float32"):
        return ieee.fmax(ieee.fmax(acc[0], acc[1]), ieee.fmax(acc[2], acc[3]))
    kind = "bf16x2" if cfg.dtype == "bfloat16" else "f16x2"
    # The maxima are non-negative and not NaN: the packed max of them is their max.
    low = ieee.abs_max_16x2(acc[0], acc[1], kind)
    m = ieee.abs_max_16x2(low, ieee.abs_max_16x2(acc[2], acc[3], kind), kind)
    lo, hi = ieee.unpack_bf16x2(m) if cfg.dtype == "bfloat16" else ieee.unpack_f16x2(m)
    return ieee.fmax(lo, hi)


def _warp_max(a):
    """``max.f32`` of ``a`` over the warp (butterfly: every lane gets the result)."""
    for lane_mask in (16, 8, 4, 2, 1):
        a = ieee.fmax(a, memory.shfl_bfly_f32(a, lane_mask))
    return a


@cute.jit
def _per_tensor(cfg, mX, mOut, vectors: Int64):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    grid, _, _ = cute.arch.grid_dim()
    chunk = cfg.threads * cfg.unroll
    full = vectors // chunk
    acc = _init(cfg)
    # Whole chunks: this CTA's ``unroll`` loads a thread in flight, one CTA-wide stride apart.
    c = Int64(bidx)
    while c < full:
        first = c * chunk + Int64(tidx)
        loaded = [_load_vector(mX, first + k * cfg.threads) for k in range(cfg.unroll)]
        for k in cutlass.range_constexpr(cfg.unroll):
            acc = _fold(cfg, acc, loaded[k])
        c = c + Int64(grid)
    # The partial last chunk: one vector per thread of the whole grid.
    v = full * chunk + Int64(bidx) * cfg.threads + Int64(tidx)
    while v < vectors:
        acc = _fold(cfg, acc, _load_vector(mX, v))
        v = v + Int64(grid) * cfg.threads
    a = _warp_max(_finish(cfg, acc))
    # Across the CTA's warps: one partial per warp through shared memory.
    smem = cutlass.memory.SmemAllocator()
    partial = smem.allocate_tensor(Float32, cute.make_layout(cfg.warps), byte_alignment=16)
    warp = Int32(tidx) // WARP
    lane = Int32(tidx) % WARP
    if lane == 0:
        partial[warp] = a
    cute.arch.sync_threads()
    if warp == 0:
        b = Float32(0.0)
        if lane < cfg.warps:
            b = partial[lane]
        b = _warp_max(b)
        if lane == 0:
            memory.red_max_u32(mOut.iterator.toint(), ieee.f32_bits(b))


@cute.jit
def per_row(cfg, mX, mOut, rows: Int64, row_vectors: Int64, mOffsets=None):
    """Each row's amax into ``mOut[row]``; with ``mOffsets`` (grouped), folded into
    ``mOut[expert of row]`` (zero-filled) instead (``_fold_runs``)."""
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    warp = Int32(tidx) // WARP
    lane = Int32(tidx) % WARP
    row = Int64(bidx) * cfg.warps + Int64(warp)
    experts = maxima = None
    if cutlass.const_expr(mOffsets is not None):
        smem = cutlass.memory.SmemAllocator()
        experts = smem.allocate_tensor(Int32, cute.make_layout(cfg.warps), byte_alignment=16)
        maxima = smem.allocate_tensor(Float32, cute.make_layout(cfg.warps), byte_alignment=16)
        if lane == 0:
            experts[warp] = Int32(-1)  # a row past the end: no expert
    if row < rows:  # uniform over the warp: its shuffles see every lane
        base = row * row_vectors
        acc = _init(cfg)
        span = WARP * cfg.unroll
        j = Int64(lane)
        # ``unroll`` loads a lane in flight while the row has that many left.
        while j + (span - WARP) < row_vectors:
            loaded = [_load_vector(mX, base + j + k * WARP) for k in range(cfg.unroll)]
            for k in cutlass.range_constexpr(cfg.unroll):
                acc = _fold(cfg, acc, loaded[k])
            j = j + span
        while j < row_vectors:
            acc = _fold(cfg, acc, _load_vector(mX, base + j))
            j = j + WARP
        a = _warp_max(_finish(cfg, acc))
        if lane == 0:
            if cutlass.const_expr(mOffsets is None):
                mOut[row] = a
            else:
                experts[warp] = expert_of_row(mOffsets, row)
                maxima[warp] = a
    if cutlass.const_expr(mOffsets is not None):
        cute.arch.sync_threads()
        _fold_runs(cfg, experts, maxima, mOut)


@cute.jit
def _fold_runs(cfg, experts, maxima, mOut):
    """Grouped: thread ``t`` that starts a run of rows of one expert (``experts[t]``,
    -1 past the end) folds the run's max into that expert's entry (``red.max.u32``)."""
    t = Int32(cute.arch.thread_idx()[0])
    if t < cfg.warps:
        e = experts[t]
        starts = Int32(t == 0) | Int32(experts[cutlass.max(t - 1, 0)] != e)
        if (starts & Int32(e >= 0)) != 0:
            m = maxima[t]
            running = Int32(1)
            for d in cutlass.range_constexpr(1, cfg.warps):
                k = cutlass.min(t + d, cfg.warps - 1)
                running = running & Int32(t + d < cfg.warps) & Int32(experts[k] == e)
                if running != 0:
                    m = ieee.fmax(m, maxima[k])
            memory.red_max_u32(mOut.iterator.toint() + Int64(e) * 4, ieee.f32_bits(m))


def compile_amax(
    dtype: str, per_row: bool, arch: str, sms: int = 132, extra_options: str = "", **tuning
):
    """Compile one amax variant once, against fake tensors with symbolic sizes.

    The result is called positionally with torch tensors ``(x (R, C), out)``
    on the current CUDA stream: ``out`` is a zero-filled 0-d float32 (per
    tensor: ``nan_amax``'s result itself) or an (R,) float32 (per row). ``x``
    must be contiguous with a 16-byte-aligned base and ``C`` a multiple of
    ``16 / itemsize``; R >= 1 and C >= 1 (the launcher handles empty inputs).
    ``tuning`` sets ``AmaxConfig``'s knobs (same bits, other speed).
    """
    cfg = AmaxConfig(dtype, per_row, sms, **tuning)
    rows = cute.sym_int64()
    cols = cute.sym_int64(divisibility=cfg.elements_per_vector)
    fake = cute.runtime.make_fake_compact_tensor
    x = fake(DTYPES[dtype], (rows, cols), stride_order=(1, 0), assumed_align=16)
    out = fake(Float32, (rows,) if per_row else (), assumed_align=4)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(arch, extra=extra_options)
    return cute.compile(AmaxKernel(cfg), x, out, stream, options=options)


def compile_key(key: AmaxKey, extra_options: str = ""):
    """``compile_amax`` for an ``AmaxKey``."""
    return compile_amax(key.dtype, key.per_row, key.arch, key.sms, extra_options)


def variants(arch: str) -> list[AmaxKey]:
    """Every amax variant ``nan_amax`` can ask for on ``arch``."""
    return [AmaxKey(dtype, per_row, arch) for dtype in DTYPES for per_row in (False, True)]
