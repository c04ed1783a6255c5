"""v40: what one undecided 16x16 tile costs, by where it falls in the persistent kernel.

bf16 mae 8192 x 4096 per tensor. x0 is v36's seed 0 (CPU generator) under gamax = 1.002
amax, which has no undecided tile. Donor tiles are the tiles of seeds 1-6 that the bound
leaves open under the same gamax (found on the CPU with fast_model.bounded_choice, each
checked again here). Each variant copies donors into x0 at the first tile of chosen work
items (item i: tile row 3 (i // 64), tile column 4 (i % 64); CTA i % 132 draws it, items
in increasing order), counts the undecided tiles of the whole x on the CPU, checks the
kernel's bits against the reference, and times it back to back; the per-CTA 16x16
kernel (``persistent=False``) beside it.

    python undecided_position.py            (on the GPU host)
    python undecided_position.py --cpu-only (the donors and counts, no GPU)
"""

import json
import os
import sys

import fast_model as fm
import torch

import fos_reference

ROWS, COLS = 8192, 4096
D = 1536.0  # 6 * bound 256
STRIPS, K, SMS = 64, 3, 132  # 4 tiles a strip, 3 tile rows an item, one CTA an SM
ITEMS = STRIPS * -(-ROWS // 16 // K)
DONORS = [
    (1, 457, 255),
    (2, 116, 113),
    (2, 247, 6),
    (2, 341, 19),
    (2, 348, 0),
    (3, 79, 189),
    (3, 119, 92),
    (3, 310, 153),
    (3, 446, 20),
    (5, 432, 203),
    (5, 444, 210),
    (6, 327, 134),
]  # (seed, tile row, tile column), undecided under x0's gamax


def draw(seed: int) -> torch.Tensor:
    return torch.randn(ROWS, COLS, generator=torch.Generator().manual_seed(seed)).bfloat16()


def undecided_tiles(x: torch.Tensor, g: float) -> list:
    decided = fm.bounded_choice(x.float(), g, D, "mae", "16x16", 8)[1][::16]
    return (~decided).nonzero().tolist()


def item_tile(item: int) -> tuple:
    return 3 * (item // STRIPS), 4 * (item % STRIPS)


def variants() -> dict:
    """name -> (items, fill): each item's first tile replaced by the next donor ("donor",
    "another donor": from the second on) or NaN at its first element ("nan": the exact
    path's 3200 instructions, against the undecided branch's 1130)."""
    last = ITEMS - 1
    singles = {
        "first": 0,
        "CTA 0's 6th": 5 * SMS,
        "middle": ITEMS // 2,
        "4th last of its CTA": last - 3 * SMS,
        "2nd last of its CTA": last - SMS,
        "last": last,
    }
    return {
        "none": ([], "donor"),
        **{f"item {i} ({what})": ([i], "donor") for what, i in singles.items()},
        f"item {last} (last), another donor": ([last], "another donor"),
        f"items 0 and {last} (first and last)": ([0, last], "donor"),
        "items 0-7 (8 CTAs' first)": (list(range(8)), "donor"),
        f"items {last - 7}-{last} (8 CTAs' last)": (list(range(last - 7, last + 1)), "donor"),
        "12 spread evenly": ([round(i * last / 11) for i in range(12)], "donor"),
        "item 0 (first), NaN": ([0], "nan"),
        f"item {last} (last), NaN": ([last], "nan"),
    }


def main() -> None:
    cpu_only = "--cpu-only" in sys.argv
    torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
    x0 = draw(0)
    g = float(fos_reference.nan_amax(x0) * 1.002)
    assert undecided_tiles(x0, g) == [], "x0 has undecided tiles"
    donors = []
    for seed, tr, tc in DONORS:
        tile = draw(seed)[16 * tr : 16 * tr + 16, 16 * tc : 16 * tc + 16].clone()
        assert undecided_tiles(tile, g) == [[0, 0]], f"donor {seed, tr, tc} is decided"
        donors.append(tile)
    if not cpu_only:
        from bench import back_to_back_us
        from fos_cutedsl.compile import compile_quantize

        kernels = {  # the default, and the per-CTA grid it replaced (v33) for comparison
            name: compile_quantize("bfloat16", "16x16", "mae", 256, False, "sm_90a", **tuning)
            for name, tuning in (("persistent", {}), ("per-CTA", {"persistent": False}))
        }
        codes = torch.empty(ROWS, COLS // 2, dtype=torch.uint8, device="cuda")
        scales = torch.empty(ROWS, COLS // 16, dtype=torch.float8_e4m3fn, device="cuda")
        gamax = torch.tensor(g, dtype=torch.float32, device="cuda")
    records = []
    for name, (items, fill) in variants().items():
        x = x0.clone()
        for k, item in enumerate(items):
            tr, tc = item_tile(item)
            if fill == "nan":  # decided in the model (its errors are NaN); the kernel flags it
                x[16 * tr, 16 * tc] = float("nan")
            else:
                x[16 * tr : 16 * tr + 16, 16 * tc : 16 * tc + 16] = donors[k + (fill != "donor")]
        want = [] if fill == "nan" else sorted(list(item_tile(i)) for i in items)
        got = sorted(undecided_tiles(x, g))
        assert got == want, f"{name}: undecided tiles {got}, want {want}"
        record = {"variant": name, "items": items, "undecided_tiles": got}
        if not cpu_only:
            xd = x.cuda()
            want_c, want_s = fos_reference.quantize(xd, gamax, block="16x16", err_mode="mae")
            for kernel, fn in kernels.items():
                codes.fill_(0xAB), scales.view(torch.uint8).fill_(0xAB)
                fn(xd, gamax, codes, scales)
                exact = torch.equal(codes, want_c) and torch.equal(
                    scales.view(torch.uint8), want_s.view(torch.uint8)
                )
                us = [
                    back_to_back_us(lambda xd=xd, fn=fn: fn(xd, gamax, codes, scales))
                    for _ in range(3)
                ]
                record[kernel] = {"exact": exact, "us_back_to_back": us}
                times = " ".join(f"{t:6.2f}" for t in us)
                print(f"{name:36s} {len(got):2d} {kernel:10s} {exact} {times}", flush=True)
        else:
            print(f"{name:36s} undecided {len(got):2d}", flush=True)
        records.append(record)
    out = os.path.join(os.environ.get("OUT", "."), "undecided_position.json")
    with open(out, "w") as f:
        json.dump({"gamax": g, "items": ITEMS, "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
