"""Verify ``fos_cutedsl`` against ``fos_reference`` on one GPU, in one process.

    python tests/cutedsl/gpu_verify.py [--out DIR] [--fuzz-elements N] [--stages ...]

Stages (all by default):

* ``sweep``: every variant x input kind x tile-edge shape of ``cutedsl_cases``.
* ``fuzz``: at least ``--fuzz-elements`` elements of random bit patterns and
  scaled normals, every variant in turn, in chunks of ``--chunk`` elements.
* ``e2m1``: the software E2M1 rounding (the one the kernel inlines) on all 2^32
  float32 bit patterns: codes against ``fos_reference.e2m1_encode``, values
  against ``e2m1_decode`` of those codes.
* ``large``: one 1x16 bf16 quantize of 2^31 + 2^20 elements (64-bit offsets),
  compared against the reference in chunks of rows.
* ``perf``: kernel time for a 32768 x 7168 bf16 input (1x16 and 16x16).

The reference runs on the same CUDA tensors. Output buffers are poisoned with
0xAB before every launch. Prints counts and writes ``gpu_verify.json`` to
``--out`` (default ``$OUT`` or the current directory); exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time
import zlib
from pathlib import Path

import torch
from cutedsl_cases import KINDS, Variant, make_case, shapes, variants
from cutedsl_probe import compile_probe

import fos_cutedsl
import fos_reference
from fos_cutedsl.api import launch

POISON = 0xAB
STAGES = ("sweep", "fuzz", "e2m1", "large", "perf")


def run_kernel(x: torch.Tensor, gamax: torch.Tensor, v: Variant):
    rows, cols = x.shape
    codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device=x.device)
    scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device=x.device)
    launch(x, gamax, codes, scales, v.block, v.err_mode, v.bound)
    return codes, scales


def mismatches(x: torch.Tensor, gamax: torch.Tensor, v: Variant) -> int:
    """Bytes (codes + scales) where the kernel and the reference differ."""
    codes, scales = run_kernel(x, gamax, v)
    want_codes, want_scales = fos_reference.quantize(x, gamax, **v.knobs)
    bad = (codes != want_codes).sum() + (scales != want_scales.view(torch.uint8)).sum()
    return int(bad)


def stage_sweep() -> dict:
    configs = bad_configs = 0
    failures = []
    for v in variants():
        for kind in KINDS:
            for i, (rows, cols) in enumerate(shapes(v.block)):
                seed = zlib.crc32(f"{v}/{kind}/{i}".encode())
                x, gamax = make_case(kind, v, rows, cols, seed, "cuda")
                bad = mismatches(x, gamax, v)
                configs += 1
                if bad:
                    bad_configs += 1
                    failures.append(f"{v} {kind} ({rows}, {cols}): {bad} bytes")
    print(f"sweep: {configs} configs, {bad_configs} with mismatches", flush=True)
    return {"configs": configs, "mismatched_configs": bad_configs, "failures": failures[:20]}


def _fuzz_input(v: Variant, mode: str, rows: int, cols: int, gen: torch.Generator):
    dev = "cuda"
    if mode == "bits":
        if v.dtype == torch.float32:
            raw = torch.randint(-(2**31), 2**31, (rows, cols), generator=gen, device=dev)
            x = raw.to(torch.int32).view(torch.float32)
        else:
            raw = torch.randint(-(2**15), 2**15, (rows, cols), generator=gen, device=dev)
            x = raw.to(torch.int16).view(v.dtype)
    else:
        e = torch.randint(-30, 31, (rows, 1), generator=gen, device=dev).float()
        x = (torch.randn(rows, cols, generator=gen, device=dev) * 2.0**e).to(v.dtype)
    if v.row_scaled:
        gamax = fos_reference.nan_amax(x, dim=1)
        factor = torch.rand(rows, generator=gen, device=dev) * 2.0
        gamax = torch.where(factor < 0.3, gamax, gamax * factor)
        special = torch.tensor([0.0, float("inf"), float("nan"), 1e-40], device=dev)
        pick = torch.randint(0, 64, (rows,), generator=gen, device=dev)
        gamax = torch.where(pick < 4, special[pick.clamp(max=3)], gamax)
    else:
        gamax = fos_reference.nan_amax(x).reshape(1)
        if mode == "bits":  # random bits almost always hold an Inf: use a finite amax too
            gamax = torch.where(
                torch.rand(1, generator=gen, device=dev) < 0.5,
                gamax,
                torch.rand(1, generator=gen, device=dev) * 1e4,
            )
    return x, gamax.float()


def stage_fuzz(total: int, chunk: int) -> dict:
    gen = torch.Generator(device="cuda").manual_seed(20260101)
    col_choices = (64, 256, 1024, 4096, 7168)
    elements = chunks = bad_chunks = bad_bytes = 0
    failures = []
    t0 = time.perf_counter()
    all_variants = variants()
    i = 0
    while elements < total or i < 2 * len(all_variants):
        v = all_variants[i % len(all_variants)]
        mode = ("bits", "normal")[(i // len(all_variants)) % 2]
        cols = col_choices[i % len(col_choices)]
        rows = max(16, (chunk // cols) // 16 * 16)
        x, gamax = _fuzz_input(v, mode, rows, cols, gen)
        bad = mismatches(x, gamax, v)
        elements += x.numel()
        chunks += 1
        bad_bytes += bad
        if bad:
            bad_chunks += 1
            failures.append(f"chunk {i} {v} {mode} ({rows}, {cols}): {bad} bytes")
        i += 1
        del x, gamax
    seconds = time.perf_counter() - t0
    print(
        f"fuzz: {elements} elements in {chunks} chunks ({seconds:.0f}s), "
        f"{bad_chunks} chunks / {bad_bytes} bytes mismatched",
        flush=True,
    )
    return {
        "elements": elements,
        "chunks": chunks,
        "mismatched_chunks": bad_chunks,
        "mismatched_bytes": bad_bytes,
        "seconds": round(seconds, 1),
        "failures": failures[:20],
    }


def stage_e2m1(arch: str) -> dict:
    probe = compile_probe(arch)
    step = 1 << 28
    checked = bad_codes = bad_values = 0
    t0 = time.perf_counter()
    for start in range(0, 1 << 32, step):
        bits = torch.arange(start, start + step, dtype=torch.int64, device="cuda")
        bits = torch.where(bits >= 2**31, bits - 2**32, bits).to(torch.int32)
        q = bits.view(torch.float32)
        del bits
        codes = torch.empty(q.shape, dtype=torch.uint8, device="cuda")
        values = torch.empty(q.shape, dtype=torch.float32, device="cuda")
        probe(q, codes, values)
        want = fos_reference.e2m1_encode(q)
        bad_codes += int((codes != want).sum())
        want_values = fos_reference.e2m1_decode(want).view(torch.int32)
        bad_values += int((values.view(torch.int32) != want_values).sum())
        checked += q.numel()
        del q, codes, values, want, want_values
    seconds = time.perf_counter() - t0
    print(
        f"e2m1: {checked} float32 patterns, {bad_codes} code / {bad_values} value mismatches "
        f"({seconds:.0f}s)",
        flush=True,
    )
    return {
        "patterns": checked,
        "mismatches": bad_codes + bad_values,
        "code_mismatches": bad_codes,
        "value_mismatches": bad_values,
        "seconds": round(seconds, 1),
    }


def stage_large() -> dict:
    cols = 16384
    rows = (2**31 + 2**20) // cols
    v = Variant(torch.bfloat16, "1x16", False, "mae", 256)
    gen = torch.Generator(device="cuda").manual_seed(7)
    t0 = time.perf_counter()
    x = torch.randn(rows, cols, generator=gen, device="cuda", dtype=torch.bfloat16)
    step = 8192
    gamax = torch.zeros(1, device="cuda")
    for r0 in range(0, rows, step):
        x[r0 : r0 + step] *= 2.0 ** torch.randint(-8, 9, (1,), generator=gen, device="cuda")
        gamax = torch.fmax(gamax, fos_reference.nan_amax(x[r0 : r0 + step]).reshape(1))
    codes, scales = run_kernel(x, gamax, v)
    bad = 0
    for r0 in range(0, rows, step):
        want_codes, want_scales = fos_reference.quantize(x[r0 : r0 + step], gamax, **v.knobs)
        bad += int((codes[r0 : r0 + step] != want_codes).sum())
        bad += int((scales[r0 : r0 + step] != want_scales.view(torch.uint8)).sum())
    seconds = time.perf_counter() - t0
    print(f"large: {x.numel()} elements ({rows} x {cols}), {bad} mismatched bytes", flush=True)
    return {"elements": x.numel(), "shape": [rows, cols], "mismatches": bad, "seconds": seconds}


def stage_perf() -> dict:
    rows, cols = 32768, 7168
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    gamax = fos_reference.nan_amax(x).reshape(1)
    out = {}
    for block in ("1x16", "16x16"):
        v = Variant(torch.bfloat16, block, False, "mae", 256)
        codes = torch.empty((rows, cols // 2), dtype=torch.uint8, device="cuda")
        scales = torch.empty((rows, cols // 16), dtype=torch.uint8, device="cuda")
        for _ in range(3):
            launch(x, gamax, codes, scales, block, "mae", 256)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        iters = 20
        start.record()
        for _ in range(iters):
            launch(x, gamax, codes, scales, block, "mae", 256)
        end.record()
        torch.cuda.synchronize()
        us = start.elapsed_time(end) * 1000 / iters
        nbytes = x.numel() * 2 + codes.numel() + scales.numel()
        out[str(v)] = {"us": round(us, 1), "GBps": round(nbytes / us / 1e3, 1)}
        print(f"perf: {v} {rows}x{cols}: {us:.1f} us, {nbytes / us / 1e3:.0f} GB/s", flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--fuzz-elements", type=int, default=1_000_000_000)
    parser.add_argument("--chunk", type=int, default=1 << 25)
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=list(STAGES))
    args = parser.parse_args()

    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(),
        "arch": arch,
        "torch": torch.__version__,
        "fos_cutedsl": fos_cutedsl.__version__,
    }
    t0 = time.perf_counter()
    fos_cutedsl.quantize(torch.zeros(16, 16, device="cuda"), torch.ones(1, device="cuda"))
    stages = {
        "sweep": stage_sweep,
        "fuzz": lambda: stage_fuzz(args.fuzz_elements, args.chunk),
        "e2m1": lambda: stage_e2m1(arch),
        "large": stage_large,
        "perf": stage_perf,
    }
    failed = False
    out = Path(args.out) / "gpu_verify.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    for name in args.stages:
        s0 = time.perf_counter()
        result[name] = stages[name]()
        result[name]["stage_seconds"] = round(time.perf_counter() - s0, 1)
        failed |= any(
            result[name].get(k) for k in ("mismatched_configs", "mismatched_bytes", "mismatches")
        )
        torch.cuda.empty_cache()
        out.write_text(json.dumps(result, indent=2) + "\n")  # partial results survive a timeout
    result["total_seconds"] = round(time.perf_counter() - t0, 1)
    result["passed"] = not failed
    out.write_text(json.dumps(result, indent=2) + "\n")
    print("PASS" if not failed else "FAIL", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
