"""Compile-time configuration: the constants every module shares, the tunings, the keys.

``QuantizeConfig`` holds one kernel variant's knobs (one compiled binary each)
and fills in each mode's tuned defaults; ``VariantKey`` is what selects a
binary in the compile cache (``FakeQuantizeKey`` for the fake-quantize variants:
the same kernels storing x_hat instead of codes and scales). Every tuning
computes the same bits: the knobs change only speed. The defaults are the
fastest measured on the H200 (``bench/variants.py`` times them;
``bench/NOTES.md`` has the measurements).

This module imports nothing from the CuTe DSL, so ``cache``, ``api`` and the
package import (and report the DSL missing) without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

GROUP = 16  # elements per 1x16 group (and the side of a 16x16 tile)
FLT_MAX = 3.4028234663852886e38  # largest finite float32
NAN = float("nan")
TABLE = 256  # per-tensor constants for every scale byte (negative ones need a negative amax)
ROW_BYTES = 128  # ``row_tables``: the scale bytes of a non-negative amax (0x7F: NaN)
# ``e4m3_codes``: the fast path works on m * 2^-6, whose on-grid values as E4M3 bytes are
# the E2M1 codes shifted left by 2 (``e2m1.grid_code_bytes``).
CODE_SCALE = 2.0**-6
# ``choice.choose_by_bound``'s margins: relative, of the two errors' sum, and absolute, per
# 1x16 group in units of m (mse: m^2); each at least twice its proven bound
# (``choice.choose_by_bound``).
CHOICE_RELATIVE = {"mae": 2.0**-16, "mse": 2.0**-15}
CHOICE_ABSOLUTE = {"mae": 2.0**-13, "mse": 2.0**-15}
_WIDTHS = {"bfloat16": 16, "float16": 16, "float32": 32}  # bits per element
_ELEMENTS = {"bfloat16": "BFloat16", "float16": "Float16", "float32": "Float32"}  # cutlass types

# (block, row_scaled) -> (groups_per_thread, prefetch, min_blocks) for 16-bit inputs.
# Fewer groups per thread keep the unrolled code small enough for the instruction
# cache (``bench/NOTES.md``, "groups per thread").
DEFAULT_TUNING = {
    ("1x16", False): (4, 2, 3),  # with persistent=False: 3 CTAs per SM (80 registers)
    ("1x16", True): (4, 2, 0),
    ("16x16", False): (3, 2, 3),  # 16x16: units (4 rows x 16 bytes of a tile) per thread
}
# float32 (16 words a group or unit): fewer loads ahead and more CTAs per SM
# (``bench/NOTES.md``, "float32 tunings").
FLOAT32_TUNING = {
    ("1x16", False): (4, 2, 0),
    ("1x16", True): (4, 1, 4),
    ("16x16", False): (4, 1, 4),
}
# 16-bit 1x16 per tensor with persistent=False: a bulk L2 prefetch of the input of the
# CTA this many launches later; float32 and row-scaled are faster without it. 16x16 takes
# ``l2_ahead`` only when asked: with E4M3 codes it is slower (``bench/NOTES.md``, "L2
# prefetch").
L2_AHEAD = 132
# 16-bit 1x16 per tensor runs ``persistent``: one CTA of PERSISTENT_THREADS per SM (80
# registers), 4 groups a lane, 1 group ahead and the next unit's first loads carried, no
# L2 prefetch (``bench/NOTES.md``, "persistent kernel").
PERSISTENT_TUNING = (4, 1, 1)  # (groups_per_thread, prefetch, min_blocks)
PERSISTENT_THREADS = 768
# 16-bit 16x16 per tensor quantize runs ``persistent`` (``tile_persistent``): one CTA of
# TILE_PERSISTENT_THREADS per SM (96 registers: at 768 threads its loop spills), 3 units
# a work item, 1 unit ahead and the next item's first unit carried (``bench/NOTES.md``,
# v33). Fake-quantize keeps the per-CTA ``tile`` kernel (not measured persistent).
TILE_PERSISTENT_TUNING = (3, 1, 1)
TILE_PERSISTENT_THREADS = 640
# ptxas optimization level (ptxas's own default is 3). The PTX, where every rounding is
# pinned, is the same at any level; only scheduling and if-conversion differ, and -O2 is
# as fast or faster in every mode (``bench/NOTES.md``, "ptxas level").
PTXAS_OPT = 2
# 16-bit row-scaled: CTAs of this many threads (4 rows by 64 groups); ptxas gives that
# build 72 registers, so 28 warps fit an SM (``bench/NOTES.md``, "row-scaled CTA size").
ROW_SCALED_THREADS = 64
H100_SMS = 132  # ``sms`` when the caller does not say (H100 and H200 SXM)


class VariantKey(NamedTuple):
    """Everything that selects a compiled binary; the shape is symbolic."""

    dtype: str  # "bfloat16" | "float16" | "float32"
    block: str  # "1x16" | "16x16"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    row_scaled: bool
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"
    sms: int = H100_SMS  # the device's SMs: the persistent kernel's grid (speed only, never bits)


class FakeQuantizeKey(NamedTuple):
    """Everything that selects a compiled fake-quantize binary (``QuantizeConfig.fake``)."""

    dtype: str  # the input's: "bfloat16" | "float16" | "float32"
    out_dtype: str  # x_hat's: "bfloat16" | "float16" | "float32"
    block: str  # "1x16" | "16x16"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    row_scaled: bool
    arch: str  # CuTe DSL arch string, e.g. "sm_90a"
    sms: int = H100_SMS  # the persistent grid (speed only, never bits)


@dataclass(frozen=True)
class QuantizeConfig:
    """Compile-time knobs of one kernel variant (one compiled binary each).

    The fields after ``row_scaled`` are tuning knobs (``bench/variants.py`` times
    them) and ``sms``, the device's SM count; every setting computes the same bits.
    """

    dtype: str  # "bfloat16" | "float16" | "float32"
    block: str  # "1x16" | "16x16"
    err_mode: str  # "mae" | "mse"
    bound: int  # 256 | 448
    row_scaled: bool
    threads: int = 0  # 0: the mode's default (256, ROW_SCALED_THREADS, *PERSISTENT_THREADS)
    groups_per_thread: int = 0  # 0: the mode's default (16x16: units); more amortizes setup
    min_blocks: int = 0  # > 0: ask ptxas to fit this many CTAs per SM (a register cap)
    prefetch: int = 0  # groups whose loads are in flight while one is computed; 0: default
    undecided_inline: bool = True  # 1x16; False: undecided groups go to the exact path
    e4m3_codes: bool | None = None  # fast-path codes via E4M3 bytes (None: for 16-bit inputs)
    l2_ahead: int | None = None  # L2-prefetch the input this many CTAs ahead (not row-scaled)
    # Per tensor, 16-bit: one CTA per SM (``persistent``, ``tile_persistent``); None: 1x16.
    persistent: bool | None = None
    sms: int = H100_SMS  # the device's SMs: the persistent grid (speed only, never bits)
    stage_stores: bool | None = None  # 16x16: codes and scales via shared memory (None: float32)
    ptxas_opt: int = PTXAS_OPT  # ptxas -O level (same PTX, other SASS)
    # Fake-quantize: x_hat of this dtype ("bfloat16" | "float16" | "float32") in place of
    # the codes and scales (None: codes and scales). A compile-time branch at each store.
    fake: str | None = None
    # Row-scaled: the threads that share one row's table entry (a 64-wide group step;
    # ``row_amax``'s register rows: their team of warps).
    row_threads: int = 64
    # Row-scaled, ``row_amax`` only: step 4's (inv, bound scale) looked up in a table of
    # every non-negative scale byte a row (``ROW_BYTES``, built once a row from the row's
    # mantissa constants), not computed per group. Needs a non-negative row amax.
    row_tables: bool = False

    def __post_init__(self):
        if self.fake is not None and self.fake not in _WIDTHS:
            raise ValueError(f"fake: an output dtype name or None, got {self.fake!r}")
        mode = (self.block, self.row_scaled)
        per_tensor_16bit = mode == ("1x16", False) and self.dtype != "float32"
        tile_16bit = mode == ("16x16", False) and self.dtype != "float32"
        if self.persistent is None:
            persistent = per_tensor_16bit or (tile_16bit and self.fake is None)
            object.__setattr__(self, "persistent", persistent)
        if self.persistent and (self.row_scaled or self.dtype == "float32"):
            raise ValueError("persistent: only for 16-bit inputs per tensor")
        if self.persistent and self.block == "16x16" and self.fake is not None:
            raise ValueError("persistent 16x16: quantize only (fake-quantize runs ``tile``)")
        if self.persistent:
            tuning = PERSISTENT_TUNING if self.block == "1x16" else TILE_PERSISTENT_TUNING
            groups, prefetch, min_blocks = tuning
        elif self.dtype == "float32" and mode in FLOAT32_TUNING:
            groups, prefetch, min_blocks = FLOAT32_TUNING[mode]
        else:
            groups, prefetch, min_blocks = DEFAULT_TUNING[mode]
        row_scaled_16bit = mode == ("1x16", True) and self.dtype != "float32"
        if not self.threads:
            threads = ROW_SCALED_THREADS if row_scaled_16bit else 256
            if self.persistent:
                tile = self.block == "16x16"
                threads = TILE_PERSISTENT_THREADS if tile else PERSISTENT_THREADS
            object.__setattr__(self, "threads", threads)
        if not self.groups_per_thread:
            object.__setattr__(self, "groups_per_thread", groups)
        if not self.prefetch:
            object.__setattr__(self, "prefetch", prefetch)
        if not self.min_blocks:
            object.__setattr__(self, "min_blocks", min_blocks)
        # E4M3 codes for every 16-bit mode; float32 keeps ``grid_codes8`` (its 16x16
        # spills with the 16-bit packing). The L2 prefetch is a hint: it cannot change a bit.
        if self.e4m3_codes is None:
            object.__setattr__(self, "e4m3_codes", self.dtype != "float32")
        if self.e4m3_codes and self.dtype == "float32":
            raise ValueError("e4m3_codes: only for 16-bit inputs")
        if self.l2_ahead is None:
            ahead = L2_AHEAD if per_tensor_16bit and not self.persistent else 0
            object.__setattr__(self, "l2_ahead", ahead)
        if self.l2_ahead < 0 or (self.l2_ahead and (self.row_scaled or self.persistent)):
            raise ValueError("l2_ahead: a CTA count >= 0, and not for row-scaled or persistent")
        if self.sms < 1:
            raise ValueError("sms: at least one SM")
        if self.row_tables and not self.row_scaled:
            raise ValueError("row_tables: only for row-scaled")
        if self.row_threads % 32 or not 32 <= self.row_threads <= 1024:
            raise ValueError("row_threads: whole warps, 32 to 1024")
        if self.row_scaled and (
            self.threads % self.row_threads or self.cta_rows * 8 > self.threads
        ):
            raise ValueError("row-scaled: whole rows of row_threads, at least 8 threads a row")
        if self.persistent and self.threads % 32:
            raise ValueError("persistent: whole warps (threads a multiple of 32)")
        if not self.row_scaled and self.threads < TABLE:
            raise ValueError(
                f"per tensor: at least {TABLE} threads (one per scale byte's constants)"
            )
        if self.stage_stores is None:
            # float32 16x16 is L2-bound on its many small stores unless staged; 16-bit
            # 16x16 is faster unstaged (``bench/NOTES.md``, "staged stores").
            # Fake-quantize stores whole 16-byte pieces of x_hat rows: nothing to stage.
            tile_32bit = self.block == "16x16" and self.dtype == "float32"
            object.__setattr__(self, "stage_stores", tile_32bit and self.fake is None)
        if self.stage_stores and (self.block != "16x16" or self.fake is not None):
            raise ValueError("stage_stores: only for 16x16 codes and scales")
        if self.ptxas_opt not in (1, 2, 3):
            raise ValueError("ptxas_opt: 1, 2 or 3")
        if self.block == "16x16" and self.threads != 256 and not self.persistent:
            raise ValueError("16x16: 256 threads (one strip per warp, 8 warps)")

    @property
    def choice_relative(self) -> float:
        """``choose_by_bound``'s relative margin."""
        return CHOICE_RELATIVE[self.err_mode]

    @property
    def choice_margin(self) -> float:
        """``choose_by_bound``'s absolute margin: per group, times 16 for a 16x16 tile."""
        per_group = CHOICE_ABSOLUTE[self.err_mode]
        return per_group * (GROUP if self.block == "16x16" else 1)

    @property
    def code_scale(self) -> float:
        """``e4m3_codes``: the fast path works on ``m * 2^-6`` (1 otherwise)."""
        return CODE_SCALE if self.e4m3_codes else 1.0

    @property
    def width(self) -> int:
        """Bits per input element (16 or 32)."""
        return _WIDTHS[self.dtype]

    @property
    def out_width(self) -> int:
        """Fake-quantize: bits per output element (16 or 32)."""
        return _WIDTHS[self.fake]

    @property
    def element(self) -> type:
        """The input's CuTe DSL element type (``cutlass.BFloat16``, ...)."""
        import cutlass  # here, not at the top: this module imports without the DSL

        return getattr(cutlass, _ELEMENTS[self.dtype])

    @property
    def out_element(self) -> type:
        """Fake-quantize: the output's CuTe DSL element type."""
        import cutlass

        return getattr(cutlass, _ELEMENTS[self.fake])

    @property
    def d(self) -> float:
        return 6.0 * self.bound

    @property
    def row_lanes(self) -> int:
        """Row-scaled: a CTA is ``row_threads`` groups wide and this many rows tall per step."""
        return self.threads // self.row_threads

    @property
    def cta_rows(self) -> int:
        """Row-scaled: the rows a CTA covers (``row_lanes`` per group step)."""
        return self.row_lanes * self.groups_per_thread

    @property
    def table_rows(self) -> int:
        """Shared-memory table rows: every scale byte, or (row-scaled) the CTA's rows."""
        return self.cta_rows if self.row_scaled else TABLE

    @property
    def smem_bytes(self) -> int:
        """The table, and row-scaled's per-row mantissa tables (8 (Y, INV) pairs a row)."""
        mantissas = self.cta_rows * 8 * 8 + 16 if self.row_scaled else 0
        return self.table_rows * 16 + mantissas + self.stage_bytes

    @property
    def stage_bytes(self) -> int:
        """``stage_stores``: a CTA's codes and scale bytes for all its units (16 rows
        each, ``8 * 64 / width`` tiles wide: 8 bytes of codes and 1 scale byte a tile)."""
        if not self.stage_stores:
            return 0
        tiles = 8 * 64 // self.width
        return self.groups_per_thread * GROUP * tiles * 9

    @property
    def words(self) -> int:
        """32-bit words per 16-element group."""
        return GROUP * (self.width // 8) // 4


def launch_bounds(threads: int, min_blocks: int) -> dict:
    """``__launch_bounds__(threads, min_blocks)`` when ``min_blocks`` asks for it; an
    explicit carveout keeps the DSL from querying a GPU at compile time."""
    if not min_blocks:
        return {}
    return {
        "max_number_threads": [threads, 1, 1],
        "min_blocks_per_mp": min_blocks,
        "preferred_smem_carveout": -1,
    }


def launch(cfg: QuantizeConfig, kernel, grid, stream) -> None:
    """Launch a quantize kernel call: ``cfg``'s threads, shared memory and launch bounds."""
    kernel.launch(grid=grid, block=[cfg.threads, 1, 1], smem=cfg.smem_bytes, stream=stream,
                  **launch_bounds(cfg.threads, cfg.min_blocks))  # fmt: skip


def compile_options(arch: str, ptxas_opt: int = 3, extra: str = "") -> str:
    """The CuTe DSL options of every kernel: TVM-FFI calling, the arch, ptxas's level
    (3, ptxas's own default, adds no flag) and the caller's ``extra`` options."""
    ptxas = f"--ptxas-options=-O{ptxas_opt}" if ptxas_opt != 3 else ""
    return " ".join(o for o in ("--enable-tvm-ffi --gpu-arch", arch, ptxas, extra) if o)
