"""v54 (CPU only): how many groups and 16x16 tiles ``choose_by_bound`` leaves open, with the
margins before 0.6.23 and with the tree's own (``fast_model``), on bf16 normals and on
outlier-channel data, bound 256, the data's amax.

    PYTHONPATH=tests/cutedsl python bench/results/raw/h200-v54-scripts/undecided_rates.py
"""

import fast_model as fm
import test_fast_algebra as tfa
import torch

OLD = ({"mae": 2.0**-16, "mse": 2.0**-16}, {"mae": 2.0**-13, "mse": 2.0**-12})
NEW = (dict(fm.CHOICE_RELATIVE), dict(fm.CHOICE_ABSOLUTE))

torch.manual_seed(0)
data = {
    "normal 8192x4096": torch.randn(8192, 4096).bfloat16().float(),
    "outlier channels 4096x4096": tfa._outlier_channels(
        torch.Generator().manual_seed(5), 4096, 4096
    ),
}
for name, x in data.items():
    gamax = float(x.abs().max())
    for mode in ("mae", "mse"):
        for block in ("1x16", "16x16"):
            line = []
            for label, (relative, absolute) in (("old", OLD), ("new", NEW)):
                fm.CHOICE_RELATIVE.update(relative)
                fm.CHOICE_ABSOLUTE.update(absolute)
                decided = fm.bounded_choice(x, gamax, 1536.0, mode, block)[1]
                open_ = (~(decided[::16] if block == "16x16" else decided)).float()
                warps = f", 32-group warp slots {open_.reshape(-1, 32).amax(1).mean():.2%}"
                line.append(
                    f"{label} {open_.mean():.2e} ({int(open_.sum())}"
                    f"{warps if block == '1x16' else ''})"
                )
            print(name, mode, block, " | ".join(line))
