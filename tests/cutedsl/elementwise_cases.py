"""Inputs and bitwise comparisons for the elementwise kernels (``nan_amax``, ``dequantize``).

Shared by ``test_amax_kernel.py``, ``test_dequantize_kernel.py`` and
``gpu_verify_elementwise.py``. Every case is built on the CPU from a seed, so
the same case is the same on any machine, then moved to the device.
"""

from __future__ import annotations

import torch

import fos_reference

AMAX_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
OUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
BOUNDS = (256, 448)
_INT_VIEW = {2: torch.int16, 4: torch.int32}

AMAX_KINDS = (
    "normal",  # scaled normals, the max planted at a random element
    "bits",  # uniformly random bit patterns: every NaN payload, Inf, subnormals, -0
    "nan_inf",  # normals with NaN, +-Inf sprinkled
    "special_rows",  # rows all NaN, all -0, all zero, all subnormal, one Inf, dtype max
    "tiny",  # subnormals only (and -0)
    "all_nan",  # every element NaN (of both signs)
)


def amax_shapes(dtype: torch.dtype) -> list[tuple[int, int]]:
    """(rows, cols) pairs that hit every edge of both amax tilings.

    Column counts are whole 16-byte vectors (8 elements for 16-bit, 4 for
    float32): one vector, partial warp spans and CTA chunks, the benchmark
    widths, and one tensor past a full per-tensor grid sweep.
    """
    per_vector = 16 // torch.empty((), dtype=dtype).element_size()
    shapes = [(1, per_vector), (1, 16), (7, 3 * per_vector), (33, 5 * per_vector)]
    shapes += [(r, v * per_vector) for r, v in ((3, 33), (9, 260), (17, 896), (65, 256))]
    shapes += [(2048, 7168 if dtype != torch.float32 else 3584)]  # past one grid sweep
    return shapes


def _bits_tensor(gen: torch.Generator, shape, dtype: torch.dtype) -> torch.Tensor:
    size = torch.empty((), dtype=dtype).element_size()
    lo, hi = -(2 ** (8 * size - 1)), 2 ** (8 * size - 1)
    return torch.randint(lo, hi, shape, generator=gen, dtype=_INT_VIEW[size]).view(dtype)


def make_amax_case(kind: str, dtype: torch.dtype, rows: int, cols: int, seed: int) -> torch.Tensor:
    """A CPU (rows, cols) tensor of ``dtype`` of input kind ``kind``."""
    gen = torch.Generator().manual_seed(seed)
    finfo = torch.finfo(dtype)
    if kind == "bits":
        return _bits_tensor(gen, (rows, cols), dtype)
    x = torch.randn(rows, cols, generator=gen) * 10.0 ** torch.randint(
        -3, 4, (rows, 1), generator=gen
    )
    x = x.to(dtype)
    if kind == "normal":
        flat = x.view(-1)
        at = int(torch.randint(0, flat.numel(), (1,), generator=gen))
        flat[at] = -float(finfo.max) / 3  # negative: |x| must be taken
        return x
    if kind == "nan_inf":
        pick = torch.rand(rows, cols, generator=gen)
        x[pick < 0.05] = float("nan")
        x[(pick >= 0.05) & (pick < 0.06)] = -float("nan")
        x[(pick >= 0.06) & (pick < 0.065)] = float("-inf")
        x[(pick >= 0.065) & (pick < 0.07)] = float("inf")
        return x
    if kind == "tiny":
        sub = finfo.smallest_normal
        x = (torch.rand(rows, cols, generator=gen) * sub).to(dtype)
        x[torch.rand(rows, cols, generator=gen) < 0.3] = -0.0
        return x * torch.where(torch.rand(rows, cols, generator=gen) < 0.5, -1, 1).to(dtype)
    if kind == "all_nan":
        x = torch.full((rows, cols), float("nan"), dtype=dtype)
        x[:, ::2] = -float("nan")
        return x
    if kind == "special_rows":
        for r in range(rows):
            which = r % 7
            if which == 0:
                x[r] = float("nan")
            elif which == 1:
                x[r] = -0.0
            elif which == 2:
                x[r] = 0.0
            elif which == 3:
                x[r] = -finfo.smallest_normal / 4  # subnormal
            elif which == 4:
                x[r, cols // 2] = float("-inf")
            elif which == 5:
                x[r, -1] = -finfo.max
            else:
                x[r, 0] = float("nan")
        return x
    raise ValueError(kind)


def same_f32_bits(got: torch.Tensor, want: torch.Tensor) -> bool:
    """Bitwise equality of two float32 tensors (shape and every bit, -0 != +0)."""
    return got.shape == want.shape and torch.equal(
        got.contiguous().view(torch.int32), want.contiguous().view(torch.int32)
    )


def reference_amax_chunked(x: torch.Tensor, per_row: bool, chunk_rows: int) -> torch.Tensor:
    """``fos_reference.nan_amax`` computed over row chunks (a max is exact in any order)."""
    parts = [
        fos_reference.nan_amax(x[r : r + chunk_rows], dim=1 if per_row else None)
        for r in range(0, x.shape[0], chunk_rows)
    ]
    if per_row:
        return torch.cat(parts)
    return torch.stack(parts).amax()  # non-NaN partials: amax is their max


# ======== dequantize

DEQUANT_KINDS = (
    "quantized",  # fos_reference.quantize output of normals (the real use)
    "all_bytes",  # random codes, every scale byte 0..255 in turn (0x7F/0xFF NaN, 0x80 -0)
    "gamax_special",  # all bytes again, gamax 0 / Inf / NaN / huge / subnormal / negative
)


def dequant_shapes() -> list[tuple[int, int]]:
    """(rows, cols): one group, odd group counts, ragged and full CTAs (2048 groups a CTA)."""
    return [
        (1, 16),
        (1, 32),
        (3, 48),
        (5, 112),
        (2, 16 * 2048),  # whole CTAs only
        (1, 16 * 2049),  # one full CTA and one group
        (7, 16 * 301),  # odd groups per row: pairs cross rows
        (129, 2048),
        (33, 7168),
    ]


def make_dequant_case(
    kind: str, rows: int, cols: int, row_scaled: bool, bound: int, seed: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """CPU (codes uint8 (R, C/2), scales float8_e4m3fn (R, C/16), global_amax) of ``kind``."""
    gen = torch.Generator().manual_seed(seed)
    groups = rows * cols // 16
    amax_shape = (rows,) if row_scaled else (1,)
    if kind == "quantized":
        x = torch.randn(rows, cols, generator=gen) * 10.0 ** torch.randint(
            -4, 5, (rows, 1), generator=gen
        )
        gamax = (
            fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x).reshape(1)
        )
        codes, scales = fos_reference.quantize(x, gamax, e4m3_scale_bound=bound)
        return codes, scales, gamax
    codes = torch.randint(0, 256, (rows, cols // 2), generator=gen, dtype=torch.uint8)
    start = int(torch.randint(0, 256, (1,), generator=gen))
    scale_bytes = ((torch.arange(groups) + start) % 256).to(torch.uint8).reshape(rows, cols // 16)
    scales = scale_bytes.view(torch.float8_e4m3fn)
    if kind == "all_bytes":
        gamax = torch.rand(amax_shape, generator=gen) * 1000.0
        return codes, scales, gamax
    if kind == "gamax_special":
        specials = torch.tensor(
            [0.0, float("inf"), float("nan"), 3.0e38, 1.0e-45, -5.0, 1.0e30, 2.5, -0.0, 1e-38]
        )
        pick = torch.randint(0, specials.numel(), amax_shape, generator=gen)
        return codes, scales, specials[pick]
    raise ValueError(kind)


def dequant_mismatch(got: torch.Tensor, want: torch.Tensor) -> str:
    """Empty when ``got`` matches ``want``: NaN where it is NaN, the same bits elsewhere."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"shape/dtype {tuple(got.shape)} {got.dtype} vs {tuple(want.shape)} {want.dtype}"
    ints = _INT_VIEW[got.element_size()]
    both_nan = torch.isnan(got) & torch.isnan(want)
    ok = (got.view(ints) == want.view(ints)) | both_nan
    if bool(ok.all()):
        return ""
    bad = (~ok).nonzero()
    first = tuple(bad[0].tolist())
    return (
        f"{bad.shape[0]} of {want.numel()} elements differ; first at {first}: "
        f"kernel {float(got[first])!r} (0x{int(got.view(ints)[first]) & 0xFFFFFFFF:x}), "
        f"reference {float(want[first])!r} (0x{int(want.view(ints)[first]) & 0xFFFFFFFF:x})"
    )


def poison_like(shape, dtype: torch.dtype, device) -> torch.Tensor:
    """An output buffer of finite sentinels (never NaN, so an unwritten NaN slot shows up)."""
    ints = _INT_VIEW[torch.empty((), dtype=dtype).element_size()]
    value = 0x1234 if ints == torch.int16 else 0x12345678
    return torch.full(shape, value, dtype=ints, device=device).view(dtype)
