"""Benchmark four-over-six quantize against the memory-copy roofline.

For each configuration it first checks that fos (through ``fos_op``) gives the
reference's bits, then times fos, the eager reference and (optionally)
``torch.compile`` of the reference, with the device-to-device copy bandwidth
measured in the same run as the roofline. Effective bytes = input read +
codes written + scales written. fos is timed as a CUDA-graph replay of the op
(``--no-graphs``: eager calls), so that the op layer's host time does not show
up as launch gaps in the event window; the reference is timed eagerly.
Results: a table on stdout, a JSON file (``bench/results/<gpu>.json``) and a
PNG of % of roofline.

    python bench/bench.py                    # the full GPU sweep
    python bench/bench.py --quick            # one shape per mode
    python bench/bench.py --rows 32768 --cols 7168 --dtypes bfloat16

Without a GPU it runs the reference on the CPU at small shapes and says that
the GPU rows were skipped.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

import fos_op
import fos_reference

DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32, "float16": torch.float16}
TRAINING_ROWS = (8192, 32768, 131072)
TRAINING_COLS = (2048, 7168)
SMALL_SHAPES = ((128, 256), (1024, 2048))
# (block, row_scaled, err_mode)
MODES = (("1x16", False, "mae"), ("1x16", True, "mae"), ("16x16", False, "mae"))
RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Config:
    rows: int
    cols: int
    block: str
    row_scaled: bool
    dtype: str
    err_mode: str

    @property
    def bytes_moved(self) -> int:
        elem = DTYPES[self.dtype].itemsize
        n = self.rows * self.cols
        return n * elem + n // 2 + n // 16  # input, codes, scales

    def label(self) -> str:
        amax = "row" if self.row_scaled else "tensor"
        return f"{self.rows}x{self.cols} {self.block} {amax} {self.dtype} {self.err_mode}"


@dataclass
class Record(Config):
    """One timed implementation of one configuration (a row of the JSON file)."""

    impl: str
    us: float
    tbps: float
    pct_of_copy: float
    speedup_vs_reference: float | None
    speedup_vs_reference_compiled: float | None
    bitwise_equal: bool
    timing: str = "eager"  # "graph": fos timed as one CUDA-graph replay (no host launch gaps)


def gpu_configs(args: argparse.Namespace) -> list[Config]:
    """The training shapes x modes x dtypes, mse at one shape, and the latency shapes."""
    rows = args.rows or (TRAINING_ROWS[1:2] if args.quick else TRAINING_ROWS)
    cols = args.cols or (TRAINING_COLS[1:] if args.quick else TRAINING_COLS)
    configs = [
        Config(r, c, block, row_scaled, dtype, err_mode)
        for dtype in args.dtypes
        for block, row_scaled, err_mode in MODES
        for r in rows
        for c in cols
    ]
    if not args.rows and not args.cols:
        configs.append(Config(32768, 7168, "1x16", False, "bfloat16", "mse"))
        configs += [Config(r, c, "1x16", False, "bfloat16", "mae") for r, c in SMALL_SHAPES]
    return configs


def make_inputs(cfg: Config, device: str, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Random normal input (never zeros: they hide unwritten outputs) and its amax."""
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(cfg.rows, cfg.cols, device=device, generator=gen).to(DTYPES[cfg.dtype])
    gamax = fos_reference.nan_amax(x, dim=1) if cfg.row_scaled else fos_reference.nan_amax(x)
    return x, gamax


def time_us(fn, device: str, reps: int) -> float:
    """Median time of ``fn`` in microseconds, with the L2 cache flushed before each run."""
    if device == "cpu":
        import time

        fn()
        samples = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1e6)
        return statistics.median(samples)
    from triton.testing import do_bench

    return do_bench(fn, warmup=25, rep=max(reps, 1) * 10, return_mode="median") * 1e3


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
    except RuntimeError:
        return None
    return graph.replay, out


def copy_tbps(device: str) -> float:
    """Device-to-device copy bandwidth (bytes read + written) on a 2 GiB buffer."""
    n = (2 << 30) // 4
    src = torch.randn(n, device=device)
    dst = torch.empty_like(src)
    us = time_us(lambda: dst.copy_(src), device, reps=20)
    return 2 * n * 4 / (us * 1e-6) / 1e12


def same_bits(a: tuple[torch.Tensor, torch.Tensor], b: tuple[torch.Tensor, torch.Tensor]) -> bool:
    return torch.equal(a[0], b[0]) and torch.equal(a[1].view(torch.uint8), b[1].view(torch.uint8))


def run_config(
    cfg: Config, args: argparse.Namespace, device: str, roof: float
) -> tuple[list[Record], list[str]]:
    """Check each implementation's bits, then time the exact ones; also return the failures."""
    x, gamax = make_inputs(cfg, device, seed=args.seed)
    knobs = {"block": cfg.block, "err_mode": cfg.err_mode, "e4m3_scale_bound": 256}
    reference = fos_reference.quantize(x, gamax, **knobs)
    impls = {}
    if device == "cuda":
        impls["fos"] = lambda: fos_op.quantize(x, gamax, strict=True, **knobs)
    elems = cfg.rows * cfg.cols
    if elems <= args.reference_max_elems or device == "cpu":
        impls["reference"] = lambda: fos_reference.quantize(x, gamax, **knobs)
    compiled_here = args.compiled and (cfg.rows, cfg.cols, cfg.block) == (32768, 7168, "1x16")
    if compiled_here and device == "cuda" and not cfg.row_scaled and cfg.err_mode == "mae":
        compiled = torch.compile(fos_reference.quantize, dynamic=False)
        impls["reference_compiled"] = lambda: compiled(x, gamax, **knobs)

    times, equal, failures, timing = {}, {}, [], {}
    for impl, fn in impls.items():
        equal[impl] = same_bits(fn(), reference)
        if impl == "fos" and not equal[impl]:
            failures.append(f"{cfg.label()}: fos is NOT bit-exact, no speed reported")
            continue
        timed, timing[impl] = fn, "eager"
        if impl == "fos" and args.graphs:
            captured = graphed(fn)
            if captured is not None:
                replay, out = captured
                for codes in out:
                    codes.view(torch.uint8).fill_(0xAB)  # poisoned: the replay must write them
                replay()
                if not same_bits(out, reference):
                    failures.append(f"{cfg.label()}: fos graph replay is NOT bit-exact")
                    continue
                timed, timing[impl] = replay, "graph"
        times[impl] = time_us(timed, device, reps=args.reps if impl == "fos" else 3)
    del reference
    records = []
    for impl, us in times.items():
        tbps = cfg.bytes_moved / (us * 1e-6) / 1e12
        speedup = times["reference"] / us if "reference" in times else None
        vs_compiled = times.get("reference_compiled", 0) / us or None
        records.append(
            Record(**asdict(cfg), impl=impl, us=us, tbps=tbps, pct_of_copy=100 * tbps / roof,
                   speedup_vs_reference=speedup, speedup_vs_reference_compiled=vs_compiled,
                   bitwise_equal=equal[impl], timing=timing[impl])
        )  # fmt: skip
    return records, failures


def print_table(records: list[Record]) -> None:
    head = f"{'rows':>7} {'cols':>5} {'block':>5} {'amax':>6} {'dtype':>8} {'err':>3} "
    head += f"{'impl':>18} {'us':>10} {'TB/s':>6} {'%copy':>6} "
    head += f"{'x ref':>7} {'x comp':>7} {'exact':>5}"
    print(head)
    for r in records:
        speed = f"{r.speedup_vs_reference:7.1f}" if r.speedup_vs_reference else "      -"
        c = r.speedup_vs_reference_compiled
        vs_compiled = f"{c:7.1f}" if c else "      -"
        print(
            f"{r.rows:>7} {r.cols:>5} {r.block:>5} {'row' if r.row_scaled else 'tensor':>6} "
            f"{r.dtype:>8} {r.err_mode:>3} {r.impl:>18} {r.us:10.1f} {r.tbps:6.3f} "
            f"{r.pct_of_copy:6.1f} {speed} {vs_compiled} {'yes' if r.bitwise_equal else 'NO':>5}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--rows", type=int, nargs="*", help="row counts (default: training shapes)")
    parser.add_argument("--cols", type=int, nargs="*", help="column counts")
    parser.add_argument("--dtypes", nargs="*", default=["bfloat16", "float32"], choices=DTYPES)
    parser.add_argument("--quick", action="store_true", help="one training shape per mode")
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="also time torch.compile(reference) at 32768x7168 1x16 per-tensor (compiles are slow)",
    )
    parser.add_argument("--reference-max-elems", type=float, default=2.5e8,
                        help="time the reference only up to this many elements")  # fmt: skip
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument(
        "--graphs",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="time fos as a CUDA-graph replay (default; --no-graphs: eager calls)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="JSON path (default: bench/results/<gpu>.json)")
    args = parser.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        print("no GPU: timing the reference on the CPU at small shapes; GPU rows skipped")
        configs = [
            Config(r, c, b, rs, "bfloat16", e) for r, c in SMALL_SHAPES for b, rs, e in MODES
        ]
        roof, gpu = copy_tbps("cpu"), "cpu"
    else:
        configs = gpu_configs(args)
        roof, gpu = copy_tbps("cuda"), torch.cuda.get_device_name()
    print(f"{gpu}: copy roofline {roof:.3f} TB/s (read + write)")

    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    records: list[Record] = []
    failures: list[str] = []
    progress = tqdm(configs, file=sys.stderr) if tqdm else configs
    for cfg in progress:
        if tqdm:
            progress.set_description(cfg.label())
        got, failed = run_config(cfg, args, device, roof)
        records += got
        failures += failed
        if device == "cuda":
            torch.cuda.empty_cache()
    print_table(records)

    try:
        cutedsl = importlib.metadata.version("nvidia-cutlass-dsl")
    except importlib.metadata.PackageNotFoundError:
        cutedsl = None
    name = gpu.lower().replace("nvidia ", "").replace(" ", "-")
    out = args.out or RESULTS / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "gpu": gpu,
        "torch": torch.__version__,
        "cutedsl": cutedsl,
        "date": datetime.date.today().isoformat(),
        "copy_tbps": roof,
        "command": " ".join(["python", *sys.argv]),
        "failures": failures,
        "records": [asdict(r) for r in records],
    }
    out.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {out}")
    if any(r.impl == "fos" for r in records):
        try:
            from plot import plot_roofline

            print(f"wrote {plot_roofline(out)}")
        except ImportError as exc:
            print(f"no plot ({exc})")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
