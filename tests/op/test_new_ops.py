"""nan_amax, quantize_with_amax, dequantize and fake_quantize through fos_op, on the CPU.

Contract: every entry point (Python API, ``torch.ops.fos.*``, compiled with
``fullgraph=True``) gives ``fos_reference``'s bits for (..., C) inputs; fake
impls allocate exactly the real outputs (shape, dtype, stride); opcheck passes;
``fake_quantize``'s gradient is the straight-through estimator (the upstream
gradient cast to x's dtype, none for the amax).
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op
import fos_reference as ref

# test_schema compares float8 outputs with allclose, which has no CPU float8 kernel.
OPCHECK_F8 = ("test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
OPCHECK_ALL = ("test_schema", *OPCHECK_F8)
SHAPES = [(32, 64), (2, 8, 32), (3, 5, 16), (64,), (2, 1, 16, 48)]
MODES = [("1x16", "mae", 256), ("1x16", "mse", 448), ("16x16", "mae", 448), ("16x16", "mse", 256)]


def _x(shape, dtype=torch.bfloat16, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(shape, generator=gen) * 3).to(dtype)
    flat = x.view(-1)
    flat[1] = float("nan")
    flat[min(40, flat.numel() - 1)] = float("-inf")
    flat[16:32] = 0
    return x


def _bits(t):
    return (
        t.view(torch.uint8)
        if t.element_size() == 1
        else t.view(torch.int16 if t.element_size() == 2 else torch.int32)
    )


def _same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(_bits(a), _bits(b))


def _tiles_ok(shape, block, row):
    rows = torch.Size(shape[:-1]).numel()
    return block == "1x16" or (rows % 16 == 0 and not row)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_nan_amax_equals_reference(shape, dtype):
    x = _x(shape, dtype)
    for dim in (None, -1, 0, x.dim() - 1):
        want = ref.nan_amax(x, dim)
        assert _same(fos_op.nan_amax(x, dim), want)
        assert _same(torch.ops.fos.nan_amax(x, dim), want)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("row", [False, True])
def test_every_entry_point_nd(shape, block, err_mode, bound, row):
    if not _tiles_ok(shape, block, row):
        pytest.skip("16x16 needs 16k flattened rows and a per-tensor amax")
    x = _x(shape, seed=len(shape))
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    dim = -1 if row else None
    gamax = ref.nan_amax(x, dim)
    codes, scales = ref.quantize(x, gamax, **knobs)
    lead = x.shape[:-1]
    assert codes.shape == (*lead, x.shape[-1] // 2) and scales.shape == (*lead, x.shape[-1] // 16)
    for got in (fos_op.quantize(x, gamax, **knobs),
                torch.ops.fos.quantize(x, gamax, block, err_mode, bound)):  # fmt: skip
        assert _same(got[0], codes) and _same(got[1], scales)
    for got in (fos_op.quantize_with_amax(x, dim=dim, **knobs),
                torch.ops.fos.quantize_with_amax(x, dim, block, err_mode, bound)):  # fmt: skip
        assert _same(got[0], codes) and _same(got[1], scales) and _same(got[2], gamax)
    for out_dtype in (torch.bfloat16, torch.float32):
        want = ref.dequantize(codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype)
        got = fos_op.dequantize(codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype)
        assert _same(got, want)
        assert _same(torch.ops.fos.dequantize(codes, scales, gamax, bound, out_dtype), want)
        fq = ref.fake_quantize(x, gamax, out_dtype=out_dtype, **knobs)
        assert _same(fq, want)
        assert _same(fos_op.fake_quantize(x, gamax, out_dtype=out_dtype, **knobs), fq)
        args = (x, gamax, block, err_mode, bound, out_dtype)
        assert _same(torch.ops.fos.fake_quantize(*args), fq)
    if not row:  # global_amax None: the per-tensor amax of x
        assert _same(fos_op.fake_quantize(x, **knobs), ref.fake_quantize(x, gamax, **knobs))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("row", [False, True])
def test_fakes_match_real(shape, row):
    """Fake outputs have the real outputs' shapes, dtypes and strides, for every op."""
    x = _x(shape, torch.float16)
    dim = -1 if row else None
    gamax = ref.nan_amax(x, dim)
    codes, scales = ref.quantize(x, gamax)
    calls = [
        lambda x, g, c, s: [torch.ops.fos.nan_amax(x, dim)],
        lambda x, g, c, s: [torch.ops.fos.nan_amax(x, 0)],
        lambda x, g, c, s: torch.ops.fos.quantize(x, g, "1x16", "mse", 256),
        lambda x, g, c, s: torch.ops.fos.quantize_with_amax(x, dim, "1x16", "mae", 448),
        lambda x, g, c, s: [torch.ops.fos.dequantize(c, s, g, 256, torch.float32)],
        lambda x, g, c, s: [torch.ops.fos.fake_quantize(x, g, "1x16", "mae", 256, None)],
        lambda x, g, c, s: [
            torch.ops.fos.fake_quantize(x, None, "1x16", "mse", 448, torch.float32)
        ],
    ]
    for call in calls:
        real = call(x, gamax, codes, scales)
        with FakeTensorMode() as mode:
            fake = call(*(mode.from_tensor(t) for t in (x, gamax, codes, scales)))
        for r, f in zip(real, fake, strict=True):
            assert (r.shape, r.dtype, r.stride()) == (f.shape, f.dtype, f.stride())


@pytest.mark.parametrize("x_dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("out_dtype", [None, torch.bfloat16, torch.float32])
def test_fake_quantize_straight_through_gradient(x_dtype, out_dtype):
    x = _x((4, 8, 32), x_dtype).requires_grad_()
    gamax = ref.nan_amax(x.detach()).requires_grad_()
    y = fos_op.fake_quantize(x, gamax, out_dtype=out_dtype)
    assert y.dtype == (x_dtype if out_dtype is None else out_dtype)
    upstream = torch.randn(y.shape, generator=torch.Generator().manual_seed(5)).to(y.dtype)
    upstream.view(-1)[3] = float("nan")  # no masking: NaN and all pass straight through
    gx, gg = torch.autograd.grad(y, (x, gamax), upstream, allow_unused=True)
    assert gx.dtype == x_dtype and _same(gx, upstream.to(x_dtype))
    assert gg is None
    assert _same(y.detach(), ref.fake_quantize(x.detach(), gamax.detach(), out_dtype=out_dtype))


def test_fake_quantize_gradient_under_compile():
    x = _x((32, 64), torch.bfloat16).requires_grad_()

    def step(x):
        return (fos_op.fake_quantize(x, err_mode="mse") * 2).float().sum()

    torch._dynamo.reset()
    compiled = torch.compile(step, fullgraph=True)
    (g_eager,) = torch.autograd.grad(step(x), x)
    (g_compiled,) = torch.autograd.grad(compiled(x), x)
    assert _same(g_compiled, g_eager) and torch.all(g_eager == 2)


@pytest.mark.parametrize("shape", [(16, 32), (2, 8, 48), (0, 32), (1, 16)])
def test_opcheck_new_ops(shape):
    # Finite inputs: opcheck's output comparison counts NaN as a mismatch.
    x = (torch.randn(shape, generator=torch.Generator().manual_seed(2)) * 3).to(torch.bfloat16)
    xt = x.transpose(0, -2) if x.dim() > 1 else x  # a non-contiguous input
    rows16 = torch.Size(shape[:-1]).numel() % 16 == 0
    for t in (x, xt.contiguous().transpose(0, -2) if x.dim() > 1 else x):
        gamax = ref.nan_amax(t)
        torch.library.opcheck(torch.ops.fos.nan_amax.default, (t, None), test_utils=OPCHECK_ALL)
        torch.library.opcheck(torch.ops.fos.nan_amax.default, (t, -1), test_utils=OPCHECK_ALL)
        torch.library.opcheck(torch.ops.fos.quantize_with_amax.default,
                              (t, -1, "1x16", "mse", 448), test_utils=OPCHECK_F8)  # fmt: skip
        if rows16:
            args = (t, None, "16x16", "mae", 256)
            torch.library.opcheck(torch.ops.fos.quantize_with_amax.default, args,
                                  test_utils=OPCHECK_F8)  # fmt: skip
        for out_dtype in (None, torch.float32):
            torch.library.opcheck(torch.ops.fos.fake_quantize.default,
                                  (t, gamax, "1x16", "mae", 256, out_dtype),
                                  test_utils=OPCHECK_ALL)  # fmt: skip
        torch.library.opcheck(torch.ops.fos.fake_quantize.default,
                              (t, None, "1x16", "mse", 448, torch.bfloat16),
                              test_utils=OPCHECK_ALL)  # fmt: skip


def test_opcheck_fake_quantize_with_grad():
    x = torch.randn(16, 32, generator=torch.Generator().manual_seed(4)).requires_grad_()
    torch.library.opcheck(torch.ops.fos.fake_quantize.default,
                          (x, None, "1x16", "mae", 256, None), test_utils=OPCHECK_ALL)  # fmt: skip


@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("shape", [(32, 64), (2, 16, 32)])
def test_compiled_equals_eager(block, err_mode, bound, shape):
    x = _x(shape)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    dim = None if block == "16x16" else -1

    def job(x):
        gamax = fos_op.nan_amax(x, dim)
        codes, scales = fos_op.quantize(x, gamax, **knobs)
        c2, s2, g2 = fos_op.quantize_with_amax(x, dim=dim, **knobs)
        x_hat = fos_op.dequantize(codes, scales, gamax, e4m3_scale_bound=bound)
        fq = fos_op.fake_quantize(x, gamax, out_dtype=torch.float32, **knobs)
        fq_none = fos_op.fake_quantize(x, **knobs)
        return gamax, codes, scales, c2, s2, g2, x_hat, fq, fq_none

    torch._dynamo.reset()
    compiled = torch.compile(job, fullgraph=True)
    for got, want in zip(compiled(x), job(x), strict=True):
        assert _same(got, want)
