"""Argument checks of ``quantize`` / ``dequantize`` (``fos_reference.validation``).

Contract: every invalid argument raises ``TypeError`` (not a tensor, wrong
dtype) or ``ValueError`` (wrong value, shape or device) with a message that
names the argument. Valid inputs: ``x`` an (..., C) bfloat16/float16/float32
tensor with C % 16 == 0, its leading dimensions flattened into R rows;
``block`` in {"1x16", "16x16"} (16x16 needs R % 16 == 0 and a per-tensor amax);
``err_mode`` in {"mae", "mse"}; ``e4m3_scale_bound`` the int 256 or 448 (not a
bool, not a string); ``global_amax`` a float32 tensor on ``x``'s device holding
one element (per tensor) or of x's leading shape ``x.shape[:-1]`` (per row; the
flattened (R,) form of a >2-D x is rejected). ``dequantize`` also needs uint8
codes (..., C/2), float8_e4m3fn scales (..., C/16) on the codes' device and
``out_dtype`` in {bfloat16, float16, float32}. The checks never read tensor
values (they pass on 'meta' tensors).
"""

from __future__ import annotations

import pytest
import torch

from fos_reference import (
    check_dequantize_args,
    check_quantize_args,
    dequantize,
    fake_quantize,
    nan_amax,
    quantize,
)

R, C = 32, 64


def _x(dtype=torch.bfloat16, shape=(R, C)):
    return torch.ones(shape, dtype=dtype)


def _amax(shape=()):
    return torch.ones(shape, dtype=torch.float32)


def _packed(rows=R, cols=C):
    codes = torch.zeros(rows, cols // 2, dtype=torch.uint8)
    scales = torch.zeros(rows, cols // 16, dtype=torch.uint8).view(torch.float8_e4m3fn)
    return codes, scales


# --------------------------------------------------------------------------- quantize: x


def test_valid_arguments_pass():
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        for block in ("1x16", "16x16"):
            for err_mode in ("mae", "mse"):
                for bound in (256, 448):
                    quantize(_x(dtype), _amax(), block=block, err_mode=err_mode,
                             e4m3_scale_bound=bound)  # fmt: skip


@pytest.mark.parametrize("x", [[[1.0] * 16], 1.0, None], ids=["list", "float", "None"])
def test_x_not_a_tensor(x):
    with pytest.raises(TypeError, match=r"^x must be a torch\.Tensor"):
        quantize(x, _amax())


@pytest.mark.parametrize(
    "dtype",
    [
        torch.int32,
        torch.int8,
        torch.uint8,
        torch.bool,
        torch.float64,
        torch.float8_e4m3fn,
        torch.float8_e5m2,
        torch.complex64,
    ],
)
def test_x_wrong_dtype(dtype):
    x = torch.zeros(R, C).to(dtype)
    with pytest.raises(TypeError, match=r"^x must have dtype in .*got torch\." + str(dtype)[6:]):
        quantize(x, _amax())


def test_x_0d():
    with pytest.raises(ValueError, match=r"^x must have at least 1 dimension"):
        quantize(torch.zeros(()), _amax())


@pytest.mark.parametrize("shape", [(C,), (2, R, C), (1, 1, 16), (2, 3, 4, 32)])
def test_x_nd_accepted(shape):
    """(..., C): leading dimensions are rows; per tensor and per leading index."""
    x = torch.zeros(shape)
    assert check_quantize_args(x, _amax(), "1x16", "mae", 256) is False
    many = torch.ones(shape[:-1]).numel() != 1
    assert check_quantize_args(x, _amax(shape[:-1]), "1x16", "mae", 256) is many


@pytest.mark.parametrize("shape", [(2, 16, C), (4, 4, 2, C)])
def test_nd_amax_flattened_shape_rejected(shape):
    """A row-scaled amax has x's leading shape; its flattened (R,) form is rejected."""
    rows = torch.ones(shape[:-1]).numel()
    want = str(tuple(shape[:-1])).replace("(", r"\(").replace(")", r"\)")
    with pytest.raises(ValueError, match=rf"^global_amax must hold one element .*{want}"):
        quantize(torch.zeros(shape), _amax((rows,)))


def test_nd_16x16_counts_flattened_rows():
    """16x16 tiles span the flattened rows: (2, 8, C) has 16 rows, (3, 5, C) 15."""
    check_quantize_args(torch.zeros(2, 8, C), _amax(), "16x16", "mae", 256)
    with pytest.raises(ValueError, match=r"block='16x16' needs a row count .* got 15"):
        check_quantize_args(torch.zeros(3, 5, C), _amax(), "16x16", "mae", 256)


def test_nd_dequantize_shapes():
    codes = torch.zeros(2, 3, C // 2, dtype=torch.uint8)
    scales = torch.zeros(2, 3, C // 16, dtype=torch.uint8).view(torch.float8_e4m3fn)
    assert check_dequantize_args(codes, scales, _amax((2, 3)), 256, torch.float32) is True
    assert check_dequantize_args(codes, scales, _amax(), 256, torch.float32) is False
    with pytest.raises(ValueError, match=r"^scales must have shape \(2, 3, 4\)"):
        check_dequantize_args(codes, scales[0], _amax(), 256, torch.float32)
    with pytest.raises(ValueError, match=r"^global_amax must hold one element"):
        check_dequantize_args(codes, scales, _amax((6,)), 256, torch.float32)


@pytest.mark.parametrize("cols", [1, 8, 15, 17, 24, 40])
def test_x_cols_not_multiple_of_16(cols):
    with pytest.raises(
        ValueError, match=rf"^x's column count must be a multiple of 16, got {cols}"
    ):
        quantize(torch.zeros(R, cols), _amax())


# --------------------------------------------------------------------------- quantize: knobs


@pytest.mark.parametrize("block", ["1x32", "16X16", "", None, 16, ("1x16",)])
def test_unknown_block(block):
    with pytest.raises(ValueError, match=r"^block must be one of"):
        quantize(_x(), _amax(), block=block)


@pytest.mark.parametrize("err_mode", ["MAE", "l1", "", None, 1])
def test_unknown_err_mode(err_mode):
    with pytest.raises(ValueError, match=r"^err_mode must be one of"):
        quantize(_x(), _amax(), err_mode=err_mode)


@pytest.mark.parametrize(
    "bound", [0, 255, 257, 447, 512, True, False, "256", "448", None, 256.0, 448.0]
)
def test_unknown_bound(bound):
    with pytest.raises(ValueError, match=r"^e4m3_scale_bound must be one of"):
        quantize(_x(), _amax(), e4m3_scale_bound=bound)


@pytest.mark.parametrize("rows", [1, 8, 17, 31])
def test_16x16_needs_rows_multiple_of_16(rows):
    with pytest.raises(ValueError, match=r"block='16x16' needs a row count .* got " + str(rows)):
        quantize(torch.zeros(rows, C), _amax(), block="16x16")


def test_16x16_rejects_row_amax():
    with pytest.raises(ValueError, match=r"block='16x16' needs a per-tensor global_amax"):
        quantize(_x(), _amax((R,)), block="16x16")


# --------------------------------------------------------------------------- quantize: amax


@pytest.mark.parametrize("shape", [(R + 1,), (R - 1,), (R, 1), (1, R), (2,), (0,), (R, 2)])
def test_amax_wrong_shape(shape):
    with pytest.raises(ValueError, match=r"^global_amax must hold one element .*got shape"):
        quantize(_x(), _amax(shape))


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16, torch.float16, torch.int32])
@pytest.mark.parametrize("shape", [(), (R,)])
def test_amax_wrong_dtype(dtype, shape):
    with pytest.raises(TypeError, match=r"^global_amax must be float32"):
        quantize(_x(), torch.ones(shape, dtype=dtype))


@pytest.mark.parametrize("amax", [1.0, 1, [1.0], None], ids=["float", "int", "list", "None"])
def test_amax_not_a_tensor(amax):
    with pytest.raises(TypeError, match=r"^global_amax must be a torch\.Tensor"):
        quantize(_x(), amax)


def test_amax_on_other_device():
    """Device mismatch, testable without a GPU through the 'meta' device."""
    with pytest.raises(ValueError, match=r"^global_amax must be on the input's device cpu"):
        quantize(_x(), torch.ones((), device="meta"))
    with pytest.raises(ValueError, match=r"^global_amax must be on the input's device meta"):
        check_quantize_args(_x().to("meta"), _amax(), "1x16", "mae", 256)


def test_check_quantize_args_reports_row_scaling_without_reading_values():
    x = torch.empty(R, C, dtype=torch.bfloat16, device="meta")
    assert check_quantize_args(x, torch.empty((), device="meta"), "1x16", "mae", 256) is False
    assert check_quantize_args(x, torch.empty(1, 1, device="meta"), "16x16", "mse", 448) is False
    assert check_quantize_args(x, torch.empty(R, device="meta"), "1x16", "mse", 448) is True
    one = torch.empty(1, C, device="meta")
    assert check_quantize_args(one, torch.empty(1, device="meta"), "1x16", "mae", 256) is False


def test_first_error_wins_in_documented_order():
    """x is checked before the knobs, the knobs before the amax."""
    with pytest.raises(TypeError, match=r"^x must have dtype"):
        quantize(torch.zeros(R, C, dtype=torch.float64), 1.0, block="bad")
    with pytest.raises(ValueError, match=r"^block must be one of"):
        quantize(_x(), 1.0, block="bad")


# --------------------------------------------------------------------------- dequantize


def test_dequantize_valid_arguments_pass():
    codes, scales = _packed()
    for out_dtype in (torch.bfloat16, torch.float16, torch.float32):
        for amax in (_amax(), _amax((1,)), _amax((R,))):
            out = dequantize(codes, scales, amax, out_dtype=out_dtype, e4m3_scale_bound=448)
            assert out.shape == (R, C) and out.dtype == out_dtype


@pytest.mark.parametrize("dtype", [torch.int8, torch.int32, torch.int64, torch.float32])
def test_dequantize_codes_not_uint8(dtype):
    codes, scales = _packed()
    with pytest.raises(TypeError, match=r"^codes must be uint8"):
        dequantize(codes.to(dtype), scales, _amax())


def test_dequantize_codes_or_scales_not_a_tensor():
    codes, scales = _packed()
    with pytest.raises(TypeError, match=r"^codes must be a torch\.Tensor"):
        dequantize(codes.tolist(), scales, _amax())
    with pytest.raises(TypeError, match=r"^scales must be a torch\.Tensor"):
        dequantize(codes, 1.0, _amax())


@pytest.mark.parametrize(
    "dtype", [torch.uint8, torch.float8_e5m2, torch.float32, torch.bfloat16, torch.float8_e4m3fnuz]
)
def test_dequantize_scales_not_e4m3fn(dtype):
    codes, scales = _packed()
    with pytest.raises(TypeError, match=r"^scales must be float8_e4m3fn"):
        dequantize(codes, scales.view(torch.uint8).to(dtype), _amax())


@pytest.mark.parametrize(
    "shape", [(R, C // 16 + 1), (R, C // 16 - 1), (R + 1, C // 16), (R * C // 16,), (R, 1, 4)]
)
def test_dequantize_scales_shape_mismatch(shape):
    codes, _ = _packed()
    scales = torch.zeros(shape, dtype=torch.uint8).view(torch.float8_e4m3fn)
    with pytest.raises(ValueError, match=r"^scales must have shape \(32, 4\) to match codes"):
        dequantize(codes, scales, _amax())


def test_dequantize_codes_shape():
    _, scales = _packed()
    with pytest.raises(ValueError, match=r"^codes must have at least 1 dimension"):
        dequantize(torch.zeros((), dtype=torch.uint8), scales, _amax())
    with pytest.raises(ValueError, match=r"^scales must have shape \(4,\) to match codes"):
        dequantize(torch.zeros(C // 2, dtype=torch.uint8), scales, _amax())
    with pytest.raises(ValueError, match=r"^codes' column count must be a multiple of 8"):
        dequantize(torch.zeros(R, 12, dtype=torch.uint8), scales, _amax())


@pytest.mark.parametrize(
    "out_dtype", [torch.float64, torch.int32, torch.uint8, torch.float8_e4m3fn, "bfloat16", None]
)
def test_dequantize_bad_out_dtype(out_dtype):
    codes, scales = _packed()
    with pytest.raises(TypeError, match=r"^out_dtype must be one of"):
        dequantize(codes, scales, _amax(), out_dtype=out_dtype)


@pytest.mark.parametrize("bound", [0, 512, True, "256"])
def test_dequantize_bad_bound(bound):
    codes, scales = _packed()
    with pytest.raises(ValueError, match=r"^e4m3_scale_bound must be one of"):
        dequantize(codes, scales, _amax(), e4m3_scale_bound=bound)


@pytest.mark.parametrize("shape", [(R + 1,), (R, 1), (2,), (0,)])
def test_dequantize_wrong_amax_shape(shape):
    codes, scales = _packed()
    with pytest.raises(ValueError, match=r"^global_amax must hold one element"):
        dequantize(codes, scales, _amax(shape))


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16])
def test_dequantize_wrong_amax_dtype(dtype):
    codes, scales = _packed()
    with pytest.raises(TypeError, match=r"^global_amax must be float32"):
        dequantize(codes, scales, torch.ones((), dtype=dtype))


def test_dequantize_device_mismatch_via_meta():
    codes, scales = _packed()
    with pytest.raises(ValueError, match=r"^scales must be on codes' device cpu"):
        dequantize(codes, scales.to("meta"), _amax())
    with pytest.raises(ValueError, match=r"^global_amax must be on the input's device cpu"):
        dequantize(codes, scales, torch.ones((), device="meta"))


def test_check_dequantize_args_reports_row_scaling_without_reading_values():
    codes = torch.empty(R, C // 2, dtype=torch.uint8, device="meta")
    scales = torch.empty(R, C // 16, dtype=torch.float8_e4m3fn, device="meta")
    amax = torch.empty(R, device="meta")
    assert check_dequantize_args(codes, scales, amax, 256, torch.bfloat16) is True
    amax = torch.empty((), device="meta")
    assert check_dequantize_args(codes, scales, amax, 448, torch.float32) is False


# --------------------------------------------------------------------------- layouts


def _sparse(t: torch.Tensor) -> torch.Tensor:
    return t.to_sparse()


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("x", lambda: quantize(_sparse(_x()), _amax())),
        ("global_amax", lambda: quantize(_x(), _amax((R,)).to_sparse())),
        ("codes", lambda: dequantize(_sparse(_packed()[0]), _packed()[1], _amax())),
        ("x", lambda: nan_amax(_sparse(_x()))),
        ("x", lambda: fake_quantize(_sparse(_x()), _amax())),
    ],
    ids=["quantize x", "quantize amax", "dequantize codes", "nan_amax", "fake_quantize"],
)
def test_sparse_tensors_are_rejected_by_name(name, call):
    """A sparse argument: a TypeError naming it, not an error from deep inside torch."""
    with pytest.raises(TypeError, match=rf"^{name} must be a dense \(strided\) tensor"):
        call()
