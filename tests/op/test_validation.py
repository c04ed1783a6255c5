"""Bad input fails alike through ``fos_op.*`` and direct ``torch.ops.fos.*`` calls.

Each case must raise the reference's TypeError/ValueError naming the argument,
both eagerly and under FakeTensor tracing, never a crash or garbage.
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op

X = torch.randn(32, 64, dtype=torch.bfloat16)
G = torch.ones((), dtype=torch.float32)

QUANTIZE_CASES = [
    ((X.double(), G, "1x16", "mae", 256), TypeError, "x must have dtype"),
    ((X.to(torch.int32), G, "1x16", "mae", 256), TypeError, "x must have dtype"),
    ((X[0, 0], G, "1x16", "mae", 256), ValueError, "x must have at least 1 dim"),
    ((X[:, :40], G, "1x16", "mae", 256), ValueError, "multiple of 16"),
    ((X, G, "8x8", "mae", 256), ValueError, "block must be one of"),
    ((X, G, "1x16", "max", 256), ValueError, "err_mode must be one of"),
    ((X, G, "1x16", "mae", 300), ValueError, "e4m3_scale_bound must be one of"),
    ((X[:20], G, "16x16", "mae", 256), ValueError, "multiple of 16, got 20"),
    ((X, torch.ones(32), "16x16", "mae", 256), ValueError, "per-tensor global_amax"),
    ((X, torch.ones(31), "1x16", "mae", 256), ValueError, "global_amax must hold one element"),
    ((X, torch.ones(32, 1), "1x16", "mae", 256), ValueError, "global_amax must hold"),
    ((X, G.double(), "1x16", "mae", 256), TypeError, "global_amax must be float32"),
    ((X, G.to("meta"), "1x16", "mae", 256), ValueError, "global_amax must be on"),
]


@pytest.mark.parametrize("args,exc,match", QUANTIZE_CASES)
def test_quantize_errors_both_entry_points(args, exc, match):
    x, gamax, block, err_mode, bound = args
    with pytest.raises(exc, match=match):
        fos_op.quantize(x, gamax, block=block, err_mode=err_mode, e4m3_scale_bound=bound)
    with pytest.raises(exc, match=match):
        torch.ops.fos.quantize(x, gamax, block, err_mode, bound)
    with pytest.raises(exc, match=match):
        fos_op.explain(x, gamax, block=block, err_mode=err_mode, e4m3_scale_bound=bound)


@pytest.mark.parametrize("args,exc,match", QUANTIZE_CASES[:8])
def test_quantize_errors_under_fake_tensors(args, exc, match):
    x, gamax, block, err_mode, bound = args
    with FakeTensorMode() as mode, pytest.raises(exc, match=match):
        torch.ops.fos.quantize(mode.from_tensor(x), mode.from_tensor(gamax), block, err_mode, bound)


CODES, SCALES = fos_op.quantize(X, G)

DEQUANTIZE_CASES = [
    ((CODES.to(torch.int16), SCALES, G, 256, torch.bfloat16), TypeError, "codes must be uint8"),
    ((CODES, SCALES.view(torch.uint8), G, 256, torch.bfloat16), TypeError, "scales must be"),
    ((CODES, SCALES[:, :2], G, 256, torch.bfloat16), ValueError, "scales must have shape"),
    ((CODES[:, :12], SCALES, G, 256, torch.bfloat16), ValueError, "multiple of 8"),
    ((CODES, SCALES, G, 100, torch.bfloat16), ValueError, "e4m3_scale_bound"),
    ((CODES, SCALES, G, 256, torch.int8), TypeError, "out_dtype must be"),
    ((CODES, SCALES, torch.ones(3), 256, torch.bfloat16), ValueError, "global_amax must hold"),
]


@pytest.mark.parametrize("args,exc,match", DEQUANTIZE_CASES)
def test_dequantize_errors_both_entry_points(args, exc, match):
    codes, scales, gamax, bound, out_dtype = args
    with pytest.raises(exc, match=match):
        fos_op.dequantize(codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype)
    with pytest.raises(exc, match=match):
        torch.ops.fos.dequantize(codes, scales, gamax, bound, out_dtype)


X3 = X.view(2, 16, 64)

NAN_AMAX_CASES = [
    (([1.0], None), TypeError, r"^x must be a torch\.Tensor"),
    ((X, 2), ValueError, r"^dim must be in \[-2, 1\]"),
    ((X, 1.5), TypeError, "dim must be None or an int"),
    ((X, True), TypeError, "dim must be None or an int"),
]


@pytest.mark.parametrize("args,exc,match", NAN_AMAX_CASES)
def test_nan_amax_errors_both_entry_points(args, exc, match):
    with pytest.raises(exc, match=match):
        fos_op.nan_amax(*args)
    if isinstance(args[0], torch.Tensor) and type(args[1]) is int:  # the schema casts the rest
        with pytest.raises(exc, match=match):
            torch.ops.fos.nan_amax(*args)


WITH_AMAX_CASES = [
    ((X.double(), None, "1x16", "mae", 256), TypeError, "x must have dtype"),
    ((X[:, :40], None, "1x16", "mae", 256), ValueError, "multiple of 16"),
    ((X, 0, "1x16", "mae", 256), ValueError, r"dim must be None \(per tensor\) or -1"),
    ((X, -1, "16x16", "mae", 256), ValueError, "per-tensor global_amax"),
    ((X[:20], None, "16x16", "mae", 256), ValueError, "multiple of 16, got 20"),
    ((X, None, "1x16", "max", 256), ValueError, "err_mode must be one of"),
]


@pytest.mark.parametrize("args,exc,match", WITH_AMAX_CASES)
def test_quantize_with_amax_errors_every_entry_point(args, exc, match):
    x, dim, block, err_mode, bound = args
    with pytest.raises(exc, match=match):
        fos_op.quantize_with_amax(x, dim=dim, block=block, err_mode=err_mode,
                                  e4m3_scale_bound=bound)  # fmt: skip
    with pytest.raises(exc, match=match):
        torch.ops.fos.quantize_with_amax(*args)
    with FakeTensorMode() as mode, pytest.raises(exc, match=match):
        torch.ops.fos.quantize_with_amax(mode.from_tensor(x), dim, block, err_mode, bound)


FAKE_QUANTIZE_CASES = [
    ((X.double(), G, "1x16", "mae", 256, None), TypeError, "x must have dtype"),
    ((X, G, "1x16", "mae", 256, torch.float64), TypeError, "out_dtype must be one of"),
    ((X, G, "1x16", "mae", 300, None), ValueError, "e4m3_scale_bound must be one of"),
    ((X3, torch.ones(32), "1x16", "mae", 256, None), ValueError, r"shape \(2, 16\)"),
    ((X, torch.ones(32), "16x16", "mae", 256, None), ValueError, "per-tensor global_amax"),
    ((X[:, :40], None, "1x16", "mae", 256, None), ValueError, "multiple of 16"),
]


@pytest.mark.parametrize("args,exc,match", FAKE_QUANTIZE_CASES)
def test_fake_quantize_errors_every_entry_point(args, exc, match):
    x, gamax, block, err_mode, bound, out_dtype = args
    with pytest.raises(exc, match=match):
        fos_op.fake_quantize(x, gamax, block=block, err_mode=err_mode, e4m3_scale_bound=bound,
                             out_dtype=out_dtype)  # fmt: skip
    with pytest.raises(exc, match=match):
        torch.ops.fos.fake_quantize(*args)
    with FakeTensorMode() as mode, pytest.raises(exc, match=match):
        fg = None if gamax is None else mode.from_tensor(gamax)
        torch.ops.fos.fake_quantize(mode.from_tensor(x), fg, block, err_mode, bound, out_dtype)


def test_nd_flattened_row_amax_rejected_everywhere():
    """A (R,) amax for a (B, S, C) input: the error names the expected leading shape."""
    flat = torch.ones(32)
    match = r"global_amax must hold one element .*\(2, 16\)"
    with pytest.raises(ValueError, match=match):
        fos_op.quantize(X3, flat)
    with pytest.raises(ValueError, match=match):
        torch.ops.fos.quantize(X3, flat, "1x16", "mae", 256)
    codes, scales = fos_op.quantize(X3, G)
    with pytest.raises(ValueError, match=match):
        fos_op.dequantize(codes, scales, flat)
    with pytest.raises(ValueError, match=match):
        torch.ops.fos.dequantize(codes, scales, flat, 256, torch.bfloat16)


SPARSE_X = X.float().to_sparse()
OFFSETS = torch.tensor([0, 32])
SPARSE_CALLS = {
    "quantize": lambda: fos_op.quantize(SPARSE_X, G),
    "torch.ops.fos.quantize": lambda: torch.ops.fos.quantize(SPARSE_X, G, "1x16", "mae", 256),
    "quantize_with_amax": lambda: fos_op.quantize_with_amax(SPARSE_X),
    "fake_quantize": lambda: fos_op.fake_quantize(SPARSE_X, G),
    "nan_amax": lambda: fos_op.nan_amax(SPARSE_X),
    "quantize_grouped": lambda: fos_op.quantize_grouped(SPARSE_X, OFFSETS, torch.ones(1)),
    "quantize_rowwise_columnwise": lambda: fos_op.quantize_rowwise_columnwise(SPARSE_X, G),
}


@pytest.mark.parametrize("name", SPARSE_CALLS)
def test_sparse_x_is_rejected_by_name(name):
    """A sparse x: the reference's TypeError through every entry point (the eager plan
    key cannot read its strides, so it takes the validating path)."""
    for _ in range(2):  # and again: no plan was kept for it
        with pytest.raises(TypeError, match=r"^x must be a dense \(strided\) tensor"):
            SPARSE_CALLS[name]()


def test_sparse_amax_is_rejected_by_name():
    with pytest.raises(TypeError, match=r"^global_amax must be a dense \(strided\) tensor"):
        fos_op.dequantize(CODES, SCALES, G.to_sparse())
