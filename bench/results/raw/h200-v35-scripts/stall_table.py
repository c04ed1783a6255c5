"""v35: per-instruction stall samples from ``ncu --page source --csv --print-source sass``.

    python3 stall_table.py SOURCE.csv [--top 30]

Prints the header's columns, then for the total and for each stall-reason column the
instructions with the most samples (address, SASS, samples, share of the column's total),
and each of the top 8 long-scoreboard instructions with the 6 instructions before it."""

import argparse
import csv
import sys

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("--top", type=int, default=30)
args = ap.parse_args()
text = open(args.csv, newline="").read().splitlines()
heads = [i for i, line in enumerate(text) if "Address" in line and "Source" in line]
print("sections:", len(heads), "lines:", len(text))


def num(v):
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return 0.0


def report(rows):
    cols = list(rows[0].keys())
    print("columns:", cols)
    wanted = [
        c
        for c in cols
        if any(
            k in c.lower()
            for k in ("sampl", "stall", "long", "barrier", "math", "throttle", "executed")
        )
    ]
    for c in wanted:
        total = sum(num(r[c]) for r in rows)
        if total <= 0:
            continue
        top = sorted(range(len(rows)), key=lambda i: -num(rows[i][c]))[: args.top]
        print(f"\n== {c} (total {total:.0f})")
        for i in top:
            v = num(rows[i][c])
            if v <= 0:
                break
            print(
                f"{i:5d} {rows[i]['Address']:>8} {v:9.0f} {100 * v / total:5.1f}%  {rows[i]['Source'][:90]}"
            )
    long_cols = [c for c in cols if "long" in c.lower()]
    if long_cols:
        c = long_cols[0]
        top = sorted(range(len(rows)), key=lambda i: -num(rows[i][c]))[:8]
        for i in top:
            print(f"\n-- context of {i} ({c} {num(rows[i][c]):.0f})")
            for j in range(max(0, i - 6), i + 1):
                print(f"   {j:5d} {num(rows[j][c]):7.0f}  {rows[j]['Source'][:100]}")


for n, h in enumerate(heads):
    end = heads[n + 1] if n + 1 < len(heads) else len(text)
    print(f"\n######## section {n + 1}: lines {h}-{end}; before it: {text[max(0, h - 2) : h]}")
    report(list(csv.DictReader(text[h:end])))
