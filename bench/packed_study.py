"""CPU study: would a fast path in packed 16-bit arithmetic (two elements an instruction)
keep the quantize exact, and how many groups would it send to the exact branch?

    python bench/packed_study.py [--rows 4096] [--cols 4096] [--data normal outlier_channels]

The fast path today works in float32: per element and candidate ``m = RN(|x| inv)``, the
magic rounding ``r`` (exact E2M1 codes) and an approximate error ``|r - m|`` summed, whose
distance to SPEC's error is bounded so the choice is SPEC's wherever the two candidates'
errors differ by more than ``2^-16`` of their sum (``choice.choose_by_bound``). A packed
``f16x2`` path would round ``m`` to float16 first. This measures, on the CPU with torch's
IEEE float32 and float16 arithmetic:

* codes: the share of elements (and of groups) whose E2M1 code from ``RN16(m)``, rounded
  by the same magic in float16, differs from the exact one (a wrong code the path would
  have to detect);
* choice: the share of groups whose candidates' errors (SPEC's, in float64 from the exact
  codes) differ by less than ``2^-k`` of their sum, for the bound widths a float16 error
  sum would need, and the share of 32-group warps holding at least one such group.
"""

from __future__ import annotations

import argparse

import torch

import fos_reference
from bench import DATA

BOUND = 256
D = 6.0 * BOUND  # SPEC's D
GROUP = 16
WARP_GROUPS = 32  # a warp's lanes each take one group at a time


def e2m1_magic(m: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """SPEC's E2M1 rounding of 0 <= m < 7 by ``RN(m - C) + C``, ``C = max(m, 2) 2^p``,
    each operation rounded in ``dtype`` (p = 22 for float32, 9 for float16)."""
    p = 22 if dtype == torch.float32 else 9
    m = m.to(dtype)
    c = torch.clamp(m, min=2.0) * (2.0**p)  # exact: a power of two
    return ((m - c) + c).to(dtype)


def candidates(x: torch.Tensor, gamax: torch.Tensor):
    """Per group and candidate (4, 6): the float32 ``inv`` and the scale's value ``f``."""
    s = fos_reference.global_encode_scale(gamax, BOUND)
    s_dec = 1.0 / s
    a = x.abs().amax(dim=-1, keepdim=True)
    base = (a / 6.0) * s
    f6 = fos_reference.e4m3_saturate(torch.clamp(base, max=448.0)).float()
    f4 = fos_reference.e4m3_saturate(torch.clamp(base * 1.5, max=448.0)).float()
    fmax = torch.finfo(torch.float32).max
    inv4 = torch.clamp(1.0 / (f4 * s_dec), max=fmax)
    inv6 = torch.clamp(1.0 / (f6 * s_dec), max=fmax)
    return (inv4, f4), (inv6, f6)


def spec_error(x: torch.Tensor, r: torch.Tensor, f: torch.Tensor, gamax: torch.Tensor):
    """SPEC's dequantization error of a candidate, in float64 (its exact value, near enough
    for the share of near ties: float32 sums differ from it by far less than 2^-16)."""
    val = (r.double() * f.double()) * gamax.double() / D
    return (val - x.abs().double()).abs().sum(dim=-1)


def study(x: torch.Tensor) -> dict:
    xg = x.float().reshape(-1, GROUP)
    xg = xg[xg.abs().amax(dim=-1) > 0]
    gamax = fos_reference.nan_amax(x).float()
    out = {"groups": xg.shape[0]}
    errors = []
    wrong_elements = torch.zeros((), dtype=torch.long)
    wrong_groups = torch.zeros(xg.shape[0], dtype=torch.bool)
    for inv, f in candidates(xg, gamax):
        m = xg.abs() * inv
        r = e2m1_magic(m, torch.float32)
        r16 = e2m1_magic(m.half(), torch.float16).float()
        wrong = r16 != r
        wrong_elements += wrong.sum()
        wrong_groups |= wrong.any(dim=-1)
        errors.append(spec_error(xg, r, f, gamax))
    out["wrong_code_elements"] = wrong_elements.item() / (2 * xg.numel())
    out["wrong_code_groups"] = wrong_groups.float().mean().item()
    e4, e6 = errors
    gap = (e4 - e6).abs() / (e4 + e6)
    n = xg.shape[0] // WARP_GROUPS * WARP_GROUPS
    for k in (16, 12, 10, 9, 8, 7):
        near = gap[:n] < 2.0**-k
        out[f"near_tie_2^-{k}"] = near.float().mean().item()
        out[f"warps_with_one_2^-{k}"] = near.reshape(-1, WARP_GROUPS).any(-1).float().mean().item()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--data", nargs="+", default=["normal", "outlier_channels"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in args.data:
        gen = torch.Generator().manual_seed(args.seed)
        x = DATA[name](args.rows, args.cols, gen, "cpu").to(torch.bfloat16)
        res = study(x)
        print(f"{name} {args.rows}x{args.cols} bf16: {res['groups']} nonzero groups")
        print(f"  wrong code from RN16(m): {res['wrong_code_elements']:.3e} of elements,"
              f" {res['wrong_code_groups']:.3e} of groups")  # fmt: skip
        for k in (16, 12, 10, 9, 8, 7):
            print(f"  candidates' errors within 2^-{k} of their sum: "
                  f"{res[f'near_tie_2^-{k}']:.3e} of groups, "
                  f"{res[f'warps_with_one_2^-{k}']:.3e} of 32-group warps")  # fmt: skip


if __name__ == "__main__":
    main()
