"""v36 (CPU): the share of 16x16 tiles (and 1x16 groups) whose fast choice the bound leaves
undecided, from tests/cutedsl/fast_model.bounded_choice, on normal bf16 data at 8192 x 4096
with the global amax scaled as gamax_study.py scales it on the H200 (call 6)."""

import sys

import fast_model as fm
import torch

FACTORS = (1.0, 1.0005, 1.002, 1.01, 1.03, 1.1, 1.3, 1.7, 2.5, 4.0)
gen = torch.Generator().manual_seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
x = torch.randn(8192, 4096, generator=gen).bfloat16().float()
amax = float(x.abs().max())
for factor in FACTORS:
    g = float(torch.tensor(amax * factor, dtype=torch.float32))
    out = []
    for block in ("16x16", "1x16"):
        pick4, decided = fm.bounded_choice(x, g, 1536.0, "mae", block, 8)
        undecided = (~decided).float().mean().item()
        if block == "16x16":
            undecided = (~decided[::16]).float().mean().item()  # one row a tile
        out.append(f"{block} undecided {100 * undecided:.3f}%")
    print(f"factor {factor:7.4f} gamax {g:.5f}: " + ", ".join(out), flush=True)
