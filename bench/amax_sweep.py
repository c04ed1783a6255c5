"""How the global amax moves the per-tensor kernels' time, on the same data.

    python bench/amax_sweep.py [--out DIR]

The fast path's approximate errors leave a group's choice open (undecided: SPEC's
errors computed inline, or the exact path) for a share of groups that depends on the
global amax through the scales: 0.04-0.3% of random normals as the amax moves by one
bf16 step. So a kernel's time on fresh data moves with that data's amax. For each op
(``fos_op``, strict: the kernel path) and shape, bf16 normals, this times the call under
the data's own amax and under each of ``AMAX_SWEEP`` (bf16 values above any normal's
magnitude here), CUDA-graph replays with the L2 flushed (``bench.replay_us``), beside the
share of undecided 1x16 groups of a slice of the data by the CPU model of the choice
(``fast_model.bounded_choice``, run on the GPU). The bits of each op under a swept amax
are checked against ``fos_reference`` on a smaller tensor first. Writes
``amax_sweep.json`` to ``--out`` (default ``$OUT``).
"""

from __future__ import annotations

import argparse
import os

import fast_model
import torch

import fos_op
import fos_reference
from bench import copy_tbps, replay_us, write_sweep

SHAPES = ((32768, 7168), (8192, 4096), (32768, 2048))
AMAX_SWEEP = (7.5, 6.78125, 6.75, 7.03125)
# (label, bytes per element, call(x, amax), reference(x, amax)); bf16 in
OPS = (
    ("quantize 1x16", 2.5625,
     lambda x, g: fos_op.quantize(x, g, strict=True),
     lambda x, g: fos_reference.quantize(x, g)),
    ("quantize 1x16 mse", 2.5625,
     lambda x, g: fos_op.quantize(x, g, err_mode="mse", strict=True),
     lambda x, g: fos_reference.quantize(x, g, err_mode="mse")),
    ("quantize 16x16", 2.5625,
     lambda x, g: fos_op.quantize(x, g, block="16x16", strict=True),
     lambda x, g: fos_reference.quantize(x, g, block="16x16")),
    ("fake_quantize 1x16", 4.0,
     lambda x, g: (fos_op.fake_quantize(x, g, strict=True),),
     lambda x, g: (fos_reference.fake_quantize(x, g),)),
    ("quantize_rowwise_columnwise", 3.125,
     lambda x, g: fos_op.quantize_rowwise_columnwise(x, g, strict=True)[:4],
     lambda x, g: (*fos_reference.quantize(x, g), *fos_reference.quantize_columnwise(x, g))),
)  # fmt: skip
CHECK_SHAPE = (1040, 2064)


def as_bytes(t: torch.Tensor) -> torch.Tensor:
    return t.contiguous().view(torch.uint8).reshape(-1)


def bits_match(call, reference, x: torch.Tensor, g: torch.Tensor) -> bool:
    got, want = call(x, g), reference(x, g)
    return all(torch.equal(as_bytes(a), as_bytes(b)) for a, b in zip(got, want, strict=True))


def undecided_pct(x: torch.Tensor, amax: float) -> float:
    """Percent of 1x16 mae groups of ``x`` the bound leaves open (``fast_model``)."""
    _, decided = fast_model.bounded_choice(x, amax, 1536.0, "mae", "1x16")
    return 100.0 * (1.0 - decided.float().mean().item())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(11)
    check = torch.randn(CHECK_SHAPE, device="cuda", generator=gen).to(torch.bfloat16)
    for label, _, call, reference in OPS:
        for amax in AMAX_SWEEP:
            g = torch.full((), amax, device="cuda")
            ok = bits_match(call, reference, check, g)
            print(f"{label:28s} amax {amax}: exact={ok}", flush=True)
            if not ok:
                return 1
    roof = copy_tbps("cuda")
    print(f"copy roofline {roof:.3f} TB/s", flush=True)
    records = []
    for rows, cols in SHAPES:
        x = torch.randn(rows, cols, device="cuda", generator=gen).to(torch.bfloat16)
        own = fos_reference.nan_amax(x)
        amaxes = [("data", own), *((a, torch.full((), a, device="cuda")) for a in AMAX_SWEEP)]
        for name, g in amaxes:
            pct = undecided_pct(x[:1024], float(g))
            for label, per_element, call, _ in OPS:
                us = replay_us(lambda call=call, x=x, g=g: call(x, g))
                share = 100 * rows * cols * per_element / (us * 1e-6) / (roof * 1e12)
                records.append({"shape": [rows, cols], "op": label, "amax": float(g),
                                "amax_from": name, "undecided_pct": pct, "us": us,
                                "pct_of_copy": share})  # fmt: skip
                print(f"{rows}x{cols} amax {float(g):8.5f} ({pct:.3f}% undecided) "
                      f"{label:28s} {us:8.1f} us {share:5.1f}%", flush=True)  # fmt: skip
    write_sweep(args.out, "amax_sweep.json", roof, records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
