"""Elementwise probe of the kernel's software E2M1 rounding.

The quantize kernel inlines ``e2m1.e2m1_round_sw``; this tiny kernel runs
the very same helper over a float32 vector and writes each code and its
value, so both can be compared against ``fos_reference.e2m1_encode`` and
``e2m1_decode`` on every input.
"""

from __future__ import annotations

import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8

from fos_cutedsl.e2m1 import e2m1_round_sw

THREADS = 256


class E2M1Probe:
    """``codes[i], values[i] = e2m1_round_sw(q[i])``."""

    @cute.jit
    def __call__(self, q: cute.Tensor, codes: cute.Tensor, values: cute.Tensor, stream: CUstream):
        n = Int64(q.shape[0])
        blocks = Int32((n + (THREADS - 1)) // THREADS)
        self.kernel(q, codes, values, n).launch(
            grid=[blocks, 1, 1], block=[THREADS, 1, 1], stream=stream
        )

    @cute.kernel
    def kernel(self, q: cute.Tensor, codes: cute.Tensor, values: cute.Tensor, n: Int64):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = Int64(bidx) * THREADS + Int64(tidx)
        if i < n:
            code, value = e2m1_round_sw(q[i])
            codes[i] = Uint8(code & 0xFF)
            values[i] = value


def compile_probe(arch: str):
    """Compile the probe: ``(q float32 (N,), codes uint8 (N,), values float32 (N,))``."""
    n = cute.sym_int64()
    fake = cute.runtime.make_fake_compact_tensor
    q = fake(Float32, (n,), assumed_align=4)
    codes = fake(Uint8, (n,), assumed_align=4)
    values = fake(Float32, (n,), assumed_align=4)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    return cute.compile(
        E2M1Probe(), q, codes, values, stream, options=f"--enable-tvm-ffi --gpu-arch {arch}"
    )
