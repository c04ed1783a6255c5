"""v40: what makes one undecided 16x16 tile late, and which change shortens it.

undecided_position.py's x0 and placements (bf16 mae 8192 x 4096, x0's gamax), on the
persistent 16x16 kernel with the rare-path knobs of ``QuantizeConfig``: the default
(the unit reloaded from global memory, the next item's loads issued again after the
branch), ``rare_shared`` (the words kept in shared memory), ``rare_keeps_next`` (the next
item's loads kept in registers), both, ``rare_warm`` (the undecided branch run once a CTA
at the start, for the instruction caches), and all three. Each placement's bits are
checked on every kernel, then each kernel is timed back to back, 3 times, the kernels in
order and reversed.

    python rare_latency.py            (on the GPU host)
    python rare_latency.py --compile  (compile every kernel for sm_90a here, no GPU)
    python rare_latency.py --warm     (v40 call 3: rare_warm's variants)
    python rare_latency.py --rolled   (v40 call 4: the undecided branch in run-time loops)
    python rare_latency.py --default  (the default kernel alone: v41)

The knobs of the first three were removed in 30b9bac (their code is in ff1d5ff); only
``--default`` runs on later trees.
"""

import json
import os
import sys

import torch
import undecided_position as up

import fos_reference
from fos_cutedsl.compile import compile_quantize

KNOBS = {
    "default": {},
    "shared": {"rare_shared": True},
    "keeps_next": {"rare_keeps_next": True},
    "shared+keeps_next": {"rare_shared": True, "rare_keeps_next": True},
    "warm": {"rare_warm": "first"},
    "all three": {"rare_shared": True, "rare_keeps_next": True, "rare_warm": "first"},
}
if "--default" in sys.argv:
    KNOBS = {"default": {}}
elif "--rolled" in sys.argv:  # call 4: the undecided branch in run-time loops (default)
    KNOBS = {"default": {}, "warm second": {"rare_warm": "second"}}
elif "--warm" in sys.argv:  # call 3: where the warm-up's cost comes from
    KNOBS = {
        "default": {},
        "warm first": {"rare_warm": "first"},
        "warm never": {"rare_warm": "never"},
        "warm second": {"rare_warm": "second"},
        "warm carried": {"rare_warm": "carried"},
    }
PLACEMENTS = (
    "none",
    "item 0 (first)",
    "item 5472 (middle)",
    "item 10943 (last)",
    "items 10936-10943 (8 CTAs' last)",
    "12 spread evenly",
    "item 10943 (last), NaN",
)


def check_and_time(kernels: dict, label: str, xd: torch.Tensor, gamax: torch.Tensor) -> dict:
    """Every kernel's bits on ``xd`` against the reference (outputs poisoned first), then
    3 back-to-back timings each, the kernels in order and reversed, on the same outputs."""
    from bench import back_to_back_us

    rows, cols = xd.shape
    want_c, want_s = fos_reference.quantize(xd, gamax, block="16x16", err_mode="mae")
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.float8_e4m3fn, device="cuda")
    record = {"placement": label, "kernels": {}}
    for kname, fn in kernels.items():
        codes.fill_(0xAB), scales.view(torch.uint8).fill_(0xAB)
        fn(xd, gamax, codes, scales)
        exact = torch.equal(codes, want_c) and torch.equal(
            scales.view(torch.uint8), want_s.view(torch.uint8)
        )
        record["kernels"][kname] = {"exact": exact, "us_back_to_back": []}
    order = list(kernels)
    for rep in range(3):
        for kname in order if rep % 2 == 0 else order[::-1]:
            fn = kernels[kname]
            us = back_to_back_us(lambda fn=fn: fn(xd, gamax, codes, scales))
            record["kernels"][kname]["us_back_to_back"].append(us)
    for kname, r in record["kernels"].items():
        times = " ".join(f"{t:6.2f}" for t in r["us_back_to_back"])
        print(f"{label:34s} {kname:18s} {r['exact']} {times}", flush=True)
    return record


def main() -> None:
    kernels = {
        name: compile_quantize("bfloat16", "16x16", "mae", 256, False, "sm_90a", **knobs)
        for name, knobs in KNOBS.items()
    }
    print("compiled", list(kernels), flush=True)
    if "--compile" in sys.argv:
        return
    torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
    x0 = up.draw(0)
    g = float(fos_reference.nan_amax(x0) * 1.002)
    donors = []
    for seed, tr, tc in up.DONORS:
        donors.append(up.draw(seed)[16 * tr : 16 * tr + 16, 16 * tc : 16 * tc + 16].clone())
    gamax = torch.tensor(g, dtype=torch.float32, device="cuda")
    variants = up.variants()
    records = []
    for name in PLACEMENTS:
        items, fill = variants[name]
        x = x0.clone()
        for k, item in enumerate(items):
            tr, tc = up.item_tile(item)
            if fill == "nan":
                x[16 * tr, 16 * tc] = float("nan")
            else:
                x[16 * tr : 16 * tr + 16, 16 * tc : 16 * tc + 16] = donors[k + (fill != "donor")]
        records.append({"items": items, **check_and_time(kernels, name, x.cuda(), gamax)})
    flags = [f for f in ("--warm", "--rolled", "--default") if f in sys.argv]
    if flags:  # and on larger fresh normal data, under its own amax
        for rows, cols in ((32768, 7168), (32768, 2048), (8192, 4096)):
            torch.manual_seed(rows + cols)
            xd = torch.randn(rows, cols, device="cuda").bfloat16()
            gd = fos_reference.nan_amax(xd).float().reshape(())
            records.append(check_and_time(kernels, f"normal {rows}x{cols}", xd, gd))
            del xd
    name = f"rare_latency_{flags[-1][2:]}.json" if flags else "rare_latency.json"
    out = os.path.join(os.environ.get("OUT", "."), name)
    with open(out, "w") as f:
        json.dump({"gamax": g, "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
