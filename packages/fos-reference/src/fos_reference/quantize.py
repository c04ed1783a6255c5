"""Four-over-six NVFP4 quantize, dequantize and fake-quantize: SPEC in plain PyTorch.

Each SPEC step is one torch op on float32 tensors, so each is rounded once
(no fused multiply-add, no reassociation). Every constant is a float32 tensor
filled on the input's device (``torch.full``, never a host copy, so every
function can be captured in a CUDA graph) and every division is tensor /
tensor: CUDA lowers a division by a Python number (or a 0-d CPU tensor) to a
reciprocal multiply, which is off by one ulp on some inputs. ``torch.fmin`` /
``torch.fmax`` give SPEC's NaN-dropping min / max. With these rules CPU and
CUDA give the same bits.

Inputs are N-D: ``x`` (..., C) is quantized as the (R, C) matrix of its
flattened leading dimensions (a view when the strides allow it), and every
output keeps the leading shape.
"""

from __future__ import annotations

import torch

from .formats import E4M3_MAX, e2m1_decode, e2m1_encode, e4m3_saturate
from .validation import (
    GROUP,
    check_dequantize_args,
    check_fake_quantize_args,
    check_nan_amax_args,
    check_quantize_args,
    flat_rows,
)

FLT_MAX = torch.finfo(torch.float32).max

#: SPEC's bound of standard NVFP4 (the largest E4M3 value).
NVFP4_SCALE_BOUND = 448


def _const(value: float, device: torch.device) -> torch.Tensor:
    """A float32 0-d constant filled on ``device`` (no host-to-device copy)."""
    return torch.full((), value, dtype=torch.float32, device=device)


def _repeat_rows(t: torch.Tensor) -> torch.Tensor:
    """(T, G) per-tile values -> (16 T, G): each tile's value on its 16 rows."""
    tiles, groups = t.shape
    return t.unsqueeze(1).expand(tiles, GROUP, groups).reshape(tiles * GROUP, groups)


def global_encode_scale(global_amax: torch.Tensor, e4m3_scale_bound: int = 256) -> torch.Tensor:
    """SPEC step 1: ``s = min(D / gamax, FLT_MAX)``, and 1 where gamax or s is 0.

    Elementwise over a float32 tensor of global amaxes (NaN gives FLT_MAX,
    Inf gives 1). The decode scale is ``1 / s``, rounded once.
    """
    if global_amax.dtype != torch.float32:
        raise TypeError(f"global_amax must be float32, got {global_amax.dtype}")
    dev = global_amax.device
    d = _const(6.0 * e4m3_scale_bound, dev)
    s = torch.fmin(d / global_amax, _const(FLT_MAX, dev))
    return torch.where((global_amax == 0) | (s == 0), _const(1.0, dev), s)


def nan_amax(x: torch.Tensor, dim: int | None = None) -> torch.Tensor:
    """Largest ``|x|`` ignoring NaN, starting from 0, as float32.

    ``dim=None`` gives the per-tensor amax (0-d); ``dim=-1`` gives the per-row
    amax of shape ``x.shape[:-1]`` for row-scaled quantization (``dim=1`` on a
    2-D tensor is the same). Inf counts; an empty reduction gives 0.
    """
    dim = check_nan_amax_args(x, dim)
    m = x.float().abs()
    m = torch.where(torch.isnan(m), torch.zeros_like(m), m)
    if dim is None:
        m, dim = m.reshape(-1), 0
    elif m.dim() == 0:
        m = m.reshape(1)
    start = m.new_zeros((*m.shape[:dim], 1, *m.shape[dim + 1 :]))
    return torch.cat((start, m), dim=dim).amax(dim=dim)


def _fold16(err: torch.Tensor) -> torch.Tensor:
    """SPEC step 7: combine 16 row errors (dim 1) by folding 8, 4, 2, 1."""
    while err.shape[1] > 1:
        half = err.shape[1] // 2
        err = err[:, :half] + err[:, half:]
    return err[:, 0]


def _block_amax(xg: torch.Tensor, block: str) -> torch.Tensor:
    """SPEC step 2: NaN-dropping amax from 0 of each group (R, G), or of its 16x16 tile."""
    rows, groups_per_row, _ = xg.shape
    absx = xg.abs()
    absx = torch.where(torch.isnan(absx), torch.zeros_like(absx), absx)
    amax = absx.amax(dim=2)  # (R, G); amax of 16 values from 0 = max with a 0 start
    if block == "16x16":
        amax = _repeat_rows(amax.reshape(rows // GROUP, GROUP, groups_per_row).amax(dim=1))
    return amax


def _encode(xg: torch.Tensor, scale: torch.Tensor, s_dec: torch.Tensor) -> torch.Tensor:
    """SPEC steps 4-5: the E2M1 codes (R, G, 16) of ``xg`` under one candidate scale."""
    f = scale.float()
    dev = xg.device
    # A zero scale gives 1/0 = inf, capped.
    inv = torch.fmin(_const(1.0, dev) / (f * s_dec), _const(FLT_MAX, dev))
    return e2m1_encode(xg * inv.unsqueeze(2))


def _pack(code: torch.Tensor, shape: torch.Size) -> torch.Tensor:
    """(R, G, 16) codes -> contiguous uint8 (..., C/2), element 2j in the low nibble.

    Contiguous whatever ``x``'s strides (elementwise ops follow a transposed
    input's layout), as the ops' fakes say.
    """
    code = code.reshape(code.shape[0], code.shape[1] * GROUP)
    packed = code[:, 0::2] | (code[:, 1::2] << 4)
    return packed.contiguous().reshape(*shape[:-1], shape[-1] // 2)


def _grouped(x: torch.Tensor) -> torch.Tensor:
    """``x`` (..., C) as float32 (R, C/16, 16): a view of the flattened rows when possible."""
    cols = x.shape[-1]
    x2 = x.reshape(flat_rows(x.shape), cols)  # a view whenever the strides allow it
    return x2.float().reshape(x2.shape[0], cols // GROUP, GROUP)


def quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize ``x`` (..., C) to four-over-six NVFP4 exactly as SPEC says.

    ``global_amax`` is a one-element float32 tensor (per tensor) or a tensor
    of ``x``'s leading shape ``x.shape[:-1]`` (row-scaled, ``block="1x16"``
    only), on ``x``'s device. Leading dimensions are flattened into rows; a
    16x16 tile spans 16 flattened rows (their count must be a multiple of 16).
    Returns ``codes`` uint8 (..., C/2), element 2j in the low nibble, and
    ``scales`` float8_e4m3fn (..., C/16); a 16x16 tile repeats its scale on its
    16 rows.
    """
    codes, scales, _ = quantize_with_choice(
        x, global_amax, block=block, err_mode=err_mode, e4m3_scale_bound=e4m3_scale_bound
    )
    return codes, scales


def quantize_with_choice(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``quantize`` plus which candidate each group kept: bool (..., C/16), True = map-to-4."""
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    return _quantize_core(x, global_amax.reshape(-1, 1), block, err_mode, e4m3_scale_bound)


def _quantize_core(
    x: torch.Tensor, gamax: torch.Tensor, block: str, err_mode: str, e4m3_scale_bound: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """SPEC steps 1-8 on checked arguments; ``gamax`` is (1, 1) or (R, 1).

    Every step reads ``gamax`` row by row, so a (R, 1) column gives each row the
    bits of a per-tensor quantize under that row's value; for 16x16 the column
    must be constant on each 16-row band (its tiles then see one value).
    """
    dev = x.device
    xg = _grouped(x)  # (R, G, 16)
    rows, groups_per_row, _ = xg.shape

    s = global_encode_scale(gamax, e4m3_scale_bound)
    s_dec = _const(1.0, dev) / s
    d = _const(6.0 * e4m3_scale_bound, dev)
    e4m3_max = _const(E4M3_MAX, dev)

    amax = _block_amax(xg, block)  # step 2

    # Step 3: candidate scales (divide first, then multiply).
    base = (amax / _const(6.0, dev)) * s
    c6 = torch.fmin(base, e4m3_max)
    c4 = torch.fmin(base * _const(1.5, dev), e4m3_max)

    candidates = []
    for c in (c4, c6):
        scale = e4m3_saturate(c)  # (R, G)
        code = _encode(xg, scale, s_dec)  # (R, G, 16)
        # Step 6: error, summed in element order.
        val = ((e2m1_decode(code) * scale.float().unsqueeze(2)) * gamax.unsqueeze(2)) / d
        diff = val - xg
        err = torch.zeros(rows, groups_per_row, dtype=torch.float32, device=dev)
        for i in range(GROUP):
            di = diff[:, :, i]
            err = err + (di.abs() if err_mode == "mae" else di * di)
        candidates.append((scale, code, err))
    (sc4, code4, err4), (sc6, code6, err6) = candidates

    if block == "16x16":
        err4 = _repeat_rows(_fold16(err4.reshape(rows // GROUP, GROUP, groups_per_row)))
        err6 = _repeat_rows(_fold16(err6.reshape(rows // GROUP, GROUP, groups_per_row)))

    # Step 8: map-to-4 only when strictly better (NaN compares false).
    pick4 = err4 < err6  # (R, G)
    scales = torch.where(pick4, sc4.view(torch.uint8), sc6.view(torch.uint8))
    codes = _pack(torch.where(pick4.unsqueeze(2), code4, code6), x.shape)
    lead = x.shape[:-1]
    scales = scales.contiguous().view(torch.float8_e4m3fn).reshape(*lead, groups_per_row)
    return codes, scales, pick4.reshape(*lead, groups_per_row)


def quantize_nvfp4(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
) -> tuple[torch.Tensor, torch.Tensor]:
    """Standard NVFP4 round-to-nearest (SPEC's "Standard NVFP4"), for comparison.

    Bound 448 and only the map-to-6 candidate, with the other association:
    ``sc = e4m3(min(RN(a * RN(s * RN(1/6))), 448))``. Same arguments, shapes
    and layout as ``quantize``; dequantize with ``e4m3_scale_bound=448``.
    """
    check_quantize_args(x, global_amax, block, "mae", NVFP4_SCALE_BOUND)
    dev = x.device
    xg = _grouped(x)
    s = global_encode_scale(global_amax.reshape(-1, 1), NVFP4_SCALE_BOUND)
    s_dec = _const(1.0, dev) / s
    sixth = _const(1.0, dev) / _const(6.0, dev)
    base = _block_amax(xg, block) * (s * sixth)
    scale = e4m3_saturate(torch.fmin(base, _const(E4M3_MAX, dev)))  # (R, G)
    codes = _pack(_encode(xg, scale, s_dec), x.shape)
    return codes, scale.contiguous().reshape(*x.shape[:-1], xg.shape[1])


def dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
) -> torch.Tensor:
    """Rebuild ``x_hat`` (..., C) from ``quantize``'s output, as SPEC says.

    ``codes`` (..., C/2), ``scales`` (..., C/16) and ``global_amax`` (one
    element, or the leading shape). ``ds = (f(scale) * gamax) * RN(1 / D)`` per
    group, then ``dq * ds`` per element, cast to ``out_dtype`` with
    round-to-nearest-even.
    """
    check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    half_cols = codes.shape[-1]
    dev = codes.device
    rows = flat_rows(codes.shape)
    flat = codes.reshape(rows, half_cols)
    unpacked = torch.stack((flat & 0xF, flat >> 4), dim=2).reshape(rows, half_cols // 8, GROUP)
    factor_inv = _const(1.0, dev) / _const(6.0 * e4m3_scale_bound, dev)
    f = scales.reshape(rows, half_cols // 8).float()
    ds = (f * global_amax.reshape(-1, 1)) * factor_inv  # (R, G)
    ds = torch.where(f == 0, torch.zeros_like(ds), ds)  # a zero scale gives exact zeros
    x_hat = e2m1_decode(unpacked) * ds.unsqueeze(2)
    return x_hat.reshape(*codes.shape[:-1], half_cols * 2).to(out_dtype)


def fake_quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """SPEC's fake-quantize: ``dequantize(quantize(x))`` of ``x`` (..., C), the oracle.

    Same arguments as ``quantize``; ``out_dtype`` defaults to ``x.dtype``.
    Returns ``x_hat`` of ``x``'s shape. (Its gradient, the straight-through
    estimator, is the op layer's business: this function is not differentiable.)
    """
    check_fake_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    codes, scales = quantize(
        x, global_amax, block=block, err_mode=err_mode, e4m3_scale_bound=e4m3_scale_bound
    )
    return dequantize(
        codes,
        scales,
        global_amax,
        e4m3_scale_bound=e4m3_scale_bound,
        out_dtype=x.dtype if out_dtype is None else out_dtype,
    )
