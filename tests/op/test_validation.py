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
