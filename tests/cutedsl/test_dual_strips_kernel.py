"""Contract: ``fos_cutedsl.dual_strips`` (warps on 16-row strips) gives the bits of
``fos_reference.quantize`` (rowwise) and ``fos_reference.quantize_columnwise`` (x^T),
either or both, the scales plain or as ``swizzle_scales`` lays them, at every tuning.

CPU part (any machine with CuTe DSL): variants compile for sm_90a and sm_100a and pass
``check.audit_ptx``. GPU part (skips without an sm_90+ GPU): every dtype, both error modes
(with both bounds between them), every layout, plain and swizzled, over every input kind
built along rows and along columns, on shapes with ragged strips (C no multiple of 64),
R / 16 odd and even, a last task past x's end (``blocks`` > 1), every byte the kernel must
write poisoned first; and a persistent grid smaller than the tasks (``sms``), so that
warps draw tasks from the counter; bands of chunks, the last one short.
"""

from __future__ import annotations

import itertools
import zlib

import pytest
import torch
from cutedsl_cases import DTYPES, KINDS, Variant
from cutedsl_gpu import skip_reason
from dual_cases import (
    LAYOUTS,
    ROWWISE_ONLY_SHAPES,
    SHAPES,
    dual_case,
    poisoned_outputs,
    reference_outputs,
    wanted_outputs,
)

import fos_cutedsl

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)

TUNINGS = (
    {"threads": 512, "band": 4},
    {"threads": 512, "blocks": 2, "l2_next": True, "band": 3},
    {"threads": 768, "blocks": 3, "sms": 2},
)


def _id(tuning: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in tuning.items())


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(
    ("dtype", "err_mode", "bound", "swizzle"),
    [("bfloat16", "mae", 256, False), ("float16", "mse", 448, True), ("float32", "mae", 448, True)],
)
@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_variant_compiles_clean(dtype, err_mode, bound, swizzle, layout, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.dual import DualKey
    from fos_cutedsl.dual_strips import compile_strips

    key = DualKey(dtype, err_mode, bound, *layout, swizzle, arch)
    fn = compile_strips(key, extra_options=f"--keep-ptx --dump-dir {tmp_path}", blocks=2)
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == [], (failures, counts)
    assert (counts["ld.v4"] > 0) == layout[0], counts  # rowwise groups' 16-byte loads
    assert "st.shared.v4" not in fn.__ptx__  # nothing staged: no transpose in shared memory


@gpu
@pytest.mark.parametrize("tuning", TUNINGS, ids=_id)
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_bits_equal_reference(dtype, err_mode, bound, tuning):
    from fos_cutedsl.dual import DualKey
    from fos_cutedsl.dual_strips import compile_strips

    variant = Variant(dtype, "1x16", False, err_mode, bound)
    knobs = variant.knobs
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    name = str(dtype).removeprefix("torch.")
    compiled = {
        (layout, swizzle): compile_strips(
            DualKey(name, err_mode, bound, *layout, swizzle, arch), **tuning
        )
        for layout in LAYOUTS
        for swizzle in (False, True)
    }
    shapes = SHAPES + ROWWISE_ONLY_SHAPES + ((96, 160), (80, 4160))
    for (rows, cols), kind, along in itertools.product(shapes, KINDS, ("rows", "columns")):
        if along == "columns" and rows % 16:
            continue
        seed = zlib.crc32(f"strips-{rows}-{cols}-{kind}-{along}".encode()) % 10_000
        x, gamax = dual_case(kind, variant, rows, cols, along, seed)
        reference = reference_outputs(x, gamax, knobs)
        for ((rowwise, columnwise), swizzle), fn in compiled.items():
            if columnwise and rows % 16:
                continue
            got = poisoned_outputs(x, rowwise, columnwise, swizzle)
            unused = x.new_empty(16, dtype=torch.uint8)
            fn(x, gamax.reshape(1), *[unused if t is None else t.view(-1) for t in got])
            want = wanted_outputs(reference, rowwise, columnwise, swizzle)
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                if g is not None:
                    where = (rows, cols, kind, along, rowwise, columnwise, swizzle, i)
                    assert torch.equal(g.reshape(-1), w), where
