"""Training-step layouts without a new kernel: columnwise output and swizzled scales.

* Columnwise (SPEC's "Columnwise (transposed) output"): the existing quantize of
  the transposed view ``x.t()``. On CUDA its plan makes one contiguous copy of
  ``x^T`` (the kernel reads rows) and runs the quantize kernel on it: the bits
  of ``fos_reference.quantize_columnwise``, at the cost of an extra read and
  write of ``x``.
* Swizzled scales (SPEC's "Swizzled scales"): ``fos_reference.swizzle_scales``'
  reshapes and permute, which run on CUDA as they are (one copy of the scales).
* ``quantize_rowwise_columnwise``: on CUDA, 1x16 under a per-tensor amax, one kernel
  reads x once and writes either or both layouts, the scales swizzled if asked
  (``fos_cutedsl.quantize_rowwise_columnwise``); elsewhere it composes the
  columnwise and swizzle paths above with the rowwise quantize.

Everything reads metadata only: no sync, no host copy, CUDA-graph capturable.
Output shapes come from the helpers below, shared by the real paths and the fakes.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

import fos_reference
from fos_reference.validation import (
    GROUP,
    check_out_dtype,
    check_quantize_args,
    check_quantize_columnwise_args,
    swizzled_shape,
)

from . import impl
from .dispatch import KERNEL, Decision, decide
from .impl import _env, _typed
from .plan import PLANS, tensor_key

# --------------------------------------------------------------------------- shapes


def columnwise_outputs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Allocate (uninitialized) columnwise ``codes`` uint8 (C, R/2) and ``scales`` (C, R/16)."""
    rows, cols = x.shape
    codes = x.new_empty((cols, rows // 2), dtype=torch.uint8)
    scales = x.new_empty((cols, rows // GROUP), dtype=torch.float8_e4m3fn)
    return codes, scales


def columnwise_fake_quantize_output(x: torch.Tensor, out_dtype: torch.dtype | None):
    """Allocate the columnwise ``x_hat``: x's shape (R, C), column-major (a (C, R) ``.t()``)."""
    rows, cols = x.shape
    return x.new_empty((cols, rows), dtype=x.dtype if out_dtype is None else out_dtype).t()


def swizzled_output(scales: torch.Tensor) -> torch.Tensor:
    """Allocate (uninitialized) ``swizzle_scales``' flat float8_e4m3fn output."""
    rows, groups = scales.shape
    return scales.new_empty(swizzled_shape(rows, groups), dtype=torch.float8_e4m3fn)


def unswizzled_output(swizzled: torch.Tensor, rows: int, groups: int) -> torch.Tensor:
    """Allocate (uninitialized) ``unswizzle_scales``' (rows, groups) output."""
    return swizzled.new_empty((rows, groups), dtype=torch.float8_e4m3fn)


def rowwise_columnwise_outputs(x, rowwise, columnwise, swizzle):
    """The four outputs of ``quantize_rowwise_columnwise`` (None where not asked for)."""
    rc = rs = cc = cs = None
    if rowwise:
        rows, cols = x.shape
        rc = x.new_empty((rows, cols // 2), dtype=torch.uint8)
        rs = x.new_empty((rows, cols // GROUP), dtype=torch.float8_e4m3fn)
    if columnwise:
        cc, cs = columnwise_outputs(x)
    if swizzle:
        rs = None if rs is None else swizzled_output(rs)
        cs = None if cs is None else swizzled_output(cs)
    return rc, rs, cc, cs


# --------------------------------------------------------------------------- columnwise


def resolve_quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound) -> Decision:
    """Validate a columnwise quantize's arguments and decide its path (the quantize of x^T)."""
    check_quantize_columnwise_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    return decide(x, "quantize")


def _columnwise(x, g, block, err_mode, bound, strict):
    """``impl.quantize`` of ``x.t()``, row-major (the reference follows the view's strides)."""
    codes, scales = impl.quantize(x.t(), g, block, err_mode, bound, strict)
    return codes.contiguous(), scales.contiguous()


def quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound, strict):
    """``fos_reference.quantize_columnwise``'s bits: ``impl.quantize`` of ``x.t()``."""
    key = ("quantize_columnwise", tensor_key(x), tensor_key(global_amax), block, err_mode,
           _typed(e4m3_scale_bound), strict, _env(x))  # fmt: skip

    def build() -> Callable:
        resolve_quantize_columnwise(x, global_amax, block, err_mode, e4m3_scale_bound)
        return lambda x, g: _columnwise(x, g, block, err_mode, e4m3_scale_bound, strict)

    return PLANS.get(key, build)(x, global_amax)


def resolve_fake_quantize_columnwise(x, global_amax, block, err_mode, bound, out_dtype):
    """Validate a columnwise fake-quantize's arguments (``global_amax`` given); its path."""
    check_quantize_columnwise_args(x, global_amax, block, err_mode, bound)
    if out_dtype is not None:
        check_out_dtype(out_dtype)
    return decide(x, "fake_quantize")


def fake_quantize_columnwise(x, global_amax, block, err_mode, bound, out_dtype, strict):
    """``fos_reference.fake_quantize_columnwise``'s bits, in x's shape (column-major)."""
    if global_amax is None:
        global_amax = impl.nan_amax(x, None, strict)
    key = ("fake_quantize_columnwise", tensor_key(x), tensor_key(global_amax), block, err_mode,
           _typed(bound), out_dtype, strict, _env(x))  # fmt: skip

    def build() -> Callable:
        resolve_fake_quantize_columnwise(x, global_amax, block, err_mode, bound, out_dtype)
        return lambda x, g: (
            impl.fake_quantize(x.t(), g, block, err_mode, bound, out_dtype, strict).contiguous().t()
        )

    return PLANS.get(key, build)(x, global_amax)


# --------------------------------------------------------------------------- swizzle


def swizzle_scales(scales: torch.Tensor) -> torch.Tensor:
    """``fos_reference.swizzle_scales`` (tensor ops: the same on CPU and CUDA)."""
    return fos_reference.swizzle_scales(scales)


def unswizzle_scales(swizzled: torch.Tensor, rows: int, groups: int) -> torch.Tensor:
    """``fos_reference.unswizzle_scales``."""
    return fos_reference.unswizzle_scales(swizzled, rows, groups)


# --------------------------------------------------------------------------- both layouts


def resolve_quantize_rowwise_columnwise(x, global_amax, rowwise, columnwise, block, err_mode,
                                        bound) -> list[Decision]:  # fmt: skip
    """Validate ``quantize_rowwise_columnwise``'s arguments; the paths it takes (for strict)."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.dim() != 2:
        raise ValueError(
            f"quantize_rowwise_columnwise needs a 2-D x (R, C), got shape {tuple(x.shape)}"
        )
    for name, v in (("rowwise", rowwise), ("columnwise", columnwise)):
        if not isinstance(v, bool):
            raise TypeError(f"{name} must be a bool, got {type(v).__name__}")
    if not (rowwise or columnwise):
        raise ValueError("ask for at least one layout: rowwise=True or columnwise=True")
    if rowwise:
        check_quantize_args(x, global_amax, block, err_mode, bound)
    if columnwise:
        check_quantize_columnwise_args(x, global_amax, block, err_mode, bound)
    return [decide(x, "quantize")]


def quantize_rowwise_columnwise(x, global_amax, rowwise, columnwise, block, err_mode, bound,
                                swizzle, strict):  # fmt: skip
    """Rowwise and/or columnwise codes and scales of ``x`` under one amax (None: not asked).

    Rowwise is ``impl.quantize(x)``; columnwise ``impl.quantize(x.t())`` (one
    transposed copy on the kernel path); ``swizzle`` lays both scales out for
    the block-scaled GEMMs.
    """
    key = ("quantize_rowwise_columnwise", tensor_key(x), tensor_key(global_amax),
           _typed(rowwise), _typed(columnwise), block, err_mode, _typed(bound),
           _typed(swizzle), strict, _env(x))  # fmt: skip

    def build() -> Callable:
        resolve_quantize_rowwise_columnwise(x, global_amax, rowwise, columnwise, block,
                                            err_mode, bound)  # fmt: skip
        if not isinstance(swizzle, bool):
            raise TypeError(f"swizzle must be a bool, got {type(swizzle).__name__}")

        one_read = _one_read_plan(x, global_amax, rowwise, columnwise, block, err_mode, bound,
                                  swizzle)  # fmt: skip
        if one_read is not None:
            return one_read

        def run(x: torch.Tensor, g: torch.Tensor):
            rc = rs = cc = cs = None
            if rowwise:
                rc, rs = (
                    t.contiguous() for t in impl.quantize(x, g, block, err_mode, bound, strict)
                )
            if columnwise:
                cc, cs = _columnwise(x, g, block, err_mode, bound, strict)
            if swizzle:
                rs = None if rs is None else fos_reference.swizzle_scales(rs)
                cs = None if cs is None else fos_reference.swizzle_scales(cs)
            return rc, rs, cc, cs

        return run

    return PLANS.get(key, build)(x, global_amax)


def _one_read_plan(x, global_amax, rowwise, columnwise, block, err_mode, bound, swizzle):
    """The one-read kernel's run function (both layouts from one read of x), or None
    where it does not apply (then the composed path runs, itself on the kernels)."""
    if global_amax.numel() != 1 or decide(x, "quantize_rowwise_columnwise").path != KERNEL:
        return None  # a row amax (rowwise alone) runs the row-scaled quantize
    module = impl.kernel_module()
    rows, cols = x.shape
    ok, _ = module.can_run_quantize_rowwise_columnwise(
        impl.laid_out(x, rows, cols), impl._vec(global_amax, 1), rowwise=rowwise,
        columnwise=columnwise, block=block, err_mode=err_mode, e4m3_scale_bound=bound,
        swizzle=swizzle,
    )  # fmt: skip
    if not ok:
        return None
    buffers, launch = module.rowwise_columnwise_buffers, module.launch_quantize_rowwise_columnwise
    f8 = torch.float8_e4m3fn

    def run(x: torch.Tensor, g: torch.Tensor):
        x2d = impl.laid_out(x, rows, cols)
        rc, rs, cc, cs = buffers(x2d, rowwise, columnwise, swizzle)
        launch(x2d, impl._vec(g, 1), rc, rs, cc, cs, err_mode, bound)
        return rc, None if rs is None else rs.view(f8), cc, None if cs is None else cs.view(f8)

    return run
