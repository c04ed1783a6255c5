"""Fake-quantize, standard NVFP4, N-D inputs and CUDA-graph-safe constants.

Contract under test (SPEC "Fake-quantize", "Standard NVFP4"):
``fake_quantize(x, gamax, ...)`` has exactly the bits of
``dequantize(quantize(x, gamax, ...), gamax, out_dtype=out_dtype or x.dtype)``
for every knob, dtype and input kind (NaN, Inf, -0, zero groups, subnormal and
saturating scales); ``quantize_nvfp4`` stores the scale byte
``e4m3(min(RN(a * RN(s * RN(1/6))), 448))`` and the map-to-6 codes of the
scalar oracle. An (..., C) input gives the bits of its flattened (R, C) matrix
with the leading shape kept on every output; a row-scaled amax has the leading
shape. No reference function copies a constant from the host (CUDA graph
capture forbids it): ``torch.tensor`` is never called.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import fos_reference as ref

from . import oracle as O
from .test_quantize import DTYPES, KINDS, KNOBS, make_input, seed_of, upcast


def _bits(t: torch.Tensor) -> torch.Tensor:
    return (
        t.view(torch.uint8)
        if t.element_size() == 1
        else t.view(torch.int16 if t.element_size() == 2 else torch.int32)
    )


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality, with every NaN counted equal (SPEC specifies only NaN-ness)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    nan_a, nan_b = torch.isnan(a.float()), torch.isnan(b.float())
    if not torch.equal(nan_a, nan_b):
        return False
    keep = ~nan_a
    return torch.equal(_bits(a)[keep], _bits(b)[keep])


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(("block", "amax_mode", "err_mode", "bound", "dtype"), KNOBS)
def test_fake_quantize_is_the_composition(kind, block, amax_mode, err_mode, bound, dtype):
    rng = np.random.default_rng(seed_of("fake", kind, block, amax_mode, err_mode, bound, dtype))
    x, gamax = make_input(kind, rng, dtype, bound, block, amax_mode)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    codes, scales = ref.quantize(x, gamax, **knobs)
    for out_dtype in (None, torch.float32, torch.bfloat16):
        want = ref.dequantize(codes, scales, gamax, e4m3_scale_bound=bound,
                              out_dtype=x.dtype if out_dtype is None else out_dtype)  # fmt: skip
        got = ref.fake_quantize(x, gamax, out_dtype=out_dtype, **knobs)
        assert _same(got, want), (kind, out_dtype)


def test_fake_quantize_defaults_and_validation():
    x = torch.randn(16, 32, dtype=torch.float16)
    gamax = ref.nan_amax(x)
    assert ref.fake_quantize(x, gamax).dtype == torch.float16
    with pytest.raises(TypeError, match=r"^out_dtype must be one of"):
        ref.fake_quantize(x, gamax, out_dtype=torch.float64)
    with pytest.raises(ValueError, match=r"^block must be one of"):
        ref.fake_quantize(x, gamax, block="2x2")
    with pytest.raises(TypeError, match=r"^x must have dtype"):
        ref.fake_quantize(x.double(), gamax)


# --------------------------------------------------------------------------- standard NVFP4


def _nvfp4_oracle(x: torch.Tensor, gamax: float):
    """Scalar standard NVFP4 per 1x16 group, from oracle.py's pinned helpers."""
    x32 = upcast(x)
    s, s_dec = O.global_scale(np.float32(gamax), 448)
    codes, scale_bytes = [], []
    for row in x32:
        row_codes, row_bytes = [], []
        for g in range(0, row.shape[0], 16):
            group = row[g : g + 16]
            byte, f = O.candidate_scale(O.block_amax(group), s, False, mut="base_recip6")
            with np.errstate(all="ignore"):
                inv = O.encode_factor(f, s, s_dec)
                row_codes += [O.e2m1_code(np.float32(v) * inv) for v in group]
            row_bytes.append(byte)
        codes.append(row_codes)
        scale_bytes.append(row_bytes)
    codes = np.asarray(codes, dtype=np.uint8)
    return codes[:, 0::2] | (codes[:, 1::2] << 4), np.asarray(scale_bytes, dtype=np.uint8)


@pytest.mark.parametrize("kind", ["normal", "ties", "subnormal", "nan_inf", "zeros", "dtype_max"])
@pytest.mark.parametrize("dtype", list(DTYPES))
def test_quantize_nvfp4_matches_oracle(kind, dtype):
    rng = np.random.default_rng(seed_of("nvfp4", kind, dtype))
    x, gamax = make_input(kind, rng, dtype, 448, "1x16", "tensor")
    codes, scales = ref.quantize_nvfp4(x, gamax)
    want_codes, want_bytes = _nvfp4_oracle(x, float(gamax))
    assert np.array_equal(codes.numpy(), want_codes)
    assert np.array_equal(scales.view(torch.uint8).numpy(), want_bytes)


def test_quantize_nvfp4_is_worse_or_equal_to_four_over_six_on_average():
    """4/6 (mse) keeps the better candidate; on random data its SQNR beats map-to-6."""
    x = torch.randn(64, 256, generator=torch.Generator().manual_seed(0))
    gamax = ref.nan_amax(x)

    def noise(x_hat):
        return float((x_hat - x).pow(2).sum())

    std = ref.dequantize(*ref.quantize_nvfp4(x, gamax), gamax, e4m3_scale_bound=448,
                         out_dtype=torch.float32)  # fmt: skip
    fos = ref.fake_quantize(x, gamax, err_mode="mse", e4m3_scale_bound=448)
    assert noise(fos) < noise(std)


def test_quantize_nvfp4_16x16_shares_one_scale_per_tile():
    x = torch.randn(32, 64, generator=torch.Generator().manual_seed(1))
    _, scales = ref.quantize_nvfp4(x, ref.nan_amax(x), block="16x16")
    s = scales.view(torch.uint8).reshape(2, 16, 4)
    assert torch.equal(s, s[:, :1].expand_as(s))


# --------------------------------------------------------------------------- N-D inputs

ND_SHAPES = [(2, 3, 64), (4, 4, 32), (1, 16, 16), (64,), (2, 1, 8, 32)]


@pytest.mark.parametrize("shape", ND_SHAPES)
@pytest.mark.parametrize("row_scaled", [False, True])
@pytest.mark.parametrize("transpose", [False, True])
def test_nd_equals_flattened(shape, row_scaled, transpose):
    gen = torch.Generator().manual_seed(len(shape))
    if transpose and len(shape) >= 3:  # a non-contiguous view: leading dims not viewable
        x = torch.randn(shape[1], shape[0], *shape[2:], generator=gen).transpose(0, 1)
    else:
        x = torch.randn(shape, generator=gen)
    x = (x * 4).to(torch.bfloat16)
    x2 = x.reshape(-1, shape[-1])
    gamax = ref.nan_amax(x, dim=-1) if row_scaled else ref.nan_amax(x)
    assert gamax.shape == (x.shape[:-1] if row_scaled else ())
    g2 = gamax.reshape(-1) if row_scaled else gamax
    lead = x.shape[:-1]
    for block in ("1x16", "16x16"):
        if block == "16x16" and (row_scaled or x2.shape[0] % 16):
            continue
        codes, scales, pick = ref.quantize_with_choice(x, gamax, block=block)
        c2, s2, p2 = ref.quantize_with_choice(x2, g2, block=block)
        assert codes.shape == (*lead, shape[-1] // 2) and scales.shape == (*lead, shape[-1] // 16)
        assert pick.shape == scales.shape
        assert torch.equal(codes.reshape(c2.shape), c2)
        assert torch.equal(scales.view(torch.uint8).reshape(s2.shape), s2.view(torch.uint8))
        assert torch.equal(pick.reshape(p2.shape), p2)
        x_hat = ref.dequantize(codes, scales, gamax, out_dtype=torch.float32)
        assert x_hat.shape == x.shape
        want = ref.dequantize(c2, s2, g2, out_dtype=torch.float32)
        assert torch.equal(x_hat.reshape(want.shape), want)
        fq = ref.fake_quantize(x, gamax, block=block, out_dtype=torch.float32)
        assert torch.equal(fq, x_hat)
        nv = ref.quantize_nvfp4(x, gamax, block=block)
        nv2 = ref.quantize_nvfp4(x2, g2, block=block)
        assert torch.equal(nv[0].reshape(nv2[0].shape), nv2[0])


def test_nan_amax_negative_dim_and_nd():
    x = torch.randn(2, 3, 32)
    x[0, 1, 5] = float("nan")
    assert torch.equal(ref.nan_amax(x, dim=-1), ref.nan_amax(x, dim=2))
    assert ref.nan_amax(x, dim=-1).shape == (2, 3)
    assert torch.equal(ref.nan_amax(x, dim=0), torch.nan_to_num(x.abs(), nan=0.0).amax(0))
    assert ref.nan_amax(torch.tensor(-3.0), dim=0) == 3.0
    with pytest.raises(ValueError, match=r"^dim must be in \[-3, 2\]"):
        ref.nan_amax(x, dim=3)
    with pytest.raises(TypeError, match=r"^dim must be None or an int"):
        ref.nan_amax(x, dim=1.0)
    with pytest.raises(TypeError, match=r"^x must be a torch\.Tensor"):
        ref.nan_amax([1.0])


# --------------------------------------------------------------------------- graph-safe constants


def test_no_host_to_device_constant(monkeypatch):
    """Every reference path builds constants by device-side fills, never ``torch.tensor``."""

    def forbidden(*args, **kwargs):
        raise AssertionError("torch.tensor copies from the host: not CUDA-graph capturable")

    x = torch.randn(32, 64).to(torch.bfloat16)
    x[0, 0] = float("nan")
    gamax, row = ref.nan_amax(x), ref.nan_amax(x, dim=-1)
    monkeypatch.setattr(torch, "tensor", forbidden)
    for g, block in ((gamax, "1x16"), (row, "1x16"), (gamax, "16x16")):
        codes, scales = ref.quantize(x, g, block=block)
        ref.dequantize(codes, scales, g)
        ref.fake_quantize(x, g, block=block)
        ref.quantize_nvfp4(x, g, block=block)
    ref.nan_amax(x)
    ref.nan_amax(x, dim=-1)
    ref.e2m1_decode(torch.arange(16, dtype=torch.uint8))


def test_decode_table_is_exact():
    values = ref.e2m1_decode(torch.arange(16, dtype=torch.uint8))
    want = [*ref.E2M1_MAGNITUDES, *(-v for v in ref.E2M1_MAGNITUDES)]
    assert values.tolist() == want
    assert torch.signbit(values[8]) and not torch.signbit(values[0])
