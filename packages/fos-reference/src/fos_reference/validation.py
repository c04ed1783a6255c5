"""Argument checks shared by every layer, so all entry points fail alike.

Inputs are N-D: ``x`` is (..., C) and its leading dimensions are flattened
into rows; a row-scaled amax has the leading shape ``x.shape[:-1]``.

Each check raises ``TypeError`` (wrong type or dtype) or ``ValueError`` (wrong
value, shape or device) naming the argument, what was expected and what came.
None of them reads tensor values, so they never synchronize a GPU, except
``check_offsets_values`` (grouped quantize), which reads the offsets and says so.
"""

from __future__ import annotations

import torch

BLOCKS = ("1x16", "16x16")
ERR_MODES = ("mae", "mse")
SCALE_BOUNDS = (256, 448)
INPUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
OUTPUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
GROUP = 16


def check_knobs(block: str, err_mode: str, e4m3_scale_bound: int) -> None:
    """Check the three mode knobs of ``quantize``."""
    if not isinstance(block, str) or block not in BLOCKS:
        raise ValueError(f"block must be one of {BLOCKS}, got {block!r}")
    if not isinstance(err_mode, str) or err_mode not in ERR_MODES:
        raise ValueError(f"err_mode must be one of {ERR_MODES}, got {err_mode!r}")
    check_scale_bound(e4m3_scale_bound)


def check_scale_bound(e4m3_scale_bound: int) -> None:
    """Check ``e4m3_scale_bound`` (the D = 6 * bound of SPEC)."""
    bad_type = isinstance(e4m3_scale_bound, bool) or not isinstance(e4m3_scale_bound, int)
    if bad_type or e4m3_scale_bound not in SCALE_BOUNDS:
        raise ValueError(
            f"e4m3_scale_bound must be one of {SCALE_BOUNDS}, got {e4m3_scale_bound!r}"
        )


def check_tensor(name: str, t: object) -> torch.Tensor:
    """``t`` if it is a dense (strided) torch.Tensor, else a ``TypeError`` naming ``name``."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if t.layout != torch.strided:  # sparse, mkldnn: no strides, no elementwise view
        raise TypeError(f"{name} must be a dense (strided) tensor, got layout {t.layout}")
    return t


def flat_rows(shape: tuple[int, ...] | torch.Size) -> int:
    """How many rows an (..., C) shape has once its leading dimensions are flattened."""
    rows = 1
    for size in shape[:-1]:
        rows *= size
    return rows


def check_global_amax(
    global_amax: torch.Tensor,
    rows: int,
    device: torch.device,
    leading: tuple[int, ...] | torch.Size | None = None,
) -> bool:
    """Check ``global_amax`` and return whether it is a per-row vector.

    Per tensor: a float32 tensor with one element (0-d or any shape of one
    element). Row-scaled: a float32 tensor of the input's leading shape
    ``leading`` (``x.shape[:-1]``, what ``nan_amax(x, dim=-1)`` returns; for a
    2-D input that is ``(rows,)``). It must live on the input's device.
    """
    check_tensor("global_amax", global_amax)
    if global_amax.dtype != torch.float32:
        raise TypeError(f"global_amax must be float32, got {global_amax.dtype}")
    if global_amax.device != device:
        raise ValueError(
            f"global_amax must be on the input's device {device}, got {global_amax.device}"
        )
    if global_amax.numel() == 1:
        return False  # per tensor (with one row, both readings give the same bits)
    expected = (rows,) if leading is None else tuple(leading)
    if tuple(global_amax.shape) == expected:
        return True
    raise ValueError(
        "global_amax must hold one element (per tensor) or have shape "
        f"{expected} (one per row: the input's leading shape), got shape "
        f"{tuple(global_amax.shape)}"
    )


def check_x(x: torch.Tensor) -> tuple[int, int]:
    """Check a quantize input ``x`` of shape (..., C); return its flattened (rows, cols)."""
    check_tensor("x", x)
    if x.dtype not in INPUT_DTYPES:
        raise TypeError(f"x must have dtype in {INPUT_DTYPES}, got {x.dtype}")
    if x.dim() < 1:
        raise ValueError(
            f"x must have at least 1 dimension (..., cols), got shape {tuple(x.shape)}"
        )
    cols = x.shape[-1]
    if cols % GROUP != 0:
        raise ValueError(f"x's column count must be a multiple of {GROUP}, got {cols}")
    return flat_rows(x.shape), cols


def check_block_rows(block: str, rows: int) -> None:
    """16x16 tiles span 16 of the flattened rows: the row count must be a multiple of 16."""
    if block == "16x16" and rows % GROUP != 0:
        raise ValueError(
            f"block='16x16' needs a row count (leading dimensions flattened) that is a "
            f"multiple of {GROUP}, got {rows}"
        )


def check_quantize_args(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> bool:
    """Check every ``quantize`` argument; return whether the amax is per row.

    ``x`` is (..., C); its leading dimensions are flattened into rows (a 16x16
    tile spans 16 flattened rows). A row-scaled ``global_amax`` has the shape
    ``x.shape[:-1]``.
    """
    rows, _ = check_x(x)
    check_knobs(block, err_mode, e4m3_scale_bound)
    check_block_rows(block, rows)
    row_scaled = check_global_amax(global_amax, rows, x.device, x.shape[:-1])
    if row_scaled and block == "16x16":
        raise ValueError("block='16x16' needs a per-tensor global_amax, got one per row")
    return row_scaled


def check_out_dtype(out_dtype: torch.dtype) -> None:
    """Check the output dtype of ``dequantize`` / ``fake_quantize``."""
    if out_dtype not in OUTPUT_DTYPES:
        raise TypeError(f"out_dtype must be one of {OUTPUT_DTYPES}, got {out_dtype}")


def check_fake_quantize_args(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
    out_dtype: torch.dtype | None,
) -> bool:
    """Check every ``fake_quantize`` argument (``out_dtype`` None is x's dtype)."""
    row_scaled = check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    if out_dtype is not None:
        check_out_dtype(out_dtype)
    return row_scaled


def check_dequantize_args(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    e4m3_scale_bound: int,
    out_dtype: torch.dtype,
) -> bool:
    """Check every ``dequantize`` argument; return whether the amax is per row.

    ``codes`` is (..., C/2) and ``scales`` (..., C/16) with the same leading
    shape; a row-scaled ``global_amax`` has that leading shape.
    """
    check_tensor("codes", codes)
    check_tensor("scales", scales)
    if codes.dtype != torch.uint8:
        raise TypeError(f"codes must be uint8, got {codes.dtype}")
    if scales.dtype != torch.float8_e4m3fn:
        raise TypeError(f"scales must be float8_e4m3fn, got {scales.dtype}")
    if codes.dim() < 1:
        raise ValueError(
            f"codes must have at least 1 dimension (..., cols / 2), got shape {tuple(codes.shape)}"
        )
    half_cols = codes.shape[-1]
    if half_cols % (GROUP // 2) != 0:
        raise ValueError(f"codes' column count must be a multiple of {GROUP // 2}, got {half_cols}")
    expected = (*codes.shape[:-1], half_cols * 2 // GROUP)
    if tuple(scales.shape) != expected:
        raise ValueError(
            f"scales must have shape {expected} to match codes, got {tuple(scales.shape)}"
        )
    if scales.device != codes.device:
        raise ValueError(f"scales must be on codes' device {codes.device}, got {scales.device}")
    check_scale_bound(e4m3_scale_bound)
    check_out_dtype(out_dtype)
    return check_global_amax(global_amax, flat_rows(codes.shape), codes.device, codes.shape[:-1])


def check_nan_amax_args(x: torch.Tensor, dim: int | None) -> int | None:
    """Check ``nan_amax``'s arguments; return ``dim`` made non-negative (or None)."""
    check_tensor("x", x)
    if dim is None:
        return None
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"dim must be None or an int, got {type(dim).__name__}")
    ndim = max(x.dim(), 1)
    if not -ndim <= dim < ndim:
        raise ValueError(
            f"dim must be in [{-ndim}, {ndim - 1}] for x of shape {tuple(x.shape)}, got {dim}"
        )
    return dim % ndim


OFFSET_DTYPES = (torch.int32, torch.int64)


def check_offsets(offsets: torch.Tensor, device: torch.device) -> int:
    """Check a grouped ``offsets`` vector's metadata; return the expert count E.

    ``offsets`` is an int32 or int64 (E + 1,) tensor on the input's device
    (E >= 0). Its values are ``check_offsets_values``' business.
    """
    check_tensor("offsets", offsets)
    if offsets.dtype not in OFFSET_DTYPES:
        raise TypeError(f"offsets must have dtype in {OFFSET_DTYPES}, got {offsets.dtype}")
    if offsets.dim() != 1 or offsets.shape[0] < 1:
        raise ValueError(
            f"offsets must be 1-D of length E + 1 >= 1, got shape {tuple(offsets.shape)}"
        )
    if offsets.device != device:
        raise ValueError(f"offsets must be on the input's device {device}, got {offsets.device}")
    return offsets.shape[0] - 1


def _check_expert_amax(global_amax: torch.Tensor, experts: int, device: torch.device) -> None:
    check_tensor("global_amax", global_amax)
    if global_amax.dtype != torch.float32:
        raise TypeError(f"global_amax must be float32, got {global_amax.dtype}")
    if tuple(global_amax.shape) != (experts,):
        raise ValueError(
            f"global_amax must have shape ({experts},) (one per expert), "
            f"got shape {tuple(global_amax.shape)}"
        )
    if global_amax.device != device:
        raise ValueError(
            f"global_amax must be on the input's device {device}, got {global_amax.device}"
        )


def _check_grouped_x(x: torch.Tensor, offsets: torch.Tensor) -> tuple[int, int]:
    """``x`` is (T, C) and ``offsets`` fits it; return (T, E)."""
    check_tensor("x", x)
    if x.dim() != 2:
        raise ValueError(f"x must be 2-D (T, C) for a grouped call, got shape {tuple(x.shape)}")
    experts = check_offsets(offsets, x.device)
    if experts == 0 and x.shape[0] != 0:
        raise ValueError(f"offsets names no expert (shape (1,)) but x has {x.shape[0]} rows")
    return x.shape[0], experts


def check_nan_amax_grouped_args(x: torch.Tensor, offsets: torch.Tensor) -> int:
    """Check ``nan_amax_grouped``'s arguments (metadata only); return E."""
    return _check_grouped_x(x, offsets)[1]


def check_quantize_grouped_args(
    x: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> int:
    """Check ``quantize_grouped``'s arguments without reading values; return E.

    ``x`` (T, C) as ``quantize`` takes it (16x16: T % 16 == 0), ``offsets`` an
    int32/int64 (E + 1,) vector and ``global_amax`` float32 (E,), both on x's
    device.
    """
    rows, _ = check_x(x)
    experts = _check_grouped_x(x, offsets)[1]
    check_knobs(block, err_mode, e4m3_scale_bound)
    check_block_rows(block, rows)
    _check_expert_amax(global_amax, experts, x.device)
    return experts


def check_quantize_stacked_args(
    w: torch.Tensor, global_amax: torch.Tensor, block: str, err_mode: str, e4m3_scale_bound: int
) -> int:
    """Check ``quantize_stacked``'s arguments: ``w`` (E, N, K), ``global_amax`` (E,); return E."""
    check_x(w)
    if w.dim() != 3:
        raise ValueError(f"w must be 3-D (E, N, K), got shape {tuple(w.shape)}")
    check_knobs(block, err_mode, e4m3_scale_bound)
    if block == "16x16" and w.shape[1] % GROUP != 0:
        raise ValueError(
            f"block='16x16' needs each expert's row count N to be a multiple of {GROUP}, "
            f"got {w.shape[1]}"
        )
    _check_expert_amax(global_amax, w.shape[0], w.device)
    return w.shape[0]


def check_offsets_values(offsets: torch.Tensor, rows: int, block: str = "1x16") -> list[int]:
    """Check the offsets' values; return them as Python ints. Reads them: a device sync.

    SPEC needs ``offsets[0] == 0``, ``offsets[E] == rows``, non-decreasing, and
    for 16x16 every offset a multiple of 16.
    """
    values = offsets.tolist()
    if values[0] != 0:
        raise ValueError(f"offsets[0] must be 0, got {values[0]}")
    if values[-1] != rows:
        raise ValueError(f"offsets[-1] must be the row count {rows}, got {values[-1]}")
    for e in range(len(values) - 1):
        if values[e + 1] < values[e]:
            raise ValueError(
                f"offsets must be non-decreasing, got offsets[{e}] = {values[e]} > "
                f"offsets[{e + 1}] = {values[e + 1]}"
            )
    if block == "16x16":
        for e, v in enumerate(values):
            if v % GROUP != 0:
                raise ValueError(
                    f"block='16x16' needs every offset to be a multiple of {GROUP}, "
                    f"got offsets[{e}] = {v}"
                )
    return values


# --------------------------------------------------------------------------- layouts

#: Rows and scale columns of one swizzled (block-scaled GEMM) tile of 512 bytes.
TILE_ROWS = 128
TILE_GROUPS = 4
#: Rows of one band inside a tile (a tile is 4 bands of 32 rows, interleaved).
BAND_ROWS = 32


def ceil_to(n: int, multiple: int) -> int:
    """``n`` rounded up to a multiple of ``multiple``."""
    return -(-n // multiple) * multiple


def swizzled_shape(rows: int, groups: int) -> tuple[int]:
    """The shape of ``swizzle_scales``' output for (rows, groups) scales: one flat vector.

    ``(ceil(rows / 128) * 128 * ceil(groups / 4) * 4,)``: a byte per padded scale.
    """
    return (ceil_to(rows, TILE_ROWS) * ceil_to(groups, TILE_GROUPS),)


def _check_scales(scales: object, name: str) -> torch.Tensor:
    check_tensor(name, scales)
    if scales.dtype != torch.float8_e4m3fn:
        raise TypeError(f"{name} must be float8_e4m3fn, got {scales.dtype}")
    return scales


def check_swizzle_args(scales: torch.Tensor) -> tuple[int, int]:
    """Check ``swizzle_scales``' input: float8_e4m3fn (R, G); return (R, G)."""
    _check_scales(scales, "scales")
    if scales.dim() != 2:
        raise ValueError(
            f"scales must be 2-D (rows, groups), got shape {tuple(scales.shape)}; "
            "swizzle each GEMM operand's scales on their own"
        )
    return scales.shape[0], scales.shape[1]


def check_unswizzle_args(swizzled: torch.Tensor, rows: int, groups: int) -> None:
    """Check ``unswizzle_scales``' arguments: float8_e4m3fn of ``swizzled_shape(rows, groups)``."""
    _check_scales(swizzled, "swizzled")
    for name, v in (("rows", rows), ("groups", groups)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a non-negative int, got {v!r}")
    expected = swizzled_shape(rows, groups)
    if tuple(swizzled.shape) != expected:
        raise ValueError(
            f"swizzled must have shape {expected} for ({rows}, {groups}) scales "
            f"(rows padded to 128, groups to 4), got {tuple(swizzled.shape)}"
        )


def check_quantize_columnwise_args(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> None:
    """Check a columnwise quantize's arguments: ``x`` (R, C), R % 16 == 0, per-tensor amax.

    The groups of ``x^T`` run down ``x``'s columns, so R (not C) must be a
    multiple of 16; 16x16 also needs C % 16 == 0 (the rows of ``x^T``).
    """
    check_tensor("x", x)
    if x.dim() != 2:
        raise ValueError(f"columnwise output needs a 2-D x (R, C), got shape {tuple(x.shape)}")
    check_knobs(block, err_mode, e4m3_scale_bound)
    rows, cols = x.shape
    if rows % GROUP != 0:
        raise ValueError(
            f"columnwise output needs x's row count R to be a multiple of {GROUP} "
            f"(its 1x16 groups run down the columns), got R = {rows}"
        )
    if block == "16x16" and cols % GROUP != 0:
        raise ValueError(
            f"columnwise block='16x16' needs x's column count C to be a multiple of {GROUP}, "
            f"got C = {cols}"
        )
    check_tensor("global_amax", global_amax)
    if global_amax.dtype != torch.float32:
        raise TypeError(f"global_amax must be float32, got {global_amax.dtype}")
    if global_amax.numel() != 1:
        raise ValueError(
            "columnwise output needs a per-tensor global_amax (one element, the one the "
            f"rowwise output uses), got shape {tuple(global_amax.shape)}"
        )
    check_quantize_args(x.t(), global_amax, block, err_mode, e4m3_scale_bound)
