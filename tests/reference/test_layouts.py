"""``fos_reference.layouts``: SPEC's "Columnwise (transposed) output" and "Swizzled scales".

Contracts under test:

* ``swizzle_scales`` puts byte (r, g) of (R, G) scales at
  ``512 * ((r // 128) * ceil(G/4) + g // 4) + 16 * (r % 32) + 4 * ((r // 32) % 4) + g % 4``
  of a flat (ceil(R/128)*128 * ceil(G/4)*4,) float8_e4m3fn vector with zero
  padding bytes, checked against a literal per-byte implementation of that
  formula and against a second, tile-by-tile reading of SPEC's text (the
  ``to_blocked`` order); ``unswizzle_scales`` inverts it.
* ``quantize_columnwise(x)`` is ``quantize(x.t().contiguous())``, bit for bit,
  over every knob, dtype and input kind, and also matches the independent
  scalar oracle; ``fake_quantize_columnwise`` is its dequantize, in x's shape.
* Bad inputs raise ``ValueError`` / ``TypeError`` naming what was wrong.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import fos_reference as R

from . import oracle as O

SWIZZLE_SHAPES = [(1, 1), (5, 3), (129, 5), (256, 8), (128, 4), (0, 3), (3, 0), (300, 13)]


def _bytes(t: torch.Tensor) -> torch.Tensor:
    return t.view(torch.uint8)


def _random_scales(rows: int, groups: int, seed: int = 0) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    # Bytes 1..126 only: nonzero (so padding zeros are distinguishable), never NaN (0x7F).
    raw = torch.randint(1, 127, (rows, groups), generator=gen, dtype=torch.uint8)
    return raw.view(torch.float8_e4m3fn)


def _swizzle_literal(scales: torch.Tensor) -> list[int]:
    """SPEC's formula, one byte at a time, in plain Python."""
    rows, groups = scales.shape
    rp, gp = math.ceil(rows / 128) * 128, math.ceil(groups / 4) * 4
    src = _bytes(scales).tolist()
    out = [None] * (rp * gp)
    for r in range(rp):
        for g in range(gp):
            tile = (r // 128) * (gp // 4) + g // 4
            at = 512 * tile + 16 * (r % 32) + 4 * ((r // 32) % 4) + g % 4
            assert out[at] is None  # the formula is a bijection
            out[at] = src[r][g] if r < rows and g < groups else 0
    return out


def _swizzle_by_tiles(scales: torch.Tensor) -> torch.Tensor:
    """SPEC's text read another way: 128 x 4 tiles in row-major order; inside a tile,
    the rows go in 4 bands of 32 and the 16 bytes of a row of the output are
    (band 0's 4 groups, band 1's, band 2's, band 3's) for one row index within
    the bands: i.e. the tile as (band, row-in-band, group), read row-in-band first."""
    rows, groups = scales.shape
    rp, gp = math.ceil(rows / 128) * 128, math.ceil(groups / 4) * 4
    padded = torch.zeros(rp, gp, dtype=torch.uint8)
    padded[:rows, :groups] = _bytes(scales)
    pieces = []
    for i in range(rp // 128):
        for j in range(gp // 4):
            tile = padded[128 * i : 128 * (i + 1), 4 * j : 4 * (j + 1)]  # (128, 4)
            bands = tile.reshape(4, 32, 4)  # (band, row in band, group)
            pieces.append(bands.transpose(0, 1).reshape(32, 16).reshape(-1))
    return torch.cat(pieces) if pieces else torch.zeros(0, dtype=torch.uint8)


# --------------------------------------------------------------------------- swizzle


@pytest.mark.parametrize("rows,groups", SWIZZLE_SHAPES)
def test_swizzle_matches_spec_formula_byte_for_byte(rows, groups):
    scales = _random_scales(rows, groups, seed=rows * 31 + groups)
    got = R.swizzle_scales(scales)
    assert got.dtype == torch.float8_e4m3fn and got.is_contiguous()
    assert tuple(got.shape) == R.swizzled_shape(rows, groups)
    assert got.shape == (math.ceil(rows / 128) * 128 * math.ceil(groups / 4) * 4,)
    assert _bytes(got).tolist() == _swizzle_literal(scales)
    assert torch.equal(_bytes(got), _swizzle_by_tiles(scales))


@pytest.mark.parametrize("rows,groups", SWIZZLE_SHAPES)
def test_unswizzle_inverts_swizzle(rows, groups):
    scales = _random_scales(rows, groups, seed=7)
    back = R.unswizzle_scales(R.swizzle_scales(scales), rows, groups)
    assert back.dtype == torch.float8_e4m3fn and back.shape == (rows, groups)
    assert back.is_contiguous() and torch.equal(_bytes(back), _bytes(scales))


def test_padding_bytes_are_zero():
    """Every byte not fed by a scale is 0x00: exactly Rp * Gp - R * G of them."""
    rows, groups = 129, 5
    got = _bytes(R.swizzle_scales(_random_scales(rows, groups)))  # scales are all nonzero
    assert int((got == 0).sum()) == got.numel() - rows * groups
    assert int((got != 0).sum()) == rows * groups


def test_swizzle_of_non_contiguous_scales():
    scales = _random_scales(8, 256, seed=3).view(torch.uint8).t().view(torch.float8_e4m3fn)
    assert not scales.is_contiguous()
    want = R.swizzle_scales(scales.view(torch.uint8).contiguous().view(torch.float8_e4m3fn))
    assert torch.equal(_bytes(R.swizzle_scales(scales)), _bytes(want))


def test_swizzle_of_quantize_scales_round_trips():
    x = torch.randn(144, 80, dtype=torch.bfloat16)
    _, scales = R.quantize(x, R.nan_amax(x))
    swz = R.swizzle_scales(scales)
    assert torch.equal(_bytes(R.unswizzle_scales(swz, 144, 5)), _bytes(scales))


def test_swizzle_rejects_bad_input():
    with pytest.raises(TypeError, match="float8_e4m3fn"):
        R.swizzle_scales(torch.zeros(4, 4, dtype=torch.uint8))
    with pytest.raises(TypeError, match=r"torch\.Tensor"):
        R.swizzle_scales([[1]])
    with pytest.raises(ValueError, match="2-D"):
        R.swizzle_scales(_random_scales(4, 4).reshape(2, 2, 4))
    swz = R.swizzle_scales(_random_scales(5, 3))
    with pytest.raises(ValueError, match=r"shape \(512,\)"):
        R.unswizzle_scales(swz[:256], 5, 3)
    with pytest.raises(ValueError, match="rows must be a non-negative int"):
        R.unswizzle_scales(swz, -1, 3)
    with pytest.raises(ValueError, match="groups must be a non-negative int"):
        R.unswizzle_scales(swz, 5, 3.0)
    with pytest.raises(TypeError, match="swizzled must be float8_e4m3fn"):
        R.unswizzle_scales(swz.view(torch.uint8), 5, 3)


def test_as_float4():
    codes = torch.tensor([[0x21, 0xF8]], dtype=torch.uint8)
    if R.FLOAT4_E2M1FN_X2 is None:
        with pytest.raises(TypeError, match="no float4_e2m1fn_x2"):
            R.as_float4(codes)
        pytest.skip(f"torch {torch.__version__} has no float4_e2m1fn_x2")
    f4 = R.as_float4(codes)
    assert f4.dtype == torch.float4_e2m1fn_x2 and f4.shape == codes.shape
    assert f4.data_ptr() == codes.data_ptr() and torch.equal(f4.view(torch.uint8), codes)
    with pytest.raises(TypeError, match="uint8"):
        R.as_float4(codes.float())


# --------------------------------------------------------------------------- columnwise

KNOBS = [
    (block, err_mode, bound)
    for block in ("1x16", "16x16")
    for err_mode in ("mae", "mse")
    for bound in (256, 448)
]
DTYPES = [torch.bfloat16, torch.float16, torch.float32]
KINDS = ["random", "specials", "zero_rows", "tiny", "huge"]


def make_input(kind: str, rows: int, cols: int, dtype: torch.dtype, seed: int = 0):
    """An (R, C) input of one kind and its per-tensor amax (sometimes not x's own)."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, cols, generator=gen) * 4
    gamax = None
    if kind == "specials":  # NaN, +-Inf, -0 and small negatives, down the columns
        x[3, :] = float("nan")
        x[:, 1 % cols] = -0.0
        x[5, 2 % cols] = float("inf")
        x[6, 7 % cols] = float("-inf")
        x[:16, 3 % cols] = -1e-30
    elif kind == "zero_rows":  # zero rows of x and zero columns (all-zero groups of x^T)
        x[2:5] = 0
        x[:, 0] = 0
    elif kind == "tiny":  # subnormal scales: a tiny block under a large global amax
        x[:, : cols // 2] *= 1e-6
        gamax = torch.full((), 1e4, dtype=torch.float32)
    elif kind == "huge":  # saturating scales: a small global amax under large data
        gamax = torch.full((), 0.5, dtype=torch.float32)
    x = x.to(dtype)
    return x, (R.nan_amax(x) if gamax is None else gamax)


def _same(a, b):
    return torch.equal(a[0], b[0]) and torch.equal(_bytes(a[1]), _bytes(b[1]))


@pytest.mark.parametrize("block,err_mode,bound", KNOBS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", KINDS)
def test_columnwise_is_quantize_of_the_contiguous_transpose(block, err_mode, bound, dtype, kind):
    rows, cols = 48, 32  # 16x16 needs C % 16 too
    x, gamax = make_input(kind, rows, cols, dtype, seed=len(kind))
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    got = R.quantize_columnwise(x, gamax, **knobs)
    want = R.quantize(x.t().contiguous(), gamax, **knobs)
    assert got[0].shape == (cols, rows // 2) and got[0].dtype == torch.uint8
    assert got[1].shape == (cols, rows // 16) and got[1].dtype == torch.float8_e4m3fn
    assert _same(got, want)
    x_hat = R.fake_quantize_columnwise(x, gamax, **knobs)
    want_hat = R.dequantize(*want, gamax, e4m3_scale_bound=bound, out_dtype=dtype).t()
    assert x_hat.shape == x.shape and x_hat.stride() == (1, rows) and x_hat.dtype == dtype
    assert torch.equal(
        x_hat.contiguous().view(torch.uint8), want_hat.contiguous().view(torch.uint8)
    )


@pytest.mark.parametrize("rows,cols", [(16, 1), (16, 3), (32, 17), (144, 5)])
def test_columnwise_any_column_count(rows, cols):
    """1x16 columnwise needs only R % 16 == 0: C is the row count of x^T."""
    x, gamax = make_input("specials", rows, cols, torch.bfloat16, seed=cols)
    got = R.quantize_columnwise(x, gamax, err_mode="mse")
    assert _same(got, R.quantize(x.t().contiguous(), gamax, err_mode="mse"))


@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_columnwise_matches_the_scalar_oracle(block):
    x, gamax = make_input("specials", 32, 32, torch.float32, seed=5)
    codes, scales = R.quantize_columnwise(x, gamax, block=block, err_mode="mse")
    want_codes, want_bytes, _, _ = O.quantize_tensor(
        x.t().numpy(), np.float32(gamax.item()), block, "mse", 256
    )
    assert np.array_equal(codes.numpy(), want_codes)
    assert np.array_equal(_bytes(scales).numpy(), want_bytes)


def test_columnwise_of_a_transposed_input_is_rowwise():
    """x already a transposed view: columnwise of x.t() is the rowwise quantize of x."""
    base, gamax = make_input("random", 32, 64, torch.bfloat16, seed=9)
    assert _same(R.quantize_columnwise(base.t(), gamax), R.quantize(base, gamax))


def test_fake_quantize_columnwise_out_dtype_and_default():
    x, gamax = make_input("random", 32, 16, torch.bfloat16, seed=2)
    out = R.fake_quantize_columnwise(x, gamax, out_dtype=torch.float32)
    codes, scales = R.quantize_columnwise(x, gamax)
    want = R.dequantize(codes, scales, gamax, out_dtype=torch.float32).t()
    assert out.dtype == torch.float32 and torch.equal(out, want)
    with pytest.raises(TypeError, match="out_dtype"):
        R.fake_quantize_columnwise(x, gamax, out_dtype=torch.int8)


def test_columnwise_rejects_bad_input():
    x = torch.randn(24, 32, dtype=torch.bfloat16)
    g = R.nan_amax(x)
    with pytest.raises(ValueError, match=r"row count R to be a multiple of 16 .*got R = 24"):
        R.quantize_columnwise(x, g)
    with pytest.raises(ValueError, match="row count R"):
        R.fake_quantize_columnwise(x, g)
    x = torch.randn(32, 24, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="16x16' needs x's column count C"):
        R.quantize_columnwise(x, g, block="16x16")
    with pytest.raises(ValueError, match="per-tensor global_amax"):
        R.quantize_columnwise(x, R.nan_amax(x, dim=-1))
    with pytest.raises(ValueError, match="per-tensor global_amax"):
        R.quantize_columnwise(x, R.nan_amax(x.t(), dim=-1))
    with pytest.raises(ValueError, match="2-D"):
        R.quantize_columnwise(x.reshape(2, 16, 24), g)
    with pytest.raises(TypeError, match="global_amax must be float32"):
        R.quantize_columnwise(x, g.double())
    with pytest.raises(TypeError, match="x must have dtype"):
        R.quantize_columnwise(x.to(torch.int32), g)
    with pytest.raises(ValueError, match="err_mode"):
        R.quantize_columnwise(x, g, err_mode="max")
