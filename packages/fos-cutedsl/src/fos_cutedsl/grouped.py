"""Grouped (mixture-of-experts) kernels: every expert in one launch, the offsets on the device.

* ``GroupedQuantizeKernel``: the row-scaled 1x16 kernel of ``rowwise`` with row
  ``r`` under ``gamax[expert of r]`` (``offsets.RowAmax`` with the offsets):
  SPEC's grouped quantize, each slice a per-tensor quantize under its expert's
  amax. Same grid and tuning as row-scaled; any split, empty experts included.
  (Or, ``per_cta_tables``, the per-tensor 1x16 kernel with each CTA's table
  built for its first group's expert.)
* ``GroupedPersistentKernel`` (``grouped_persistent``, 16-bit 1x16 with at most
  ``MAX_EXPERTS`` experts: ``GroupedQuantizeKey.persistent``): the per-tensor
  ``persistent`` kernel, each unit under its expert's scale table, the tables
  built by a first launch into a caller-owned workspace.
* ``GroupedTileKernel``: the 16x16 kernel of ``tile`` with one tile row (16
  rows) per CTA, the CTA's per-tensor constants built from the amax of the
  expert owning that tile row (SPEC: 16x16 offsets are multiples of 16, so a
  tile row lies in one expert).
* ``GroupedAmaxKernel``: ``amax.per_row`` (a warp per row); the CTA's rows
  are combined per run of one expert in shared memory, then each run's max is
  folded into its expert's entry of a zero-filled (E,) output by
  ``red.max.u32`` (exact for non-negative, non-NaN floats): an empty expert
  keeps 0. (One atomic per row, to a few addresses, serialized in L2.)

Both read the (E + 1,) int32 or int64 offsets (one variant each) and never
check them: offsets that break SPEC give unspecified values, never an
out-of-bounds access (``offsets.expert_of_row``).
"""

from __future__ import annotations

from typing import NamedTuple

import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8

from .amax import DTYPES, AmaxConfig, per_row
from .config import GROUP, H100_SMS, QuantizeConfig, compile_options, launch
from .grouped_persistent import MAX_EXPERTS, GroupedPersistentKernel, workspace_floats  # noqa: F401 (the launcher's)
from .offsets import RowAmax
from .rowwise import QuantizeKernel, quantize_groups
from .tile import TileKernel, quantize_tiles

OFFSET_DTYPES = {"int32": Int32, "int64": Int64}
AMAX_THREADS = 512  # grouped amax: 16 rows a CTA, one atomic per run of rows of one expert


class GroupedQuantizeKey(NamedTuple):
    """Everything that selects a compiled grouped-quantize binary; shapes are symbolic."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    block: str  # "1x16" | "16x16"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    offsets: str  # "int32" | "int64"
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"
    # 16-bit 1x16 with at most ``grouped_persistent.MAX_EXPERTS`` experts: the persistent
    # kernel under per-expert tables (a caller-owned workspace: ``workspace_floats``).
    persistent: bool = False
    sms: int = H100_SMS  # persistent: the device's SMs, its grid (speed only, never bits)


class GroupedAmaxKey(NamedTuple):
    """Everything that selects a compiled grouped-amax binary."""

    dtype: str
    offsets: str
    arch: str


class _GroupedEntry:
    """The grouped entry point of a quantize kernel class: called as ``(x, amax (E,),
    offsets, codes, scales, stream)``, it runs the class's ``grid`` and its kernel body
    (``body``) under ``RowAmax(amax, offsets)``."""

    @cute.jit
    def __call__(
        self,
        mX: cute.Tensor,  # (T, C) bf16/f16/f32, row-major (16x16: T % 16 == 0)
        mAmax: cute.Tensor,  # (E,) float32
        mOffsets: cute.Tensor,  # (E + 1,) int32 or int64 (16x16: multiples of 16)
        mCodes: cute.Tensor,  # (T, C/2) uint8
        mScales: cute.Tensor,  # (T, C/16) uint8
        stream: CUstream,
    ):
        first, second, grid = self.grid(mX)
        kernel = self.grouped_kernel(mX, mAmax, mOffsets, mCodes, mScales, first, second)
        launch(self.cfg, kernel, grid, stream)

    @cute.kernel
    def grouped_kernel(
        self,
        mX: cute.Tensor,
        mAmax: cute.Tensor,
        mOffsets: cute.Tensor,
        mCodes: cute.Tensor,
        mScales: cute.Tensor,
        first: Int64,
        second: Int64,
    ):
        amax = RowAmax(mAmax, mOffsets)
        self.body(self.cfg, mX, amax, mCodes, mScales, first, second)


class GroupedQuantizeKernel(_GroupedEntry, QuantizeKernel):
    """``rowwise.QuantizeKernel`` (row-scaled 1x16), grouped."""

    def __init__(self, config: QuantizeConfig):
        super().__init__(config)
        self.body = quantize_groups  # (groups per row, groups)


class GroupedTileKernel(_GroupedEntry, TileKernel):
    """``tile.TileKernel`` (16x16, one tile row per CTA), grouped."""

    def __init__(self, config: QuantizeConfig):
        assert config.groups_per_thread == 1, "one tile row per CTA: one expert per CTA"
        super().__init__(config)
        self.body = quantize_tiles  # (tile rows, tile columns)


class GroupedAmaxKernel:
    """Per-expert NaN-dropping amax, called as ``(x, offsets, out (E,) zero-filled, stream)``."""

    def __init__(self, config: AmaxConfig):
        assert config.per_row
        self.cfg = config

    @cute.jit
    def __call__(self, mX: cute.Tensor, mOffsets: cute.Tensor, mOut: cute.Tensor, stream: CUstream):
        cfg = self.cfg
        rows = Int64(mX.shape[0])
        row_vectors = Int64(mX.shape[1]) // cfg.elements_per_vector
        grid = Int32((rows + (cfg.warps - 1)) // cfg.warps)
        self.kernel(mX, mOffsets, mOut, rows, row_vectors).launch(
            grid=[grid, 1, 1], block=[cfg.threads, 1, 1], stream=stream
        )

    @cute.kernel
    def kernel(
        self, mX: cute.Tensor, mOffsets: cute.Tensor, mOut: cute.Tensor, rows: Int64,
        row_vectors: Int64,
    ):  # fmt: skip
        per_row(self.cfg, mX, mOut, rows, row_vectors, mOffsets)


def _fakes(dtype: str, offsets: str, divisibility: int):
    """Fake (T, C) input, (E,) amax and (E + 1,) offsets with symbolic sizes."""
    fake = cute.runtime.make_fake_compact_tensor
    rows, cols = cute.sym_int64(), cute.sym_int64(divisibility=divisibility)
    x = fake(DTYPES[dtype], (rows, cols), stride_order=(1, 0), assumed_align=16)
    amax = fake(Float32, (cute.sym_int64(),), assumed_align=4)
    offs = fake(OFFSET_DTYPES[offsets], (cute.sym_int64(),), assumed_align=4)
    return rows, x, amax, offs


def compile_grouped_quantize(key: GroupedQuantizeKey, extra_options: str = "", **tuning):
    """Compile one grouped-quantize variant against fake tensors with symbolic sizes.

    Called positionally with torch tensors ``(x (T, C), amax (E,) float32,
    offsets (E + 1,), codes (T, C/2) uint8, scales (T, C/16) uint8)`` on the
    current stream; all contiguous, ``x`` 16-byte aligned, T >= 1 and E >= 1
    (16x16: T and every offset multiples of 16).
    ``tuning`` sets ``QuantizeConfig``'s knobs (same bits, other speed), and
    ``per_cta_tables=True`` runs 1x16 on the per-tensor kernel with one scale table a
    CTA, for the expert of its first group (``rowwise``: the groups past that expert's
    rows take the exact path under their own amax). Not yet run on a GPU.
    """
    per_cta_tables = tuning.pop("per_cta_tables", False)
    if key.persistent:
        if not uses_persistent(key.dtype, key.block, 1):
            raise ValueError(f"persistent grouped quantize: 16-bit 1x16 only, not {key}")
        tuning = {"sms": key.sms, **tuning}
        cfg = QuantizeConfig(key.dtype, "1x16", key.err_mode, key.bound, False, **tuning)
        kernel = GroupedPersistentKernel(cfg)
    elif key.block == "16x16":
        tuning = {"groups_per_thread": 1, "persistent": False, **tuning}
        cfg = QuantizeConfig(key.dtype, "16x16", key.err_mode, key.bound, False, **tuning)
        kernel = GroupedTileKernel(cfg)
    elif per_cta_tables:
        tuning = {"persistent": False, **tuning}
        cfg = QuantizeConfig(key.dtype, "1x16", key.err_mode, key.bound, False, **tuning)
        kernel = GroupedQuantizeKernel(cfg)
    else:
        cfg = QuantizeConfig(key.dtype, "1x16", key.err_mode, key.bound, True, **tuning)
        kernel = GroupedQuantizeKernel(cfg)
    rows, x, amax, offsets = _fakes(key.dtype, key.offsets, GROUP)
    fake = cute.runtime.make_fake_compact_tensor
    codes = fake(Uint8, (rows, cute.sym_int64()), stride_order=(1, 0), assumed_align=16)
    scales = fake(Uint8, (rows, cute.sym_int64()), stride_order=(1, 0), assumed_align=16)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(key.arch, cfg.ptxas_opt, extra_options)
    args = (x, amax, offsets, codes, scales)
    if key.persistent:
        args += (fake(Float32, (cute.sym_int64(),), assumed_align=16),)
    return cute.compile(kernel, *args, stream, options=options)


def compile_grouped_amax(key: GroupedAmaxKey, extra_options: str = "", **tuning):
    """Compile one grouped-amax variant: called as ``(x (T, C), offsets (E + 1,), out (E,))``
    with ``out`` zero-filled float32; ``x`` as ``amax.compile_amax`` takes it, T >= 1."""
    cfg = AmaxConfig(key.dtype, True, **{"threads": AMAX_THREADS, **tuning})
    _, x, out, offsets = _fakes(key.dtype, key.offsets, cfg.elements_per_vector)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    options = compile_options(key.arch, extra=extra_options)
    return cute.compile(GroupedAmaxKernel(cfg), x, offsets, out, stream, options=options)


def uses_persistent(dtype: str, block: str, experts: int) -> bool:
    """Whether ``GroupedQuantizeKey.persistent`` applies: 16-bit 1x16, few enough experts."""
    return dtype != "float32" and block == "1x16" and experts <= MAX_EXPERTS


def quantize_variants(arch: str) -> list[GroupedQuantizeKey]:
    """Every grouped-quantize variant on ``arch``."""
    return [
        GroupedQuantizeKey(dtype, block, err_mode, bound, offsets, arch, persistent)
        for dtype in DTYPES
        for block in ("1x16", "16x16")
        for err_mode in ("mae", "mse")
        for bound in (256, 448)
        for offsets in OFFSET_DTYPES
        for persistent in (False, True)
        if not persistent or uses_persistent(dtype, block, 1)
    ]


def amax_variants(arch: str) -> list[GroupedAmaxKey]:
    """Every grouped-amax variant on ``arch``."""
    return [GroupedAmaxKey(dtype, offsets, arch) for dtype in DTYPES for offsets in OFFSET_DTYPES]
