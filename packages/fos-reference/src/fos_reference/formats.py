"""Exact E2M1 (FP4) and saturating E4M3 conversions, as SPEC defines them.

Every function works elementwise on float32 tensors and gives the same bits on
CPU and CUDA: they use only comparisons, selects, casts and table lookups, so
no rounding of torch's arithmetic kernels is involved. Constants are filled on
the input's device (``torch.full``), never copied from the host, so every
function can be captured in a CUDA graph.
"""

from __future__ import annotations

import torch

#: Magnitudes of the E2M1 codes 0..7 (bit 3 of a code is the sign).
E2M1_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)

#: Largest finite float8_e4m3fn value.
E4M3_MAX = 448.0

# Rounding thresholds between neighbouring E2M1 magnitudes. A magnitude m
# rounds up past threshold t when m > t ("strict": the tie goes down to the
# even code) or m >= t (the tie goes up to the even code).
_E2M1_THRESHOLDS = (
    (0.25, True),  # 0.25 -> 0
    (0.75, False),  # 0.75 -> 1.0
    (1.25, True),  # 1.25 -> 1.0
    (1.75, False),  # 1.75 -> 2.0
    (2.5, True),  # 2.5  -> 2.0
    (3.5, False),  # 3.5  -> 4.0
    (5.0, True),  # 5.0  -> 4.0
)


def e2m1_encode(q: torch.Tensor) -> torch.Tensor:
    """Round float32 ``q`` to E2M1 codes (uint8 in 0..15), SPEC step 5.

    Round-to-nearest-even with saturation to +-6; the sign bit is ``q``'s
    (``-0.0`` gives 0x8); NaN gives 0x7 whatever its sign.
    """
    if q.dtype != torch.float32:
        raise TypeError(f"e2m1_encode: q must be float32, got {q.dtype}")
    m = q.abs()
    code = torch.zeros(q.shape, dtype=torch.uint8, device=q.device)
    for threshold, strict in _E2M1_THRESHOLDS:
        t = torch.full((), threshold, dtype=torch.float32, device=q.device)
        code += (m > t if strict else m >= t).to(torch.uint8)
    nan = torch.isnan(q)
    sign = torch.signbit(q) & ~nan
    code = torch.where(nan, torch.full_like(code, 7), code)
    return code | (sign.to(torch.uint8) << 3)


def e2m1_decode(codes: torch.Tensor) -> torch.Tensor:
    """Exact float32 value of each E2M1 code (uint8, low 4 bits used); 0x8 is -0.0."""
    if codes.dtype != torch.uint8:
        raise TypeError(f"e2m1_decode: codes must be uint8, got {codes.dtype}")
    return _decode_table(codes.device)[(codes & 0xF).long()]


def _decode_table(device: torch.device) -> torch.Tensor:
    """The 16 code values as a float32 tensor built on ``device`` (no host copy).

    Each magnitude is selected from a device-side fill, so the values are
    exact; the negative half is their negation (code 8 is ``-0.0``).
    """
    index = torch.arange(8, dtype=torch.uint8, device=device)
    magnitudes = torch.zeros(8, dtype=torch.float32, device=device)
    for code, value in enumerate(E2M1_MAGNITUDES):
        fill = torch.full((), value, dtype=torch.float32, device=device)
        magnitudes = torch.where(index == code, fill, magnitudes)
    return torch.cat((magnitudes, -magnitudes))


def e4m3_saturate(v: torch.Tensor) -> torch.Tensor:
    """Round float32 ``v`` to float8_e4m3fn, nearest-even, saturating to +-448.

    SPEC's conversion (like the GPU's ``cvt.rn.satfinite.e4m3x2.f32``)
    saturates; torch does not document what its cast does out of range (its
    CPU build saturates, other builds have given NaN), so the clamp makes it
    explicit. Clamping first is equivalent because everything in (448, 464)
    rounds to 448 anyway. NaN stays NaN.
    """
    if v.dtype != torch.float32:
        raise TypeError(f"e4m3_saturate: v must be float32, got {v.dtype}")
    hi = torch.full((), E4M3_MAX, dtype=torch.float32, device=v.device)
    clamped = torch.where(v > hi, hi, torch.where(v < -hi, -hi, v))
    return clamped.to(torch.float8_e4m3fn)
