"""GPU host: where the warm cold-start and the eager per-call time go (cProfile)."""
import cProfile, io, pstats, subprocess, sys, time, os

CHILD = r'''
import time, torch, cProfile, pstats, io
torch.cuda.init(); torch.empty(1, device="cuda")
x = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
a = x.abs().amax().float().reshape(1)
pr = cProfile.Profile(); t0 = time.perf_counter(); pr.enable()
import fos_op
c, s = fos_op.quantize(x, a); torch.cuda.synchronize()
pr.disable(); print("first result s", time.perf_counter() - t0)
st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats("cumtime").print_stats(45); print(st.getvalue()[:9000])
'''
env = dict(os.environ)
for i in range(2):  # first fills the disk cache, second is warm
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True)
    print(f"=== child {i} rc={r.returncode}"); print(r.stdout[-9000:] if i else r.stdout[:300]); print(r.stderr[-2000:])

import torch, fos_op, fos_cutedsl
x = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
a = x.abs().amax().float().reshape(1)
for _ in range(100): fos_op.quantize(x, a)
torch.cuda.synchronize()
def loop(fn, n=3000):
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): fn()
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n * 1e6
fn = fos_cutedsl.quantize_launcher(x, a, "1x16", "mae", 256)
codes = torch.empty(128, 128, dtype=torch.uint8, device="cuda"); sc = torch.empty(128, 16, dtype=torch.uint8, device="cuda")
print("op eager us", loop(lambda: fos_op.quantize(x, a)))
print("compiled fn us", loop(lambda: fn(x, a, codes, sc)))
print("empty pair us", loop(lambda: (torch.empty(128, 128, dtype=torch.uint8, device="cuda"), torch.empty(128, 16, dtype=torch.float8_e4m3fn, device="cuda"))))
print("fake_quantize eager us", loop(lambda: fos_op.fake_quantize(x, a)))
print("nan_amax eager us", loop(lambda: fos_op.nan_amax(x)))
pr = cProfile.Profile(); pr.enable()
for _ in range(3000): fos_op.quantize(x, a)
torch.cuda.synchronize(); pr.disable()
st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats("tottime").print_stats(30); print(st.getvalue()[:7000])
