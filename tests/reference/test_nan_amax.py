"""``nan_amax`` and ``global_encode_scale`` (SPEC steps 1 and 2, "Special values").

Contract:

* ``nan_amax(x, dim=None)``: the largest ``|x|`` as float32, starting from 0
  and dropping NaN (an all-NaN or empty input gives 0), Inf kept; ``dim=None``
  gives a 0-d per-tensor amax, ``dim=1`` the (R,) per-row vector.
* ``global_encode_scale(gamax, bound)``: elementwise
  ``s = min(RN(D / gamax), FLT_MAX)`` with NaN-dropping min (gamax NaN ->
  FLT_MAX), and ``s = 1`` where ``gamax == 0`` or ``s == 0`` (gamax Inf);
  a subnormal or tiny gamax overflows ``D / gamax`` to Inf -> FLT_MAX.
  ``D = 6 * bound``; float32 input only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from fos_reference import FLT_MAX, global_encode_scale, nan_amax

from . import oracle as O

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def _np_amax(x: np.ndarray, axis=None) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.fmax.reduce(np.abs(x), axis=axis, initial=0.0).astype(np.float32)


def _data(dtype, rng, shape=(24, 80)):
    x = rng.standard_normal(shape).astype(np.float32) * 10
    x[rng.random(shape) < 0.1] = np.nan
    x[rng.random(shape) < 0.02] = -np.nan
    x[3, :] = np.nan  # all-NaN row
    x[4, :] = 0.0
    x[5, :] = -0.0
    x[6, 7] = np.inf
    x[7, 9] = -np.inf
    x[8, :] = rng.standard_normal(shape[1]) * 1e-40 if dtype != torch.float16 else 1e-6
    t = torch.from_numpy(x).to(dtype)
    return t, t.float().numpy()


# --------------------------------------------------------------------------- nan_amax


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_amax_per_tensor_and_per_row(dtype):
    t, x = _data(dtype, np.random.default_rng(1))
    whole = nan_amax(t)
    assert whole.dtype == torch.float32 and whole.shape == ()
    assert float(whole) == math.inf  # Inf kept
    rows = nan_amax(t, dim=1)
    assert rows.dtype == torch.float32 and rows.shape == (t.shape[0],)
    np.testing.assert_array_equal(rows.numpy(), _np_amax(x, axis=1))
    assert rows[3] == 0  # all-NaN row -> 0
    assert rows[4] == 0 and rows[5] == 0 and not torch.signbit(rows[5])
    assert rows[6] == math.inf and rows[7] == math.inf


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_amax_finite_matches_numpy(dtype):
    t, x = _data(dtype, np.random.default_rng(2))
    t[6, 7] = 0
    t[7, 9] = 0
    x = t.float().numpy()
    assert float(nan_amax(t)) == float(_np_amax(x))
    assert float(nan_amax(t)) == float(np.nanmax(np.abs(x)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_amax_nan_dropped(dtype):
    x = torch.tensor([[math.nan, -3.0, math.nan], [math.nan, math.nan, math.nan]]).to(dtype)
    assert float(nan_amax(x)) == 3.0
    assert nan_amax(x, dim=1).tolist() == [3.0, 0.0]
    assert float(nan_amax(torch.full((5,), math.nan, dtype=dtype))) == 0.0


def test_nan_amax_inf_kept():
    x = torch.tensor([[1.0, -math.inf], [math.nan, 2.0]])
    assert float(nan_amax(x)) == math.inf
    assert nan_amax(x, dim=1).tolist() == [math.inf, 2.0]


def test_nan_amax_empty():
    assert float(nan_amax(torch.empty(0))) == 0.0
    assert float(nan_amax(torch.empty(0, 16, dtype=torch.bfloat16))) == 0.0
    rows = nan_amax(torch.empty(3, 0), dim=1)
    assert rows.shape == (3,) and rows.tolist() == [0.0, 0.0, 0.0]
    assert nan_amax(torch.empty(0, 16), dim=1).shape == (0,)


def test_nan_amax_subnormals_and_negative_zero():
    x = torch.tensor([[-0.0, -1e-45, 1e-44], [-0.0, -0.0, -0.0]])
    rows = nan_amax(x, dim=1)
    assert rows[0] == torch.tensor(1e-44) and rows[1] == 0
    assert not torch.signbit(rows[1])  # |-0| = +0


# --------------------------------------------------------------------------- global_encode_scale


def _oracle_scale(g: np.ndarray, bound: int) -> np.ndarray:
    return np.array([O.global_scale(v, bound)[0] for v in g], dtype=np.float32)


@pytest.mark.parametrize("bound", [256, 448])
def test_global_encode_scale_all_nonnegative_bf16_patterns(bound):
    """Every non-negative bfloat16 bit pattern (0, subnormals, normals, Inf, NaNs) as gamax."""
    g = (np.arange(0x8000, dtype=np.uint32) << 16).view(np.float32)
    got = global_encode_scale(torch.from_numpy(g.copy()), bound).numpy()
    np.testing.assert_array_equal(got.view(np.uint32), _oracle_scale(g, bound).view(np.uint32))


@pytest.mark.parametrize("bound", [256, 448])
def test_global_encode_scale_random_float32(bound):
    rng = np.random.default_rng(bound)
    bits = rng.integers(0, 0x7F800000, 20000, dtype=np.uint32)
    g = bits.view(np.float32)
    got = global_encode_scale(torch.from_numpy(g.copy()), bound).numpy()
    np.testing.assert_array_equal(got.view(np.uint32), _oracle_scale(g, bound).view(np.uint32))


@pytest.mark.parametrize("bound", [256, 448])
@pytest.mark.parametrize(
    ("gamax", "want"),
    [
        (math.nan, FLT_MAX),  # NaN-dropping min
        (-math.nan, FLT_MAX),
        (0.0, 1.0),
        (-0.0, 1.0),
        (math.inf, 1.0),  # D / Inf = 0 -> 1
        (1e-45, FLT_MAX),  # smallest subnormal: D / gamax overflows
        (1e-40, FLT_MAX),
        (1.1754942e-38, FLT_MAX),  # largest subnormal
        (1e-36, FLT_MAX),  # tiny normal, still overflows
    ],
)
def test_global_encode_scale_special_values(bound, gamax, want):
    got = global_encode_scale(torch.tensor([gamax], dtype=torch.float32), bound)
    assert got.dtype == torch.float32
    assert float(got[0]) == want


@pytest.mark.parametrize("bound", [256, 448])
def test_global_encode_scale_exact_values(bound):
    d = 6.0 * bound
    g = torch.tensor([d, d / 2, 2 * d, 3.0, FLT_MAX], dtype=torch.float32)
    got = global_encode_scale(g, bound)
    want = [
        1.0,
        2.0,
        0.5,
        float(np.float32(d) / np.float32(3.0)),
        float(np.float32(d) / np.float32(FLT_MAX)),
    ]
    assert got.tolist() == want
    assert got[4] > 0  # D / FLT_MAX is tiny but not 0


def test_global_encode_scale_default_bound_is_256():
    g = torch.tensor([3.0, 7.5])
    assert torch.equal(global_encode_scale(g), global_encode_scale(g, 256))
    assert not torch.equal(global_encode_scale(g), global_encode_scale(g, 448))


def test_global_encode_scale_keeps_shape():
    g = torch.ones(7, dtype=torch.float32)
    assert global_encode_scale(g).shape == (7,)
    assert global_encode_scale(torch.tensor(2.0)).shape == ()


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16, torch.float16])
def test_global_encode_scale_rejects_non_float32(dtype):
    with pytest.raises(TypeError, match="global_amax must be float32"):
        global_encode_scale(torch.ones(2, dtype=dtype))
