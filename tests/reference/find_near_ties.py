"""Search for inputs that tell SPEC's exact arithmetic from implementation shortcuts.

Not a test module: run it by hand to regenerate ``near_tie_cases.py``::

    cd /work/main && python -m tests.reference.find_near_ties [--budget SECONDS]

For every mutation of ``oracle.MUTATIONS`` (and a few knob combinations) it
draws random groups (1x16) or tiles (16x16) from a fixed seed, then moves one
fine "knob" (the global amax, or one float32 element) across a place where an
objective changes sign -- ``err4 - err6`` for the error-arithmetic shortcuts,
``base`` minus an E4M3 midpoint for the scale shortcuts, ``q`` minus an E2M1
midpoint for the encode-factor shortcuts -- bisects to the crossing on the
float32 bit pattern and scans a window of neighbouring values until the
mutated oracle's output (scale byte and codes) differs from the exact one.
The first such input is written out as hex bit patterns.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from . import oracle as O

GROUP_MUTATIONS = [m for m in O.MUTATIONS if not m.startswith("fold_")]
TILE_MUTATIONS = ["fold_sequential", "fold_adjacent", "sum_reversed"]
_MIDPOINTS = np.array(
    [(O.e4m3_value(b) + O.e4m3_value(b + 1)) / 2 for b in range(0x7E)], dtype=np.float64
)


def _objective_kind(mut: str) -> str:
    if mut in ("base_other_assoc", "base_recip6", "c4_from_a", "s_recip"):
        return "base"
    if mut in ("inv_s_over_f", "inv_recip_recip", "q_div"):
        return "q"
    return "err"


def _round_dtype(v: np.ndarray, dtype: str) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if dtype == "float32":
        return v
    return (O.bf16_bits_rne(v).astype(np.uint32) << 16).view(np.float32)


def _run(case, mut=None):
    rows, gamax, bound, err_mode = case["x"], case["gamax"], case["bound"], case["err_mode"]
    if case["block"] == "1x16":
        return O.quantize_group(rows[0], gamax, bound, err_mode, mut)
    return O.quantize_tile(rows, gamax, bound, err_mode, mut)


def _output(res):
    return res.byte, str(res.codes)


class _Knob:
    """One positive float32 that the search moves: the global amax or |x[r][j]|."""

    def __init__(self, case, where):
        self.case, self.where = case, where
        if where == "gamax":
            self.sign, self.start = 1.0, float(case["gamax"])
        else:
            r, j = where
            v = float(case["x"][r][j])
            self.sign, self.start = np.sign(v) or 1.0, abs(v)

    def set_bits(self, bits: int) -> None:
        v = O.f32_from_bits(bits)
        if self.where == "gamax":
            self.case["gamax"] = v
        else:
            r, j = self.where
            self.case["x"][r][j] = np.float32(self.sign * v)


def _objective(case, kind, target):
    """Signed distance used to locate a crossing (float64)."""
    if kind == "err":
        res = _run(case)
        return float(res.err4) - float(res.err6)
    gamax = np.float32(case["gamax"])
    s, s_dec = O.global_scale(gamax, case["bound"])
    a = O.ZERO
    for r in case["x"]:
        a = O.fmax(a, O.block_amax(r))
    with np.errstate(all="ignore"):
        base = (a / O.SIX) * s
        if kind == "base":
            which, mid = target
            c = base * O.ONE_HALF if which == 4 else base
            return float(c) - mid
        (which, r, j, t) = target
        _, f = O.candidate_scale(a, s, which == 4)
        inv = O.encode_factor(f, s, s_dec)
        return abs(float(case["x"][r][j] * inv)) - t


def _pick_target(case, kind, rng):
    if kind == "err":
        return None
    gamax = np.float32(case["gamax"])
    s, s_dec = O.global_scale(gamax, case["bound"])
    a = O.ZERO
    for r in case["x"]:
        a = O.fmax(a, O.block_amax(r))
    base = (a / O.SIX) * s
    which = int(rng.choice([4, 6]))
    if kind == "base":
        c = float(base * O.ONE_HALF) if which == 4 else float(base)
        mid = _MIDPOINTS[np.argmin(np.abs(_MIDPOINTS - c))]
        return which, float(mid)
    _, f = O.candidate_scale(a, s, which == 4)
    inv = O.encode_factor(f, s, s_dec)
    r = int(rng.integers(len(case["x"])))
    j = int(rng.integers(16))
    q = abs(float(case["x"][r][j] * inv))
    t = min(O.E2M1_TIES, key=lambda tt: abs(tt - q))
    return which, r, j, t


def _random_case(rng, block, err_mode, bound, dtype):
    nrows = 1 if block == "1x16" else 16
    scale = float(2.0 ** rng.uniform(-6, 6))
    x = _round_dtype(rng.standard_normal((nrows, 16)) * scale, dtype)
    amax = float(np.max(np.abs(x)))
    gamax = np.float32(amax * float(2.0 ** rng.uniform(0, 5)))
    return {
        "block": block,
        "err_mode": err_mode,
        "bound": bound,
        "dtype": dtype,
        "gamax": gamax,
        "x": [[np.float32(v) for v in row] for row in x],
    }


def _attempt(case, mut, rng, window):
    kind = _objective_kind(mut)
    target = _pick_target(case, kind, rng)
    flat = np.abs(np.array(case["x"], dtype=np.float64))
    amax_pos = tuple(int(i) for i in np.unravel_index(np.argmax(flat), flat.shape))
    where = "gamax"
    if case["dtype"] == "float32" and kind != "base" and rng.random() < 0.5:
        if kind == "q":
            cand = (target[1], target[2])
        else:
            cand = (int(rng.integers(flat.shape[0])), int(rng.integers(16)))
        if cand != amax_pos and flat[cand] > 0:
            where = cand
    knob = _Knob(case, where)
    start_bits = O.f32_bits(knob.start)
    if where != "gamax":
        a = float(max(abs(float(v)) for row in case["x"] for v in row))
        lo_v, hi_v = knob.start * 0.8, min(knob.start * 1.25, a * 0.999)
    else:
        lo_v, hi_v = knob.start * 0.8, knob.start * 1.25
    pts = np.unique(np.linspace(O.f32_bits(lo_v), O.f32_bits(hi_v), 12).astype(np.int64))
    vals = []
    for b in pts:
        knob.set_bits(int(b))
        vals.append(_objective(case, kind, target))
    for i in range(len(pts) - 1):
        if np.sign(vals[i]) == np.sign(vals[i + 1]):
            continue
        lo, hi = int(pts[i]), int(pts[i + 1])
        slo = np.sign(vals[i])
        while hi - lo > 1:
            mid = (lo + hi) // 2
            knob.set_bits(mid)
            if np.sign(_objective(case, kind, target)) == slo:
                lo = mid
            else:
                hi = mid
        for off in sorted(range(-window, window + 1), key=abs):
            knob.set_bits(lo + off)
            if _output(_run(case)) != _output(_run(case, mut)):
                return True
    knob.set_bits(start_bits)
    return False


def search(mut, block, err_mode, bound, dtype, seed, budget_s, window=48):
    rng = np.random.default_rng(seed)
    t0 = time.time()
    tries = 0
    while time.time() - t0 < budget_s:
        tries += 1
        case = _random_case(rng, block, err_mode, bound, dtype)
        if _attempt(case, mut, rng, window):
            case["mutation"] = mut
            case["tries"] = tries
            case["seconds"] = round(time.time() - t0, 1)
            return case
    return None


def _hex_block(values, indent):
    words = [f"{O.f32_bits(v):08x}" for v in values]
    lines, line = [], []
    for w in words:
        line.append(w)
        if len(line) == 8:
            lines.append(" ".join(line))
            line = []
    if line:
        lines.append(" ".join(line))
    pad = " " * indent
    return "\n".join(f'{pad}"{ln} "' for ln in lines)


def render(cases) -> str:
    out = [
        '"""Near-tie inputs found by ``find_near_ties.py`` (generated: do not edit by hand).',
        "",
        "Each case is one 1x16 group (``x`` has 16 values) or one 16x16 tile (256",
        "values, row-major) with its global amax, all as float32 hex bit patterns",
        "(exactly representable in ``dtype``). On each, the exact oracle and the",
        "oracle mutated by ``mutation`` store different bits, so an implementation",
        "taking that shortcut fails the test that uses the case. ``scale``/``pick4``",
        "are the exact oracle's stored scale byte and choice, ``mutated_*`` the",
        "mutated oracle's (recorded when the case was found).",
        '"""',
        "",
        "CASES = [",
    ]
    for c in cases:
        flat = [v for row in c["x"] for v in row]
        exact, mutated = _run(c), _run(c, c["mutation"])
        out += [
            "    {",
            f'        "mutation": "{c["mutation"]}",',
            f'        "block": "{c["block"]}",',
            f'        "err_mode": "{c["err_mode"]}",',
            f'        "bound": {c["bound"]},',
            f'        "dtype": "{c["dtype"]}",',
            f'        "gamax": 0x{O.f32_bits(c["gamax"]):08X},',
            f'        "scale": 0x{exact.byte:02X},',
            f'        "pick4": {exact.pick4},',
            f'        "mutated_scale": 0x{mutated.byte:02X},',
            f'        "mutated_pick4": {mutated.pick4},',
            '        "x": (',
            _hex_block(flat, 12),
            "        ),",
            "    },",
        ]
    out.append("]")
    return "\n".join(out) + "\n"


def plan():
    jobs = []
    for mut in GROUP_MUTATIONS:
        modes = ["mse"] if mut == "fma_mse" else ["mae", "mse"]
        for i, em in enumerate(modes):
            for dtype in ("float32", "bfloat16"):
                bound = 256 if (i + (dtype == "bfloat16")) % 2 == 0 else 448
                jobs.append((mut, "1x16", em, bound, dtype))
    for mut in TILE_MUTATIONS:
        for em in ("mae", "mse"):
            for dtype in ("float32", "bfloat16"):
                bound = 256 if dtype == "float32" else 448
                jobs.append((mut, "16x16", em, bound, dtype))
    return jobs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per case")
    ap.add_argument("--only", default=None, help="only this mutation")
    ap.add_argument("--out", default=str(Path(__file__).with_name("near_tie_cases.py")))
    args = ap.parse_args()
    found = []
    for k, (mut, block, em, bound, dtype) in enumerate(plan()):
        if args.only and mut != args.only:
            continue
        case = search(mut, block, em, bound, dtype, seed=1000 + k, budget_s=args.budget)
        tag = f"{mut} {block} {em} {bound} {dtype}"
        if case is None:
            print(f"NOT FOUND  {tag}", flush=True)
            continue
        print(f"found      {tag}: {case['tries']} tries, {case['seconds']} s", flush=True)
        found.append(case)
    Path(args.out).write_text(render(found))
    print(f"wrote {len(found)} cases to {args.out}")


if __name__ == "__main__":
    main()
