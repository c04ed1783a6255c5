"""Contract: ``can_run`` never raises and says why not; ``quantize`` raises clearly.

Runs on any machine: CPU tensors are declined with a reason, invalid
arguments give the reference's ``TypeError``/``ValueError`` from ``quantize``
and a ``(False, "invalid arguments: ...")`` from ``can_run``.
"""

from __future__ import annotations

import pytest
import torch

import fos_cutedsl


def test_cpu_input_is_declined_with_reason():
    x = torch.randn(16, 32)
    ok, why = fos_cutedsl.can_run(x, torch.ones(1))
    assert not ok
    assert "CUDA" in why or "CuTe DSL" in why


def test_quantize_raises_runtime_error_when_declined():
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.quantize(torch.randn(16, 32), torch.ones(1))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"block": "8x8"}, ValueError),
        ({"err_mode": "max"}, ValueError),
        ({"e4m3_scale_bound": 300}, ValueError),
    ],
)
def test_invalid_knobs(kwargs, error):
    x, gamax = torch.randn(16, 32), torch.ones(1)
    ok, why = fos_cutedsl.can_run(x, gamax, **kwargs)
    assert not ok and why.startswith("invalid arguments")
    with pytest.raises(error):
        fos_cutedsl.quantize(x, gamax, **kwargs)


def test_invalid_tensors():
    with pytest.raises(TypeError):
        fos_cutedsl.quantize(torch.randn(16, 32).to(torch.int32), torch.ones(1))
    with pytest.raises(ValueError):
        fos_cutedsl.quantize(torch.randn(16, 30), torch.ones(1))
    with pytest.raises(ValueError):
        fos_cutedsl.quantize(torch.randn(8, 32), torch.ones(1), block="16x16")
    with pytest.raises(TypeError):
        fos_cutedsl.quantize(torch.randn(16, 32), torch.ones(1, dtype=torch.float64))
    ok, why = fos_cutedsl.can_run(torch.randn(16, 32), torch.ones(3))
    assert not ok and "global_amax" in why


@pytest.mark.parametrize("row_scaled", [False, True])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32])
def test_fake_quantize_launcher_resolves_launch_fake_quantizes_variant(
    monkeypatch, row_scaled, out_dtype
):
    """``fake_quantize_launcher`` picks the variant ``launch_fake_quantize`` runs for the
    same arguments (the device queries stubbed, so this runs without a GPU)."""
    from fos_cutedsl import api

    monkeypatch.setattr(api, "device_index", lambda device: 0)
    monkeypatch.setattr(api, "capability", lambda index: (9, 0))
    monkeypatch.setattr(api, "sm_count", lambda index: 132)
    resolved, ran = [], []
    monkeypatch.setattr(api, "cached_under", lambda cache, key, device: resolved.append(key))
    passed = []
    monkeypatch.setattr(
        api, "run_under", lambda cache, key, device, *args: (ran.append(key), passed.append(args))
    )
    x = torch.randn(32, 64).to(torch.bfloat16)
    amax = torch.ones(32 if row_scaled else 1)
    out = torch.empty(32, 64, dtype=out_dtype)
    api.fake_quantize_launcher(x, amax, out_dtype, "1x16", "mse", 448)
    api.launch_fake_quantize(x, amax, out, "1x16", "mse", 448)
    assert resolved == ran and resolved[0].row_scaled == row_scaled
    assert passed[0][1].shape == ((32,) if row_scaled else ())  # the kernels' amax layout


@pytest.mark.parametrize("row_scaled", [False, True])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32])
def test_dequantize_launcher_resolves_launch_dequantizes_variant(
    monkeypatch, row_scaled, out_dtype
):
    """``dequantize_launcher`` picks the variant ``launch_dequantize`` runs (device
    queries stubbed)."""
    from fos_cutedsl import api_elementwise as api

    monkeypatch.setattr(api, "device_index", lambda device: 0)
    monkeypatch.setattr(api, "capability", lambda index: (9, 0))
    resolved, ran = [], []
    monkeypatch.setattr(api, "cached_under", lambda cache, key, device: resolved.append(key))
    passed = []
    monkeypatch.setattr(
        api, "run_under", lambda cache, key, device, *args: (ran.append(key), passed.append(args))
    )
    codes = torch.zeros(32, 32, dtype=torch.uint8)
    scales = torch.zeros(32, 4, dtype=torch.uint8)
    amax = torch.ones(32 if row_scaled else 1)
    out = torch.empty(32, 64, dtype=out_dtype)
    api.dequantize_launcher(codes, amax, out_dtype, 448)
    api.launch_dequantize(codes, scales, amax, out, 448)
    assert resolved == ran and resolved[0].row_scaled == row_scaled
    assert passed[0][2].shape == ((32,) if row_scaled else ())  # the kernels' amax layout


@pytest.mark.parametrize(
    ("amax", "rows", "row_scaled", "shape"),
    [
        (torch.tensor(2.0), 8, False, ()),
        (torch.tensor([2.0]), 8, False, ()),
        (torch.tensor([[2.0]]), 8, False, ()),
        (torch.arange(8.0), 8, True, (8,)),
        (torch.arange(16.0)[::2], 8, True, (8,)),
        (torch.arange(8.0).reshape(8, 1), 8, True, (8,)),
    ],
)
def test_kernel_amax_is_0d_per_tensor_and_a_vector_per_row(amax, rows, row_scaled, shape):
    """``device.kernel_amax``: the amax as the compiled kernels take it (0-d per tensor,
    a contiguous (R,) vector per row), the same values, a view where it can be."""
    from fos_cutedsl.device import kernel_amax

    got = kernel_amax(amax, rows, row_scaled)
    assert got.shape == shape and got.is_contiguous()
    assert torch.equal(got.reshape(-1), amax.reshape(-1))
    assert (got.data_ptr() == amax.data_ptr()) or not amax.is_contiguous()


def test_quantize_launch_passes_a_0d_amax(monkeypatch):
    """``launch`` hands the compiled quantize a 0-d amax per tensor, an (R,) one per row."""
    from fos_cutedsl import api

    monkeypatch.setattr(api, "device_index", lambda device: 0)
    monkeypatch.setattr(api, "capability", lambda index: (9, 0))
    monkeypatch.setattr(api, "sm_count", lambda index: 132)
    monkeypatch.setattr(api.torch.cuda, "current_device", lambda: 0)
    passed = []

    class Cache:
        def get(self, key):
            return lambda *args: passed.append((key, args))

    monkeypatch.setattr(api, "CACHE", Cache())
    x = torch.randn(32, 64).to(torch.bfloat16)
    codes = torch.empty(32, 32, dtype=torch.uint8)
    scales = torch.empty(32, 4, dtype=torch.float8_e4m3fn)
    for amax, shape in ((torch.ones(1), ()), (torch.ones(()), ()), (torch.ones(32), (32,))):
        api.launch(x, amax, codes, scales, "1x16", "mae", 256)
        key, args = passed.pop()
        assert args[1].shape == shape and key.row_scaled == (shape != ())


@pytest.mark.parametrize("per_row", [False, True])
def test_nan_amax_launcher_resolves_launch_nan_amaxs_variant(monkeypatch, per_row):
    """``nan_amax_launcher`` picks the variant ``launch_nan_amax`` runs, which hands the
    kernel a zero-filled 0-d output per tensor and the (R,) one per row (device queries
    stubbed)."""
    from fos_cutedsl import api_elementwise as api

    monkeypatch.setattr(api, "device_index", lambda device: 0)
    monkeypatch.setattr(api, "capability", lambda index: (9, 0))
    monkeypatch.setattr(api, "sm_count", lambda index: 132)
    resolved, ran, passed = [], [], []
    monkeypatch.setattr(api, "cached_under", lambda cache, key, device: resolved.append(key))
    monkeypatch.setattr(
        api, "run_under", lambda cache, key, device, *args: (ran.append(key), passed.append(args))
    )
    x = torch.randn(32, 64).to(torch.bfloat16)
    out = torch.full((32,) if per_row else (1,), 7.0)
    api.nan_amax_launcher(x, per_row)
    api.launch_nan_amax(x, out, per_row)
    assert resolved == ran and resolved[0].per_row == per_row
    x2d, out_f32 = passed[0]
    assert x2d.shape[1] == 8 or per_row  # per tensor: rows of one 16-byte vector
    assert out_f32.shape == ((32,) if per_row else ())
    assert per_row or (out_f32.item() == 0 and out_f32.data_ptr() == out.data_ptr())
