"""Benchmark every op a user runs against the memory-copy roofline, with in-run peers.

Ops (each record's ``op``; bytes per element for a bf16 input):

===========================  ============================================  =============
op                           call                                          bytes / elt
===========================  ============================================  =============
quantize                     ``fos_op.quantize(x, amax)``                  2 + 0.5625
nan_amax                     ``fos_op.nan_amax(x, dim)``                   2
dequantize                   ``fos_op.dequantize(codes, scales, amax)``    0.5625 + 2
fake_quantize                ``fos_op.fake_quantize(x, amax)``             2 + 2
amax+quantize                ``fos_op.quantize_with_amax(x)``              2 + 2.5625
quantize_row_amax            ``fos_op.quantize_with_amax(x, dim=-1)``      2.5625
quantize_grouped             ``fos_op.quantize_grouped(x, offsets, amax)``  2 + 0.5625
nan_amax_grouped             ``fos_op.nan_amax_grouped(x, offsets)``       2
quantize_rowwise_columnwise  ``fos_op.quantize_rowwise_columnwise(x, a)``  2 + 2 x 0.5625
===========================  ============================================  =============

(``quantize_rowwise_columnwise``: both layouts of one per-tensor amax; ``swizzle`` in
the record says whether the scales were asked for in the GEMM layout.)

(0.5625 = codes 0.5 + scales 0.0625; amax+quantize reads x twice, since the
per-tensor scale needs the whole tensor; quantize_row_amax is counted as one
read; the grouped ops split the rows over ``experts`` experts, skewed, a third
of them empty: ``skewed_offsets``.) For each case every implementation's
output is first compared bit for bit with ``fos_reference`` on the same data
(float outputs: NaN matches NaN), then timed:

* ``fos``: the public op (``strict=True``), captured in a CUDA graph and timed
  as its replay (outputs poisoned and checked after a replay first); never
  timed if its bits differ (the run then exits 1). ``fos_cutedsl``: the fused
  ``quantize_row_amax`` kernel called directly, where the package has it.
* peers, timed in the same run: ``reference_compiled`` (``torch.compile`` of
  the reference function: nan_amax, dequantize, fake_quantize, and quantize at
  one shape), ``reference`` (eager, at the peer shapes only) and, if importable,
  ``fouroversix`` (mit-han-lab's Triton 4/6, not exact, its own amax: beside
  amax+quantize and fake_quantize; ``peer_fouroversix``).
  ``fos_loop`` (quantize_grouped at 64 experts): what a user writes without
  a grouped op, ``fos_op.quantize`` per expert slice after reading the offsets
  on the host (eager, with that sync). ``fos_transposed_copy``
  (quantize_rowwise_columnwise): rowwise, a contiguous copy of x^T, rowwise again.

Time: median of CUDA-event times of graph replays, the L2 flushed before each
(``Flush``: 256 MB written, then 256 MB read, so that no dirty line of the flush
is written back inside the timed run; ``--flush dirty`` for the write alone,
``triton.testing.do_bench``'s flush); ``l2="hot"`` rows (inputs under 60 MB)
replay without the flush, so x is in L2 from the previous replay (as an
activation just written). The copy roofline (a 2 GiB device-to-device copy,
bytes read + written, the same flush) is measured at the start of each run;
``pct_of_copy`` = the op's bytes / time over it. ``--back-to-back`` also times each
graph-replayed fos row flushed as ``back_to_back_us`` (n flush + op pairs in one graph,
minus n flushes): that leaves out each replay's launch and event pair, about 2.5 us on
the H200, which one event pair per replay charges to the op (``us_back_to_back``,
``pct_of_copy_back_to_back``; ``bench/NOTES.md``, v25).

    python bench/bench.py                        # the full GPU sweep (~3 min on an H200)
    python bench/bench.py --quick                # one shape per op, bf16
    python bench/bench.py --repeat 3 --buffers 3 # spread: 3 runs x 3 fresh buffers per case
    python bench/bench.py --ops quantize --rows 32768 --cols 7168 --dtypes bfloat16
    python bench/bench.py --ops quantize --data outlier_channels  # activation-like inputs

Output: a table on stdout, JSON (``--out``, rewritten after every case) and a
PNG of % of copy per op beside it. Without a GPU it times the reference on the
CPU at small shapes and says that the GPU rows were skipped.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import peer_fouroversix
import torch
from summary import aggregate

import fos_op
import fos_reference

DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32, "float16": torch.float16}
OPS = (
    "quantize",
    "nan_amax",
    "dequantize",
    "fake_quantize",
    "amax+quantize",
    "quantize_row_amax",
    "quantize_grouped",
    "nan_amax_grouped",
    "quantize_rowwise_columnwise",
)
QUANTIZE_SHAPES = (
    *((r, c) for r in (8192, 32768, 131072) for c in (2048, 7168)),
    (8192, 4096),
    (16384, 7168),
)
MSE_SHAPES = ((32768, 7168), (8192, 4096))
SMALL_SHAPES = ((128, 256), (1024, 2048))
#: Where the new ops are timed, and where the eager reference is timed for every op.
PEER_SHAPES = ((32768, 7168), (32768, 2048))
LAYOUT_SHAPES = ((32768, 7168), (8192, 4096))  # quantize_rowwise_columnwise (issue 26)
# (block, row_scaled) of quantize
MODES = (("1x16", False), ("1x16", True), ("16x16", False))
GROUPED_EXPERTS = (8, 64, 256)
LOOP_EXPERTS = 64  # where the per-expert loop of fos_op.quantize is timed beside
LOOP_REPS = 9  # its event-timed runs (host-bound, 1-2 ms each, and jittery)
HOT_MAX_BYTES = 60e6  # inputs under this also get an l2="hot" row
BOUND = 256
RESULTS = Path(__file__).resolve().parent / "results"
FOUROVERSIX = Path(__file__).resolve().parents[1] / "scratch" / "peers" / "fouroversix"


@dataclass(frozen=True, kw_only=True)
class Case:
    """One op at one shape, dtype and mode."""

    op: str
    rows: int
    cols: int
    dtype: str = "bfloat16"
    block: str = "1x16"
    row_scaled: bool = False
    err_mode: str = "mae"
    l2: str = "flushed"  # "hot": timed without flushing L2
    experts: int = 0  # grouped ops: the experts the rows are split over (skewed_offsets)
    swizzle: bool = False  # quantize_rowwise_columnwise: scales in the block-scaled GEMM layout
    data: str = "normal"  # the input's values: a key of DATA

    @property
    def bytes_moved(self) -> int:
        """The fewest bytes the op must move (inputs read once, outputs written once)."""
        n = self.rows * self.cols
        x = n * DTYPES[self.dtype].itemsize
        packed = n // 2 + n // 16  # codes + scales
        return {
            "quantize": x + packed,
            "nan_amax": x,
            "dequantize": packed + x,  # x: the output, in the case's dtype
            "fake_quantize": 2 * x,
            "amax+quantize": 2 * x + packed,
            "quantize_row_amax": x + packed,
            "quantize_grouped": x + packed,
            "nan_amax_grouped": x,
            "quantize_rowwise_columnwise": x + 2 * packed,
        }[self.op]

    @property
    def knobs(self) -> dict:
        return {"block": self.block, "err_mode": self.err_mode, "e4m3_scale_bound": BOUND}

    def label(self) -> str:
        amax = "row" if self.row_scaled else "tensor"
        hot = " hot" if self.l2 == "hot" else ""
        amax = f"E={self.experts}" if self.experts else amax
        amax += " swizzled" if self.swizzle else ""
        data = "" if self.data == "normal" else f" {self.data}"
        mode = f"{self.block} {amax} {self.dtype} {self.err_mode}{hot}{data}"
        return f"{self.op} {self.rows}x{self.cols} {mode}"


@dataclass(frozen=True, kw_only=True)
class Record(Case):
    """One implementation of one case in one run (a row of the JSON file)."""

    impl: str
    timing: str  # "graph" (CUDA-graph replay), "eager" or "host" (CPU wall clock)
    run: int
    buffers: int  # freshly allocated inputs timed; us is their median
    us: float | None
    us_min: float | None
    us_max: float | None
    tbps: float | None
    pct_of_copy: float | None  # from us; None on a CPU
    pct_of_copy_min: float | None  # from us_max: the worst buffer
    bitwise_equal: bool | None  # None: not comparable (another format)
    # ``back_to_back_us`` (``--back-to-back``; graph-timed fos rows, L2 flushed): the
    # median over buffers, without each replay's launch and event pair.
    us_back_to_back: float | None = None
    pct_of_copy_back_to_back: float | None = None
    speedup_vs_reference: float | None = None
    speedup_vs_reference_compiled: float | None = None
    note: str | None = None
    # Per buffer: its time, and (per-tensor amax) its data's global amax, which sets the
    # share of groups the fast path leaves undecided (``bench/NOTES.md``, v46).
    us_buffers: list[float] | None = None
    global_amaxes: list[float] | None = None


# --------------------------------------------------------------------------- cases


def gpu_cases(args: argparse.Namespace) -> list[Case]:
    """Quantize over shapes x modes x dtypes, mse, small shapes; the other ops; hot twins."""
    quantize_shapes = QUANTIZE_SHAPES
    if args.rows or args.cols:
        rows = args.rows or sorted({r for r, _ in QUANTIZE_SHAPES})
        cols = args.cols or sorted({c for _, c in QUANTIZE_SHAPES})
        quantize_shapes = tuple((r, c) for r in rows for c in cols)
    elif args.quick:
        quantize_shapes = PEER_SHAPES[:1]
    peer_shapes = PEER_SHAPES[:1] if args.quick else PEER_SHAPES
    dtypes = ["bfloat16"] if args.quick else args.dtypes
    err_modes = args.err_modes if args.rows or args.cols else ["mae"]
    cases = [
        Case(op="quantize", rows=r, cols=c, dtype=dtype, block=block, row_scaled=row_scaled,
             err_mode=err_mode)
        for err_mode in err_modes
        for dtype in dtypes
        for block, row_scaled in MODES
        for r, c in quantize_shapes
    ]  # fmt: skip
    if not (args.quick or args.rows or args.cols):
        cases += [
            Case(op="quantize", rows=r, cols=c, block=block, row_scaled=row_scaled, err_mode="mse")
            for r, c in MSE_SHAPES
            for block, row_scaled in MODES
        ]
        cases += [Case(op="quantize", rows=r, cols=c) for r, c in SMALL_SHAPES]
    for r, c in peer_shapes:
        cases += [
            Case(op="nan_amax", rows=r, cols=c),
            Case(op="nan_amax", rows=r, cols=c, row_scaled=True),
            Case(op="dequantize", rows=r, cols=c),
            Case(op="fake_quantize", rows=r, cols=c),
            Case(op="fake_quantize", rows=r, cols=c, block="16x16"),
            Case(op="amax+quantize", rows=r, cols=c),
            Case(op="quantize_row_amax", rows=r, cols=c, row_scaled=True),
        ]
        cases += [
            Case(op=op, rows=r, cols=c, experts=e)
            for op in ("quantize_grouped", "nan_amax_grouped")
            for e in GROUPED_EXPERTS
        ]
    for r, c in LAYOUT_SHAPES[:1] if args.quick else LAYOUT_SHAPES:
        cases += [
            Case(op="quantize_rowwise_columnwise", rows=r, cols=c, swizzle=s) for s in (False, True)
        ]
    cases = [c for c in cases if c.op in args.ops]
    hot = [
        replace(c, l2="hot")
        for c in cases
        if c.rows * c.cols * DTYPES[c.dtype].itemsize < HOT_MAX_BYTES and not args.no_hot
    ]
    return cases + hot


def cpu_cases(args: argparse.Namespace) -> list[Case]:
    """Every op at the small shapes (one with --quick), bf16, for the reference on the CPU."""
    cases = []
    for r, c in SMALL_SHAPES[:1] if args.quick else SMALL_SHAPES:
        cases += [Case(op="quantize", rows=r, cols=c, block=b, row_scaled=rs) for b, rs in MODES]
        cases += [
            Case(op="nan_amax", rows=r, cols=c),
            Case(op="nan_amax", rows=r, cols=c, row_scaled=True),
            Case(op="dequantize", rows=r, cols=c),
            Case(op="fake_quantize", rows=r, cols=c),
            Case(op="fake_quantize", rows=r, cols=c, block="16x16"),
            Case(op="amax+quantize", rows=r, cols=c),
            Case(op="quantize_row_amax", rows=r, cols=c, row_scaled=True),
            Case(op="quantize_grouped", rows=r, cols=c, experts=8),
            Case(op="nan_amax_grouped", rows=r, cols=c, experts=8),
            Case(op="quantize_rowwise_columnwise", rows=r, cols=c),
            Case(op="quantize_rowwise_columnwise", rows=r, cols=c, swizzle=True),
        ]
    return [c for c in cases if c.op in args.ops]


# --------------------------------------------------------------------------- the calls


def _reference_amax_quantize(x, *, block, err_mode, e4m3_scale_bound, dim=None):
    """The oracle of ``fos_op.quantize_with_amax``: ``(codes, scales, amax)``."""
    amax = fos_reference.nan_amax(x, dim)
    codes, scales = fos_reference.quantize(
        x, amax, block=block, err_mode=err_mode, e4m3_scale_bound=e4m3_scale_bound
    )
    return codes, scales, amax


def _reference_row_amax_quantize(x, **knobs):
    return _reference_amax_quantize(x, dim=-1, **knobs)


def _fos_row_amax_quantize(x, **kwargs):
    return fos_op.quantize_with_amax(x, dim=-1, **kwargs)


def _reference_rowwise_columnwise(x, global_amax, *, swizzle, **knobs):
    """The oracle of ``fos_op.quantize_rowwise_columnwise``: rowwise, then columnwise."""
    outs = [*fos_reference.quantize(x, global_amax, **knobs),
            *fos_reference.quantize_columnwise(x, global_amax, **knobs)]  # fmt: skip
    if swizzle:
        outs[1], outs[3] = (fos_reference.swizzle_scales(outs[i]) for i in (1, 3))
    return tuple(outs)


def _fos_rowwise_columnwise(x, global_amax, **kwargs):
    return tuple(fos_op.quantize_rowwise_columnwise(x, global_amax, **kwargs)[:4])


# op -> (reference function, fos_op function); both take op_args(case, inputs)
FUNCTIONS = {
    "quantize": (fos_reference.quantize, fos_op.quantize),
    "nan_amax": (fos_reference.nan_amax, fos_op.nan_amax),
    "dequantize": (fos_reference.dequantize, fos_op.dequantize),
    "fake_quantize": (fos_reference.fake_quantize, fos_op.fake_quantize),
    "amax+quantize": (_reference_amax_quantize, fos_op.quantize_with_amax),
    "quantize_row_amax": (_reference_row_amax_quantize, _fos_row_amax_quantize),
    "quantize_grouped": (fos_reference.quantize_grouped, fos_op.quantize_grouped),
    "nan_amax_grouped": (fos_reference.nan_amax_grouped, fos_op.nan_amax_grouped),
    "quantize_rowwise_columnwise": (_reference_rowwise_columnwise, _fos_rowwise_columnwise),
}


def skewed_offsets(rows: int, experts: int, device: str) -> torch.Tensor:
    """int64 (E + 1,) offsets of a skewed split: every third expert empty, the others
    owning rows in proportion to 1 / (e + 1) (expert 0 the most)."""
    weights = [0.0 if e % 3 == 2 else 1.0 / (e + 1) for e in range(experts)]
    counts = [int(rows * w / sum(weights)) for w in weights]
    counts[0] += rows - sum(counts)
    bounds = [0]
    for count in counts:
        bounds.append(bounds[-1] + count)
    return torch.tensor(bounds, dtype=torch.int64, device=device)


def per_expert_loop(x, offsets, global_amax, **knobs):
    """A user's loop without a grouped op: the offsets to the host (a sync), then
    ``fos_op.quantize`` of each non-empty slice, concatenated."""
    bounds = offsets.tolist()
    outs = [
        fos_op.quantize(x[lo:hi], global_amax[e : e + 1], **knobs)
        for e, (lo, hi) in enumerate(itertools.pairwise(bounds))
        if hi > lo
    ]
    return torch.cat([o[0] for o in outs]), torch.cat([o[1] for o in outs])


def transposed_copy_path(x, global_amax, **knobs):
    """Both layouts without a one-read kernel: rowwise, a contiguous copy of x^T, rowwise."""
    return (*fos_op.quantize(x, global_amax, **knobs),
            *fos_op.quantize(x.t().contiguous(), global_amax, **knobs))  # fmt: skip


def outlier_channels(rows: int, cols: int, gen: torch.Generator, device: str) -> torch.Tensor:
    """Normals with 1% of the columns 50 times larger: the outlier channels of activations,
    which leave about 1.6% of 1x16 groups to the kernels' rare path (``bench/NOTES.md``, v37)."""
    x = torch.randn(rows, cols, device=device, generator=gen)
    wide = torch.rand(cols, device=device, generator=gen) < 0.01
    return x * torch.where(wide, 50.0, 1.0)


#: ``--data``: how x is drawn (float32, before the cast to the case's dtype).
DATA = {
    "normal": lambda rows, cols, gen, device: torch.randn(rows, cols, device=device, generator=gen),
    "outlier_channels": outlier_channels,
}


def make_inputs(case: Case, device: str, seed: int) -> dict[str, torch.Tensor]:
    """Random x of ``case.data`` (never zeros: they hide unwritten outputs) and what the op
    needs of it."""
    gen = torch.Generator(device=device).manual_seed(seed)
    x = DATA[case.data](case.rows, case.cols, gen, device).to(DTYPES[case.dtype])
    inputs = {"x": x}
    if case.experts:
        inputs["offsets"] = skewed_offsets(case.rows, case.experts, device)
    if case.op == "quantize_grouped":
        inputs["amax"] = fos_reference.nan_amax_grouped(x, inputs["offsets"])
    if case.op in ("quantize", "fake_quantize", "dequantize", "quantize_rowwise_columnwise"):
        inputs["amax"] = fos_reference.nan_amax(x, -1 if case.row_scaled else None)
    if case.op == "dequantize":
        codes, scales = fos_reference.quantize(x, inputs["amax"], **case.knobs)
        inputs = {"codes": codes, "scales": scales, "amax": inputs["amax"]}
    return inputs


def op_args(case: Case, inputs: dict) -> tuple[tuple, dict]:
    """The positional and keyword arguments every implementation of ``case.op`` takes."""
    if case.op == "nan_amax":
        return (inputs["x"], -1 if case.row_scaled else None), {}
    if case.op == "dequantize":
        kwargs = {"e4m3_scale_bound": BOUND, "out_dtype": DTYPES[case.dtype]}
        return (inputs["codes"], inputs["scales"], inputs["amax"]), kwargs
    if case.op in ("quantize", "fake_quantize"):
        return (inputs["x"], inputs["amax"]), case.knobs
    if case.op == "quantize_grouped":
        return (inputs["x"], inputs["offsets"], inputs["amax"]), case.knobs
    if case.op == "nan_amax_grouped":
        return (inputs["x"], inputs["offsets"]), {}
    if case.op == "quantize_rowwise_columnwise":
        return (inputs["x"], inputs["amax"]), {**case.knobs, "swizzle": case.swizzle}
    return (inputs["x"],), case.knobs


class Peers:
    """The in-run peers: compiled reference functions (one per op, kept across shapes and runs)
    and mit-han-lab/fouroversix when it imports."""

    def __init__(self, compiled: bool, fouroversix: bool):
        self.compiled_on = compiled
        self._compiled: dict[str, Callable] = {}
        self.fouroversix, self.fouroversix_why = (None, "off")
        if fouroversix:
            self.fouroversix, self.fouroversix_why = peer_fouroversix.load(FOUROVERSIX)

    def compiled(self, case: Case) -> Callable | None:
        """``torch.compile`` of the reference function of ``case.op``, where it is a peer."""
        at_one_shape = (case.rows, case.cols, case.dtype) == (*PEER_SHAPES[0], "bfloat16")
        # the expensive compiles (the whole quantize) at one shape only, but 1x16 fake_quantize
        wanted = {
            "nan_amax": True,
            "dequantize": True,
            "fake_quantize": case.block == "1x16" or at_one_shape,
            "quantize": at_one_shape and case.block == "1x16" and not case.row_scaled,
        }.get(case.op, False)
        if not (self.compiled_on and wanted and case.l2 == "flushed" and case.err_mode == "mae"):
            return None
        if case.op not in self._compiled:
            self._compiled[case.op] = torch.compile(FUNCTIONS[case.op][0], dynamic=False)
        return self._compiled[case.op]

    def fouroversix_call(self, case: Case, x: torch.Tensor) -> Callable | None:
        """fouroversix's Triton call on x (its own amax): for the per-tensor amax+quantize
        (1x16) and fake_quantize (1x16, 16x16) rows, flushed, bf16/fp16."""
        wanted = (case.op == "amax+quantize" and case.block == "1x16") or case.op == "fake_quantize"
        if (
            self.fouroversix is None
            or not wanted
            or case.row_scaled
            or case.l2 != "flushed"
            or case.dtype == "float32"
        ):
            return None
        fake = case.op == "fake_quantize"
        try:
            return peer_fouroversix.call(
                self.fouroversix, x, err_mode=case.err_mode, fake=fake, block=case.block
            )
        except Exception as exc:  # another version of its API: skip the peer, say why
            self.fouroversix, self.fouroversix_why = None, f"{type(exc).__name__}: {exc}"
            return None


# --------------------------------------------------------------------------- bits


def _tensors(out) -> list[torch.Tensor]:
    return list(out) if isinstance(out, tuple | list) else [out]


def same_bits(got, want) -> bool:
    """Same shapes, dtypes and bits; in float outputs NaN matches NaN (SPEC: only NaN-ness)."""
    got, want = _tensors(got), _tensors(want)
    if len(got) != len(want):
        return False
    for a, b in zip(got, want, strict=True):
        if not isinstance(a, torch.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[a.element_size()]
        same = a.reshape(-1).view(ints) == b.reshape(-1).view(ints)
        if a.dtype in (torch.bfloat16, torch.float16, torch.float32):
            same |= torch.isnan(a.reshape(-1)) & torch.isnan(b.reshape(-1))
        if not bool(same.all()):
            return False
    return True


def poison(out) -> None:
    """Fill every output byte with 0xAB, so that a replay that skips one is caught."""
    for t in _tensors(out):
        if isinstance(t, torch.Tensor):
            t.reshape(-1).view(torch.uint8).fill_(0xAB)


# --------------------------------------------------------------------------- timing


def time_us(fn, device: str, reps: int = 10, *, flush: bool = True) -> float:
    """Median time of ``fn`` in microseconds over about ``reps`` x 10 ms of runs.

    ``flush``: ``current_flush()`` runs before each run (``Flush``);
    otherwise runs follow each other with the L2 as the last one left it.
    """
    if device == "cpu":
        fn()
        samples = []
        for _ in range(max(reps, 1)):
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1e6)
        return statistics.median(samples)
    return budget_us(fn, 10 * max(reps, 1), current_flush() if flush else None)


# A spin kernel before each unflushed run lets the host enqueue the run before the
# GPU reaches it, so the events time the run, not the launch (it touches no memory).
_LEAD_CYCLES = 40_000


def event_median_us(fn, reps: int, flush: Callable | None = None) -> float:
    """Median of ``reps`` event-timed runs; ``flush`` (or a spin) before each."""
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for start, end in zip(starts, ends, strict=True):
        if flush is None:
            torch.cuda._sleep(_LEAD_CYCLES)
        else:
            flush()
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends, strict=True))


def budget_us(fn, budget_ms: float, flush: Callable | None) -> float:
    """Median event time of as many runs as fit ``budget_ms`` (20 to 5000), after warm-up."""
    for _ in range(3):
        fn()
    per_run = event_median_us(fn, 5, flush) + (0 if flush is None else flush.cost_us)
    reps = int(min(max(budget_ms * 1e3 / (per_run + 25), 20), 5000))
    return event_median_us(fn, reps, flush)


def pct_of_copy(nbytes: int, us: float | None, roof_tbps: float | None) -> float | None:
    """``nbytes`` moved in ``us`` as a share of the copy roofline (TB/s), in percent."""
    return None if us is None or not roof_tbps else 100 * nbytes / (us * 1e6) / roof_tbps


def back_to_back_us(fn, n: int = 20, reps: int = 15) -> float:
    """Time of ``fn`` inside a stream of work: one graph of ``n`` (flush, ``fn``) pairs,
    minus one graph of ``n`` flushes alone, over ``n``. Unlike one event pair around each
    replay, it leaves out the replay's launch and the events; it keeps the gap between
    dependent kernels, which a training step pays too. Medians of ``reps`` replays each,
    the two graphs alternating."""
    flush = current_flush()

    def capture(body) -> torch.cuda.CUDAGraph:
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n):
                body()
        return graph

    pairs = capture(lambda: (flush(), fn()))
    alone = capture(flush)
    samples: dict[str, list[float]] = {"pairs": [], "alone": []}
    for _ in range(reps + 1):  # the first round warms both graphs up
        for name, graph in (("pairs", pairs), ("alone", alone)):
            samples[name].append(event_median_us(graph.replay, 1))
    del pairs, alone
    pairs_us = statistics.median(samples["pairs"][1:])
    alone_us = statistics.median(samples["alone"][1:])
    return (pairs_us - alone_us) / n


def hot_us(fn, budget_ms: float) -> float:
    """Median time without flushing L2 (x stays cached from the previous run)."""
    return budget_us(fn, budget_ms, None)


class Flush:
    """What runs before each timed run: 256 MB written, so L2 holds nothing of the
    inputs; ``clean`` (the default) then reads another 256 MB.

    ``dirty`` is the write alone (``triton.testing.do_bench``'s flush): L2 is left
    full of dirty lines, and their write-back lands inside the timed run, bytes
    that are not the op's own (``bench/NOTES.md``, v21).
    """

    MODES = ("clean", "dirty")

    def __init__(self, device: str, mode: str = "clean"):
        assert mode in self.MODES
        self.mode = mode
        self.written = torch.empty(256 << 20, dtype=torch.int8, device=device)
        clean = mode == "clean"
        self.read = torch.ones(64 << 20, dtype=torch.float32, device=device) if clean else None
        self.sink = torch.empty((), dtype=torch.float32, device=device)
        self.cost_us = 150.0  # about what a flush takes on an H200: sizes the rep count

    def __call__(self) -> None:
        self.written.zero_()
        if self.read is not None:
            torch.amax(self.read, dim=0, out=self.sink)


_FLUSH: Flush | None = None


def set_flush(mode: str) -> Flush:
    """Make ``mode``'s flush the one ``time_us`` runs (``main``: ``--flush``)."""
    global _FLUSH
    _FLUSH = Flush("cuda", mode)
    return _FLUSH


def current_flush() -> Flush:
    """The flush ``time_us`` runs: ``clean`` unless ``set_flush`` chose another."""
    return _FLUSH if _FLUSH is not None else set_flush("clean")


def graphed(fn):
    """``fn`` captured in a CUDA graph: (replay, the outputs its replays write), or None.

    One replay is one launch, so the host time of the op layer's Python (checks,
    allocation, dispatch) cannot leak into the event window as launch gaps: in one
    run, 8192 x 2048 read 140 us eagerly for a 15 us kernel (bench/NOTES.md, v11).
    None when the capture fails (the caller then times ``fn`` eagerly).
    """
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(side):
            fn()  # warm-up off the capture: compiles and allocator state
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = fn()
    except Exception:  # any capture failure: time eagerly
        torch.cuda.synchronize()
        return None
    return graph.replay, out


def copy_tbps(device: str) -> float:
    """Device-to-device copy bandwidth (bytes read + written) on a 2 GiB buffer."""
    n = (2 << 30) // 4
    src = torch.randn(n, device=device)
    dst = torch.empty_like(src)
    us = time_us(lambda: dst.copy_(src), device, reps=20)
    return 2 * n * 4 / (us * 1e-6) / 1e12


# --------------------------------------------------------------------------- one case


def implementations(case: Case, inputs: dict, peers: Peers, device: str, with_peers: bool):
    """impl name -> zero-argument call: fos (on a GPU), and the peers if ``with_peers``."""
    ref_fn, fos_fn = FUNCTIONS[case.op]
    args, kwargs = op_args(case, inputs)
    impls = {}
    if device == "cuda":
        impls["fos"] = lambda: fos_fn(*args, **kwargs, strict=True)
        kernels = getattr(fos_op.dispatch.cutedsl()[0], "KERNELS", frozenset())
        if case.op == "quantize_row_amax" and "quantize_row_amax" in kernels:
            fused = fos_op.dispatch.cutedsl()[0].quantize_row_amax
            x, bound = inputs["x"], kwargs["e4m3_scale_bound"]
            impls["fos_cutedsl"] = lambda: fused(x, err_mode=case.err_mode, e4m3_scale_bound=bound)
    if not with_peers:
        return impls
    if device == "cuda" and case.op == "quantize_grouped" and case.experts == LOOP_EXPERTS:
        impls["fos_loop"] = lambda: per_expert_loop(*args, **kwargs)
    if device == "cuda" and case.op == "quantize_rowwise_columnwise" and not case.swizzle:
        impls["fos_transposed_copy"] = lambda: transposed_copy_path(*args, **case.knobs)
    compiled = peers.compiled(case) if device == "cuda" else None
    if compiled is not None:
        impls["reference_compiled"] = lambda: compiled(*args, **kwargs)
    four = peers.fouroversix_call(case, inputs.get("x")) if device == "cuda" else None
    if four is not None:
        impls["fouroversix"] = four
    at_peer_shape = (case.rows, case.cols) in PEER_SHAPES and case.dtype == "bfloat16"
    if device == "cpu" or (at_peer_shape and case.l2 == "flushed" and case.err_mode == "mae"):
        impls["reference"] = lambda: ref_fn(*args, **kwargs)
    return impls


def _is_fos(impl: str) -> bool:
    """Ours (the op, or the kernel called directly), as opposed to a peer."""
    return impl in ("fos", "fos_cutedsl")


def run_case(case: Case, args, device: str, roof: float | None, peers: Peers, flush, run: int):
    """Check each implementation's bits on each buffer, time the exact fos ones and every peer."""
    buffers = args.buffers if device == "cuda" else 1
    times: dict[str, list[float]] = {}
    back_to_back: dict[str, list[float]] = {}
    equal: dict[str, bool | None] = {}
    timing: dict[str, str] = {}
    notes: dict[str, str] = {}
    failures: list[str] = []
    kept = []  # every buffer stays allocated until the case ends, so each lands elsewhere
    amaxes = []
    for k in range(buffers):
        inputs = make_inputs(case, device, seed=args.seed + 1000 * run + k)
        kept.append(inputs)
        amax = inputs.get("amax")
        if amax is not None and amax.numel() == 1:
            amaxes.append(float(amax))
        args_, kwargs = op_args(case, inputs)
        want = FUNCTIONS[case.op][0](*args_, **kwargs)
        peers_too = k == 0 and run == 0  # peers: once per case
        for impl, fn in implementations(case, inputs, peers, device, peers_too).items():
            is_fos = _is_fos(impl)
            try:
                got = fn()
            except fos_op.FallbackError as exc:  # no kernel for this op yet: said, not failed
                notes[impl] = str(exc)
                equal.setdefault(impl, None)
                continue
            except Exception as exc:  # a peer that fails is reported
                notes[impl] = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
                equal.setdefault(impl, None)
                if is_fos:
                    failures.append(f"{case.label()} {impl}: {notes[impl]}")
                continue
            exact = None if impl == "fouroversix" else same_bits(got, want)
            del got
            timed, how = fn, "eager" if device == "cuda" else "host"
            if device == "cuda" and impl not in ("reference", "fos_loop"):
                captured = graphed(fn)
                if captured is not None:
                    replay, out = captured
                    if exact is not None:
                        poison(out)
                        replay()
                        exact = exact and same_bits(out, want)
                    timed, how = replay, "graph"
            equal[impl] = exact if equal.get(impl, True) is not False else False
            timing[impl] = how
            if is_fos and not exact:
                failures.append(f"{case.label()} {impl}: NOT bit-exact (buffer {k}), not timed")
                continue
            hot = case.l2 == "hot"
            if impl in ("reference", "fos_loop"):  # host-bound (or syncing): events, eager
                reps = LOOP_REPS if impl == "fos_loop" else 3
                us = time_us(fn, device, 1) if device == "cpu" else event_median_us(fn, reps, flush)
            else:
                us = time_us(timed, device, args.reps, flush=not hot)
                if args.back_to_back and is_fos and how == "graph" and not hot:
                    back_to_back.setdefault(impl, []).append(back_to_back_us(fn))
            times.setdefault(impl, []).append(us)
        del want
    del kept
    if device == "cuda":
        torch.cuda.empty_cache()
    records = _records(case, run, times, equal, timing, notes, roof, back_to_back, amaxes)
    return records, failures


def _records(case, run, times, equal, timing, notes, roof, back_to_back, amaxes) -> list[Record]:
    """One record per implementation; fos rows that differed anywhere get no time."""

    def pct(us: float | None) -> float | None:
        return pct_of_copy(case.bytes_moved, us, roof)

    medians = {impl: statistics.median(us) for impl, us in times.items()}
    records = []
    for impl, exact in equal.items():
        us_all = [] if exact is False and _is_fos(impl) else times.get(impl, [])
        us = statistics.median(us_all) if us_all else None
        us_max = max(us_all) if us_all else None
        b2b = back_to_back.get(impl) if us_all else None
        b2b = statistics.median(b2b) if b2b else None
        records.append(
            Record(**asdict(case), impl=impl, timing=timing.get(impl, "-"), run=run,
                   buffers=len(us_all), us=us, us_min=min(us_all) if us_all else None,
                   us_max=us_max, tbps=case.bytes_moved / (us * 1e6) if us else None,
                   pct_of_copy=pct(us), pct_of_copy_min=pct(us_max), bitwise_equal=exact,
                   us_back_to_back=b2b, pct_of_copy_back_to_back=pct(b2b),
                   speedup_vs_reference=_ratio(medians.get("reference"), us),
                   speedup_vs_reference_compiled=_ratio(medians.get("reference_compiled"), us),
                   note=notes.get(impl), us_buffers=us_all or None,
                   global_amaxes=amaxes or None)
        )  # fmt: skip
    return records


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


# --------------------------------------------------------------------------- output


def print_table(rows: list[dict]) -> None:
    """One line per (case, impl): the aggregated rows (``summary.aggregate``)."""
    print(f"{'op':>17} {'shape':>11} {'dtype':>8} {'block':>5} {'amax':>6} {'err':>3} "
          f"{'l2':>7} {'impl':>18} {'us':>9} {'min-max us':>15} {'%copy':>6} {'worst':>6} "
          f"{'b2b%':>6} exact")  # fmt: skip
    for r in rows:
        us = f"{r['us']:9.1f}" if r["us"] is not None else "        -"
        spread = f"{r['us_min']:.1f}-{r['us_max']:.1f}" if r["us"] is not None else "-"
        pct = f"{r['pct_of_copy']:6.1f}" if r["pct_of_copy"] is not None else "     -"
        worst = f"{r['pct_of_copy_min']:6.1f}" if r["pct_of_copy_min"] is not None else "     -"
        b2b = r.get("pct_of_copy_back_to_back")
        b2b = f"{b2b:6.1f}" if b2b is not None else "     -"
        exact = {None: "-", True: "yes", False: "NO"}[r["bitwise_equal"]]
        line = (f"{r['op']:>17} {r['rows']:>5}x{r['cols']:<5} {r['dtype']:>8} {r['block']:>5} "
                f"{'row' if r['row_scaled'] else 'tensor':>6} {r['err_mode']:>3} {r['l2']:>7} "
                f"{r['impl']:>18} {us} {spread:>15} {pct} {worst} {b2b} {exact:>5}")  # fmt: skip
        print(line + (f"  ({r['note'][:60]})" if r["note"] and r["us"] is None else ""))


def commit() -> str | None:
    """``FOS_COMMIT``, else ``git describe`` of the working tree (with -dirty), else None."""
    if os.environ.get("FOS_COMMIT"):
        return os.environ["FOS_COMMIT"]
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=Path(__file__).resolve().parent, capture_output=True, text=True, timeout=10,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def header(device: str, gpu: str, roofs: list[float | None], peers: Peers) -> dict:
    module = fos_op.dispatch.cutedsl()[0]
    return {
        "device": gpu,
        "gpu": gpu,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cutedsl": _version("nvidia-cutlass-dsl"),
        "triton": _version("triton"),
        "fos_op": fos_op.__version__,
        "fos_cutedsl": getattr(module, "__version__", None),
        "kernels": sorted(getattr(module, "KERNELS", ())),
        "commit": commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "flush": _FLUSH.mode if _FLUSH is not None else None,
        "copy_tbps": roofs[0],
        "copy_tbps_runs": roofs,
        "fouroversix": peers.fouroversix_why or "imported",
        "command": " ".join(["python", *sys.argv]),
    }


def write_json(path: Path, payload: dict) -> None:
    """Write atomically (a run cut short by a timeout leaves the last whole file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, indent=1) + "\n")
    tmp.replace(path)


def replay_us(fn) -> float:
    """Median time of ``fn`` captured in a CUDA graph, L2 flushed (the tuning sweeps)."""
    replay, _ = graphed(fn)
    return time_us(replay, "cuda", reps=20)


def write_sweep(out_dir: str, name: str, roof: float, records: list[dict]) -> None:
    """A tuning sweep's records, with the date, the GPU and the copy roofline, to
    ``out_dir/name``."""
    payload = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(),
        "copy_tbps": roof,
        "records": records,
    }
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    write_json(Path(out_dir) / name, payload)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ops", nargs="+", default=list(OPS), choices=OPS)
    parser.add_argument("--rows", type=int, nargs="*", help="quantize row counts")
    parser.add_argument("--cols", type=int, nargs="*", help="quantize column counts")
    parser.add_argument("--err-modes", nargs="+", default=["mae"], choices=["mae", "mse"],
                        help="error modes of the --rows / --cols quantize cases")  # fmt: skip
    parser.add_argument("--dtypes", nargs="+", default=list(DTYPES), choices=DTYPES,
                        help="quantize input dtypes (the other ops: bfloat16)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="one shape per op, bfloat16")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the whole loop")
    parser.add_argument("--buffers", type=int, default=1, help="fresh input buffers per case")
    parser.add_argument("--reps", type=int, default=10, help="timed runs per row, x 10 ms")
    parser.add_argument("--compiled", action=argparse.BooleanOptionalAction, default=True,
                        help="torch.compile'd reference peers (default on)")  # fmt: skip
    parser.add_argument("--fouroversix", action=argparse.BooleanOptionalAction, default=True,
                        help="the fouroversix peer, when it imports (default on)")  # fmt: skip
    parser.add_argument("--no-hot", action="store_true", help="skip the l2=hot rows")
    parser.add_argument("--back-to-back", action="store_true",
                        help="also time fos rows as back_to_back_us (us_back_to_back)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", default="normal", choices=DATA,
                        help="the inputs' values (the targets are for normal)")  # fmt: skip
    parser.add_argument("--out", type=Path, help="JSON path (default: bench/results/<gpu>.json)")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--flush", default="clean", choices=Flush.MODES,
                        help="the L2 state before each timed run (Flush)")  # fmt: skip
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        print("no GPU: timing the reference on the CPU at small shapes; GPU rows skipped")
        cases, gpu = cpu_cases(args), "cpu"
        peers, flush = Peers(False, False), None
    else:
        cases, gpu = gpu_cases(args), torch.cuda.get_device_name()
        peers, flush = Peers(args.compiled, args.fouroversix), set_flush(args.flush)
    cases = [replace(case, data=args.data) for case in cases]
    name = gpu.lower().replace("nvidia ", "").replace(" ", "-")
    out = args.out or RESULTS / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    print(f"{gpu}: {len(cases)} cases x {args.repeat} runs; fouroversix: "
          f"{peers.fouroversix_why or 'imported'}")  # fmt: skip

    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    records: list[Record] = []
    failures: list[str] = []
    roofs: list[float | None] = []
    payload = {}
    start = time.perf_counter()
    for run in range(args.repeat):
        roof = copy_tbps(device) if device == "cuda" else None
        roofs.append(roof)
        head = header(device, gpu, roofs, peers)
        if roof:
            print(f"run {run}: copy roofline {roof:.3f} TB/s (read + write)")
        progress, quiet = cases, True
        if tqdm:
            quiet = not sys.stderr.isatty()
            progress = tqdm(cases, file=sys.stderr, desc=f"run {run}", disable=quiet)
        for case in progress:
            if tqdm and not quiet:
                progress.set_postfix_str(case.label())
            else:  # a log: one line per case, with the time so far
                print(f"[{time.perf_counter() - start:6.1f} s] {case.label()}", file=sys.stderr)
            got, failed = run_case(case, args, device, roof, peers, flush, run)
            records += got
            failures += failed
            payload = {**head, "fouroversix": peers.fouroversix_why or "imported",
                       "failures": failures,
                       "records": [asdict(r) for r in records]}  # fmt: skip
            write_json(out, payload)
    rows = aggregate(payload["records"])
    print_table(rows)
    payload["summary"] = rows
    write_json(out, payload)
    print(f"wrote {out}")
    if not args.no_plot and any(r.impl == "fos" for r in records):
        try:
            from plot import plot_ops

            print(f"wrote {plot_ops(out)}")
        except ImportError as exc:
            print(f"no plot ({exc})")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
