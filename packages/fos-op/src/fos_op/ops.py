"""The ``fos::`` custom ops: real impls, fake impls and the autograd of ``fake_quantize``.

Every op is functional (``mutates_args=()``). Real impls run ``impl`` (the
reference's checks, then the kernel or the reference); fake impls validate
with the same checks, so direct ``torch.ops.fos.*`` callers get the same
``TypeError``/``ValueError`` eagerly and under fake tensors, and allocate
through ``shapes`` so fake outputs are exactly the real ones. ``FOS_STRICT=1``
applies to direct op calls too.
"""

from __future__ import annotations

import torch

from fos_reference.validation import check_nan_amax_args, check_swizzle_args, check_unswizzle_args

from . import grouped, impl, layouts
from .dispatch import strict_from_env
from .shapes import amax_output, dequantize_output, fake_quantize_output, quantize_outputs


@torch.library.custom_op("fos::nan_amax", mutates_args=(), schema="(Tensor x, int? dim) -> Tensor")
def nan_amax_op(x: torch.Tensor, dim: int | None) -> torch.Tensor:
    """NaN-dropping amax of ``|x|`` from 0 (``fos_reference.nan_amax``)."""
    return impl.nan_amax(x, dim, strict_from_env())


@nan_amax_op.register_fake
def _nan_amax_fake(x, dim):
    return amax_output(x, check_nan_amax_args(x, dim))


@torch.library.custom_op(
    "fos::quantize",
    mutates_args=(),
    schema="(Tensor x, Tensor global_amax, str block, str err_mode, int e4m3_scale_bound)"
    " -> (Tensor, Tensor)",
)
def quantize_op(x, global_amax, block, err_mode, e4m3_scale_bound):
    """Four-over-six quantize: the CuTe DSL kernel where it can run, else the reference."""
    return impl.quantize(x, global_amax, block, err_mode, e4m3_scale_bound, strict_from_env())


@quantize_op.register_fake
def _quantize_fake(x, global_amax, block, err_mode, e4m3_scale_bound):
    impl.resolve_quantize(x, global_amax, block, err_mode, e4m3_scale_bound)
    return quantize_outputs(x)


@torch.library.custom_op(
    "fos::quantize_with_amax",
    mutates_args=(),
    schema="(Tensor x, int? dim, str block, str err_mode, int e4m3_scale_bound)"
    " -> (Tensor, Tensor, Tensor)",
)
def quantize_with_amax_op(x, dim, block, err_mode, e4m3_scale_bound):
    """The amax of ``x`` (per tensor or per row), then quantize under it; returns all three."""
    return impl.quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound, strict_from_env())


@quantize_with_amax_op.register_fake
def _quantize_with_amax_fake(x, dim, block, err_mode, e4m3_scale_bound):
    amax_dim = impl.resolve_quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound)
    codes, scales = quantize_outputs(x)
    return codes, scales, amax_output(x, None if amax_dim is None else x.dim() - 1)


@torch.library.custom_op(
    "fos::dequantize",
    mutates_args=(),
    schema="(Tensor codes, Tensor scales, Tensor global_amax, int e4m3_scale_bound,"
    " ScalarType out_dtype) -> Tensor",
)
def dequantize_op(codes, scales, global_amax, e4m3_scale_bound, out_dtype):
    """SPEC's dequantize: the kernel where it can run, else the reference."""
    return impl.dequantize(
        codes, scales, global_amax, e4m3_scale_bound, out_dtype, strict_from_env()
    )


@dequantize_op.register_fake
def _dequantize_fake(codes, scales, global_amax, e4m3_scale_bound, out_dtype):
    impl.resolve_dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    return dequantize_output(codes, out_dtype)


@torch.library.custom_op(
    "fos::fake_quantize",
    mutates_args=(),
    schema="(Tensor x, Tensor? global_amax, str block, str err_mode, int e4m3_scale_bound,"
    " ScalarType? out_dtype) -> Tensor",
)
def fake_quantize_op(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype):
    """``dequantize(quantize(x))`` without storing the codes; ``global_amax`` None: per tensor."""
    return impl.fake_quantize(
        x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype, strict_from_env()
    )


@fake_quantize_op.register_fake
def _fake_quantize_fake(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype):
    if global_amax is None:
        check_nan_amax_args(x, None)
        global_amax = amax_output(x, None)
    impl.resolve_fake_quantize(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    return fake_quantize_output(x, out_dtype)


def _fake_quantize_setup(ctx, inputs, output):
    ctx.x_dtype = inputs[0].dtype


def _fake_quantize_backward(ctx, grad):
    """SPEC's straight-through estimator: the upstream gradient cast to x's dtype."""
    return grad.to(ctx.x_dtype), None, None, None, None, None


fake_quantize_op.register_autograd(_fake_quantize_backward, setup_context=_fake_quantize_setup)


# --------------------------------------------------------------------------- grouped (experts)


@torch.library.custom_op(
    "fos::quantize_grouped",
    mutates_args=(),
    schema="(Tensor x, Tensor offsets, Tensor global_amax, str block, str err_mode,"
    " int e4m3_scale_bound, bool check_offsets) -> (Tensor, Tensor)",
)
def quantize_grouped_op(x, offsets, global_amax, block, err_mode, e4m3_scale_bound, check_offsets):
    """Each expert's rows of ``x`` quantized per tensor under its amax, without a sync."""
    return grouped.quantize_grouped(x, offsets, global_amax, block, err_mode, e4m3_scale_bound,
                                    check_offsets, strict_from_env())  # fmt: skip


@quantize_grouped_op.register_fake
def _quantize_grouped_fake(x, offsets, global_amax, block, err_mode, e4m3_scale_bound,
                           check_offsets):  # fmt: skip
    # The value checks read the offsets: the real impl does them at run time.
    grouped.resolve_quantize_grouped(x, offsets, global_amax, block, err_mode,
                                     e4m3_scale_bound, False)  # fmt: skip
    return quantize_outputs(x)


@torch.library.custom_op(
    "fos::nan_amax_grouped",
    mutates_args=(),
    schema="(Tensor x, Tensor offsets, bool check_offsets) -> Tensor",
)
def nan_amax_grouped_op(x, offsets, check_offsets):
    """The NaN-dropping amax of each expert's rows of ``x``: float32 (E,), 0 when empty."""
    return grouped.nan_amax_grouped(x, offsets, check_offsets, strict_from_env())


@nan_amax_grouped_op.register_fake
def _nan_amax_grouped_fake(x, offsets, check_offsets):
    return grouped.grouped_amax_output(x, grouped.resolve_nan_amax_grouped(x, offsets, False))


@torch.library.custom_op(
    "fos::quantize_grouped_with_amax",
    mutates_args=(),
    schema="(Tensor x, Tensor offsets, str block, str err_mode, int e4m3_scale_bound,"
    " bool check_offsets) -> (Tensor, Tensor, Tensor)",
)
def quantize_grouped_with_amax_op(x, offsets, block, err_mode, e4m3_scale_bound, check_offsets):
    """The grouped amax of ``x``, then the grouped quantize under it; returns all three."""
    return grouped.quantize_grouped_with_amax(x, offsets, block, err_mode, e4m3_scale_bound,
                                              check_offsets, strict_from_env())  # fmt: skip


@quantize_grouped_with_amax_op.register_fake
def _quantize_grouped_with_amax_fake(x, offsets, block, err_mode, e4m3_scale_bound,
                                     check_offsets):  # fmt: skip
    experts = grouped.resolve_quantize_grouped_with_amax(x, offsets, block, err_mode,
                                                         e4m3_scale_bound, False)  # fmt: skip
    return (*quantize_outputs(x), grouped.grouped_amax_output(x, experts))


@torch.library.custom_op(
    "fos::quantize_stacked",
    mutates_args=(),
    schema="(Tensor w, Tensor global_amax, str block, str err_mode, int e4m3_scale_bound)"
    " -> (Tensor, Tensor)",
)
def quantize_stacked_op(w, global_amax, block, err_mode, e4m3_scale_bound):
    """A stacked weight (E, N, K), each ``w[e]`` per tensor under ``global_amax[e]``."""
    return grouped.quantize_stacked(w, global_amax, block, err_mode, e4m3_scale_bound,
                                    strict_from_env())  # fmt: skip


@quantize_stacked_op.register_fake
def _quantize_stacked_fake(w, global_amax, block, err_mode, e4m3_scale_bound):
    return grouped.stacked_outputs(w, global_amax, block, err_mode, e4m3_scale_bound)


# --------------------------------------------------------------------------- layouts (issue 26)


@torch.library.custom_op(
    "fos::quantize_columnwise",
    mutates_args=(),
    schema="(Tensor x, Tensor global_amax, str block, str err_mode, int e4m3_scale_bound)"
    " -> (Tensor, Tensor)",
)
def quantize_columnwise_op(x, global_amax, block, err_mode, e4m3_scale_bound):
    """SPEC's columnwise output of ``x`` (R, C): the quantize of ``x^T``, (C, R/2) and (C, R/16)."""
    return layouts.quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound,
                                       strict_from_env())  # fmt: skip


@quantize_columnwise_op.register_fake
def _quantize_columnwise_fake(x, global_amax, block, err_mode, e4m3_scale_bound):
    layouts.resolve_quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound)
    return layouts.columnwise_outputs(x)


@torch.library.custom_op(
    "fos::fake_quantize_columnwise",
    mutates_args=(),
    schema="(Tensor x, Tensor? global_amax, str block, str err_mode, int e4m3_scale_bound,"
    " ScalarType? out_dtype) -> Tensor",
)
def fake_quantize_columnwise_op(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype):
    """``x_hat`` of ``x^T`` in x's shape (R, C), column-major; ``global_amax`` None: per tensor."""
    return layouts.fake_quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound,
                                            out_dtype, strict_from_env())  # fmt: skip


@fake_quantize_columnwise_op.register_fake
def _fake_quantize_columnwise_fake(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype):
    if global_amax is None:
        check_nan_amax_args(x, None)
        global_amax = amax_output(x, None)
    layouts.resolve_fake_quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound,
                                             out_dtype)  # fmt: skip
    return layouts.columnwise_fake_quantize_output(x, out_dtype)


fake_quantize_columnwise_op.register_autograd(
    _fake_quantize_backward, setup_context=_fake_quantize_setup
)


@torch.library.custom_op("fos::swizzle_scales", mutates_args=(), schema="(Tensor scales) -> Tensor")
def swizzle_scales_op(scales):
    """(R, G) scales in SPEC's block-scaled GEMM layout: flat, 128 x 4 tiles, zero padding."""
    return layouts.swizzle_scales(scales)


@swizzle_scales_op.register_fake
def _swizzle_scales_fake(scales):
    check_swizzle_args(scales)
    return layouts.swizzled_output(scales)


@torch.library.custom_op(
    "fos::unswizzle_scales",
    mutates_args=(),
    schema="(Tensor swizzled, int rows, int groups) -> Tensor",
)
def unswizzle_scales_op(swizzled, rows, groups):
    """The inverse of ``fos::swizzle_scales``: (rows, groups) float8_e4m3fn scales."""
    return layouts.unswizzle_scales(swizzled, rows, groups)


@unswizzle_scales_op.register_fake
def _unswizzle_scales_fake(swizzled, rows, groups):
    check_unswizzle_args(swizzled, rows, groups)
    return layouts.unswizzled_output(swizzled, rows, groups)


@torch.library.custom_op(
    "fos::quantize_rowwise_columnwise",
    mutates_args=(),
    schema="(Tensor x, Tensor global_amax, bool rowwise, bool columnwise, str block,"
    " str err_mode, int e4m3_scale_bound, bool swizzle) -> (Tensor?, Tensor?, Tensor?, Tensor?)",
)
def quantize_rowwise_columnwise_op(x, global_amax, rowwise, columnwise, block, err_mode,
                                   e4m3_scale_bound, swizzle):  # fmt: skip
    """Rowwise and/or columnwise codes and scales under one per-tensor amax (None: not asked)."""
    return layouts.quantize_rowwise_columnwise(x, global_amax, rowwise, columnwise, block,
                                               err_mode, e4m3_scale_bound, swizzle,
                                               strict_from_env())  # fmt: skip


@quantize_rowwise_columnwise_op.register_fake
def _quantize_rowwise_columnwise_fake(x, global_amax, rowwise, columnwise, block, err_mode,
                                      e4m3_scale_bound, swizzle):  # fmt: skip
    layouts.resolve_quantize_rowwise_columnwise(x, global_amax, rowwise, columnwise, block,
                                                err_mode, e4m3_scale_bound)  # fmt: skip
    return layouts.rowwise_columnwise_outputs(x, rowwise, columnwise, swizzle)
