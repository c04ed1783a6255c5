"""On a GPU: the op takes the kernel when eligible and gives the reference's bits.

Skips without CUDA or without fos-cutedsl. Checks that explain() names the
kernel, that eager and compiled results equal fos_reference bit for bit in
every mode, that non-contiguous inputs still work, and that a fallback is
correct and raises in strict mode.
"""

from __future__ import annotations

import pytest
import torch

import fos_op
import fos_reference
from fos_op import dispatch

pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
    pytest.mark.skipif(
        torch.cuda.is_available() and dispatch.cutedsl()[0] is None,
        reason="fos-cutedsl is not importable",
    ),
]

MODES = [
    (block, err_mode, bound, row_scaled)
    for block in ("1x16", "16x16")
    for err_mode in ("mae", "mse")
    for bound in (256, 448)
    for row_scaled in ((False, True) if block == "1x16" else (False,))
]


def _inputs(rows, cols, dtype, row_scaled, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = (torch.randn(rows, cols, device="cuda", generator=gen) * 5).to(dtype)
    x[0, 1] = float("nan")
    x[1, :16] = 0
    gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
    return x, gamax


def _same(got, want):
    return torch.equal(got[0], want[0]) and torch.equal(
        got[1].view(torch.uint8), want[1].view(torch.uint8)
    )


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_kernel_path_matches_reference(block, err_mode, bound, row_scaled, dtype):
    x, gamax = _inputs(96, 256, dtype, row_scaled, seed=7)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    assert fos_op.explain(x, gamax, **knobs).path == "cutedsl"
    want = fos_reference.quantize(x, gamax, **knobs)
    assert _same(fos_op.quantize(x, gamax, strict=True, **knobs), want)
    torch._dynamo.reset()  # a fresh compile per mode: no recompile limit across the sweep
    compiled = torch.compile(lambda x, g: fos_op.quantize(x, g, **knobs), fullgraph=True)
    assert _same(compiled(x, gamax), want)


def test_non_contiguous_input_is_copied_for_the_kernel():
    x, gamax = _inputs(64, 128, torch.bfloat16, False, seed=1)
    xt = x.t().contiguous().t()  # same values, column-major
    decision = fos_op.explain(xt, gamax)
    assert decision.path == "cutedsl" and "copied" in decision.reason
    assert _same(fos_op.quantize(xt, gamax), fos_reference.quantize(x, gamax))


def test_fallback_is_correct_and_strict_raises(monkeypatch):
    x, gamax = _inputs(32, 64, torch.bfloat16, False, seed=2)
    monkeypatch.setattr(dispatch, "cutedsl", lambda: (None, "pretend it is missing"))
    decision = fos_op.explain(x, gamax)
    assert decision.path == "reference" and "pretend" in decision.reason
    assert _same(fos_op.quantize(x, gamax), fos_reference.quantize(x, gamax))
    with pytest.raises(fos_op.FallbackError):
        fos_op.quantize(x, gamax, strict=True)
    monkeypatch.setenv("FOS_STRICT", "1")
    with pytest.raises(fos_op.FallbackError):
        torch.ops.fos.quantize(x, gamax, "1x16", "mae", 256)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_second_device():
    x, gamax = _inputs(32, 64, torch.bfloat16, False, seed=3)
    x1, g1 = x.to("cuda:1"), gamax.to("cuda:1")
    got = fos_op.quantize(x1, g1, strict=True)
    want = fos_reference.quantize(x1, g1)
    assert got[0].device == x1.device and _same(got, want)
