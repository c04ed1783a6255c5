"""Aggregate bench records over runs and buffers, and check them against the targets.

No torch import: it reads JSON only, so plots and summaries work anywhere.

    python bench/summary.py OUT/h200.json [--overhead OUT/h200-op-overhead.json]
                                          [--cold-start OUT/h200-cold-start.json]

Prints, for every target row of issues 23 and 27, the op, shape, mode, median
us, % of copy (median and worst over every run and buffer) and the target; the
worst counts. Then the time ratios: mse over mae (issue 27), grouped over
per-tensor (issue 25), swizzled over plain scales (issue 26). Exit status 0
whatever the numbers (this is a report).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import namedtuple
from pathlib import Path

#: What identifies a case (a record is one case x impl x run).
CASE_FIELDS = (
    "op",
    "rows",
    "cols",
    "dtype",
    "block",
    "row_scaled",
    "err_mode",
    "l2",
    "experts",
    "swizzle",
    "data",
)

# (op, rows, cols, block, row_scaled, err_mode, min % of copy), bf16, L2 flushed
TARGETS = (
    ("quantize", 32768, 7168, "1x16", False, "mae", 85),
    ("quantize", 32768, 7168, "1x16", True, "mae", 80),
    ("quantize", 32768, 7168, "16x16", False, "mae", 78),
    ("quantize", 8192, 4096, "1x16", False, "mae", 70),
    ("quantize", 8192, 4096, "1x16", True, "mae", 65),
    ("quantize", 8192, 4096, "16x16", False, "mae", 60),
    ("quantize", 32768, 2048, "1x16", False, "mae", 65),
    ("quantize", 32768, 2048, "1x16", True, "mae", 65),
    ("quantize", 32768, 2048, "16x16", False, "mae", 65),
    *(
        row
        for cols in (7168, 2048)
        for row in (
            ("nan_amax", 32768, cols, "1x16", False, "mae", 80),
            ("dequantize", 32768, cols, "1x16", False, "mae", 75),
            ("fake_quantize", 32768, cols, "1x16", False, "mae", 70),
            ("fake_quantize", 32768, cols, "16x16", False, "mae", 70),
            ("amax+quantize", 32768, cols, "1x16", False, "mae", 80),
            ("quantize_row_amax", 32768, cols, "1x16", True, "mae", 65),
        )
    ),
    # issue 26: both layouts from one call, 1x16 per tensor
    *(
        ("quantize_rowwise_columnwise", rows, cols, "1x16", False, "mae", 70)
        for rows, cols in ((32768, 7168), (8192, 4096))
    ),
    # issue 25: (..., experts) of a skewed split
    *(
        ("quantize_grouped", 32768, cols, "1x16", False, "mae", 70, experts)
        for cols in (7168, 2048)
        for experts in (8, 64, 256)
    ),
)


#: ``case_of``'s key: the ``CASE_FIELDS`` by name (equal to the plain tuple of its values).
CaseKey = namedtuple("CaseKey", CASE_FIELDS)


def case_of(record: dict) -> CaseKey:
    """The case a record belongs to; records written before "op" existed are quantize."""
    defaults = {"op": "quantize", "l2": "flushed", "experts": 0, "swizzle": False, "data": "normal"}
    return CaseKey(*(record.get(k, defaults.get(k)) for k in CASE_FIELDS))


def aggregate(records: list[dict]) -> list[dict]:
    """One row per (case, impl) over every run and buffer, in first-seen order.

    ``us`` is the median of the records' medians, ``us_min``/``us_max`` the
    extremes over every buffer of every run; ``pct_of_copy`` comes from ``us``
    and ``pct_of_copy_min`` (the worst) from ``us_max``, each against the copy
    roofline of the record's own run. ``bitwise_equal`` is False if any record
    differed, None if none was checked.
    """
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault((*case_of(r), r["impl"]), []).append(r)
    rows = []
    for key, group in groups.items():
        timed = [r for r in group if r.get("us") is not None]
        row = dict(zip((*CASE_FIELDS, "impl"), key, strict=True))
        row["runs"] = len(group)
        row["buffers"] = sum(r.get("buffers", 1) for r in timed)
        checks = [r["bitwise_equal"] for r in group if r.get("bitwise_equal") is not None]
        row["bitwise_equal"] = all(checks) if checks else None
        row["timing"] = group[0].get("timing")
        row["note"] = next((r["note"] for r in group if r.get("note")), None)
        if not timed:
            row.update(us=None, us_min=None, us_max=None, pct_of_copy=None, pct_of_copy_min=None)
            rows.append(row)
            continue
        row["us"] = statistics.median(r["us"] for r in timed)
        row["us_min"] = min(r.get("us_min") or r["us"] for r in timed)
        row["us_max"] = max(r.get("us_max") or r["us"] for r in timed)
        pcts = [r["pct_of_copy"] for r in timed if r.get("pct_of_copy") is not None]
        row["pct_of_copy"] = statistics.median(pcts) if pcts else None
        worst = [r.get("pct_of_copy_min") or r["pct_of_copy"] for r in timed if pcts]
        row["pct_of_copy_min"] = min(worst) if pcts else None
        for field in ("us_back_to_back", "pct_of_copy_back_to_back"):
            values = [r[field] for r in timed if r.get(field) is not None]
            row[field] = statistics.median(values) if values else None
        rows.append(row)
    return rows


def _fos_cases(payload: dict) -> dict:
    """The aggregated rows of the public op (``impl`` "fos"; fos_cutedsl rows are beside
    it), by case."""
    return {case_of(r): r for r in aggregate(payload["records"]) if r["impl"] == "fos"}


def target_rows(payload: dict) -> list[dict]:
    """The aggregated fos row of each target (None fields where it was not measured)."""
    fos = _fos_cases(payload)
    out = []
    for op, rows, cols, block, row_scaled, err_mode, target, *experts in TARGETS:
        experts = experts[0] if experts else 0
        key = (op, rows, cols, "bfloat16", block, row_scaled, err_mode, "flushed", experts, False,
               "normal")  # fmt: skip
        row = fos.get(key, {})
        shape = f"{rows}x{cols}" + (f" E={experts}" if experts else "")
        out.append({"op": op, "shape": shape, "block": block,
                    "amax": "row" if row_scaled else "tensor", "err_mode": err_mode,
                    "us": row.get("us"), "pct_of_copy": row.get("pct_of_copy"),
                    "pct_of_copy_min": row.get("pct_of_copy_min"), "target": target,
                    "bitwise_equal": row.get("bitwise_equal"),
                    "note": row.get("note")})  # fmt: skip
    return out


def grouped_rows(payload: dict) -> list[dict]:
    """Each grouped quantize beside the per-tensor quantize of the same T x C (issue 25:
    within 5%) and the per-expert loop (at least 20x slower)."""
    rows = aggregate(payload["records"])
    fos = {case_of(r): r for r in rows if r["impl"] == "fos"}
    loops = {case_of(r): r for r in rows if r["impl"] == "fos_loop"}
    out = []
    for key, r in fos.items():
        if key.op != "quantize_grouped" or r["us"] is None:
            continue
        flat = fos.get(key._replace(op="quantize", experts=0), {})
        loop = loops.get(key, {})
        out.append(
            {
                "shape": f"{key.rows}x{key.cols}",
                "experts": key.experts,
                "l2": key.l2,
                "us": r["us"],
                "per_tensor_us": flat.get("us"),
                "vs_per_tensor": _ratio(r["us"], flat.get("us")),
                "loop_us": loop.get("us"),
                "loop_speedup": _ratio(loop.get("us"), r["us"]),
            }
        )
    return out


def _ratio(a, b):
    return a / b if a and b else None


def print_grouped(payload: dict) -> None:
    rows = grouped_rows(payload)
    if not rows:
        return
    print("quantize_grouped (target: time within 5% of the per-tensor quantize; >= 20x the loop)")
    print(f"{'shape':>10} {'E':>4} {'l2':>7} {'us':>8} {'tensor us':>9} {'ratio':>6} "
          f"{'loop us':>9} {'speedup':>8}")  # fmt: skip
    for r in rows:
        print(f"{r['shape']:>10} {r['experts']:>4} {r['l2']:>7} {_num(r['us'], '.1f', 8)} "
              f"{_num(r['per_tensor_us'], '.1f', 9)} {_num(r['vs_per_tensor'], '.3f', 6)} "
              f"{_num(r['loop_us'], '.0f', 9)} {_num(r['loop_speedup'], '.1f', 8)}")  # fmt: skip


def _num(v, fmt: str, width: int) -> str:
    return format(v, fmt).rjust(width) if v is not None else "-".rjust(width)


def print_targets(payload: dict) -> None:
    copy = payload.get("copy_tbps")
    print(f"targets ({payload.get('device', '?')}, copy {_num(copy, '.3f', 0)} TB/s, "
          f"commit {payload.get('commit')}; worst = over every run and buffer)")  # fmt: skip
    print(f"{'op':>17} {'shape':>16} {'block':>5} {'amax':>6} {'us':>8} {'%copy':>6} "
          f"{'worst':>6} {'target':>6} {'met':>4} exact")  # fmt: skip
    for t in target_rows(payload):
        worst = t["pct_of_copy_min"]
        met = "-" if worst is None else ("yes" if worst >= t["target"] else "NO")
        exact = {None: "-", True: "yes", False: "NO"}[t["bitwise_equal"]]
        line = (f"{t['op']:>17} {t['shape']:>16} {t['block']:>5} {t['amax']:>6} "
                f"{_num(t['us'], '.1f', 8)} {_num(t['pct_of_copy'], '.1f', 6)} "
                f"{_num(worst, '.1f', 6)} {t['target']:>6} {met:>4} {exact}")  # fmt: skip
        print(line + (f"  ({t['note']})" if t["note"] and t["us"] is None else ""))


def print_overhead(payload: dict) -> None:
    print(f"eager host cost per call at {payload['shape']} {payload.get('dtype', '')}"
          f" (target: fos_op.quantize <= {payload.get('target_us', 12)} us)")  # fmt: skip
    for row in payload.get("paths", []):
        gpu = row.get("gpu_us")
        print(f"  {row['path']:>32} {_num(row['wall_us'], '.1f', 7)} us"
              + (f"  (GPU {gpu:.1f} us)" if gpu is not None else ""))  # fmt: skip


def print_cold_start(payload: dict) -> None:
    for mode in ("cold", "warm"):
        runs = payload.get(mode) or []
        if not runs:
            continue
        names = list(runs[0]["variants_s"])
        first = min(r["variants_s"][names[0]] for r in runs)
        further = max(min(r["variants_s"][n] for r in runs) for n in names[1:]) if names[1:] else 0
        print(f"cold start, {mode} disk cache: first result {first:.3f} s, slowest further "
              f"variant {further * 1e3:.1f} ms (targets warm: <= 1 s, <= 50 ms)")  # fmt: skip


def swizzle_rows(payload: dict) -> list[dict]:
    """Each quantize_rowwise_columnwise case with swizzled scales beside the plain one (issue 26:
    at most 3% slower)."""
    fos = _fos_cases(payload)
    out = []
    for key, r in fos.items():
        if key.op != "quantize_rowwise_columnwise" or not key.swizzle or r["us"] is None:
            continue
        plain = fos.get(key._replace(swizzle=False), {})
        out.append({"shape": f"{key.rows}x{key.cols}", "us": r["us"], "plain_us": plain.get("us"),
                    "ratio": _ratio(r["us"], plain.get("us"))})  # fmt: skip
    return out


def mse_rows(payload: dict) -> list[dict]:
    """Each mse quantize case beside the mae case of the same shape and mode (issue 27: at
    most 1.05x the time)."""
    fos = _fos_cases(payload)
    out = []
    for key, r in fos.items():
        if key.op != "quantize" or key.err_mode != "mse" or r["us"] is None:
            continue
        mae = fos.get(key._replace(err_mode="mae"), {})
        mode = "row" if key.row_scaled else "tensor"
        out.append({"shape": f"{key.rows}x{key.cols}", "dtype": key.dtype, "block": key.block,
                    "amax": mode, "l2": key.l2, "us": r["us"], "mae_us": mae.get("us"),
                    "ratio": _ratio(r["us"], mae.get("us"))})  # fmt: skip
    return out


def print_mse(payload: dict) -> None:
    rows = mse_rows(payload)
    if rows:
        print("quantize, mse against mae (target: at most 1.05x the time)")
    for r in rows:
        print(f"{r['shape']:>10} {r['dtype']:>8} {r['block']:>5} {r['amax']:>6} {r['l2']:>7} "
              f"{_num(r['us'], '.1f', 8)} us against {_num(r['mae_us'], '.1f', 8)} us: "
              f"{_num(r['ratio'], '.3f', 6)}")  # fmt: skip


def print_swizzle(payload: dict) -> None:
    rows = swizzle_rows(payload)
    if rows:
        print(
            "quantize_rowwise_columnwise, swizzled scales (target: at most 1.03x the plain layout)"
        )
    for r in rows:
        print(f"{r['shape']:>10} {_num(r['us'], '.1f', 8)} us against "
              f"{_num(r['plain_us'], '.1f', 8)} us: {_num(r['ratio'], '.3f', 6)}")  # fmt: skip


def print_bench(payload: dict) -> None:
    print_targets(payload)
    print_mse(payload)
    print_grouped(payload)
    print_swizzle(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", type=Path, nargs="?", help="bench.py's JSON")
    parser.add_argument("--overhead", type=Path, help="overhead.py's JSON")
    parser.add_argument("--cold-start", type=Path, help="cold_start.py's JSON")
    args = parser.parse_args()
    for path, show in ((args.bench, print_bench), (args.overhead, print_overhead),
                       (args.cold_start, print_cold_start)):  # fmt: skip
        if path is None:
            continue
        if not path.exists():
            print(f"{path}: missing")
            continue
        show(json.loads(path.read_text()))


if __name__ == "__main__":
    main()
