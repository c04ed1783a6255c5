"""fos_op's ops give the reference's bits, eager and compiled, and pass opcheck.

On the CPU the op runs the reference, so these tests pin the op plumbing:
registration, schema, fake impls (shapes and dtypes exactly the real ones),
torch.compile(fullgraph=True) bit-identical to eager, and the Python API
equal to direct ``torch.ops.fos`` calls.
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op
import fos_reference

MODES = [
    ("1x16", "mae", 256, False),
    ("1x16", "mse", 448, False),
    ("1x16", "mae", 448, True),
    ("1x16", "mse", 256, True),
    ("16x16", "mae", 256, False),
    ("16x16", "mse", 448, False),
]
# test_schema is left out: torch's schema checker compares float8 tensors with
# allclose, which has no CPU float8 kernel; the schema itself is checked below.
OPCHECK_UTILS = ("test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


def _inputs(rows, cols, dtype, row_scaled, seed=0, transpose=False):
    gen = torch.Generator().manual_seed(seed)
    if transpose:  # a non-contiguous view with the requested shape
        x = (torch.randn(cols, rows, generator=gen) * 3).to(dtype).t()
    else:
        x = (torch.randn(rows, cols, generator=gen) * 3).to(dtype)
    gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
    return x, gamax


def _assert_same(got, want):
    assert torch.equal(got[0], want[0])
    assert torch.equal(got[1].view(torch.uint8), want[1].view(torch.uint8))


def test_schemas_are_functional():
    """Neither op mutates or aliases its inputs."""
    for op in (torch.ops.fos.quantize.default, torch.ops.fos.dequantize.default):
        schema = op._schema
        assert not schema.is_mutable
        assert all(a.alias_info is None for a in schema.arguments)
        assert all(r.alias_info is None for r in schema.returns)
    assert "int e4m3_scale_bound" in str(torch.ops.fos.quantize.default._schema)


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_op_equals_reference(block, err_mode, bound, row_scaled, dtype):
    x, gamax = _inputs(48, 96, dtype, row_scaled, seed=hash((block, err_mode, bound)) % 1000)
    x[3, 5] = float("nan")
    x[7, :16] = 0
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    want = fos_reference.quantize(x, gamax, **knobs)
    _assert_same(fos_op.quantize(x, gamax, **knobs), want)
    _assert_same(torch.ops.fos.quantize(x, gamax, block, err_mode, bound), want)
    x_hat = fos_op.dequantize(*want, gamax, e4m3_scale_bound=bound, out_dtype=dtype)
    ref_hat = fos_reference.dequantize(*want, gamax, e4m3_scale_bound=bound, out_dtype=dtype)
    assert torch.equal(x_hat.view(torch.uint8), ref_hat.view(torch.uint8))


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
def test_compiled_equals_eager(block, err_mode, bound, row_scaled):
    x, gamax = _inputs(32, 64, torch.bfloat16, row_scaled, seed=3)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}

    def roundtrip(x, gamax):
        codes, scales = fos_op.quantize(x, gamax, **knobs)
        x_hat = fos_op.dequantize(codes, scales, gamax, e4m3_scale_bound=bound)
        return codes, scales, x_hat

    torch._dynamo.reset()  # a fresh compile per mode: no recompile limit across the sweep
    compiled = torch.compile(roundtrip, fullgraph=True)
    eager = roundtrip(x, gamax)
    got = compiled(x, gamax)
    _assert_same(got[:2], eager[:2])
    assert torch.equal(got[2].view(torch.uint8), eager[2].view(torch.uint8))


@pytest.mark.parametrize(
    "rows,cols,row_scaled,transpose",
    [(16, 16, False, False), (5, 48, True, False), (32, 32, False, True), (1, 160, True, False)],
)
def test_opcheck_quantize(rows, cols, row_scaled, transpose):
    x, gamax = _inputs(rows, cols, torch.bfloat16, row_scaled, transpose=transpose)
    torch.library.opcheck(
        torch.ops.fos.quantize.default, (x, gamax, "1x16", "mse", 448), test_utils=OPCHECK_UTILS
    )
    if rows % 16 == 0 and not row_scaled:
        torch.library.opcheck(
            torch.ops.fos.quantize.default,
            (x, gamax, "16x16", "mae", 256),
            test_utils=OPCHECK_UTILS,
        )


@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_opcheck_dequantize(out_dtype):
    x, gamax = _inputs(16, 64, torch.float32, row_scaled=True)
    codes, scales = fos_reference.quantize(x, gamax)
    torch.library.opcheck(
        torch.ops.fos.dequantize.default,
        (codes, scales, gamax, 256, out_dtype),
        test_utils=OPCHECK_UTILS,
    )


def test_empty_inputs():
    """Zero rows or zero columns give empty outputs of the right shapes."""
    for rows, cols in ((0, 32), (4, 0)):
        x = torch.zeros(rows, cols, dtype=torch.bfloat16)
        gamax = torch.ones((), dtype=torch.float32)
        codes, scales = fos_op.quantize(x, gamax)
        assert codes.shape == (rows, cols // 2) and codes.dtype == torch.uint8
        assert scales.shape == (rows, cols // 16) and scales.dtype == torch.float8_e4m3fn


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
def test_fake_outputs_match_real(block, err_mode, bound, row_scaled):
    """Fake impls allocate exactly the real outputs' shapes, dtypes and strides."""
    x, gamax = _inputs(32, 80, torch.float16, row_scaled)
    real = torch.ops.fos.quantize(x, gamax, block, err_mode, bound)
    with FakeTensorMode() as mode:
        fx, fg = mode.from_tensor(x), mode.from_tensor(gamax)
        fake = torch.ops.fos.quantize(fx, fg, block, err_mode, bound)
        fake_hat = torch.ops.fos.dequantize(fake[0], fake[1], fg, bound, torch.float32)
    real_hat = torch.ops.fos.dequantize(real[0], real[1], gamax, bound, torch.float32)
    for r, f in zip((*real, real_hat), (*fake, fake_hat), strict=True):
        assert (r.shape, r.dtype, r.stride()) == (f.shape, f.dtype, f.stride())
