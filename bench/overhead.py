"""Host overhead of one eager ``fos_op.quantize`` call on a small input.

Times, for a 128x256 bfloat16 input: the kernel alone on the GPU (CUDA graph
replay, so no host work is counted), a host-bound loop of direct
``fos_cutedsl.quantize`` calls, and a host-bound loop of ``fos_op.quantize``
calls (the op layer: validation, dispatch, custom-op plumbing, allocation).
Overhead = per-call wall time minus the kernel's GPU time.

    python bench/overhead.py [--rows 128 --cols 256 --calls 2000]
"""

from __future__ import annotations

import argparse
import json
import time

import torch

import fos_cutedsl
import fos_op
import fos_reference


def wall_us(fn, calls: int) -> float:
    """Per-call wall time of ``calls`` back-to-back calls, synchronized once at the end."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def graph_us(fn, replays: int = 200) -> float:
    """GPU time per call from replaying ``replays`` calls captured in one CUDA graph."""
    fn()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        fn()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            for _ in range(replays):
                fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    graph.replay()
    start.record()
    graph.replay()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1e3 / replays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=128)
    parser.add_argument("--cols", type=int, default=256)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--out", help="write the numbers as JSON here")
    args = parser.parse_args()
    x = torch.randn(args.rows, args.cols, device="cuda").to(torch.bfloat16)
    gamax = fos_reference.nan_amax(x)
    direct = lambda: fos_cutedsl.quantize(x, gamax)  # noqa: E731
    through_op = lambda: fos_op.quantize(x, gamax)  # noqa: E731
    try:
        kernel = graph_us(direct)
    except RuntimeError as exc:  # a launch path that cannot be captured
        print(f"graph capture failed ({exc}); kernel time from events instead")
        kernel = float("nan")
    result = {
        "shape": [args.rows, args.cols],
        "kernel_gpu_us": kernel,
        "direct_call_us": wall_us(direct, args.calls),
        "op_call_us": wall_us(through_op, args.calls),
    }
    result["op_overhead_us"] = result["op_call_us"] - kernel
    for key, value in result.items():
        print(f"{key:>16}: {value:.2f}" if isinstance(value, float) else f"{key:>16}: {value}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
