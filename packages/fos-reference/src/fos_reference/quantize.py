"""Four-over-six NVFP4 quantize and dequantize: SPEC in plain PyTorch.

Each SPEC step is one torch op on float32 tensors, so each is rounded once
(no fused multiply-add, no reassociation). Every constant is a float32 tensor
on the input's device and every division is tensor / tensor: CUDA lowers a
division by a Python number (or a 0-d CPU tensor) to a reciprocal multiply,
which is off by one ulp on some inputs. ``torch.fmin`` / ``torch.fmax`` give
SPEC's NaN-dropping min / max. With these rules CPU and CUDA give the same bits.
"""

from __future__ import annotations

import torch

from .formats import E4M3_MAX, e2m1_decode, e2m1_encode, e4m3_saturate
from .validation import GROUP, check_dequantize_args, check_quantize_args

FLT_MAX = torch.finfo(torch.float32).max


def _const(value: float, device: torch.device) -> torch.Tensor:
    return torch.tensor(value, dtype=torch.float32, device=device)


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

    ``dim=None`` gives the per-tensor amax (0-d); ``dim=1`` on a 2-D tensor
    gives the per-row amax vector for row-scaled quantization. Inf counts.
    """
    m = x.float().abs()
    m = torch.where(torch.isnan(m), torch.zeros_like(m), m)
    if dim is None:
        m, dim = m.reshape(-1), 0
    start = m.new_zeros((*m.shape[:dim], 1, *m.shape[dim + 1 :]))
    return torch.cat((start, m), dim=dim).amax(dim=dim)


def _fold16(err: torch.Tensor) -> torch.Tensor:
    """SPEC step 7: combine 16 row errors (dim 1) by folding 8, 4, 2, 1."""
    while err.shape[1] > 1:
        half = err.shape[1] // 2
        err = err[:, :half] + err[:, half:]
    return err[:, 0]


def quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize ``x`` (R, C) to four-over-six NVFP4 exactly as SPEC says.

    ``global_amax`` is a one-element float32 tensor (per tensor) or an (R,)
    vector (row-scaled, ``block="1x16"`` only), on ``x``'s device. Returns
    ``codes`` uint8 (R, C/2), element 2j in the low nibble, and ``scales``
    float8_e4m3fn (R, C/16); a 16x16 tile repeats its scale on its 16 rows.
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
    """``quantize`` plus which candidate each group kept: bool (R, C/16), True = map-to-4."""
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    rows, cols = x.shape
    dev = x.device
    groups_per_row = cols // GROUP
    xg = x.float().reshape(rows, groups_per_row, GROUP)  # (R, G, 16)

    gamax = global_amax.reshape(-1, 1)  # (1, 1) or (R, 1)
    s = global_encode_scale(gamax, e4m3_scale_bound)
    s_dec = _const(1.0, dev) / s
    d = _const(6.0 * e4m3_scale_bound, dev)
    e4m3_max = _const(E4M3_MAX, dev)

    # Step 2: block amax, NaN-dropping, from 0.
    absx = xg.abs()
    absx = torch.where(torch.isnan(absx), torch.zeros_like(absx), absx)
    amax = absx.amax(dim=2)  # (R, G)
    if block == "16x16":
        tiles = amax.reshape(rows // GROUP, GROUP, groups_per_row).amax(dim=1)
        amax = tiles.repeat_interleave(GROUP, dim=0)

    # Step 3: candidate scales (divide first, then multiply).
    base = (amax / _const(6.0, dev)) * s
    c6 = torch.fmin(base, e4m3_max)
    c4 = torch.fmin(base * _const(1.5, dev), e4m3_max)

    candidates = []
    for c in (c4, c6):
        scale = e4m3_saturate(c)  # (R, G)
        f = scale.float()
        # Step 4: encode factor; a zero scale gives 1/0 = inf, capped.
        inv = torch.fmin(_const(1.0, dev) / (f * s_dec), _const(FLT_MAX, dev))
        # Step 5: codes.
        code = e2m1_encode(xg * inv.unsqueeze(2))  # (R, G, 16)
        # Step 6: error, summed in element order.
        val = ((e2m1_decode(code) * f.unsqueeze(2)) * gamax.unsqueeze(2)) / d
        diff = val - xg
        err = torch.zeros(rows, groups_per_row, dtype=torch.float32, device=dev)
        for i in range(GROUP):
            di = diff[:, :, i]
            err = err + (di.abs() if err_mode == "mae" else di * di)
        candidates.append((scale, code, err))
    (sc4, code4, err4), (sc6, code6, err6) = candidates

    if block == "16x16":
        err4 = _fold16(err4.reshape(rows // GROUP, GROUP, groups_per_row))
        err6 = _fold16(err6.reshape(rows // GROUP, GROUP, groups_per_row))
        err4 = err4.repeat_interleave(GROUP, dim=0)
        err6 = err6.repeat_interleave(GROUP, dim=0)

    # Step 8: map-to-4 only when strictly better (NaN compares false).
    pick4 = err4 < err6  # (R, G)
    scales = torch.where(pick4, sc4.view(torch.uint8), sc6.view(torch.uint8))
    code = torch.where(pick4.unsqueeze(2), code4, code6).reshape(rows, cols)
    codes = code[:, 0::2] | (code[:, 1::2] << 4)
    return codes, scales.view(torch.float8_e4m3fn), pick4


def dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
) -> torch.Tensor:
    """Rebuild ``x_hat`` (R, C) from ``quantize``'s output, as SPEC says.

    ``ds = (f(scale) * gamax) * RN(1 / D)`` per group, then ``dq * ds`` per
    element, cast to ``out_dtype`` with round-to-nearest-even.
    """
    check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    rows, half_cols = codes.shape
    dev = codes.device
    unpacked = torch.stack((codes & 0xF, codes >> 4), dim=2).reshape(rows, half_cols // 8, GROUP)
    factor_inv = _const(1.0, dev) / _const(6.0 * e4m3_scale_bound, dev)
    f = scales.float()
    ds = (f * global_amax.reshape(-1, 1)) * factor_inv  # (R, G)
    ds = torch.where(f == 0, torch.zeros_like(ds), ds)  # a zero scale gives exact zeros
    x_hat = e2m1_decode(unpacked) * ds.unsqueeze(2)
    return x_hat.reshape(rows, half_cols * 2).to(out_dtype)
