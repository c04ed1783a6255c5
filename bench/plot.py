"""Plot % of the copy roofline per op: fos beside the in-run peers, from a bench JSON file.

    python bench/plot.py bench/results/h200.json      # writes h200.png beside it

One panel per op; each case (shape, mode, dtype, L2 state) is a group of bars,
one per implementation (aggregated over runs and buffers: the median, with a
line to the worst). Log scale: the eager reference sits near 0.1% of copy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from summary import CASE_FIELDS, aggregate

COLORS = {
    "fos": "tab:blue",
    "fos_cutedsl": "tab:cyan",
    "reference_compiled": "tab:orange",
    "fouroversix": "tab:green",
    "reference": "tab:gray",
}


def _label(row: dict) -> str:
    amax = " row" if row["row_scaled"] else ""
    hot = " L2-hot" if row["l2"] == "hot" else ""
    return f"{row['rows']}x{row['cols']} {row['block']}{amax} {row['dtype']} {row['err_mode']}{hot}"


def plot_ops(json_path: Path) -> Path:
    """One bar panel per op of fos and its peers' % of copy; returns the PNG path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.loads(Path(json_path).read_text())
    rows = [r for r in aggregate(data["records"]) if r["pct_of_copy"] is not None]
    if not rows:
        raise ValueError(f"{json_path}: no row has a % of copy (a CPU run?): nothing to plot")
    ops = list(dict.fromkeys(r["op"] for r in rows))
    cases = {op: list(dict.fromkeys(tuple(r[k] for k in CASE_FIELDS) for r in rows
                                    if r["op"] == op)) for op in ops}  # fmt: skip
    heights = [max(len(cases[op]), 1) for op in ops]
    fig, axes = plt.subplots(
        len(ops), 1, figsize=(11, 0.32 * sum(heights) + 1.2 * len(ops) + 0.5),
        gridspec_kw={"height_ratios": heights}, squeeze=False,
    )  # fmt: skip
    for ax, op in zip(axes[:, 0], ops, strict=True):
        impls = list(dict.fromkeys(r["impl"] for r in rows if r["op"] == op))
        width = 0.8 / len(impls)
        index = {case: i for i, case in enumerate(cases[op])}
        for j, impl in enumerate(impls):
            mine = [r for r in rows if r["op"] == op and r["impl"] == impl]
            ys = [index[tuple(r[k] for k in CASE_FIELDS)] + (j - (len(impls) - 1) / 2) * width
                  for r in mine]  # fmt: skip
            pcts = [r["pct_of_copy"] for r in mine]
            worst = [r["pct_of_copy"] - (r["pct_of_copy_min"] or r["pct_of_copy"]) for r in mine]
            exact = [r["bitwise_equal"] is not False for r in mine]
            ax.barh(ys, pcts, height=width, color=COLORS.get(impl, "tab:purple"),
                    hatch=[None if e else "//" for e in exact], label=impl,
                    xerr=[worst, [0] * len(worst)], error_kw={"linewidth": 0.6})  # fmt: skip
            for y, p in zip(ys, pcts, strict=True):
                ax.text(max(p, 0.05) * 1.05, y, f"{p:.1f}", va="center", fontsize=6)
        ax.set_yticks(range(len(cases[op])))
        ax.set_yticklabels(
            [_label(dict(zip(CASE_FIELDS, c, strict=True))) for c in cases[op]], fontsize=7
        )
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlim(0.05, 150)
        ax.axvline(100, color="gray", linestyle="--", linewidth=0.8)
        ax.set_title(op, fontsize=9, loc="left")
        ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5))
    copy = data.get("copy_tbps")
    axes[-1, 0].set_xlabel(
        f"% of device-to-device copy bandwidth ({copy:.2f} TB/s); hatched: not bit-exact"
        if copy
        else "% of copy bandwidth"
    )
    fig.suptitle(f"{data.get('device', data.get('gpu'))}, {data.get('date')}, "
                 f"commit {data.get('commit')}", fontsize=9)  # fmt: skip
    fig.tight_layout()
    png = Path(json_path).with_suffix(".png")
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


if __name__ == "__main__":
    print(plot_ops(Path(sys.argv[1])))
