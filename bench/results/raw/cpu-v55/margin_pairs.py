"""v55 (CPU only): the open mse groups and 16x16 tiles for other splits of the Cauchy-Schwarz
bound between mse's relative and absolute margins (``sqrt(n S) <= (a S + n / a) / 2``; 0.6.23
takes a = 4), bound 256, the data's amax, through ``fast_model.bounded_choice``.

    PYTHONPATH=tests/cutedsl python bench/results/raw/cpu-v55/margin_pairs.py
"""

import fast_model as fm
import test_fast_algebra as tfa
import torch

PAIRS = {  # label: (relative, absolute a group) margins
    "a=2 (2^-16,2^-14)": (2.0**-16, 2.0**-14),
    "a=4 now (2^-15,2^-15)": (2.0**-15, 2.0**-15),
    "a=8 (2^-14,2^-16)": (2.0**-14, 2.0**-16),
    "a=16 (2^-13,2^-17)": (2.0**-13, 2.0**-17),
}

torch.manual_seed(0)
data = {
    "normal": torch.randn(8192, 4096).bfloat16().float(),
    "outlier": tfa._outlier_channels(torch.Generator().manual_seed(5), 4096, 4096),
}
for name, x in data.items():
    gamax = float(x.abs().max())
    for block in ("1x16", "16x16"):
        for label, (relative, absolute) in PAIRS.items():
            fm.CHOICE_RELATIVE["mse"] = relative
            fm.CHOICE_ABSOLUTE["mse"] = absolute
            decided = fm.bounded_choice(x, gamax, 1536.0, "mse", block)[1]
            open_ = (~(decided[::16] if block == "16x16" else decided)).float()
            w = f" warp slots {open_.reshape(-1, 32).amax(1).mean():.2%}" if block == "1x16" else ""
            print(f"{name} {block} {label}: {open_.mean():.2e} ({int(open_.sum())}){w}", flush=True)
