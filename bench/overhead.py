"""Host cost of one eager call on a small input, path by path, beside its floors.

For a 128x256 bfloat16 input, per-call wall time of a host-bound loop
(``--calls`` back-to-back calls, one synchronize; ``--rounds`` rounds over
every path, the best per path) for:

* ``torch.empty pair``: allocating the two outputs, the floor of any call
  (``torch.empty_strided pair`` and ``empty_like pair``: the same by other calls,
  the second as the quantize plan allocates them, from one-element templates);
* ``compiled kernel``: the function ``fos_cutedsl.quantize_launcher`` returns,
  called positionally with preallocated outputs (launch cost only);
* ``fos_cutedsl.quantize``: the kernel package's checked call;
* ``fos_op.<op>``: the public API in eager mode (plan cache, no dispatcher),
  for quantize, quantize_with_amax, fake_quantize, dequantize and nan_amax;
* ``torch.ops.fos.<op>``: the same through the dispatcher (the path
  ``torch.compile`` traces).

Beside each op its GPU time from replaying a CUDA graph of 200 calls (no host
work counted). The issue-24 target: eager ``fos_op.quantize`` <= 12 us.

    python bench/overhead.py [--rows 128 --cols 256 --calls 2000] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

import fos_op
import fos_reference
from fos_op import impl

TARGET_US = 12.0
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "h200-op-overhead.json"


def wall_us(fn, calls: int, repeat: int) -> float:
    """Per-call wall time of ``calls`` back-to-back calls, synchronized once; best of ``repeat``."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
    return best


def graph_us(fn, replays: int = 200) -> float | None:
    """GPU time per call from replaying ``replays`` calls captured in one CUDA graph."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(stream):
            fn()
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(replays):
                fn()
    except Exception as exc:  # a path that cannot be captured: no GPU time for it
        print(f"graph capture failed ({type(exc).__name__}: {exc})")
        torch.cuda.synchronize()
        return None
    graph.replay()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    graph.replay()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1e3 / replays


def paths(x: torch.Tensor) -> list[tuple[str, str, object, bool]]:
    """(op, path, zero-argument call, whether to take its GPU time) for every timed path."""
    import fos_cutedsl

    rows, cols = x.shape
    amax = fos_reference.nan_amax(x)  # 0-d: as the compiled kernels take a per-tensor amax
    codes, scales = fos_op.quantize(x, amax)
    codes_u8 = torch.empty(rows, cols // 2, dtype=torch.uint8, device=x.device)
    scales_f8 = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device=x.device)
    kernel = fos_cutedsl.quantize_launcher(x, amax, "1x16", "mae", 256)
    knobs = ("1x16", "mae", 256)

    def empty_pair():
        return (
            torch.empty((rows, cols // 2), dtype=torch.uint8, device=x.device),
            torch.empty((rows, cols // 16), dtype=torch.float8_e4m3fn, device=x.device),
        )

    def empty_strided_pair():  # how the quantize plan allocates (its shapes and strides made once)
        return (
            torch.empty_strided((rows, cols // 2), (cols // 2, 1), dtype=torch.uint8,
                                device=x.device),
            torch.empty_strided((rows, cols // 16), (cols // 16, 1),
                                dtype=torch.float8_e4m3fn, device=x.device),
        )  # fmt: skip

    codes_like = impl._template((rows, cols // 2), torch.uint8, x.device)
    scales_like = impl._template((rows, cols // 16), torch.float8_e4m3fn, x.device)

    def empty_like_pair():  # the quantize plan's allocation
        return torch.empty_like(codes_like), torch.empty_like(scales_like)

    return [
        ("quantize", "torch.empty pair", empty_pair, False),
        ("quantize", "torch.empty_strided pair", empty_strided_pair, False),
        ("quantize", "empty_like pair", empty_like_pair, False),
        ("quantize", "compiled kernel", lambda: kernel(x, amax, codes_u8, scales_f8), True),
        ("quantize", "fos_cutedsl.quantize", lambda: fos_cutedsl.quantize(x, amax), False),
        ("quantize", "fos_op.quantize", lambda: fos_op.quantize(x, amax), True),
        ("quantize", "torch.ops.fos.quantize", lambda: torch.ops.fos.quantize(x, amax, *knobs),
         False),
        ("quantize_with_amax", "fos_op.quantize_with_amax",
         lambda: fos_op.quantize_with_amax(x), True),
        ("fake_quantize", "fos_op.fake_quantize", lambda: fos_op.fake_quantize(x, amax), True),
        ("fake_quantize", "torch.ops.fos.fake_quantize",
         lambda: torch.ops.fos.fake_quantize(x, amax, *knobs, None), False),
        ("dequantize", "fos_op.dequantize", lambda: fos_op.dequantize(codes, scales, amax), True),
        ("dequantize", "torch.ops.fos.dequantize",
         lambda: torch.ops.fos.dequantize(codes, scales, amax, 256, torch.bfloat16), False),
        ("nan_amax", "fos_op.nan_amax", lambda: fos_op.nan_amax(x), True),
        ("nan_amax", "torch.ops.fos.nan_amax", lambda: torch.ops.fos.nan_amax(x, None), False),
    ]  # fmt: skip


def on_kernel(op: str, x: torch.Tensor) -> str:
    """Which path ``op`` takes here: "kernel", or why ``strict=True`` refuses the fallback."""
    amax = fos_reference.nan_amax(x)
    calls = {
        "quantize": lambda: fos_op.quantize(x, amax, strict=True),
        "quantize_with_amax": lambda: fos_op.quantize_with_amax(x, strict=True),
        "fake_quantize": lambda: fos_op.fake_quantize(x, amax, strict=True),
        "dequantize": lambda: fos_op.dequantize(*fos_op.quantize(x, amax), amax, strict=True),
        "nan_amax": lambda: fos_op.nan_amax(x, strict=True),
    }
    try:
        calls[op]()
    except fos_op.FallbackError as exc:
        return f"reference ({exc})"
    return "kernel"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=128)
    parser.add_argument("--cols", type=int, default=256)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds over every path (the best per path counts)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON path")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no GPU: nothing to time")
        return 0
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(args.rows, args.cols, device="cuda", generator=gen).to(torch.bfloat16)
    timed = paths(x)
    # Rounds over every path, the best per path: a burst of host noise (this host is
    # shared) costs one round of one path, not its number.
    walls = {path: [] for _, path, _, _ in timed}
    for _ in range(args.rounds):
        for _, path, fn, _ in timed:
            walls[path].append(wall_us(fn, args.calls, 1))
    results = []
    for op, path, fn, gpu in timed:
        wall = min(walls[path])
        gpu_us = graph_us(fn) if gpu else None
        results.append({"op": op, "path": path, "wall_us": wall, "gpu_us": gpu_us,
                        "rounds_us": walls[path]})  # fmt: skip
        print(f"{path:>32}: {wall:7.2f} us/call" + (f"  (GPU {gpu_us:.2f} us)" if gpu_us else "")
              + f"  rounds {min(walls[path]):.1f}-{max(walls[path]):.1f}")  # fmt: skip
    by_path = {r["path"]: r for r in results}
    kernel_gpu = by_path["compiled kernel"]["gpu_us"]
    op_call = by_path["fos_op.quantize"]["wall_us"]
    payload = {
        "shape": [args.rows, args.cols],
        "dtype": "bfloat16",
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "calls": args.calls,
        "rounds": args.rounds,
        "target_us": TARGET_US,
        "paths_on": {op: on_kernel(op, x) for op in dict.fromkeys(r["op"] for r in results)},
        "paths": results,
        # the headline numbers, as the earlier files had them
        "kernel_gpu_us": kernel_gpu,
        "direct_call_us": by_path["fos_cutedsl.quantize"]["wall_us"],
        "op_call_us": op_call,
        "op_overhead_us": op_call - kernel_gpu if kernel_gpu is not None else None,
    }
    met = "met" if op_call <= TARGET_US else "NOT met"
    print(f"eager fos_op.quantize: {op_call:.2f} us per call (target <= {TARGET_US:g} us: {met})")
    for op, on in payload["paths_on"].items():
        if on != "kernel":
            print(f"  {op} runs the {on}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
