"""Exhaustive tests of ``fos_reference.formats`` against the independent oracle.

Contract (SPEC "Formats" and step 5; step 3's E4M3 conversion):

* ``e2m1_encode(q)``: float32 -> E2M1 code in 0..15, round-to-nearest-even
  (ties 0.25->0, 0.75->1, 1.25->1, 1.75->2, 2.5->2, 3.5->4, 5->4), saturating
  to +-6, sign bit = ``q``'s sign bit (-0.0 and tiny negatives give 0x8),
  NaN (any sign, any payload) -> 0x7.
* ``e2m1_decode(codes)``: exact float32 value of the low 4 bits; 0x8 is -0.0.
* ``e4m3_saturate(v)``: float32 -> float8_e4m3fn, round-to-nearest-even,
  saturating to +-448 (Inf -> +-448), NaN stays NaN, sign kept (-0.0 -> 0x80).

Inputs: every bfloat16 bit pattern (upcast to float32), dense float32
neighbourhoods (+-64 ulps) of every rounding threshold, strided sweeps of the
E4M3 range, and the special values. Bytes are compared exactly for non-NaN
inputs; for NaN inputs only NaN-ness is specified.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import torch

from fos_reference import E2M1_MAGNITUDES, E4M3_MAX, e2m1_decode, e2m1_encode, e4m3_saturate

from . import oracle as O

ULPS = 64
E2M1_THRESHOLDS = (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0)


def _all_bf16_as_f32() -> np.ndarray:
    return (np.arange(1 << 16, dtype=np.uint32) << 16).view(np.float32)


def _around(values, ulps: int = ULPS) -> np.ndarray:
    """Every float32 within ``ulps`` bit steps of each |value|, with both signs."""
    out = []
    for v in values:
        b = O.f32_bits(abs(v))
        lo = max(b - ulps, 0)
        bits = np.arange(lo, b + ulps + 1, dtype=np.uint32)
        out.append(bits)
        out.append(bits | np.uint32(0x80000000))
    return np.concatenate(out).view(np.float32)


def _encode(v: np.ndarray) -> np.ndarray:
    return e2m1_encode(torch.from_numpy(np.ascontiguousarray(v, dtype=np.float32))).numpy()


def _e4m3(v: np.ndarray) -> torch.Tensor:
    return e4m3_saturate(torch.from_numpy(np.ascontiguousarray(v, dtype=np.float32)))


def _assert_e4m3_matches(v: np.ndarray) -> None:
    got_t = _e4m3(v)
    assert got_t.dtype == torch.float8_e4m3fn
    got = got_t.view(torch.uint8).numpy()
    want = O.e4m3_bytes_np(v)
    nan = np.isnan(v)
    assert np.isnan(got_t[torch.from_numpy(nan)].float().numpy()).all()
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [
        (hex(O.f32_bits(v[i])), float(v[i]), hex(got[i]), hex(want[i])) for i in bad[:10]
    ]


# --------------------------------------------------------------------------- oracles agree


def test_oracles_agree_e2m1_all_bf16_and_thresholds():
    """The scalar and vectorized E2M1 oracles (two methods) agree with each other."""
    v = np.concatenate([_all_bf16_as_f32(), _around((0.0, 6.0, 8.0, *E2M1_THRESHOLDS))])
    scalar = np.array([O.e2m1_code(x) for x in v], dtype=np.uint8)
    np.testing.assert_array_equal(scalar, O.e2m1_encode_np(v))


def test_oracles_agree_e4m3_all_bf16_and_midpoints():
    """The bit-level and table-bracketing E4M3 oracles agree with each other."""
    v = np.concatenate([_all_bf16_as_f32(), _around(_e4m3_midpoints(), 8)])
    scalar = np.array([O.e4m3_byte(x) for x in v], dtype=np.uint8)
    vec = O.e4m3_bytes_np(v)
    nan = np.isnan(v)
    np.testing.assert_array_equal(scalar[~nan], vec[~nan])
    assert (scalar[nan] & 0x7F == 0x7F).all()


# --------------------------------------------------------------------------- e2m1_encode


def test_e2m1_encode_all_bf16_bit_patterns():
    v = _all_bf16_as_f32()
    np.testing.assert_array_equal(_encode(v), O.e2m1_encode_np(v))


@pytest.mark.parametrize("center", [0.0, *E2M1_THRESHOLDS, 6.0, 8.0])
def test_e2m1_encode_threshold_neighbourhoods(center):
    """+-64 float32 ulps around each rounding threshold, around 6 and 0, both signs."""
    v = _around([center])
    np.testing.assert_array_equal(_encode(v), O.e2m1_encode_np(v))


def test_e2m1_encode_strided_float32_sweep():
    """Every 8191st float32 bit pattern (covers all binades, NaN payloads, both signs)."""
    bits = np.arange(0, 1 << 32, 8191, dtype=np.uint64).astype(np.uint32)
    v = bits.view(np.float32)
    np.testing.assert_array_equal(_encode(v), O.e2m1_encode_np(v))


@pytest.mark.parametrize(
    ("q", "code"),
    [
        (0.0, 0x0),
        (-0.0, 0x8),
        (0.25, 0x0),  # tie -> 0
        (-0.25, 0x8),
        (0.2500001, 0x1),
        (0.5, 0x1),
        (0.75, 0x2),  # tie -> 1.0
        (0.7499999, 0x1),
        (1.0, 0x2),
        (1.25, 0x2),  # tie -> 1.0
        (1.2500001, 0x3),
        (1.5, 0x3),
        (1.75, 0x4),  # tie -> 2.0
        (-1.75, 0xC),
        (2.0, 0x4),
        (2.5, 0x4),  # tie -> 2.0
        (3.0, 0x5),
        (3.5, 0x6),  # tie -> 4.0
        (4.0, 0x6),
        (5.0, 0x6),  # tie -> 4.0
        (5.0000005, 0x7),
        (6.0, 0x7),
        (-6.0, 0xF),
        (7.0, 0x7),
        (1e30, 0x7),
        (-3.4028234663852886e38, 0xF),
        (math.inf, 0x7),
        (-math.inf, 0xF),
        (1e-45, 0x0),  # smallest subnormal
        (-1e-45, 0x8),  # tiny negative keeps its sign bit
    ],
)
def test_e2m1_encode_spec_examples(q, code):
    assert int(_encode(np.array([q], dtype=np.float32))[0]) == code


@pytest.mark.parametrize(
    "bits", [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FA5A5A5]
)
def test_e2m1_encode_nan_payloads_give_plus_six(bits):
    v = np.array([bits], dtype=np.uint32).view(np.float32)
    assert int(_encode(v)[0]) == 0x7


def test_e2m1_encode_keeps_shape_and_dtype():
    q = torch.zeros(3, 5, 16, dtype=torch.float32)
    out = e2m1_encode(q)
    assert out.dtype == torch.uint8
    assert out.shape == q.shape


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float64])
def test_e2m1_encode_rejects_non_float32(dtype):
    with pytest.raises(TypeError, match="q must be float32"):
        e2m1_encode(torch.zeros(4, dtype=dtype))


# --------------------------------------------------------------------------- e2m1_decode


def test_e2m1_decode_all_codes():
    codes = torch.arange(256, dtype=torch.uint8)  # high nibble must be ignored
    got = e2m1_decode(codes)
    assert got.dtype == torch.float32
    want = np.array([O.e2m1_value(c & 0xF) for c in range(256)], dtype=np.float32)
    np.testing.assert_array_equal(got.numpy().view(np.uint32), want.view(np.uint32))
    assert torch.signbit(got[8]) and got[8] == 0  # 0x8 is -0.0, bit for bit
    assert tuple(got[:8].tolist()) == E2M1_MAGNITUDES


def test_e2m1_decode_encode_round_trip():
    codes = torch.arange(16, dtype=torch.uint8)
    np.testing.assert_array_equal(e2m1_encode(e2m1_decode(codes)).numpy(), np.arange(16))


def test_e2m1_decode_rejects_non_uint8():
    with pytest.raises(TypeError, match="codes must be uint8"):
        e2m1_decode(torch.zeros(4, dtype=torch.int32))


# --------------------------------------------------------------------------- e4m3_saturate


def _e4m3_midpoints() -> list[float]:
    vals = [O.e4m3_value(b) for b in range(0x7F)]
    mids = [(a + b) / 2 for a, b in itertools.pairwise(vals)]
    return [*mids, 464.0]  # 464: midpoint between 448 and the (absent) 480


def test_e4m3_saturate_all_bf16_bit_patterns():
    _assert_e4m3_matches(_all_bf16_as_f32())


def test_e4m3_saturate_midpoint_neighbourhoods():
    """+-64 ulps around every E4M3 rounding midpoint in [0, 464], both signs."""
    mids = _e4m3_midpoints()
    assert len(mids) == 127 and mids[0] == 2.0**-10 and mids[-1] == 464.0
    _assert_e4m3_matches(_around(mids))


def test_e4m3_saturate_exact_values_and_neighbours():
    """Each representable value and +-64 ulps around it (0, 2^-9 .. 448), both signs."""
    _assert_e4m3_matches(_around([O.e4m3_value(b) for b in range(0x7F)]))


def test_e4m3_saturate_subnormal_range_dense():
    """Every 997th float32 in [0, 2^-6] (the E4M3 subnormal range), both signs."""
    top = O.f32_bits(2.0**-6)
    bits = np.arange(0, top + 1, 997, dtype=np.uint32)
    _assert_e4m3_matches(bits.view(np.float32))
    _assert_e4m3_matches((bits | np.uint32(0x80000000)).view(np.float32))


def test_e4m3_saturate_strided_float32_sweep():
    """Every 4099th float32 bit pattern: all binades, the saturation range, NaNs."""
    bits = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32)
    _assert_e4m3_matches(bits.view(np.float32))


@pytest.mark.parametrize(
    ("v", "byte"),
    [
        (0.0, 0x00),
        (-0.0, 0x80),
        (2.0**-9, 0x01),  # smallest subnormal
        (2.0**-10, 0x00),  # tie -> even (0)
        (3 * 2.0**-10, 0x02),  # tie -> even (2 * 2^-9)
        (-(2.0**-11), 0x80),  # tiny negative -> -0
        (2.0**-6, 0x08),  # smallest normal
        (1.0, 0x38),
        (1.0625, 0x38),  # tie -> even mantissa
        (1.1875, 0x3A),  # tie -> even mantissa
        (416.0, 0x7D),
        (432.0, 0x7E),  # tie between 416 and 448 -> 448 (even mantissa 6)
        (448.0, 0x7E),
        (449.0, 0x7E),
        (463.99, 0x7E),
        (464.0, 0x7E),  # would round to 480 without saturation
        (500.0, 0x7E),
        (1e30, 0x7E),
        (3.4028234663852886e38, 0x7E),
        (math.inf, 0x7E),
        (-448.0, 0xFE),
        (-1e30, 0xFE),
        (-math.inf, 0xFE),
    ],
)
def test_e4m3_saturate_spec_examples(v, byte):
    got = _e4m3(np.array([v], dtype=np.float32))
    assert int(got.view(torch.uint8)[0]) == byte
    assert abs(got.float()[0]) <= E4M3_MAX


@pytest.mark.parametrize("bits", [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF])
def test_e4m3_saturate_nan_stays_nan(bits):
    v = np.array([bits], dtype=np.uint32).view(np.float32)
    assert torch.isnan(_e4m3(v).float()).all()


def test_e4m3_decode_all_bytes():
    """``scales.float()`` (used by quantize/dequantize) gives each byte's exact value."""
    got = torch.arange(256, dtype=torch.uint8).view(torch.float8_e4m3fn).float().numpy()
    want = np.array([O.e4m3_value(b) for b in range(256)], dtype=np.float32)
    nan = np.isnan(want)
    assert (np.nonzero(nan)[0] == [0x7F, 0xFF]).all()
    assert np.isnan(got[nan]).all()
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float64])
def test_e4m3_saturate_rejects_non_float32(dtype):
    with pytest.raises(TypeError, match="v must be float32"):
        e4m3_saturate(torch.zeros(4, dtype=dtype))


@pytest.mark.skipif(
    not torch.cuda.is_available(),
    reason="no CUDA device: CPU/CUDA parity of the format conversions needs a GPU",
)
def test_cuda_formats_match_oracle():
    v = np.concatenate([_all_bf16_as_f32(), _around(_e4m3_midpoints()), _around(E2M1_THRESHOLDS)])
    q = torch.from_numpy(v).cuda()
    np.testing.assert_array_equal(e2m1_encode(q).cpu().numpy(), O.e2m1_encode_np(v))
    got = e4m3_saturate(q).cpu()
    nan = np.isnan(v)
    assert torch.isnan(got.float()[torch.from_numpy(nan)]).all()
    np.testing.assert_array_equal(got.view(torch.uint8).numpy()[~nan], O.e4m3_bytes_np(v)[~nan])
    codes = torch.arange(256, dtype=torch.uint8, device="cuda")
    np.testing.assert_array_equal(
        e2m1_decode(codes).cpu().numpy().view(np.uint32),
        e2m1_decode(codes.cpu()).numpy().view(np.uint32),
    )
