"""v36 (CPU, not the device): undecided 16x16 tiles and 1x16 groups by data kind, from
tests/cutedsl/fast_model.bounded_choice at 4096 x 4096, bf16 values, per-tensor amax,
bound 256. Run from tests/cutedsl with fos_reference on PYTHONPATH."""
import sys, torch, fast_model as fm
gen = torch.Generator().manual_seed(3)
R, C = 4096, 4096
base = torch.randn(R, C, generator=gen)
kinds = {
    "normal": base,
    "student-t3": torch.distributions.StudentT(3.0).sample((R, C)),
    "outlier channels": base * torch.where(torch.rand(C, generator=gen) < 0.01, 50.0, 1.0),
    "lognormal scale": base * torch.exp(torch.randn(R, 1, generator=gen)),
}
for name, x in kinds.items():
    x = x.bfloat16().float()
    g = float(x.abs().max())
    row = []
    for err in ("mae", "mse"):
        for block in ("16x16", "1x16"):
            dec = fm.bounded_choice(x, g, 1536.0, err, block, 8)[1]
            if block == "16x16":
                dec = dec[::16]
            row.append(f"{block} {err} {int((~dec).sum())}/{dec.numel()}")
    print(name, "|", "; ".join(row), flush=True)
