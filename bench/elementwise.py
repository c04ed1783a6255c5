"""Time the elementwise kernels (``nan_amax``, ``dequantize``) against a same-bytes copy.

For each shape (default 32768 x 7168 and 32768 x 2048, bf16) and op
(``nan_amax`` per tensor and per row; ``dequantize`` to bf16 with a
per-tensor amax) it first checks each implementation's bits against the
eager reference, then times:

* ``fos``: ``fos_cutedsl.launch_*`` into preallocated outputs, captured in a
  CUDA graph and timed as its replay;
* ``reference_compiled``: ``torch.compile`` of the ``fos_reference`` function
  (graph replay when it captures, else eager);
* ``reference``: the eager ``fos_reference`` function;
* ``copy``: a device-to-device copy moving the op's bytes (half read, half
  written), the roofline ``pct_of_copy`` is measured against.

Each time is the median of ``triton.testing.do_bench`` (``bench.time_us``,
which flushes L2 before every run). Bytes: ``nan_amax`` reads 2 B/element
(bf16); ``dequantize`` reads 0.5625 B/element (codes and scales) and writes
2 B/element. Prints a table and writes JSON records to ``--out``.

    python bench/elementwise.py [--shapes 32768x7168 32768x2048] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
from pathlib import Path

import torch

import fos_cutedsl
import fos_reference
from bench import graphed, time_us

DEFAULT_SHAPES = ("32768x7168", "32768x2048")


def _bits_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Same shape, dtype and bits, NaN matching NaN."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    ints = {2: torch.int16, 4: torch.int32}[a.element_size()]
    same = a.contiguous().view(ints) == b.contiguous().view(ints)
    return bool((same | (torch.isnan(a) & torch.isnan(b))).all())


def _copy_us(total_bytes: int, reps: int) -> float:
    """A device-to-device copy that reads and writes ``total_bytes`` in all."""
    n = total_bytes // 2
    src = torch.empty(n, dtype=torch.uint8, device="cuda").random_(0, 256)
    dst = torch.empty_like(src)
    return time_us(lambda: dst.copy_(src), "cuda", reps)


def _ops(rows: int, cols: int, gen: torch.Generator):
    """(op name, input bytes moved, reference fn, fos fn returning its output) per op."""
    x = torch.randn(rows, cols, device="cuda", generator=gen).to(torch.bfloat16)
    elems = rows * cols
    tensor_out = torch.empty(1, device="cuda")
    row_out = torch.empty(rows, device="cuda")

    def fos_amax_tensor():
        fos_cutedsl.launch_nan_amax(x, tensor_out, False)
        return tensor_out.reshape(())

    def fos_amax_row():
        fos_cutedsl.launch_nan_amax(x, row_out, True)
        return row_out

    gamax = fos_reference.nan_amax(x).reshape(1)
    codes, scales = fos_cutedsl.quantize(x, gamax)
    x_hat = torch.empty(rows, cols, dtype=torch.bfloat16, device="cuda")

    def fos_dequantize():
        fos_cutedsl.launch_dequantize(codes, scales.view(torch.uint8), gamax, x_hat, 256)
        return x_hat

    return [
        ("nan_amax_tensor", 2 * elems, lambda f: lambda: f(x), fos_reference.nan_amax,
         fos_amax_tensor),
        ("nan_amax_row", 2 * elems, lambda f: lambda: f(x, 1), fos_reference.nan_amax,
         fos_amax_row),
        ("dequantize", elems * 9 // 16 + 2 * elems, lambda f: lambda: f(codes, scales, gamax),
         fos_reference.dequantize, fos_dequantize),
    ]  # fmt: skip


def run_shape(rows: int, cols: int, args) -> list[dict]:
    gen = torch.Generator(device="cuda").manual_seed(args.seed)
    records = []
    for op, nbytes, bind, ref_fn, fos_fn in _ops(rows, cols, gen):
        want = bind(ref_fn)()
        copy_us = _copy_us(nbytes, args.reps)
        impls = {"fos": fos_fn, "reference": bind(ref_fn)}
        if args.compiled:
            impls["reference_compiled"] = bind(torch.compile(ref_fn, dynamic=False))
        base = {"op": op, "shape": [rows, cols], "dtype": "bfloat16", "bytes": nbytes}
        records.append({**base, "impl": "copy", "us": copy_us, "pct_of_copy": 100.0,
                        "bitwise_equal": None, "timing": "eager"})  # fmt: skip
        for impl, fn in impls.items():
            try:
                equal = _bits_equal(fn(), want)
            except Exception as exc:  # a peer that fails to compile is reported, not fatal
                print(f"{op} {impl}: {type(exc).__name__}: {exc}")
                continue
            timed, timing = fn, "eager"
            if impl != "reference":
                captured = graphed(fn)
                if captured is not None:
                    replay, out = captured
                    out.reshape(-1).view(torch.uint8).fill_(
                        0xAB
                    )  # poisoned: the replay rewrites it
                    replay()
                    equal = equal and _bits_equal(out, want)
                    timed, timing = replay, "graph"
            if impl == "fos" and not equal:
                print(f"{op} {rows}x{cols}: fos is NOT bit-exact, no time reported")
                records.append({**base, "impl": impl, "us": None, "pct_of_copy": None,
                                "bitwise_equal": False, "timing": timing})  # fmt: skip
                continue
            us = time_us(timed, "cuda", args.reps if impl == "fos" else max(3, args.reps // 10))
            records.append({**base, "impl": impl, "us": us, "pct_of_copy": 100 * copy_us / us,
                            "tbps": nbytes / (us * 1e-6) / 1e12, "bitwise_equal": equal,
                            "timing": timing})  # fmt: skip
        del want
        torch.cuda.empty_cache()
    return records


def print_table(records: list[dict]) -> None:
    print(f"{'op':>16} {'shape':>11} {'impl':>18} {'us':>9} {'TB/s':>6} {'%copy':>6} {'exact':>5}")
    for r in records:
        us = f"{r['us']:9.1f}" if r["us"] is not None else "        -"
        tbps = f"{r['tbps']:6.3f}" if r.get("tbps") else "     -"
        pct = f"{r['pct_of_copy']:6.1f}" if r["pct_of_copy"] is not None else "     -"
        exact = {None: "-", True: "yes", False: "NO"}[r["bitwise_equal"]]
        shape = f"{r['shape'][0]}x{r['shape'][1]}"
        print(f"{r['op']:>16} {shape:>11} {r['impl']:>18} {us} {tbps} {pct} {exact:>5}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", default=list(DEFAULT_SHAPES), help="RxC")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--compiled",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time torch.compile of the reference (default; compiles are slow)",
    )
    default_out = Path(os.environ.get("OUT", ".")) / "elementwise.json"
    parser.add_argument("--out", type=Path, default=default_out, help="JSON records path")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no GPU: nothing to time")
        return 0
    records = []
    for shape in args.shapes:
        rows, cols = (int(v) for v in shape.lower().split("x"))
        records += run_shape(rows, cols, args)
    print_table(records)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "fos_cutedsl": fos_cutedsl.__version__,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "records": records}, indent=2))
    failed = any(r["impl"] == "fos" and not r["bitwise_equal"] for r in records)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
