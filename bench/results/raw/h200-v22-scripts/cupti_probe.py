"""v22 probe: kernel durations from the profiler's CUDA activity records (CUPTI) beside
the benchmark's event timing, for the 1x16 quantize at 8192 x 4096 and the copy roofline."""

import statistics

import torch
from torch.profiler import ProfilerActivity, profile

import fos_reference
from bench import Flush, copy_tbps, replay_us, set_flush

set_flush("clean")
x = torch.randn(8192, 4096, device="cuda").to(torch.bfloat16)
amax = fos_reference.nan_amax(x)
import fos_op  # noqa: E402

fos_op.quantize(x, amax, strict=True)
n = (2 << 30) // 4
src = torch.randn(n, device="cuda")
dst = torch.empty_like(src)
flush = Flush("cuda", "clean")
for label, fn in (("quantize 8192x4096", lambda: fos_op.quantize(x, amax, strict=True)),
                  ("copy 2 GiB", lambda: dst.copy_(src))):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(30):
            flush()
            fn()
        torch.cuda.synchronize()
    durs = {}
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            durs.setdefault(e.name[:60], []).append(e.time_range.elapsed_us())
    for name, d in durs.items():
        print(f"{label}: {name:60s} n={len(d)} median {statistics.median(d):8.2f} us")
roof = copy_tbps("cuda")
print(f"copy roofline (events) {roof:.3f} TB/s")
print(f"quantize replay_us (events) {replay_us(lambda: fos_op.quantize(x, amax, strict=True)):.2f} us")
