"""Demo: quantize a random tensor on the CPU in every mode and report quality.

Prints, per mode, the SQNR of the round trip and the share of 1x16 groups (or
16x16 tiles) that kept the map-to-4 candidate. ``python -m fos_reference.demo``.
"""

from __future__ import annotations

import argparse

import torch

from . import dequantize, nan_amax, quantize_with_choice


def sqnr_db(x: torch.Tensor, x_hat: torch.Tensor) -> float:
    """Signal-to-quantization-noise ratio in dB, computed in float64."""
    x, x_hat = x.double(), x_hat.double()
    return float(10 * torch.log10(x.pow(2).sum() / (x - x_hat).pow(2).sum()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=512)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(args.rows, args.cols, generator=gen).to(torch.bfloat16)
    print(f"x: {args.rows}x{args.cols} bfloat16, N(0, 1), seed {args.seed}")
    print(f"{'block':>6} {'amax':>6} {'err':>4} {'bound':>5} {'SQNR dB':>8} {'map-to-4':>9}")
    for block in ("1x16", "16x16"):
        for row_scaled in (False, True) if block == "1x16" else (False,):
            gamax = nan_amax(x, dim=1) if row_scaled else nan_amax(x)
            for err_mode in ("mae", "mse"):
                for bound in (256, 448):
                    codes, scales, pick4 = quantize_with_choice(
                        x, gamax, block=block, err_mode=err_mode, e4m3_scale_bound=bound
                    )
                    x_hat = dequantize(
                        codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=torch.float32
                    )
                    if block == "16x16":
                        pick4 = pick4[::16]  # one choice per tile
                    share = pick4.float().mean().item()
                    amax_kind = "row" if row_scaled else "tensor"
                    print(
                        f"{block:>6} {amax_kind:>6} {err_mode:>4} {bound:>5} "
                        f"{sqnr_db(x.float(), x_hat):8.2f} {share:9.1%}"
                    )


if __name__ == "__main__":
    main()
