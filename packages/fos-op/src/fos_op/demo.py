"""Demo: four-over-six against standard NVFP4 through ``fos_op``, per mode.

For each mode prints the SQNR of 4/6 and of standard NVFP4 (SPEC's map-to-6
round-to-nearest, bound 448, same amax), the time per ``fos_op.fake_quantize``
call and, on a GPU, its share of the device-to-device copy roofline (a copy of
the same bytes timed in the same run). On a GPU the kernels run; on a CPU the
reference. ``python -m fos_op.demo``.
"""

from __future__ import annotations

import argparse
import time

import torch

import fos_reference

from . import dequantize, explain, fake_quantize, nan_amax


def sqnr_db(x: torch.Tensor, x_hat: torch.Tensor) -> float:
    """Signal-to-quantization-noise ratio in dB, computed in float64."""
    x, x_hat = x.double(), x_hat.double()
    return float(10 * torch.log10(x.pow(2).sum() / (x - x_hat).pow(2).sum()))


def _seconds(fn, device: torch.device, repeats: int) -> float:
    fn()
    if device.type == "cuda":
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3 / repeats
    begin = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - begin) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    cuda = torch.cuda.is_available()
    parser.add_argument("--rows", type=int, default=8192 if cuda else 256)
    parser.add_argument("--cols", type=int, default=4096 if cuda else 512)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=50 if cuda else 3)
    args = parser.parse_args()

    device = torch.device("cuda" if cuda else "cpu")
    gen = torch.Generator(device=device).manual_seed(args.seed)
    x = torch.randn(args.rows, args.cols, device=device, generator=gen).to(torch.bfloat16)
    moved = 2 * x.numel() * x.element_size()  # fake-quantize reads x and writes x_hat (bf16)
    copy_s = _seconds(lambda: x.clone(), device, args.repeats) if cuda else None
    print(f"x: {args.rows}x{args.cols} bfloat16 N(0, 1) on {device}, seed {args.seed}")
    print(f"path: {explain(x, nan_amax(x))}")
    if copy_s is not None:
        print(
            f"device-to-device copy of x: {copy_s * 1e6:.1f} us ({moved / copy_s / 1e9:.0f} GB/s)"
        )
    header = f"{'block':>6} {'amax':>6} {'err':>4} {'bound':>5} {'4/6 dB':>7} {'NVFP4 dB':>8}"
    print(header + f" {'us/call':>9}" + (f" {'% copy':>7}" if cuda else ""))
    xf = x.float()
    for block in ("1x16", "16x16"):
        for row_scaled in (False, True) if block == "1x16" else (False,):
            gamax = nan_amax(x, -1 if row_scaled else None)
            std = fos_reference.quantize_nvfp4(x, gamax, block=block)
            std_hat = dequantize(*std, gamax, e4m3_scale_bound=448, out_dtype=torch.float32)
            for err_mode in ("mae", "mse"):
                for bound in (256, 448):
                    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
                    x_hat = fake_quantize(x, gamax, out_dtype=torch.float32, **knobs)
                    secs = _seconds(lambda g=gamax, k=knobs: fake_quantize(x, g, **k), device,
                                    args.repeats)  # fmt: skip
                    line = (
                        f"{block:>6} {'row' if row_scaled else 'tensor':>6} {err_mode:>4} "
                        f"{bound:>5} {sqnr_db(xf, x_hat):7.2f} {sqnr_db(xf, std_hat):8.2f} "
                        f"{secs * 1e6:9.1f}"
                    )
                    if copy_s is not None:
                        line += f" {copy_s / secs:7.1%}"
                    print(line)


if __name__ == "__main__":
    main()
