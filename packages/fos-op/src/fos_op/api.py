"""The Python API: what users call.

In eager mode on plain tensors (``plan.eager``) each function runs ``impl``
directly, through the plan cache, skipping the dispatcher; otherwise (under
``torch.compile``, fake tensors, subclasses, modes, or inputs that require
grad) it calls the registered ``torch.ops.fos.*`` op. Both give the same bits
and the same errors.

``strict=True`` (or ``FOS_STRICT=1``) raises ``FallbackError`` instead of
running the reference for a CUDA input. With ``strict=None`` the eager path reads
``FOS_STRICT`` only where a call falls back (kernel plans never do).

A ``DTensor`` input goes to ``distributed`` first (each rank quantizes its
shard under the whole tensor's amax) and comes back as DTensors.
"""

from __future__ import annotations

import torch

from fos_reference.validation import check_quantize_args, flat_rows

from . import distributed, grouped, impl
from .dispatch import KERNEL, REFERENCE, Decision, cutedsl, decide, enforce, strict_from_env
from .plan import eager


def _strict(strict: bool | None) -> bool:
    return strict_from_env() if strict is None else bool(strict)


def _strict_amax(x: torch.Tensor, global_amax: torch.Tensor | None) -> torch.Tensor:
    """Strict mode, an op that computes the amax when none is given: enforce that amax's
    path, and return an amax (or a 0-d stand-in) for the op's own checks."""
    if global_amax is not None:
        return global_amax
    enforce(impl.resolve_nan_amax(x, None)[0], x, True)
    return x.new_empty((), dtype=torch.float32)


def nan_amax(x: torch.Tensor, dim: int | None = None, *, strict: bool | None = None):
    """``fos_reference.nan_amax``'s signature and bits: 0-d (``dim=None``) or per row (-1)."""
    if eager(x):  # plain tensors only: a DTensor is a subclass
        return impl.nan_amax(x, dim, strict)  # strict None: read where a plan falls back
    strict = _strict(strict)
    if distributed.any_dtensor(x):  # DTensor: the local amax, all-reduced (distributed.py)
        return distributed.nan_amax(x, dim, strict)
    if strict:
        enforce(impl.resolve_nan_amax(x, dim)[0], x, True)
    return torch.ops.fos.nan_amax(x, dim)


def quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``fos_reference.quantize``'s signature and bits, as fast as the device allows."""
    if eager(x, global_amax):  # plain tensors only: a DTensor is a subclass
        return impl.quantize(x, global_amax, block, err_mode, e4m3_scale_bound, strict)
    strict = _strict(strict)
    if distributed.any_dtensor(x, global_amax):  # DTensor: each shard, same amax
        return distributed.quantize(x, global_amax, block, err_mode, e4m3_scale_bound, strict)
    if strict:
        decision = impl.resolve_quantize(x, global_amax, block, err_mode, e4m3_scale_bound)
        enforce(decision, x, True)
    return torch.ops.fos.quantize(x, global_amax, block, err_mode, e4m3_scale_bound)


def quantize_with_amax(
    x: torch.Tensor,
    *,
    dim: int | None = None,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Quantize under the amax of ``x`` itself; returns ``(codes, scales, global_amax)``.

    ``dim=None``: the per-tensor amax (0-d); ``dim=-1``: one per row, of shape
    ``x.shape[:-1]`` (1x16 only). The amax is ``nan_amax(x, dim)`` and the codes
    and scales are ``quantize(x, amax, ...)``: keep the amax to dequantize.
    """
    if eager(x):  # plain tensors only: a DTensor is a subclass
        return impl.quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound, strict)
    strict = _strict(strict)
    if distributed.any_dtensor(x):  # DTensor: the amax all-reduced where sharded
        return distributed.quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound, strict)
    if strict:
        amax_dim = impl.resolve_quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound)
        enforce(impl.resolve_nan_amax(x, amax_dim)[0], x, True)
        enforce(decide(x, "quantize"), x, True)
    return torch.ops.fos.quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound)


def dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
    strict: bool | None = None,
) -> torch.Tensor:
    """``fos_reference.dequantize``'s signature and bits: the kernel on CUDA where it runs."""
    if eager(codes, scales, global_amax):
        return impl.dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype, strict)
    strict = _strict(strict)
    decision = impl.resolve_dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    if strict:
        enforce(decision, codes, True)
    return torch.ops.fos.dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype)


def fake_quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor | None = None,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
    strict: bool | None = None,
) -> torch.Tensor:
    """``dequantize(quantize(x))`` in one pass, ``fos_reference.fake_quantize``'s bits.

    ``global_amax=None`` uses the per-tensor amax of ``x``; ``out_dtype=None``
    is ``x``'s dtype. Differentiable: the straight-through estimator (the
    gradient of ``x`` is the upstream gradient cast to ``x``'s dtype; the amax
    gets none).
    """
    if eager(x, global_amax):  # plain tensors only: a DTensor is a subclass
        return impl.fake_quantize(
            x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype, strict
        )
    strict = _strict(strict)
    if distributed.any_dtensor(x, global_amax):  # DTensor: each shard, the global amax
        return distributed.fake_quantize(
            x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype, strict
        )
    if strict:
        check_amax = _strict_amax(x, global_amax)
        decision = impl.resolve_fake_quantize(
            x, check_amax, block, err_mode, e4m3_scale_bound, out_dtype
        )
        enforce(decision, x, True)
    return torch.ops.fos.fake_quantize(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)


def explain(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
) -> Decision:
    """Say which path ``quantize`` takes for these arguments, and why."""
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    decision = decide(x)
    if decision.path != KERNEL or isinstance(x, torch._subclasses.FakeTensor):
        return decision
    copied = not x.is_contiguous() or x.data_ptr() % impl.ALIGN_BYTES != 0
    rows, cols = flat_rows(x.shape), x.shape[-1]
    kernel, _ = cutedsl()
    ok, why = kernel.can_run(
        impl.laid_out(x, rows, cols),
        impl._vec(global_amax, global_amax.numel()),
        block=block,
        err_mode=err_mode,
        e4m3_scale_bound=e4m3_scale_bound,
    )
    if not ok:
        return Decision(REFERENCE, f"the kernel declined: {why}")
    if copied:
        return Decision(
            KERNEL, decision.reason + "; the input is copied to a contiguous, aligned buffer first"
        )
    return decision


def _enforce_all(decisions: list[Decision], x: torch.Tensor) -> None:
    for decision in decisions:
        enforce(decision, x, True)


def quantize_grouped(
    x: torch.Tensor,
    offsets: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    check_offsets: bool = False,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``fos_reference.quantize_grouped``'s bits with no sync: CUDA-graph capturable.

    ``x`` (T, C), ``offsets`` int32/int64 (E + 1,), ``global_amax`` float32
    (E,). ``check_offsets=True`` also checks the offsets' values (reads them:
    a device sync); without it, offsets that break SPEC give unspecified codes.
    """
    strict = _strict(strict)
    if eager(x, offsets, global_amax):
        return grouped.quantize_grouped(x, offsets, global_amax, block, err_mode,
                                        e4m3_scale_bound, check_offsets, strict)  # fmt: skip
    if strict:
        grouped.resolve_quantize_grouped(x, offsets, global_amax, block, err_mode,
                                         e4m3_scale_bound, False)  # fmt: skip
        _enforce_all(grouped.decisions(x, block), x)
    return torch.ops.fos.quantize_grouped(
        x, offsets, global_amax, block, err_mode, e4m3_scale_bound, check_offsets
    )


def nan_amax_grouped(
    x: torch.Tensor,
    offsets: torch.Tensor,
    *,
    check_offsets: bool = False,
    strict: bool | None = None,
) -> torch.Tensor:
    """``fos_reference.nan_amax_grouped``'s bits: float32 (E,), no sync."""
    strict = _strict(strict)
    if eager(x, offsets):
        return grouped.nan_amax_grouped(x, offsets, check_offsets, strict)
    if strict:
        grouped.resolve_nan_amax_grouped(x, offsets, False)
        _enforce_all([grouped.amax_decision(x)], x)
    return torch.ops.fos.nan_amax_grouped(x, offsets, check_offsets)


def quantize_grouped_with_amax(
    x: torch.Tensor,
    offsets: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    check_offsets: bool = False,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``nan_amax_grouped`` then ``quantize_grouped`` under it: ``(codes, scales, amax)``."""
    strict = _strict(strict)
    if eager(x, offsets):
        return grouped.quantize_grouped_with_amax(
            x, offsets, block, err_mode, e4m3_scale_bound, check_offsets, strict
        )
    if strict:
        grouped.resolve_quantize_grouped_with_amax(x, offsets, block, err_mode,
                                                   e4m3_scale_bound, False)  # fmt: skip
        _enforce_all(grouped.decisions(x, block, with_amax=True), x)
    return torch.ops.fos.quantize_grouped_with_amax(
        x, offsets, block, err_mode, e4m3_scale_bound, check_offsets
    )


def quantize_stacked(
    w: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``fos_reference.quantize_stacked``'s bits: ``w`` (E, N, K), ``global_amax`` (E,)."""
    strict = _strict(strict)
    if eager(w, global_amax):
        return grouped.quantize_stacked(w, global_amax, block, err_mode, e4m3_scale_bound, strict)
    if strict:
        grouped.stacked_outputs(w, global_amax, block, err_mode, e4m3_scale_bound)
        _enforce_all(grouped.decisions(w, block), w)
    return torch.ops.fos.quantize_stacked(w, global_amax, block, err_mode, e4m3_scale_bound)


# --------------------------------------------------------------------------- layouts (issue 26)

from typing import NamedTuple  # noqa: E402

from fos_reference.layouts import as_float4  # noqa: E402, F401  (re-exported)

from . import layouts  # noqa: E402


class RowwiseColumnwise(NamedTuple):
    """``quantize_rowwise_columnwise``'s outputs; a layout not asked for is None.

    ``rowwise_codes`` uint8 (R, C/2), ``rowwise_scales`` float8_e4m3fn (R, C/16);
    ``columnwise_codes`` (C, R/2), ``columnwise_scales`` (C, R/16), the quantize
    of x^T. With ``swizzle=True`` each scales tensor is flat in the block-scaled
    GEMM layout (``swizzle_scales``). ``global_amax`` is the per-tensor amax used.
    """

    rowwise_codes: torch.Tensor | None
    rowwise_scales: torch.Tensor | None
    columnwise_codes: torch.Tensor | None
    columnwise_scales: torch.Tensor | None
    global_amax: torch.Tensor


def quantize_rowwise_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor | None = None,
    *,
    rowwise: bool = True,
    columnwise: bool = True,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    swizzle: bool = False,
    strict: bool | None = None,
) -> RowwiseColumnwise:
    """Quantize a 2-D ``x`` (R, C) for a training step: rowwise, columnwise (x^T), or both.

    ``global_amax=None`` uses the per-tensor ``nan_amax(x)`` (columnwise needs a
    per-tensor amax; rowwise alone may take a row-scaled one). Bits are those of
    ``fos_reference.quantize(x)`` and ``fos_reference.quantize_columnwise(x)``
    (columnwise: R % 16 == 0), scales swizzled by ``fos_reference.swizzle_scales``
    when ``swizzle=True``. On CUDA, 1x16 under a per-tensor amax, one kernel reads
    x once for both layouts; otherwise columnwise quantizes a transposed copy of x.
    """
    strict = _strict(strict)
    if global_amax is None:
        global_amax = nan_amax(x, strict=strict)
    args = (rowwise, columnwise, block, err_mode, e4m3_scale_bound, swizzle)
    if eager(x, global_amax):
        out = layouts.quantize_rowwise_columnwise(x, global_amax, *args, strict)
    else:
        if strict:
            decisions = layouts.resolve_quantize_rowwise_columnwise(
                x, global_amax, rowwise, columnwise, block, err_mode, e4m3_scale_bound
            )
            _enforce_all(decisions, x)
        out = torch.ops.fos.quantize_rowwise_columnwise(x, global_amax, *args)
    return RowwiseColumnwise(*out, global_amax)


def quantize_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``fos_reference.quantize_columnwise``'s bits: (C, R/2) codes, (C, R/16) scales of x^T."""
    strict = _strict(strict)
    if eager(x, global_amax):
        return layouts.quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound,
                                           strict)  # fmt: skip
    if strict:
        decision = layouts.resolve_quantize_columnwise(
            x, global_amax, block, err_mode, e4m3_scale_bound
        )
        enforce(decision, x, True)
    return torch.ops.fos.quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound)


def fake_quantize_columnwise(
    x: torch.Tensor,
    global_amax: torch.Tensor | None = None,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype | None = None,
    strict: bool | None = None,
) -> torch.Tensor:
    """``fos_reference.fake_quantize_columnwise``'s bits: x_hat of x^T in x's shape (R, C).

    Column-major (strides (1, R)), so it drops in where x was used (the backward
    GEMMs on Hopper). ``global_amax=None``: the per-tensor amax of x. Gradient:
    straight-through, like ``fake_quantize``.
    """
    strict = _strict(strict)
    if eager(x, global_amax):
        return layouts.fake_quantize_columnwise(x, global_amax, block, err_mode,
                                                e4m3_scale_bound, out_dtype, strict)  # fmt: skip
    if strict:
        check_amax = _strict_amax(x, global_amax)
        decision = layouts.resolve_fake_quantize_columnwise(
            x, check_amax, block, err_mode, e4m3_scale_bound, out_dtype
        )
        enforce(decision, x, True)
    return torch.ops.fos.fake_quantize_columnwise(
        x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype
    )


def swizzle_scales(scales: torch.Tensor) -> torch.Tensor:
    """``fos_reference.swizzle_scales``: (R, G) scales as SPEC's flat 128 x 4-tile GEMM layout."""
    if eager(scales):
        return layouts.swizzle_scales(scales)
    return torch.ops.fos.swizzle_scales(scales)


def unswizzle_scales(swizzled: torch.Tensor, rows: int, groups: int) -> torch.Tensor:
    """``fos_reference.unswizzle_scales``: back to (rows, groups) scales."""
    if eager(swizzled):
        return layouts.unswizzle_scales(swizzled, rows, groups)
    return torch.ops.fos.unswizzle_scales(swizzled, rows, groups)
