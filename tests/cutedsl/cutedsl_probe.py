"""Elementwise probes of the kernel's software E2M1 encoder and decoder.

The quantize kernel inlines ``pinned.e2m1_encode_sw`` / ``e2m1_decode_sw``;
these tiny kernels run the very same helpers over a float32 vector (codes
out) and over code bytes (values out), so each can be compared against
``fos_reference.e2m1_encode`` / ``e2m1_decode`` on every input.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cuda.bindings.driver import CUstream
from cutlass import Float32, Int32, Int64, Uint8

from fos_cutedsl import pinned as pin

THREADS = 256


class E2M1Probe:
    """``out[i] = e2m1_encode_sw(q[i])`` (encode) or ``e2m1_decode_sw(codes[i])`` (decode)."""

    def __init__(self, decode: bool):
        self.decode = decode

    @cute.jit
    def __call__(self, src: cute.Tensor, dst: cute.Tensor, stream: CUstream):
        n = Int64(src.shape[0])
        blocks = Int32((n + (THREADS - 1)) // THREADS)
        self.kernel(src, dst, n).launch(grid=[blocks, 1, 1], block=[THREADS, 1, 1], stream=stream)

    @cute.kernel
    def kernel(self, src: cute.Tensor, dst: cute.Tensor, n: Int64):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = Int64(bidx) * THREADS + Int64(tidx)
        if i < n:
            if cutlass.const_expr(self.decode):
                dst[i] = pin.e2m1_decode_sw(Int32(src[i]))
            else:
                dst[i] = Uint8(pin.e2m1_encode_sw(src[i]) & 0xFF)


def compile_probe(decode: bool, arch: str):
    """Compile the encode (float32 -> uint8) or decode (uint8 -> float32) probe."""
    n = cute.sym_int64()
    fake = cute.runtime.make_fake_compact_tensor
    src = fake(Uint8 if decode else Float32, (n,), assumed_align=4)
    dst = fake(Float32 if decode else Uint8, (n,), assumed_align=4)
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    return cute.compile(
        E2M1Probe(decode), src, dst, stream, options=f"--enable-tvm-ffi --gpu-arch {arch}"
    )
