"""Cases and bitwise comparison for the fake-quantize kernels.

Shared by ``test_fake_quantize_kernel.py`` and ``gpu_verify_fake.py``. The
inputs are ``cutedsl_cases``' (every adversarial kind of the quantize tests);
the shapes add the fake-quantize edges: one row, 17 rows, ragged last CTAs and
the persistent kernel's ragged last unit (a total group count that is not a
multiple of its 128-group unit), C = 16 and C = 7168.
"""

from __future__ import annotations

import itertools
import zlib

import torch
from cutedsl_cases import KINDS, Variant, make_case, variants
from elementwise_cases import dequant_mismatch

import fos_cutedsl
import fos_reference

OUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
_INT_VIEW = {2: torch.int16, 4: torch.int32}
# NaN sentinels with a payload no kernel NaN has: an element left unwritten shows up.
_POISON = {torch.bfloat16: 0x7FA5, torch.float16: 0x7DA5, torch.float32: 0x7FA5A5A5}
NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}


def fake_variants() -> list[tuple[Variant, torch.dtype]]:
    """Every (quantize variant, output dtype): 108 compiled fake-quantize variants."""
    return list(itertools.product(variants(), OUT_DTYPES))


def fake_shapes(block: str) -> tuple[tuple[int, int], ...]:
    """Edge shapes per block (16x16 rows are multiples of 16)."""
    if block == "16x16":
        return ((16, 16), (16, 48), (48, 1136), (16 * 33, 80), (32, 7168))
    # (1, 16): one group; (17, 7168): 7616 groups, a ragged persistent unit and CTA;
    # (37, 48), (301, 208): ragged CTAs; (3, 16 * 129): one group past a unit.
    return ((1, 16), (1, 272), (17, 16), (17, 7168), (37, 48), (301, 208), (3, 16 * 129))


def poisoned(shape, dtype: torch.dtype, device) -> torch.Tensor:
    """An output buffer filled with ``dtype``'s NaN sentinel."""
    ints = _INT_VIEW[torch.empty((), dtype=dtype).element_size()]
    return torch.full(shape, _POISON[dtype], dtype=ints, device=device).view(dtype)


def mismatch(got: torch.Tensor, want: torch.Tensor) -> str:
    """Empty when ``got`` has ``want``'s bits, NaN-ness only where both are NaN, and no
    element still holds the sentinel."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"shape/dtype {tuple(got.shape)} {got.dtype} vs {tuple(want.shape)} {want.dtype}"
    ints = _INT_VIEW[got.element_size()]
    unwritten = got.view(ints) == torch.tensor(_POISON[got.dtype], dtype=torch.int64).to(ints)
    if bool(unwritten.any()):
        first = tuple(unwritten.nonzero()[0].tolist())
        return f"{int(unwritten.sum())} of {got.numel()} elements unwritten; first at {first}"
    return dequant_mismatch(got, want)


def run_kernel(x, gamax, variant: Variant, out_dtype: torch.dtype) -> torch.Tensor:
    """``launch_fake_quantize`` into a poisoned buffer."""
    out = poisoned(tuple(x.shape), out_dtype, x.device)
    fos_cutedsl.launch_fake_quantize(x, gamax, out, variant.block, variant.err_mode, variant.bound)
    return out


def check_variant(variant: Variant, out_dtype: torch.dtype, kinds=KINDS) -> list[str]:
    """Every kind and edge shape of one fake-quantize variant on the GPU: the failures."""
    failures = []
    for kind in kinds:
        for i, (rows, cols) in enumerate(fake_shapes(variant.block)):
            seed = zlib.crc32(f"fake/{variant}/{NAMES[out_dtype]}/{kind}/{i}".encode())
            x, gamax = make_case(kind, variant, rows, cols, seed, "cuda")
            knobs = {**variant.knobs, "out_dtype": out_dtype}
            ok, why = fos_cutedsl.can_run_fake_quantize(x, gamax, **knobs)
            where = f"{variant} -> {NAMES[out_dtype]} {kind} ({rows}, {cols})"
            if not ok:
                failures.append(f"{where}: cannot run: {why}")
                continue
            want = fos_reference.fake_quantize(x, gamax, **knobs)
            bad = mismatch(run_kernel(x, gamax, variant, out_dtype), want)
            if bad:
                failures.append(f"{where}: {bad}")
    return failures
