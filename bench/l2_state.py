"""Time fos and an equal-byte copy with three L2 states before each run.

    python bench/l2_state.py

``dirty``: triton's flush (``zero_`` of 256 MB, so L2 holds dirty lines that
the timed kernel must write back); ``clean``: the same, then a read-only pass
over another 256 MB; ``none``: no flush. Shows whether the fixed cost of a
call (its time above linear scaling in size) is the flush's write-backs, and
what a copy of the same bytes reaches at that size. Median of CUDA-event
times, bf16 at 32768 x {2048, 7168}, every mode.
"""

from __future__ import annotations

import statistics

import torch

import fos_op
import fos_reference

FLUSH_BYTES = 256 << 20


def timed_us(fn, flush, reps: int = 60) -> float:
    for _ in range(5):
        flush()
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for start, end in zip(starts, ends, strict=True):
        flush()
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends, strict=True))


def main() -> None:
    cache = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    other = torch.zeros(FLUSH_BYTES, dtype=torch.int8, device="cuda")

    def clean() -> None:
        cache.zero_()
        other.sum(dtype=torch.int32)

    flushes = {"dirty": cache.zero_, "clean": clean, "none": lambda: None}
    big = torch.empty(1 << 30, dtype=torch.float32, device="cuda")
    big_out = torch.empty_like(big)
    for name, flush in flushes.items():
        us = timed_us(lambda: big_out.copy_(big), flush, 20)
        print(f"copy 4GiB {name}: {us:.1f} us {2 * big.nbytes / us / 1e6:.3f} TB/s", flush=True)
    for cols in (2048, 7168):
        for block, row_scaled in (("1x16", False), ("1x16", True), ("16x16", False)):
            rows = 32768
            x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
            gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
            nbytes = rows * cols * 2 + rows * cols // 2 + rows * cols // 16
            src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            knobs = {"block": block, "err_mode": "mae", "e4m3_scale_bound": 256}

            def quantize(x=x, gamax=gamax, knobs=knobs):
                return fos_op.quantize(x, gamax, **knobs)

            def copy_bytes(dst=dst, src=src):
                return dst.copy_(src)

            for name, flush in flushes.items():
                fos = timed_us(quantize, flush)
                copy = timed_us(copy_bytes, flush)
                print(
                    f"{rows}x{cols} {block} row={row_scaled} {name}: fos {fos:.1f} us "
                    f"({nbytes / fos / 1e6:.3f} TB/s)  equal-byte copy {copy:.1f} us "
                    f"({nbytes / copy / 1e6:.3f} TB/s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
