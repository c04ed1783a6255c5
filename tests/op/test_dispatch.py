"""The dispatch gate: explainable, metadata-only, strict mode raises.

CPU-only here; the kernel path itself is checked on the GPU in test_gpu.py.
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op
from fos_op import dispatch


def _x():
    x = torch.randn(16, 32, dtype=torch.bfloat16)
    return x, torch.ones((), dtype=torch.float32)


def test_cpu_input_runs_reference_and_says_why():
    decision = fos_op.explain(*_x())
    assert decision.path == "reference"
    assert "cpu" in decision.reason
    assert str(decision).startswith("reference: ")


def test_decision_is_the_same_under_fake_tensors():
    x, gamax = _x()
    eager = fos_op.explain(x, gamax, block="16x16")
    with FakeTensorMode() as mode:
        fake = fos_op.explain(mode.from_tensor(x), mode.from_tensor(gamax), block="16x16")
    assert eager == fake


def test_strict_mode_lets_cpu_inputs_through():
    """Strict mode only concerns CUDA inputs: a CPU tensor never had a kernel."""
    x, gamax = _x()
    fos_op.quantize(x, gamax, strict=True)


def test_strict_mode_raises_on_a_cuda_fallback():
    """A CUDA input that would fall back raises FallbackError in strict mode."""
    decision = dispatch.Decision(dispatch.REFERENCE, "no kernel here")
    cuda_like = _CudaLike(numel=16 * 32)
    with pytest.raises(fos_op.FallbackError, match="no kernel here"):
        dispatch.enforce(decision, cuda_like, strict=True)
    dispatch.enforce(decision, cuda_like, strict=False)
    dispatch.enforce(dispatch.Decision(dispatch.KERNEL, "fine"), cuda_like, strict=True)


class _CudaLike:
    """Just enough of a CUDA tensor's metadata for ``enforce``."""

    def __init__(self, numel):
        self.device = torch.device("cuda", 0)
        self._numel = numel

    def numel(self):
        return self._numel


def test_strict_env_var(monkeypatch):
    monkeypatch.setenv("FOS_STRICT", "1")
    assert dispatch.strict_from_env()
    monkeypatch.setenv("FOS_STRICT", "0")
    assert not dispatch.strict_from_env()
    monkeypatch.delenv("FOS_STRICT")
    assert not dispatch.strict_from_env()


def test_availability_is_decided_once():
    first = dispatch.cutedsl()
    assert dispatch.cutedsl() is first
    assert dispatch.cutedsl.cache_info().hits >= 1


@pytest.mark.parametrize(
    ("version", "release"),
    [("0.5.0", (0, 5, 0)), ("0.5.0rc1", (0, 5, 0)), ("1.12", (1, 12)), ("dev", ())],
)
def test_release_parts(version, release):
    assert dispatch._release(version) == release


def test_an_older_kernel_package_is_not_used(monkeypatch):
    """A fos-cutedsl older than ``MIN_CUTEDSL`` (launchers of another signature) is
    reported as unusable, so calls take the reference (strict mode: raise)."""
    import sys
    import types

    old = types.ModuleType("fos_cutedsl")
    old.__version__ = "0.5.1"
    monkeypatch.setitem(sys.modules, "fos_cutedsl", old)
    dispatch.cutedsl.cache_clear()
    try:
        module, why = dispatch.cutedsl()
        assert module is None and "0.5.1 is older than 0.6" in why
    finally:
        dispatch.cutedsl.cache_clear()
