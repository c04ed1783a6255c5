"""fos_op's layout ops give the reference's bits, eager and compiled, with exact fakes.

Contract under test (on the CPU, where the ops run the reference):
``quantize_rowwise_columnwise`` returns ``fos_reference.quantize(x)`` and the
quantize of ``x.t().contiguous()`` (``quantize_columnwise``) under one
per-tensor amax, over every knob, dtype and input kind; ``swizzle=True`` gives
``fos_reference.swizzle_scales`` of each; ``fake_quantize_columnwise`` is the
reference's, in x's shape, column-major, with a straight-through gradient; the
registered ops pass opcheck, their fakes allocate exactly the real outputs,
torch.compile(fullgraph=True) gives eager's bits, and bad inputs raise
``ValueError`` / ``TypeError`` through every entry point.
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op
import fos_reference as R

KINDS = ["random", "specials", "zero_rows", "tiny", "huge"]


def make_input(kind: str, rows: int, cols: int, dtype: torch.dtype, seed: int = 0):
    """An (R, C) input of one kind and its per-tensor amax (sometimes not x's own)."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, cols, generator=gen) * 4
    gamax = None
    if kind == "specials":  # NaN, +-Inf, -0 and tiny negatives, down the columns
        x[3, :] = float("nan")
        x[:, 1] = -0.0
        x[5, 2] = float("inf")
        x[6, 7] = float("-inf")
        x[:16, 3] = -1e-30
    elif kind == "zero_rows":  # zero rows of x and a zero column (all-zero groups of x^T)
        x[2:5] = 0
        x[:, 0] = 0
    elif kind == "tiny":  # subnormal scales: tiny blocks under a large global amax
        x[:, : cols // 2] *= 1e-6
        gamax = torch.full((), 1e4, dtype=torch.float32)
    elif kind == "huge":  # saturating scales: a small global amax under large data
        gamax = torch.full((), 0.5, dtype=torch.float32)
    x = x.to(dtype)
    return x, (R.nan_amax(x) if gamax is None else gamax)


OPCHECK_UTILS = ("test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
MODES = [("1x16", "mae", 256), ("1x16", "mse", 448), ("16x16", "mae", 448), ("16x16", "mse", 256)]
DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def _b(t):
    return None if t is None else t.view(torch.uint8)


def _eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(_b(a), _b(b))


def _want(x, gamax, swizzle=False, **knobs):
    rc, rs = R.quantize(x, gamax, **knobs)
    cc, cs = R.quantize(x.t().contiguous(), gamax, **knobs)
    if swizzle:
        rs, cs = R.swizzle_scales(rs), R.swizzle_scales(cs)
    return rc, rs, cc, cs


@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("swizzle", [False, True])
def test_rowwise_columnwise_equals_reference(block, err_mode, bound, dtype, kind, swizzle):
    x, gamax = make_input(kind, 144, 80, dtype, seed=len(kind) + 3)  # R % 128 != 0, G = 5, 9
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    want = _want(x, gamax, swizzle, **knobs)
    got = fos_op.quantize_rowwise_columnwise(x, gamax, swizzle=swizzle, **knobs)
    assert isinstance(got, fos_op.RowwiseColumnwise) and got.global_amax is gamax
    assert all(_eq(g, w) for g, w in zip(got[:4], want, strict=True))
    op = torch.ops.fos.quantize_rowwise_columnwise(x, gamax, True, True, *knobs.values(), swizzle)
    assert all(_eq(g, w) for g, w in zip(op, want, strict=True))


@pytest.mark.parametrize("rowwise,columnwise", [(True, False), (False, True)])
def test_one_layout_only_and_default_amax(rowwise, columnwise):
    x, _ = make_input("specials", 32, 48, torch.bfloat16, seed=1)
    got = fos_op.quantize_rowwise_columnwise(x, rowwise=rowwise, columnwise=columnwise)
    gamax = R.nan_amax(x)
    assert torch.equal(got.global_amax, gamax)
    rc, rs, cc, cs = _want(x, gamax)
    want = (rc, rs, None, None) if rowwise else (None, None, cc, cs)
    assert all(_eq(g, w) for g, w in zip(got[:4], want, strict=True))


def test_rowwise_only_takes_a_row_scaled_amax():
    x, _ = make_input("random", 8, 32, torch.float32)
    gamax = R.nan_amax(x, dim=-1)
    got = fos_op.quantize_rowwise_columnwise(x, gamax, columnwise=False)
    assert _eq(got.rowwise_codes, R.quantize(x, gamax)[0])


@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_columnwise_and_its_fake_quantize_equal_reference(block, err_mode, bound, dtype):
    x, gamax = make_input("specials", 48, 32, dtype, seed=11)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    want = R.quantize_columnwise(x, gamax, **knobs)
    assert all(
        _eq(g, w) for g, w in zip(fos_op.quantize_columnwise(x, gamax, **knobs), want, strict=True)
    )
    op = torch.ops.fos.quantize_columnwise(x, gamax, *knobs.values())
    assert all(_eq(g, w) for g, w in zip(op, want, strict=True))
    want_hat = R.fake_quantize_columnwise(x, gamax, **knobs)
    for out_dtype in (None, torch.float32):
        got = fos_op.fake_quantize_columnwise(x, gamax, out_dtype=out_dtype, **knobs)
        ref = R.fake_quantize_columnwise(x, gamax, out_dtype=out_dtype, **knobs)
        assert got.shape == x.shape and got.stride() == ref.stride() == (1, 48)
        assert torch.equal(_b(got.t().contiguous()), _b(ref.t().contiguous()))
    default = fos_op.fake_quantize_columnwise(x, **knobs)
    assert torch.equal(
        _b(default.t()), _b(R.fake_quantize_columnwise(x, R.nan_amax(x), **knobs).t())
    )
    assert want_hat.dtype == dtype


def test_fake_quantize_columnwise_straight_through_gradient():
    x = torch.randn(32, 16, dtype=torch.bfloat16, requires_grad=True)
    y = fos_op.fake_quantize_columnwise(x, out_dtype=torch.float32)
    grad = torch.randn(32, 16, dtype=torch.float32)
    y.backward(grad)
    assert x.grad.dtype == torch.bfloat16 and torch.equal(x.grad, grad.to(torch.bfloat16))


@pytest.mark.parametrize("rows,groups", [(1, 1), (5, 3), (129, 5), (256, 8)])
def test_swizzle_ops_equal_reference(rows, groups):
    gen = torch.Generator().manual_seed(rows)
    scales = torch.randint(0, 127, (rows, groups), generator=gen, dtype=torch.uint8)
    scales = scales.view(torch.float8_e4m3fn)
    want = R.swizzle_scales(scales)
    for got in (fos_op.swizzle_scales(scales), torch.ops.fos.swizzle_scales(scales)):
        assert _eq(got, want)
    for back in (
        fos_op.unswizzle_scales(want, rows, groups),
        torch.ops.fos.unswizzle_scales(want, rows, groups),
    ):
        assert _eq(back, scales)


def test_codes_as_float4():
    x, gamax = make_input("random", 32, 32, torch.bfloat16)
    out = fos_op.quantize_rowwise_columnwise(x, gamax)
    if R.FLOAT4_E2M1FN_X2 is None:
        pytest.skip(f"torch {torch.__version__} has no float4_e2m1fn_x2")
    for codes in (out.rowwise_codes, out.columnwise_codes):
        f4 = fos_op.as_float4(codes)
        assert f4.dtype == torch.float4_e2m1fn_x2 and torch.equal(f4.view(torch.uint8), codes)


@pytest.mark.parametrize("block,err_mode,bound", MODES)
def test_compiled_equals_eager(block, err_mode, bound):
    x, gamax = make_input("specials", 144, 48, torch.bfloat16, seed=5)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}

    def step(x, gamax):
        both = fos_op.quantize_rowwise_columnwise(x, gamax, swizzle=True, **knobs)
        col = fos_op.quantize_columnwise(x, gamax, **knobs)
        x_hat = fos_op.fake_quantize_columnwise(x, gamax, **knobs)
        back = fos_op.unswizzle_scales(both.rowwise_scales, 144, 3)
        f4 = fos_op.as_float4(both.columnwise_codes) if R.FLOAT4_E2M1FN_X2 is not None else None
        return (*both[:4], *col, x_hat, back, f4)

    torch._dynamo.reset()
    got = torch.compile(step, fullgraph=True)(x, gamax)
    eager = step(x, gamax)
    for g, e in zip(got, eager, strict=True):
        if g is None:
            assert e is None
            continue
        assert g.shape == e.shape and g.dtype == e.dtype and g.stride() == e.stride()
        assert torch.equal(g.contiguous().view(torch.uint8), e.contiguous().view(torch.uint8))


@pytest.mark.parametrize("rows,cols,transpose", [(16, 16, False), (48, 80, False), (32, 48, True)])
def test_opcheck(rows, cols, transpose):
    x, gamax = make_input("random", cols if transpose else rows, rows if transpose else cols,
                          torch.bfloat16)  # fmt: skip
    x = x.t() if transpose else x
    for args in ((True, True, "1x16", "mse", 448, True), (False, True, "16x16", "mae", 256, False),
                 (True, False, "1x16", "mae", 256, False)):  # fmt: skip
        torch.library.opcheck(torch.ops.fos.quantize_rowwise_columnwise.default, (x, gamax, *args),
                              test_utils=OPCHECK_UTILS)  # fmt: skip
    torch.library.opcheck(torch.ops.fos.quantize_columnwise.default, (x, gamax, "1x16", "mae", 256),
                          test_utils=OPCHECK_UTILS)  # fmt: skip
    for g in (gamax, None):
        xg = x.detach().float().requires_grad_()
        torch.library.opcheck(torch.ops.fos.fake_quantize_columnwise.default,
                              (xg, g, "1x16", "mae", 256, torch.bfloat16),
                              test_utils=OPCHECK_UTILS)  # fmt: skip
    _, scales = R.quantize(x, gamax)
    torch.library.opcheck(torch.ops.fos.swizzle_scales.default, (scales,), test_utils=OPCHECK_UTILS)
    swz = R.swizzle_scales(scales)
    torch.library.opcheck(torch.ops.fos.unswizzle_scales.default, (swz, rows, cols // 16),
                          test_utils=OPCHECK_UTILS)  # fmt: skip


def test_fake_outputs_match_real():
    """Fakes allocate exactly the real outputs' shapes, dtypes and strides."""
    x, gamax = make_input("random", 144, 80, torch.float16)
    _, scales = R.quantize(x, gamax)
    swz = R.swizzle_scales(scales)
    calls = [
        lambda x, g, s, w: torch.ops.fos.quantize_rowwise_columnwise(
            x, g, True, True, "1x16", "mae", 256, True
        ),
        lambda x, g, s, w: torch.ops.fos.quantize_rowwise_columnwise(
            x, g, False, True, "16x16", "mse", 448, False
        ),
        lambda x, g, s, w: torch.ops.fos.quantize_columnwise(x, g, "1x16", "mae", 256),
        lambda x, g, s, w: (
            torch.ops.fos.fake_quantize_columnwise(x, g, "1x16", "mae", 256, None),
        ),
        lambda x, g, s, w: (
            torch.ops.fos.fake_quantize_columnwise(x, None, "16x16", "mae", 256, torch.float32),
        ),
        lambda x, g, s, w: (torch.ops.fos.swizzle_scales(s),),
        lambda x, g, s, w: (torch.ops.fos.unswizzle_scales(w, 144, 5),),
    ]
    for call in calls:
        real = call(x, gamax, scales, swz)
        with FakeTensorMode() as mode:
            fake = call(*(mode.from_tensor(t) for t in (x, gamax, scales, swz)))
        for r, f in zip(real, fake, strict=True):
            if r is None:
                assert f is None
                continue
            assert (r.shape, r.dtype, r.stride()) == (f.shape, f.dtype, f.stride())


def test_bad_inputs_raise_through_every_entry_point():
    x24 = torch.randn(24, 32, dtype=torch.bfloat16)
    g = R.nan_amax(x24)
    entry_points = [
        lambda x, g: fos_op.quantize_rowwise_columnwise(x, g),
        lambda x, g: torch.ops.fos.quantize_rowwise_columnwise(
            x, g, True, True, "1x16", "mae", 256, False
        ),
        lambda x, g: fos_op.quantize_columnwise(x, g),
        lambda x, g: fos_op.fake_quantize_columnwise(x, g),
        lambda x, g: fos_op.fake_quantize_columnwise(x.requires_grad_(), g),  # the op
    ]
    for call in entry_points:
        with pytest.raises(ValueError, match="row count R to be a multiple of 16"):
            call(x24.clone(), g)
    torch._dynamo.reset()  # under compile the fake raises it, wrapped by dynamo
    with pytest.raises(RuntimeError, match="row count R to be a multiple of 16"):
        torch.compile(fos_op.quantize_columnwise, fullgraph=True)(x24, g)
    x = torch.randn(32, 32, dtype=torch.bfloat16)
    for call in entry_points[:4]:
        with pytest.raises(ValueError, match="per-tensor global_amax"):
            call(x, R.nan_amax(x, dim=-1))
    with pytest.raises(ValueError, match="at least one layout"):
        fos_op.quantize_rowwise_columnwise(x, rowwise=False, columnwise=False)
    with pytest.raises(ValueError, match="2-D"):
        fos_op.quantize_rowwise_columnwise(x.reshape(2, 16, 32))
    with pytest.raises(TypeError, match="rowwise must be a bool"):
        fos_op.quantize_rowwise_columnwise(x, rowwise=1)
    with pytest.raises(TypeError, match="swizzle must be a bool"):
        fos_op.quantize_rowwise_columnwise(x, swizzle="yes")
    with pytest.raises(ValueError, match="column count must be a multiple of 16"):
        fos_op.quantize_rowwise_columnwise(torch.randn(32, 24))  # rowwise needs C % 16
    with pytest.raises(TypeError, match="float8_e4m3fn"):
        fos_op.swizzle_scales(torch.zeros(4, 4, dtype=torch.uint8))
    with pytest.raises(ValueError, match="swizzled must have shape"):
        fos_op.unswizzle_scales(R.swizzle_scales(R.quantize(x, g)[1]), 200, 2)


def test_one_read_kernel_is_never_given_a_row_amax(monkeypatch):
    """Rowwise alone with a row-scaled amax must not reach the one-read kernel (which takes
    one per-tensor amax): its plan is declined before the kernel is asked (CPU: a stand-in
    kernel module that records what it is asked)."""
    from types import SimpleNamespace

    from fos_op import layouts
    from fos_op.dispatch import KERNEL, Decision

    asked = []
    module = SimpleNamespace(
        can_run_quantize_rowwise_columnwise=lambda *a, **k: asked.append(a) or (True, "ok"),
        rowwise_columnwise_buffers=None,
        launch_quantize_rowwise_columnwise=None,
    )
    monkeypatch.setattr(layouts, "decide", lambda x, op: Decision(KERNEL, "pretend"))
    monkeypatch.setattr(layouts.impl, "kernel_module", lambda: module)
    x = torch.randn(32, 48)
    rows = torch.ones(32)
    assert layouts._one_read_plan(x, rows, True, False, "1x16", "mae", 256, False) is None
    assert asked == []
    assert layouts._one_read_plan(x, torch.ones(()), True, True, "1x16", "mae", 256, False)
    assert len(asked) == 1
