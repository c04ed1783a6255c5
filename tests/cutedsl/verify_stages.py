"""The driver of the one-process GPU verification scripts: stages, a table, a JSON summary.

Each stage is ``fn(failures, skipped) -> cases``: it appends a line per
mismatch to ``failures`` (and per part it could not run to ``skipped``) and
returns how many cases it checked. A stage that raises is reported as failed,
and the others still run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import torch

import fos_cutedsl

Stage = Callable[[list[str], list[str]], int]


def main(description: str, default_name: str, stages: dict[str, Stage]) -> int:
    """Run the chosen ``stages``; print PASS/FAIL per stage and overall; exit code 1 on FAIL."""
    parser = argparse.ArgumentParser(description=description)
    default_out = Path(os.environ.get("OUT", ".")) / default_name
    parser.add_argument(
        "--out",
        type=Path,
        default=default_out,
        help=f"JSON summary path, or a folder for {default_name}",
    )
    parser.add_argument("--stages", nargs="+", choices=list(stages), default=list(stages))
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("FAIL: no CUDA device")
        return 1
    summary = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "device": torch.cuda.get_device_name(),
        "fos_cutedsl": fos_cutedsl.__version__,
        "stages": {},
    }
    all_failures: list[str] = []
    width = max(len(name) for name in stages)
    for stage in args.stages:
        failures: list[str] = []
        skipped: list[str] = []
        t0 = time.perf_counter()
        try:
            cases = stages[stage](failures, skipped)
        except Exception as exc:  # report and go on: one broken stage must not hide the others
            cases = 0
            failures.append(f"{stage} raised {type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - t0
        status = "FAIL" if failures else ("SKIP" if skipped else "PASS")
        print(f"{stage:{width}s} {status} cases={cases} failures={len(failures)} {seconds:.1f}s")
        for f in failures[:20]:
            print(f"    {f}")
        summary["stages"][stage] = {
            "status": status,
            "cases": cases,
            "failures": failures,
            "skipped": skipped,
            "seconds": round(seconds, 1),
        }
        all_failures += failures
    summary["result"] = "FAIL" if all_failures else "PASS"
    out = args.out / default_name if args.out.is_dir() else args.out  # (gpu_verify.py's --out DIR)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    print(summary["result"])
    return 1 if all_failures else 0
