"""Plot % of the copy roofline per shape and mode from a bench JSON file.

python bench/plot.py bench/results/h200.json      # writes h200.png beside it
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def plot_roofline(json_path: Path) -> Path:
    """Bar chart of fos's % of copy bandwidth for every configuration; returns the PNG path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.loads(Path(json_path).read_text())
    rows = [r for r in data["records"] if r["impl"] == "fos"]
    labels = [
        f"{r['rows']}x{r['cols']} {r['block']}{' row' if r['row_scaled'] else ''} "
        f"{r['dtype']} {r['err_mode']}"
        for r in rows
    ]
    fig, ax = plt.subplots(figsize=(10, 0.3 * len(rows) + 1.5))
    colors = ["tab:blue" if r["dtype"] == "bfloat16" else "tab:orange" for r in rows]
    ax.barh(range(len(rows)), [r["pct_of_copy"] for r in rows], color=colors)
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    for target in (60, 70, 85):
        ax.axvline(target, color="gray", linestyle="--", linewidth=0.8)
    ax.set_xlabel(f"% of device-to-device copy bandwidth ({data['copy_tbps']:.2f} TB/s)")
    ax.set_title(f"fos quantize on {data['gpu']} ({data['date']}), bit-exact rows only")
    fig.tight_layout()
    png = Path(json_path).with_suffix(".png")
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return png


if __name__ == "__main__":
    print(plot_roofline(Path(sys.argv[1])))
