"""Time ``quantize_row_amax`` (row-scaled 1x16, the row amax in the same read) against the
two-pass ``nan_amax(dim=1)`` + row-scaled quantize and a same-bytes copy.

For each shape (default 32768 x 7168 and 32768 x 2048, bf16, mae, bound 256) it first
checks the bits of both fos implementations (codes, scales and, for the fused kernel,
the amax) against ``fos_reference``, then times, as CUDA-graph replays:

* ``fos``: ``fos_cutedsl.launch_quantize_row_amax`` into preallocated outputs;
* ``fos_two_pass``: ``fos_cutedsl.launch_nan_amax(x, amax, per_row=True)`` then
  ``fos_cutedsl.launch`` row-scaled (two reads of x);
* ``copy``: a device-to-device copy moving the op's bytes (half read, half written).

``pct_of_copy`` counts 2.5625 B/element for both (2 read, 0.5 codes, 0.0625 scales; the
amax's 4 B per row is left out), so the two-pass share shows what its second read costs.
Each time is the median of ``bench.time_us`` (L2 flushed before every run). Prints a
table and writes JSON records (``"op": "quantize_row_amax"``) to ``--out``.

    python bench/row_amax.py [--shapes 32768x7168 32768x2048] [--out FILE]
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
BYTES_PER_ELEMENT = 2.5625  # bf16 in, codes and scales out


def _copy_us(total_bytes: int, reps: int) -> float:
    """A device-to-device copy that reads and writes ``total_bytes`` in all."""
    src = torch.empty(total_bytes // 2, dtype=torch.uint8, device="cuda").random_(0, 256)
    dst = torch.empty_like(src)
    return time_us(lambda: dst.copy_(src), "cuda", reps)


def _impls(x: torch.Tensor, err_mode: str, bound: int):
    """name -> a function writing (codes, scales, amax) into preallocated buffers."""
    rows, cols = x.shape
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.uint8, device="cuda")
    amax = torch.empty(rows, dtype=torch.float32, device="cuda")

    def fused():
        fos_cutedsl.launch_quantize_row_amax(x, amax, codes, scales, err_mode, bound)
        return codes, scales, amax

    def two_pass():
        fos_cutedsl.launch_nan_amax(x, amax, True)
        fos_cutedsl.launch(x, amax, codes, scales, "1x16", err_mode, bound)
        return codes, scales, amax

    return {"fos": fused, "fos_two_pass": two_pass}


def _same(got, want) -> bool:
    codes, scales, amax = got
    want_codes, want_scales, want_amax = want
    return (
        torch.equal(codes, want_codes)
        and torch.equal(scales, want_scales.view(torch.uint8))
        and torch.equal(amax.view(torch.int32), want_amax.view(torch.int32))
    )


def run_shape(rows: int, cols: int, args) -> list[dict]:
    gen = torch.Generator(device="cuda").manual_seed(args.seed)
    x = torch.randn(rows, cols, device="cuda", generator=gen).to(torch.bfloat16)
    want_amax = fos_reference.nan_amax(x, dim=1)
    want = (*fos_reference.quantize(x, want_amax, block="1x16", err_mode=args.err_mode), want_amax)
    nbytes = int(rows * cols * BYTES_PER_ELEMENT)
    copy_us = _copy_us(nbytes, args.reps)
    base = {"op": "quantize_row_amax", "shape": [rows, cols], "dtype": "bfloat16",
            "err_mode": args.err_mode, "bytes": nbytes}  # fmt: skip
    records = [{**base, "impl": "copy", "us": copy_us, "pct_of_copy": 100.0,
                "bitwise_equal": None, "timing": "eager"}]  # fmt: skip
    for impl, fn in _impls(x, args.err_mode, 256).items():
        equal = _same(fn(), want)
        timed, timing = fn, "eager"
        captured = graphed(fn)
        if captured is not None:
            replay, out = captured
            for t in out:
                t.view(torch.uint8).fill_(0xAB)  # poisoned: the replay rewrites every byte
            replay()
            equal = equal and _same(out, want)
            timed, timing = replay, "graph"
        if not equal:
            print(f"{impl} {rows}x{cols}: NOT bit-exact, no time reported")
            records.append({**base, "impl": impl, "us": None, "pct_of_copy": None,
                            "bitwise_equal": False, "timing": timing})  # fmt: skip
            continue
        us = time_us(timed, "cuda", args.reps)
        records.append({**base, "impl": impl, "us": us, "pct_of_copy": 100 * copy_us / us,
                        "tbps": nbytes / (us * 1e-6) / 1e12, "bitwise_equal": True,
                        "timing": timing})  # fmt: skip
    return records


def print_table(records: list[dict]) -> None:
    print(f"{'shape':>11} {'impl':>13} {'us':>9} {'TB/s':>6} {'%copy':>6} {'exact':>5}")
    for r in records:
        us = f"{r['us']:9.1f}" if r["us"] is not None else "        -"
        tbps = f"{r['tbps']:6.3f}" if r.get("tbps") else "     -"
        pct = f"{r['pct_of_copy']:6.1f}" if r["pct_of_copy"] is not None else "     -"
        exact = {None: "-", True: "yes", False: "NO"}[r["bitwise_equal"]]
        shape = f"{r['shape'][0]}x{r['shape'][1]}"
        print(f"{shape:>11} {r['impl']:>13} {us} {tbps} {pct} {exact:>5}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", default=list(DEFAULT_SHAPES), help="RxC")
    parser.add_argument("--err-mode", default="mae", choices=("mae", "mse"))
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    default_out = Path(os.environ.get("OUT", ".")) / "row_amax.json"
    parser.add_argument("--out", type=Path, default=default_out, help="JSON records path")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no GPU: nothing to time")
        return 0
    records = []
    for shape in args.shapes:
        rows, cols = (int(v) for v in shape.lower().split("x"))
        records += run_shape(rows, cols, args)
        torch.cuda.empty_cache()
    print_table(records)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "fos_cutedsl": fos_cutedsl.__version__,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "records": records}, indent=2))
    return 1 if any(r["bitwise_equal"] is False for r in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
