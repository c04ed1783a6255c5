"""v23 call 1 (as run, it stopped at the tvm_ffi.Function.__call__ probe; fixed since): host-cost probes for the eager quantize path (issue 24).

Which per-call pieces can go: a 0-d amax passed to a kernel compiled for a rank-0
tensor (no view per call), empty_like of an expanded 1-byte template against
empty_strided, the freshly compiled function's Python __call__ against
tvm_ffi.Function.__call__ and a disk-loaded function, and the current device.
"""
import json, os, sys, time
import torch
import cutlass, cutlass.cute as cute
from cutlass import Float32
import tvm_ffi

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ))
from overhead import wall_us  # bench/ on PYTHONPATH

import fos_cutedsl, fos_reference
from fos_cutedsl import api as capi


@cute.kernel
def _k(a: cute.Tensor, o: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    if tidx == 0:
        o[0] = a[0] * 2.0


def compile_trivial(rank0: bool):
    @cute.jit
    def run(a: cute.Tensor, o: cute.Tensor, stream):
        a1 = cute.make_tensor(a.iterator, cute.make_layout((1,), stride=(1,))) if cutlass.const_expr(rank0) else a
        _k(a1, o).launch(grid=(1, 1, 1), block=(32, 1, 1), stream=stream)
    fake = cute.runtime.make_fake_compact_tensor
    a = fake(Float32, () if rank0 else (1,), assumed_align=4)
    o = fake(Float32, (1,), assumed_align=4)
    s = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    return cute.compile(run, a, o, s, options="--enable-tvm-ffi")


def main():
    out = {}
    dev = torch.device("cuda")
    calls, best_of = 2000, 3

    def t(name, fn):
        best = min(wall_us(fn, calls, 2) for _ in range(best_of))
        out[name] = best
        print(f"{name:60s} {best:7.2f} us", flush=True)

    # 1. rank-0 amax
    try:
        f0, f1 = compile_trivial(True), compile_trivial(False)
        f0 = getattr(f0, "_tvm_ffi_function", f0); f1 = getattr(f1, "_tvm_ffi_function", f1)
        a0 = torch.tensor(3.0, device=dev); a1 = a0.view(1); o = torch.zeros(1, device=dev)
        f0(a0, o); torch.cuda.synchronize(); out["rank0 result"] = o.item()
        o.zero_(); f1(a1, o); torch.cuda.synchronize(); out["rank1 result"] = o.item()
        print("rank0/rank1 results", out["rank0 result"], out["rank1 result"], type(f0))
        t("trivial rank-0 call, 0-d amax", lambda: f0(a0, o))
        t("trivial rank-1 call, (1,) amax", lambda: f1(a1, o))
        t("trivial rank-1 call, 0-d amax viewed", lambda: f1(a0.view(1), o))
        try:
            f1(a0, o); out["rank1 given 0-d"] = "accepted"
        except Exception as e:
            out["rank1 given 0-d"] = f"{type(e).__name__}: {e}"[:300]
        try:
            f0(a1, o); out["rank0 given (1,)"] = "accepted"
        except Exception as e:
            out["rank0 given (1,)"] = f"{type(e).__name__}: {e}"[:300]
        print(out["rank1 given 0-d"], "|", out["rank0 given (1,)"])
    except Exception as e:
        out["rank0 error"] = f"{type(e).__name__}: {e}"[:2000]
        print("rank0 error", out["rank0 error"])

    # 2. allocation
    rows, cols = 128, 256
    u8, f8 = torch.uint8, torch.float8_e4m3fn
    cs, ss = (rows, cols // 2), (rows, cols // 16)
    tc = torch.empty((), dtype=u8, device=dev).expand(cs)
    ts = torch.empty((), dtype=f8, device=dev).expand(ss)
    e = torch.empty_strided
    t("empty_strided pair", lambda: (e(cs, (cols // 2, 1), dtype=u8, device=dev), e(ss, (cols // 16, 1), dtype=f8, device=dev)))
    t("empty_like pair (expanded templates)", lambda: (torch.empty_like(tc), torch.empty_like(ts)))
    cf = torch.contiguous_format
    t("empty_like pair, contiguous_format", lambda: (torch.empty_like(tc, memory_format=cf), torch.empty_like(ts, memory_format=cf)))
    t("torch.empty pair", lambda: (torch.empty(cs, dtype=u8, device=dev), torch.empty(ss, dtype=f8, device=dev)))
    print("empty_like strides", torch.empty_like(tc).stride(), torch.empty_like(ts).stride())

    # 3. the compiled call: fresh wrapper, its C-level call, disk-loaded
    x = torch.randn(rows, cols, device=dev).to(torch.bfloat16)
    g = fos_reference.nan_amax(x); g1 = g  # 0-d: the 0.6 kernels (call 1 ran a (1,) view on 0.5)
    codes = torch.empty(cs, dtype=u8, device=dev); scales = torch.empty(ss, dtype=f8, device=dev)
    key = capi._quantize_key(x, "1x16", "mae", 256, False)
    fresh = capi.CACHE._compile(*key)
    out["fresh type"] = type(fresh).__name__
    t("fresh compiled, its __call__", lambda: fresh(x, g1, codes, scales))
    inner = getattr(fresh, "_tvm_ffi_function", None)  # call 1 crashed on the lines before
    if inner is not None:
        t("fresh compiled, its tvm_ffi.Function", lambda: inner(x, g1, codes, scales))
    got = capi.CACHE.get(key)
    loaded = capi.CACHE.disk.load(key) if capi.CACHE.disk is not None else None
    out["cache.get type"] = type(got).__name__
    out["disk.load type"] = type(loaded).__name__
    print("types", out["fresh type"], out["cache.get type"], out["disk.load type"])
    if loaded is not None:
        t("disk-loaded function", lambda: loaded(x, g1, codes, scales))
    # 4. small pieces
    t("torch.cuda.current_device()", torch.cuda.current_device)
    t("torch._C._cuda_getDevice()", torch._C._cuda_getDevice)
    t("g.view(1)", lambda: g.view(1))
    t("x.device", lambda: x.device)
    t("key tuple (x, g metadata)", lambda: (x.shape, x.stride(), x.dtype, x.device, g.shape, g.stride(), g.dtype, g.device))
    t("torch.compiler.is_compiling()", torch.compiler.is_compiling)
    path = os.path.join(os.environ.get("OUT", "."), "probe.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
