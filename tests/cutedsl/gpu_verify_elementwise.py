"""Verify ``fos_cutedsl``'s amax, dequantize, row-amax, grouped and layout kernels bit for bit.

    python tests/cutedsl/gpu_verify_elementwise.py [--out PATH] [--stages ...]

Stages (all by default):

* ``amax``: every dtype x per tensor / per row x input kind x edge shape of
  ``elementwise_cases`` (float32 bits, -0 != +0; per-row outputs poisoned).
* ``amax_fuzz``: random bit patterns at random shapes, every variant.
* ``dequantize``: every output dtype x bound x per tensor / row-scaled x
  input kind x edge shape (NaN where the reference is NaN, bits elsewhere;
  outputs poisoned with a finite sentinel).
* ``row_amax``: ``launch_quantize_row_amax`` for every dtype x err x bound x
  ``cutedsl_cases`` input kind x shape: the row amax, codes and scales bits
  against ``nan_amax(x, dim=1)`` and ``quantize`` under it (all outputs poisoned).
* ``grouped``: ``launch_quantize_grouped`` (every dtype x block x err x bound x
  int32/int64 offsets) and ``launch_nan_amax_grouped`` over every input kind
  and ``grouped_cases.SPLITS`` (16x16: in units of 16 rows), outputs poisoned,
  against ``fos_reference.quantize_grouped`` / ``nan_amax_grouped``.
* ``layouts``: ``launch_quantize_rowwise_columnwise`` (every dtype x err x bound x
  rows / columns / both x plain / swizzled scales) over every input kind built along
  rows and down columns on ``dual_cases.SHAPES``, and random bit patterns on a
  larger ragged shape, outputs poisoned, against ``fos_reference.quantize`` and
  ``quantize_columnwise`` (and ``swizzle_scales``).
* ``large``: per-tensor and per-row amax of a 2^31 + 2^20 element bf16 input
  and a dequantize to a 2^31-element bf16 output, checked in row chunks
  (skipped, and reported as such, without the memory).

Prints one line per stage and PASS/FAIL; writes a JSON summary to ``--out``
(default ``$OUT/gpu_verify_elementwise.json`` or the current directory).
Exits 1 on any mismatch.
"""

from __future__ import annotations

import itertools
import time
import zlib

import torch
from cutedsl_cases import KINDS, Variant, make_case
from dual_cases import (
    LAYOUTS,
    ROWWISE_ONLY_SHAPES,
    SHAPES,
    dual_case,
    poisoned_outputs,
    reference_outputs,
    wanted_outputs,
)
from elementwise_cases import (
    AMAX_DTYPES,
    AMAX_KINDS,
    BOUNDS,
    DEQUANT_KINDS,
    OUT_DTYPES,
    amax_shapes,
    dequant_mismatch,
    dequant_shapes,
    make_amax_case,
    make_dequant_case,
    poison_like,
    reference_amax_chunked,
    same_f32_bits,
)
from grouped_cases import SPLITS, expert_amax, poisoned_amax, poisoned_quantize
from verify_stages import main as run_stages

import fos_cutedsl
import fos_reference

POISON = float.fromhex("0x1.234568p-100")


def _amax(x: torch.Tensor, per_row: bool) -> torch.Tensor:
    out = torch.full((x.shape[0] if per_row else 1,), POISON, device=x.device)
    fos_cutedsl.launch_nan_amax(x, out, per_row)
    return out if per_row else out.reshape(())


def _dequantize(codes, scales, gamax, bound, out_dtype) -> torch.Tensor:
    rows, half = codes.shape
    out = poison_like((rows, 2 * half), out_dtype, codes.device)
    fos_cutedsl.launch_dequantize(codes, scales.view(torch.uint8), gamax, out, bound)
    return out


def stage_amax(failures: list[str]) -> int:
    cases = 0
    for dtype in AMAX_DTYPES:
        for per_row in (False, True):
            for kind in AMAX_KINDS:
                for rows, cols in amax_shapes(dtype):
                    seed = zlib.crc32(f"{dtype}/{per_row}/{kind}/{rows}x{cols}".encode())
                    x = make_amax_case(kind, dtype, rows, cols, seed).cuda()
                    want = fos_reference.nan_amax(x, dim=1 if per_row else None)
                    cases += 1
                    if not same_f32_bits(_amax(x, per_row), want):
                        failures.append(f"amax {dtype} per_row={per_row} {kind} ({rows}, {cols})")
    return cases


def stage_amax_fuzz(failures: list[str], cases_per_variant: int = 40) -> int:
    gen = torch.Generator().manual_seed(1234)
    cases = 0
    for dtype in AMAX_DTYPES:
        per_vector = 16 // torch.empty((), dtype=dtype).element_size()
        for per_row in (False, True):
            for i in range(cases_per_variant):
                rows = int(torch.randint(1, 300, (1,), generator=gen))
                cols = per_vector * int(torch.randint(1, 1200, (1,), generator=gen))
                kind = ("bits", "nan_inf", "normal")[i % 3]
                x = make_amax_case(kind, dtype, rows, cols, 7 * i + 1).cuda()
                want = fos_reference.nan_amax(x, dim=1 if per_row else None)
                cases += 1
                if not same_f32_bits(_amax(x, per_row), want):
                    failures.append(f"amax fuzz {dtype} per_row={per_row} {kind} ({rows}, {cols})")
    return cases


# Each of ``row_amax.TILINGS``: a warp a row (to 2048 columns), a pair (to 4096), the team.
ROW_AMAX_SHAPES = ((1, 16), (3, 48), (7, 2048), (6, 2064), (9, 4096), (33, 7168), (5, 4144))


def stage_row_amax(failures: list[str]) -> int:
    cases = 0
    for dtype, err_mode, bound in itertools.product(AMAX_DTYPES, ("mae", "mse"), BOUNDS):
        variant = Variant(dtype, "1x16", True, err_mode, bound)
        for kind in KINDS:
            for rows, cols in ROW_AMAX_SHAPES:
                seed = zlib.crc32(f"row_amax/{variant}/{kind}/{rows}x{cols}".encode())
                x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
                amax = torch.full((rows,), float("nan"), device="cuda")
                codes = torch.full((rows, cols // 2), 0xA5, dtype=torch.uint8, device="cuda")
                scales = torch.full((rows, cols // 16), 0x5A, dtype=torch.uint8, device="cuda")
                fos_cutedsl.launch_quantize_row_amax(x, amax, codes, scales, err_mode, bound)
                want_amax = fos_reference.nan_amax(x, dim=1)
                want_codes, want_scales = fos_reference.quantize(
                    x, want_amax, block="1x16", err_mode=err_mode, e4m3_scale_bound=bound
                )
                cases += 1
                same = (
                    same_f32_bits(amax, want_amax)
                    and torch.equal(codes, want_codes)
                    and torch.equal(scales, want_scales.view(torch.uint8))
                )
                if not same:
                    failures.append(f"row_amax {variant} {kind} ({rows}, {cols})")
    return cases


def stage_grouped(failures: list[str]) -> int:
    cases = 0
    t0 = time.perf_counter()
    for dtype, block, err_mode, bound in itertools.product(
        AMAX_DTYPES, ("1x16", "16x16"), ("mae", "mse"), BOUNDS
    ):
        variant = Variant(dtype, "1x16", True, err_mode, bound)
        unit = 16 if block == "16x16" else 1
        for kind in KINDS:
            for i, (rows, split) in enumerate(SPLITS):
                rows, split = rows * unit, [o * unit for o in split]
                seed = zlib.crc32(f"verify_grouped/{variant}/{block}/{kind}/{i}".encode())
                x, g = make_case(kind, variant, rows, (16, 272, 2064)[i % 3], seed, "cuda")
                gamax = expert_amax(g, split)
                want = None  # the reference once for both offset dtypes (the same bits)
                check_amax = block == "1x16" and err_mode == "mae" and bound == 256
                for offset_dtype in (torch.int32, torch.int64):
                    offsets = torch.tensor(split, dtype=offset_dtype, device="cuda")
                    if want is None:
                        want = fos_reference.quantize_grouped(
                            x, offsets, gamax, block=block, err_mode=err_mode,
                            e4m3_scale_bound=bound,
                        )  # fmt: skip
                        want_amax = (
                            fos_reference.nan_amax_grouped(x, offsets) if check_amax else None
                        )
                    codes, scales = poisoned_quantize(x, offsets, gamax, block, err_mode, bound)
                    cases += 1
                    scales_u8 = want[1].view(torch.uint8)
                    if not (torch.equal(codes, want[0]) and torch.equal(scales, scales_u8)):
                        where = f"{variant} {block} {offset_dtype} {kind} split {i}"
                        failures.append(f"grouped {where}")
                    if check_amax:
                        cases += 1
                        if not same_f32_bits(poisoned_amax(x, offsets), want_amax):
                            failures.append(f"grouped amax {dtype} {offset_dtype} {kind} split {i}")
        # A progress line per variant, so a run cut by a time limit says how far it got.
        print(f"    grouped {dtype} {block} {err_mode} {bound}: {cases} cases so far, "
              f"{len(failures)} failures, {time.perf_counter() - t0:.0f}s", flush=True)  # fmt: skip
    return cases


def _random_bits(dtype: torch.dtype, rows: int, cols: int, seed: int) -> torch.Tensor:
    """Random bit patterns of ``dtype`` (every special value), on the GPU."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    width = 8 * dtype.itemsize
    raw = torch.randint(-(1 << (width - 1)), 1 << (width - 1), (rows, cols), device="cuda",
                        generator=gen)  # fmt: skip
    return raw.to(torch.int16 if width == 16 else torch.int32).view(dtype)


def stage_layouts(failures: list[str]) -> int:
    cases = 0
    for dtype, err_mode, bound in itertools.product(AMAX_DTYPES, ("mae", "mse"), BOUNDS):
        variant = Variant(dtype, "1x16", False, err_mode, bound)
        inputs = []
        for (rows, cols), kind, along in itertools.product(
            SHAPES + ROWWISE_ONLY_SHAPES, KINDS, ("rows", "columns")
        ):
            if along == "columns" and rows % 16:
                continue
            seed = zlib.crc32(f"verify_layouts/{variant}/{rows}x{cols}/{kind}/{along}".encode())
            inputs.append((f"{kind} {along} {rows}x{cols}", dual_case(kind, variant, rows, cols,
                                                                     along, seed)))  # fmt: skip
        bits = _random_bits(dtype, 2064, 1040, zlib.crc32(f"verify_layouts/{variant}".encode()))
        inputs.append(("random bits 2064x1040", (bits, fos_reference.nan_amax(bits))))
        for label, (x, gamax) in inputs:
            reference = reference_outputs(x, gamax, variant.knobs)
            for (rowwise, columnwise), swizzle in itertools.product(LAYOUTS, (False, True)):
                if columnwise and x.shape[0] % 16:
                    continue
                got = poisoned_outputs(x, rowwise, columnwise, swizzle)
                fos_cutedsl.launch_quantize_rowwise_columnwise(x, gamax, *got, err_mode, bound)
                want = wanted_outputs(reference, rowwise, columnwise, swizzle)
                cases += 1
                if not all(g is None or torch.equal(g.reshape(-1), w)
                           for g, w in zip(got, want, strict=True)):  # fmt: skip
                    failures.append(f"layouts {variant} {label} {rowwise} {columnwise} {swizzle}")
    return cases


def stage_dequantize(failures: list[str]) -> int:
    cases = 0
    for out_dtype in OUT_DTYPES:
        for bound in BOUNDS:
            for row_scaled in (False, True):
                for kind in DEQUANT_KINDS:
                    for rows, cols in dequant_shapes():
                        key = f"{out_dtype}/{bound}/{row_scaled}/{kind}/{rows}x{cols}"
                        case = make_dequant_case(
                            kind, rows, cols, row_scaled, bound, zlib.crc32(key.encode())
                        )
                        codes, scales, gamax = (t.cuda() for t in case)
                        want = fos_reference.dequantize(
                            codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype
                        )
                        got = _dequantize(codes, scales, gamax, bound, out_dtype)
                        cases += 1
                        bad = dequant_mismatch(got, want)
                        if bad:
                            failures.append(f"dequantize {key}: {bad}")
    return cases


def stage_large(failures: list[str], skipped: list[str]) -> int:
    cols = 16384
    rows = (2**31 + 2**20) // cols + 1
    free, _ = torch.cuda.mem_get_info()
    if free < 4 * rows * cols * 2:
        skipped.append(f"large: {free / 2**30:.1f} GiB free")
        return 0
    gen = torch.Generator(device="cuda").manual_seed(11)
    x = torch.empty(rows, cols, device="cuda", dtype=torch.bfloat16)
    for r in range(0, rows, 8192):
        x[r : r + 8192].normal_(generator=gen)
    x[-1, -1] = -12345.0
    x[rows // 2, 7] = float("nan")
    for per_row in (False, True):
        if not same_f32_bits(_amax(x, per_row), reference_amax_chunked(x, per_row, 8192)):
            failures.append(f"large amax per_row={per_row}")
    del x
    codes = torch.randint(0, 256, (rows, cols // 2), device="cuda", dtype=torch.uint8)
    scales = torch.randint(0, 256, (rows, cols // 16), device="cuda", dtype=torch.uint8)
    scales = scales.view(torch.float8_e4m3fn)
    gamax = torch.rand(rows, device="cuda") * 100
    out = _dequantize(codes, scales, gamax, 256, torch.bfloat16)
    for r in range(0, rows, 8192):
        s = slice(r, r + 8192)
        bad = dequant_mismatch(out[s], fos_reference.dequantize(codes[s], scales[s], gamax[s]))
        if bad:
            failures.append(f"large dequantize rows {r}..: {bad}")
            break
    return 3


def main() -> int:
    stages = {
        "amax": lambda failures, _: stage_amax(failures),
        "amax_fuzz": lambda failures, _: stage_amax_fuzz(failures),
        "dequantize": lambda failures, _: stage_dequantize(failures),
        "row_amax": lambda failures, _: stage_row_amax(failures),
        "grouped": lambda failures, _: stage_grouped(failures),
        "layouts": lambda failures, _: stage_layouts(failures),
        "large": stage_large,
    }
    return run_stages(__doc__.splitlines()[0], "gpu_verify_elementwise.json", stages)


if __name__ == "__main__":
    raise SystemExit(main())
