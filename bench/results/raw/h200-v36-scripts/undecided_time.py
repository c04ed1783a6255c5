"""v36: the 16x16 kernel's time against its undecided tiles. x from the CPU generator
(seeded), so fast_model.bounded_choice (run on the CPU beside it) counts exactly the
tiles whose fast choice the bound leaves open for each amax; bf16 mae 8192 x 4096, the
amax scaled as in gamax_study.py; bits checked; bench.back_to_back_us."""

import json
import os

import fast_model as fm
import torch

import fos_reference
from bench import back_to_back_us
from fos_cutedsl.compile import compile_quantize

FACTORS = (1.0, 1.0005, 1.002, 1.01, 1.03, 1.1, 1.3, 1.7, 2.5, 4.0)
torch.set_num_threads(14)
fn = compile_quantize("bfloat16", "16x16", "mae", 256, False, "sm_90a")
rows_out = []
for seed in (0, 1):
    xc = torch.randn(8192, 4096, generator=torch.Generator().manual_seed(seed)).bfloat16()
    x = xc.cuda()
    codes = torch.empty(8192, 2048, dtype=torch.uint8, device="cuda")
    scales = torch.empty(8192, 256, dtype=torch.float8_e4m3fn, device="cuda")
    amax = fos_reference.nan_amax(x)
    for factor in FACTORS:
        gamax = amax * factor
        g = float(gamax)
        undecided = int((~fm.bounded_choice(xc.float(), g, 1536.0, "mae", "16x16", 8)[1][::16]).sum())
        want_c, want_s = fos_reference.quantize(x, gamax, block="16x16", err_mode="mae")
        codes.fill_(0xAB), scales.view(torch.uint8).fill_(0xAB)
        fn(x, gamax, codes, scales)
        exact = torch.equal(codes, want_c) and torch.equal(
            scales.view(torch.uint8), want_s.view(torch.uint8))
        us = [back_to_back_us(lambda g=gamax: fn(x, g, codes, scales)) for _ in range(2)]
        rows_out.append({"seed": seed, "factor": factor, "gamax": g, "undecided_tiles": undecided,
                         "exact": exact, "us_back_to_back": us})
        print(f"seed {seed} factor {factor:7.4f} gamax {g:.5f} undecided tiles {undecided:3d} "
              f"{'exact' if exact else 'DIFFERS'} {us[0]:.2f} {us[1]:.2f} us", flush=True)
json.dump(rows_out, open(os.path.join(os.environ.get("OUT", "."), "undecided.json"), "w"), indent=1)
