"""Verify ``fos_cutedsl.fake_quantize`` against ``fos_reference.fake_quantize`` on one GPU.

    python tests/cutedsl/gpu_verify_fake.py [--out PATH] [--stages ...]

Stages (all by default):

* ``fake``: every fake-quantize variant (3 input x 3 output dtypes x {1x16 per
  tensor, 1x16 row-scaled, 16x16} x 2 error modes x 2 bounds) x every input
  kind of ``cutedsl_cases`` x ``fake_cases.fake_shapes`` (NaN where the
  reference is NaN, bits elsewhere; outputs poisoned with a NaN sentinel).
* ``public``: ``fos_cutedsl.fake_quantize`` with its defaults (out_dtype None),
  a 0-d per-tensor amax, row-scaled, and an empty input.
* ``large``: a 16384 x 7168 bf16 input (several persistent sweeps), 1x16 and
  16x16, against the reference in row chunks.

Prints one line per stage and PASS/FAIL; writes a JSON summary to ``--out``
(default ``$OUT/gpu_verify_fake.json`` or the current directory). Exits 1 on
any mismatch.
"""

from __future__ import annotations

import torch
from fake_cases import NAMES, OUT_DTYPES, check_variant, fake_variants, mismatch, poisoned
from verify_stages import main as run_stages

import fos_cutedsl
import fos_reference


def stage_fake(failures: list[str]) -> int:
    cases = 0
    for variant, out_dtype in fake_variants():
        failures += check_variant(variant, out_dtype)
        cases += 1
    return cases


def stage_public(failures: list[str]) -> int:
    gen = torch.Generator(device="cuda").manual_seed(5)
    x = torch.randn(96, 768, device="cuda", generator=gen).to(torch.bfloat16)
    cases = 0
    amaxes = {
        "1-d": fos_reference.nan_amax(x).reshape(1),
        "0-d": fos_reference.nan_amax(x),
        "row": fos_reference.nan_amax(x, dim=1),
    }
    for block in ("1x16", "16x16"):
        for name, gamax in amaxes.items():
            if block == "16x16" and name == "row":
                continue
            for out_dtype in (None, *OUT_DTYPES):
                knobs = {"block": block, "out_dtype": out_dtype}
                got = fos_cutedsl.fake_quantize(x, gamax, **knobs)
                bad = mismatch(got, fos_reference.fake_quantize(x, gamax, **knobs))
                cases += 1
                if bad:
                    failures.append(f"public {block} amax {name} out {out_dtype}: {bad}")
    empty = fos_cutedsl.fake_quantize(x[:0], amaxes["1-d"])
    cases += 1
    if empty.shape != (0, 768):
        failures.append(f"public empty input: shape {tuple(empty.shape)}")
    return cases


def stage_large(failures: list[str]) -> int:
    rows, cols = 16384, 7168
    gen = torch.Generator(device="cuda").manual_seed(13)
    x = torch.randn(rows, cols, device="cuda", generator=gen).to(torch.bfloat16)
    x[rows // 3, 5] = float("nan")
    x[-1, -1] = -3e4
    gamax = fos_reference.nan_amax(x).reshape(1)
    cases = 0
    for block in ("1x16", "16x16"):
        for out_dtype in (torch.bfloat16, torch.float32):
            out = poisoned((rows, cols), out_dtype, "cuda")
            fos_cutedsl.launch_fake_quantize(x, gamax, out, block, "mae", 256)
            cases += 1
            for r in range(0, rows, 2048):
                s = slice(r, r + 2048)
                want = fos_reference.fake_quantize(x[s], gamax, block=block, out_dtype=out_dtype)
                bad = mismatch(out[s], want)
                if bad:
                    failures.append(f"large {block} -> {NAMES[out_dtype]} rows {r}..: {bad}")
                    break
    return cases


def main() -> int:
    stages = {
        "fake": lambda failures, _: stage_fake(failures),
        "public": lambda failures, _: stage_public(failures),
        "large": lambda failures, _: stage_large(failures),
    }
    return run_stages(__doc__.splitlines()[0], "gpu_verify_fake.json", stages)


if __name__ == "__main__":
    raise SystemExit(main())
