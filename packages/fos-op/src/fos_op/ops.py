"""The ``fos::quantize`` and ``fos::dequantize`` custom ops and their Python API.

Both ops are functional (``mutates_args=()``). Real and fake impls validate
with the reference's checks, so direct ``torch.ops.fos.*`` callers get the same
``TypeError``/``ValueError`` as the Python API, and allocate through
``shapes`` so the fake outputs are exactly the real ones.
"""

from __future__ import annotations

import torch

import fos_reference
from fos_reference.validation import check_dequantize_args, check_quantize_args

from .dispatch import KERNEL, REFERENCE, Decision, cutedsl, decide, enforce, strict_from_env
from .shapes import dequantize_output, quantize_outputs

ALIGN_BYTES = 16


def _kernel_layout(t: torch.Tensor) -> tuple[torch.Tensor, bool]:
    """``t`` as the kernel takes it (contiguous, 16-byte aligned); True if copied."""
    if t.is_contiguous() and t.data_ptr() % ALIGN_BYTES == 0:
        return t, False
    return t.clone(memory_format=torch.contiguous_format), True


@torch.library.custom_op(
    "fos::quantize",
    mutates_args=(),
    schema="(Tensor x, Tensor global_amax, str block, str err_mode, int e4m3_scale_bound)"
    " -> (Tensor, Tensor)",
)
def quantize_op(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    block: str,
    err_mode: str,
    e4m3_scale_bound: int,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Four-over-six quantize: the CuTe DSL kernel where it can run, else the reference."""
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": e4m3_scale_bound}
    strict = strict_from_env()
    decision = decide(x)
    if decision.path == KERNEL:
        # decide() has checked device, arch, dtype and availability; the layout
        # is made right here, so launch directly (no second round of checks).
        kernel, _ = cutedsl()
        xk, _ = _kernel_layout(x)
        codes, scales = quantize_outputs(xk)
        kernel.launch(xk, global_amax.contiguous(), codes, scales.view(torch.uint8), **knobs)
        return codes, scales
    enforce(decision, x, strict)
    return fos_reference.quantize(x, global_amax, **knobs)


@quantize_op.register_fake
def _quantize_fake(x, global_amax, block, err_mode, e4m3_scale_bound):
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    return quantize_outputs(x)


@torch.library.custom_op(
    "fos::dequantize",
    mutates_args=(),
    schema="(Tensor codes, Tensor scales, Tensor global_amax, int e4m3_scale_bound,"
    " ScalarType out_dtype) -> Tensor",
)
def dequantize_op(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    e4m3_scale_bound: int,
    out_dtype: torch.dtype,
) -> torch.Tensor:
    """SPEC's dequantize (the reference's torch ops, on any device)."""
    return fos_reference.dequantize(
        codes, scales, global_amax, e4m3_scale_bound=e4m3_scale_bound, out_dtype=out_dtype
    )


@dequantize_op.register_fake
def _dequantize_fake(codes, scales, global_amax, e4m3_scale_bound, out_dtype):
    check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    return dequantize_output(codes, out_dtype)


def quantize(
    x: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    block: str = "1x16",
    err_mode: str = "mae",
    e4m3_scale_bound: int = 256,
    strict: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize ``x`` exactly as ``fos_reference.quantize`` does, as fast as the device allows.

    ``strict=True`` (or ``FOS_STRICT=1``) raises ``FallbackError`` instead of
    running the reference for a CUDA input the kernel cannot take.
    """
    if strict if strict is not None else strict_from_env():
        check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
        enforce(decide(x), x, True)
    # The op validates (eagerly and under fake tensors): no second check here.
    return torch.ops.fos.quantize(x, global_amax, block, err_mode, e4m3_scale_bound)


def dequantize(
    codes: torch.Tensor,
    scales: torch.Tensor,
    global_amax: torch.Tensor,
    *,
    e4m3_scale_bound: int = 256,
    out_dtype: torch.dtype = torch.bfloat16,
) -> torch.Tensor:
    """Dequantize exactly as ``fos_reference.dequantize`` does."""
    check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    return torch.ops.fos.dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype)


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
    xk, copied = _kernel_layout(x)
    kernel, _ = cutedsl()
    ok, why = kernel.can_run(
        xk,
        global_amax.contiguous(),
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
