"""Grouped quantize, grouped amax and stacked quantize (SPEC's "Grouped quantize").

Contract:

* ``quantize_grouped(x, offsets, gamax)``: rows ``[offsets[e], offsets[e+1])``
  of ``x`` (T, C) carry exactly the bits of ``quantize(slice, gamax[e])``;
  empty experts write nothing; 16x16 needs every offset a multiple of 16.
* ``nan_amax_grouped(x, offsets)``: per expert, ``nan_amax`` of its slice (0
  when empty).
* ``quantize_stacked(w, gamax)`` (E, N, K): each ``w[e]`` per tensor under
  ``gamax[e]``, i.e. the grouped quantize with ``offsets[e] = e * N``.
* The op layer's claims: a 1x16 grouped quantize is the row-scaled quantize
  under ``gamax[expert of row]``, and a 16x16 one is ``quantize_tile_rows``
  under ``gamax[expert of band]``.
* Bad input raises ``TypeError``/``ValueError`` naming the argument.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import fos_reference as F

MODES = [
    (block, err_mode, bound)
    for block in ("1x16", "16x16")
    for err_mode in ("mae", "mse")
    for bound in (256, 448)
]
DTYPES = [torch.bfloat16, torch.float16, torch.float32]
KINDS = ("random", "special", "tiny", "huge")


def _x(rows, cols, dtype, kind, seed):
    """An input of one kind: plain random, or NaN/Inf/-0/zero rows, subnormals, near-max."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, cols, generator=gen) * 3
    if kind == "special" and rows:
        flat = x.view(-1)
        picks = torch.randint(0, flat.numel(), (max(1, flat.numel() // 20),), generator=gen)
        flat[picks[0::4]] = float("nan")
        flat[picks[1::4]] = float("inf")
        flat[picks[2::4]] = float("-inf")
        flat[picks[3::4]] = -0.0
        x[rows // 2] = 0.0
        x[rows // 3] = -0.0
        x[rows - 1] = float("nan")
    elif kind == "tiny":  # subnormal in the input dtype: scales underflow
        x = x * (1e-6 if dtype == torch.float16 else 1e-40)
    elif kind == "huge":  # near the dtype's max: scales saturate
        x = x / x.abs().amax().clamp(min=1) * torch.finfo(dtype).max
    return x.to(dtype)


def _offsets(rows, experts, split, seed, multiple=1, dtype=torch.int64):
    """(E + 1,) offsets splitting ``rows`` over ``experts``, each a multiple of ``multiple``."""
    rng = np.random.default_rng(seed)
    units = rows // multiple
    if split == "skewed":  # a heavy head, a long tail, some experts empty
        weights = rng.pareto(1.0, experts) * (rng.random(experts) > 0.3)
        weights[0] += 1e-9
        counts = np.floor(weights / weights.sum() * units).astype(np.int64)
        counts[np.argmax(weights)] += units - counts.sum()
    elif split == "one":  # one expert in the middle owns every row
        counts = np.zeros(experts, np.int64)
        counts[experts // 2] = units
    elif split == "first_empty_last_all":
        counts = np.zeros(experts, np.int64)
        counts[-1] = units
    else:  # "random": cut points anywhere (not multiples of anything when multiple == 1)
        cuts = np.sort(rng.integers(0, units + 1, experts - 1))
        counts = np.diff(np.concatenate(([0], cuts, [units])))
    ends = np.concatenate(([0], np.cumsum(counts))) * multiple
    return torch.tensor(ends, dtype=dtype)


def _per_slice(x, offsets, gamax, **knobs):
    """The contract written out: a per-tensor quantize per non-empty slice, concatenated."""
    codes, scales = [], []
    bounds = offsets.tolist()
    for e in range(len(bounds) - 1):
        lo, hi = bounds[e], bounds[e + 1]
        if hi > lo:
            c, s = F.quantize(x[lo:hi], gamax[e], **knobs)
            codes.append(c)
            scales.append(s.view(torch.uint8))
    cols = x.shape[1]
    empty_c = torch.zeros(0, cols // 2, dtype=torch.uint8)
    empty_s = torch.zeros(0, cols // 16, dtype=torch.uint8)
    return torch.cat([empty_c, *codes]), torch.cat([empty_s, *scales])


def _same(got, want):
    assert torch.equal(got[0], want[0])
    assert torch.equal(got[1].view(torch.uint8), want[1].view(torch.uint8))


def _expert_of_row(offsets, rows):
    return torch.searchsorted(offsets[1:], torch.arange(rows, dtype=offsets.dtype), right=True)


@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", KINDS)
def test_grouped_equals_per_slice(block, err_mode, bound, dtype, kind):
    seed = hash((block, err_mode, bound, str(dtype), kind)) % 10_000
    x = _x(160, 48, dtype, kind, seed)
    multiple = 16 if block == "16x16" else 1
    offsets = _offsets(160, 6, "skewed", seed, multiple)
    gamax = F.nan_amax_grouped(x, offsets)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    got = F.quantize_grouped(x, offsets, gamax, **knobs)
    assert got[0].shape == (160, 24) and got[0].dtype == torch.uint8
    assert got[1].shape == (160, 3) and got[1].dtype == torch.float8_e4m3fn
    _same(got, _per_slice(x, offsets, gamax, **knobs))


@pytest.mark.parametrize("split", ["skewed", "one", "first_empty_last_all", "random"])
@pytest.mark.parametrize("experts", [1, 2, 17, 256])
@pytest.mark.parametrize("offset_dtype", [torch.int32, torch.int64])
def test_split_patterns(split, experts, offset_dtype):
    rows = 272
    x = _x(rows, 32, torch.bfloat16, "special", experts)
    for block, multiple in (("1x16", 1), ("16x16", 16)):
        offsets = _offsets(rows, experts, split, experts + rows, multiple, offset_dtype)
        gamax = F.nan_amax_grouped(x, offsets)
        got = F.quantize_grouped(x, offsets, gamax, block=block, err_mode="mse")
        _same(got, _per_slice(x, offsets, gamax, block=block, err_mode="mse"))


def test_adversarial_expert_amaxes():
    """gamax 0, Inf, NaN, subnormal, huge, negative: each slice behaves as SPEC's per-tensor."""
    x = _x(70, 32, torch.float32, "random", 5)
    offsets = torch.tensor([0, 9, 9, 20, 33, 41, 50, 70])
    gamax = torch.tensor([0.0, 1.0, float("inf"), float("nan"), 1e-40, 3e38, -2.0])
    for err_mode in ("mae", "mse"):
        got = F.quantize_grouped(x, offsets, gamax, err_mode=err_mode)
        _same(got, _per_slice(x, offsets, gamax, err_mode=err_mode))


def test_nan_amax_grouped():
    x = _x(50, 32, torch.bfloat16, "random", 7)
    x[3, 4] = float("nan")
    x[20:30] = float("nan")  # an all-NaN expert: amax 0
    x[40, 0] = float("-inf")
    offsets = torch.tensor([0, 0, 20, 30, 30, 45, 50], dtype=torch.int32)
    got = F.nan_amax_grouped(x, offsets)
    assert got.dtype == torch.float32 and got.shape == (6,)
    bounds = offsets.tolist()
    want = [float(F.nan_amax(x[lo:hi])) for lo, hi in itertools.pairwise(bounds)]
    assert got.tolist() == want
    assert got[0] == 0 and got[2] == 0 and got[3] == 0 and got[4] == float("inf")


def test_empty_input():
    x = torch.zeros(0, 32, dtype=torch.bfloat16)
    for offsets in (torch.zeros(1, dtype=torch.int64), torch.zeros(4, dtype=torch.int32)):
        experts = offsets.numel() - 1
        gamax = F.nan_amax_grouped(x, offsets)
        assert torch.equal(gamax, torch.zeros(experts))
        codes, scales = F.quantize_grouped(x, offsets, gamax, block="16x16")
        assert codes.shape == (0, 16) and scales.shape == (0, 2)


@pytest.mark.parametrize("block,err_mode,bound", MODES)
def test_row_scaled_and_tile_rows_equal_grouped(block, err_mode, bound):
    """The op layer's composition: the same bits through a per-row / per-band amax gather."""
    rows = 192
    x = _x(rows, 64, torch.bfloat16, "special", 11)
    multiple = 16 if block == "16x16" else 1
    offsets = _offsets(rows, 9, "random", 3, multiple)
    gamax = F.nan_amax_grouped(x, offsets) * torch.linspace(0.5, 2, 9)  # not the slices' own
    knobs = {"err_mode": err_mode, "e4m3_scale_bound": bound}
    want = F.quantize_grouped(x, offsets, gamax, block=block, **knobs)
    expert = _expert_of_row(offsets, rows)
    if block == "1x16":
        got = F.quantize(x, gamax[expert], block="1x16", **knobs)
    else:
        got = F.quantize_tile_rows(x, gamax[expert[::16]], **knobs)
    _same(got, want)


@pytest.mark.parametrize("block", ["1x16", "16x16"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_stacked(block, dtype):
    w = _x(5 * 32, 48, dtype, "special", 13).reshape(5, 32, 48)
    gamax = F.nan_amax(w.reshape(5, -1), dim=-1)
    gamax[1] = 0.0
    codes, scales = F.quantize_stacked(w, gamax, block=block, err_mode="mse")
    assert codes.shape == (5, 32, 24) and scales.shape == (5, 32, 3)
    for e in range(5):
        _same((codes[e], scales[e]), F.quantize(w[e], gamax[e], block=block, err_mode="mse"))
    offsets = torch.arange(6) * 32
    grouped = F.quantize_grouped(w.reshape(160, 48), offsets, gamax, block=block, err_mode="mse")
    _same((codes.reshape(160, 24), scales.reshape(160, 3)), grouped)


def _good():
    x = torch.randn(32, 32)
    return {"x": x, "offsets": torch.tensor([0, 16, 32]), "global_amax": torch.ones(2)}


BAD = [
    ({"x": "nope"}, TypeError, "x must be a torch.Tensor"),
    ({"x": torch.randn(32, 32).to(torch.float64)}, TypeError, "x must have dtype"),
    ({"x": torch.randn(2, 16, 32)}, ValueError, "x must be 2-D"),
    ({"x": torch.randn(32, 24)}, ValueError, "multiple of 16"),
    ({"offsets": [0, 16, 32]}, TypeError, "offsets must be a torch.Tensor"),
    ({"offsets": torch.tensor([0.0, 16.0, 32.0])}, TypeError, "offsets must have dtype"),
    ({"offsets": torch.tensor([[0, 16, 32]])}, ValueError, "offsets must be 1-D"),
    ({"offsets": torch.zeros(0, dtype=torch.int64)}, ValueError, "offsets must be 1-D"),
    ({"offsets": torch.tensor([0, 8, 16, 32])}, ValueError, r"global_amax must have shape \(3,\)"),
    ({"offsets": torch.tensor([0])}, ValueError, "names no expert"),
    (
        {"offsets": torch.zeros(3, dtype=torch.int64, device="meta")},
        ValueError,
        "offsets must be on",
    ),
    ({"global_amax": torch.ones(2, device="meta")}, ValueError, "global_amax must be on"),
    ({"global_amax": torch.ones(2, dtype=torch.float64)}, TypeError, "global_amax must be float32"),
    ({"global_amax": torch.ones(())}, ValueError, r"global_amax must have shape \(2,\)"),
    ({"global_amax": torch.ones(3)}, ValueError, r"global_amax must have shape \(2,\)"),
    ({"block": "8x8"}, ValueError, "block must be one of"),
    ({"err_mode": "max"}, ValueError, "err_mode must be one of"),
    ({"e4m3_scale_bound": 300}, ValueError, "e4m3_scale_bound must be one of"),
    ({"x": torch.randn(24, 32), "offsets": torch.tensor([0, 8, 24])}, None, None),  # 1x16 fine
]
# Value checks: they read the offsets (a device sync in the op layer, always here).
BAD_VALUES = [
    (torch.tensor([1, 16, 32]), "1x16", r"offsets\[0\] must be 0"),
    (torch.tensor([0, 16, 31]), "1x16", r"offsets\[-1\] must be the row count 32"),
    (torch.tensor([0, 16, 40]), "1x16", r"offsets\[-1\] must be the row count 32"),
    (torch.tensor([0, 20, 12, 32]), "1x16", "non-decreasing"),
    (torch.tensor([0, 8, 32]), "16x16", r"multiple of 16, got offsets\[1\] = 8"),
]


@pytest.mark.parametrize("change,exc,match", BAD)
def test_bad_arguments(change, exc, match):
    args = {**_good(), "block": "1x16", "err_mode": "mae", "e4m3_scale_bound": 256, **change}
    x, offsets, gamax = args.pop("x"), args.pop("offsets"), args.pop("global_amax")
    if exc is None:
        F.quantize_grouped(x, offsets, gamax, **args)
        return
    with pytest.raises(exc, match=match):
        F.quantize_grouped(x, offsets, gamax, **args)


def test_16x16_needs_rows_multiple_of_16():
    x = torch.randn(24, 32)
    with pytest.raises(ValueError, match="multiple of 16"):
        F.quantize_grouped(x, torch.tensor([0, 24]), torch.ones(1), block="16x16")


@pytest.mark.parametrize("offsets,block,match", BAD_VALUES)
def test_bad_offset_values(offsets, block, match):
    x = torch.randn(32, 32)
    gamax = torch.ones(offsets.numel() - 1)
    with pytest.raises(ValueError, match=match):
        F.quantize_grouped(x, offsets, gamax, block=block)
    if block == "1x16":
        with pytest.raises(ValueError, match=match):
            F.nan_amax_grouped(x, offsets)


def test_bad_stacked_and_tile_rows():
    w = torch.randn(2, 8, 32)
    with pytest.raises(ValueError, match="w must be 3-D"):
        F.quantize_stacked(w.reshape(16, 32), torch.ones(2))
    with pytest.raises(ValueError, match=r"global_amax must have shape \(2,\)"):
        F.quantize_stacked(w, torch.ones(8))
    with pytest.raises(ValueError, match="N to be a multiple of 16"):
        F.quantize_stacked(w, torch.ones(2), block="16x16")
    with pytest.raises(ValueError, match=r"band_amax must have shape \(1,\)"):
        F.quantize_tile_rows(torch.randn(16, 32), torch.ones(2))
    with pytest.raises(TypeError, match="band_amax must be float32"):
        F.quantize_tile_rows(torch.randn(16, 32), torch.ones(1, dtype=torch.float64))
