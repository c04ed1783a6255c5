"""Grouped (mixture-of-experts) quantize and amax, every split without a sync.

Where ``fos_cutedsl`` has the grouped kernels (``quantize_grouped``, 1x16 and
16x16, and ``nan_amax_grouped`` in ``KERNELS``), each is one launch that
searches the offsets on the device. Elsewhere (CPU, an older kernel package)
the same bits come from device ops, since SPEC's arithmetic reads the global
amax and nothing else of the tensor:

* the expert of each row is ``searchsorted(offsets[1:], arange(T), right=True)``
  (clamped to E - 1 only so that offsets that break SPEC cannot index out of
  range);
* 1x16: the row-scaled ``quantize`` under ``global_amax[expert of row]``;
* 16x16: ``fos_reference.quantize_tile_rows`` under the amax of each 16-row
  band's expert (reference speed);
* the grouped amax: the per-row ``nan_amax`` (never NaN) and a segment max by
  expert (``scatter_reduce`` amax from 0: exact in any order, empty experts 0).

Either way a call is a fixed number of device launches for any split, with no
host read of the offsets, so it can be captured in a CUDA graph and replayed
with new offsets of the same shape. ``check_offsets=True`` adds SPEC's value checks
on the offsets (0 first, T last, non-decreasing, multiples of 16 for 16x16);
they read the offsets on the host (a device sync, not capturable), so they are
off by default and offsets that break SPEC give unspecified codes.
"""

from __future__ import annotations

import torch

import fos_reference
from fos_reference.validation import (
    GROUP,
    check_block_rows,
    check_knobs,
    check_nan_amax_grouped_args,
    check_offsets_values,
    check_quantize_grouped_args,
    check_quantize_stacked_args,
    check_x,
)

from . import impl
from .dispatch import KERNEL, REFERENCE, Decision, decide, enforce
from .shapes import quantize_outputs

_NO_16X16 = Decision(REFERENCE, "no grouped 16x16 kernel here: the reference runs")

# --------------------------------------------------------------------------- shapes


def grouped_amax_output(x: torch.Tensor, experts: int) -> torch.Tensor:
    """Allocate (uninitialized) the float32 (E,) grouped amax on x's device."""
    return x.new_empty((experts,), dtype=torch.float32)


# --------------------------------------------------------------------------- validation


def resolve_quantize_grouped(x, offsets, global_amax, block, err_mode, bound, check_offsets):
    """Validate ``quantize_grouped``'s arguments; E. Value checks only if asked (a sync)."""
    experts = check_quantize_grouped_args(x, offsets, global_amax, block, err_mode, bound)
    if check_offsets:
        check_offsets_values(offsets, x.shape[0], block)
    return experts


def resolve_nan_amax_grouped(x, offsets, check_offsets):
    """Validate ``nan_amax_grouped``'s arguments; E. Value checks only if asked (a sync)."""
    experts = check_nan_amax_grouped_args(x, offsets)
    if check_offsets:
        check_offsets_values(offsets, x.shape[0])
    return experts


def resolve_quantize_grouped_with_amax(x, offsets, block, err_mode, bound, check_offsets):
    """Validate ``quantize_grouped_with_amax``'s arguments; E."""
    rows, _ = check_x(x)
    experts = check_nan_amax_grouped_args(x, offsets)
    check_knobs(block, err_mode, bound)
    check_block_rows(block, rows)
    if check_offsets:
        check_offsets_values(offsets, rows, block)
    return experts


def decisions(x: torch.Tensor, block: str, with_amax: bool = False) -> list[Decision]:
    """The paths a grouped call takes (for strict mode): the amax, then the quantize."""
    out = [amax_decision(x)] if with_amax else []
    out.append(_quantize_decision(x, block))
    return out


def amax_decision(x: torch.Tensor) -> Decision:
    """The one-launch grouped amax kernel, else the per-row amax kernel (or the reference)."""
    decision = decide(x, "nan_amax_grouped")
    return decision if decision.path == KERNEL else decide(x, "nan_amax")


def _quantize_decision(x: torch.Tensor, block: str) -> Decision:
    """The one-launch grouped kernel, else (1x16) the row-scaled quantize's path."""
    decision = decide(x, "quantize_grouped")
    if decision.path == KERNEL:
        return decision
    return decide(x, "quantize") if block == "1x16" else _NO_16X16


# --------------------------------------------------------------------------- implementation


def expert_of_row(offsets: torch.Tensor, rows: int, experts: int) -> torch.Tensor:
    """int64 (rows,): the expert owning each row, on the device (no sync)."""
    row = torch.arange(rows, dtype=offsets.dtype, device=offsets.device)
    expert = torch.searchsorted(offsets[1:].contiguous(), row, right=True)
    return expert.clamp_(max=experts - 1) if experts > 0 else expert


def _kernel_inputs(x, *vectors):
    """``x`` laid out for a kernel (contiguous, aligned: at most one copy), ``vectors``
    contiguous."""
    return impl.laid_out(x, x.shape[0], x.shape[1]), *(v.contiguous() for v in vectors)


def _quantize_kernel(x, offsets, global_amax, block, err_mode, bound, strict):
    """The one-launch grouped quantize, or None where it does not run (strict: raises)."""
    if decide(x, "quantize_grouped").path != KERNEL:
        return None
    module = impl.kernel_module()
    x2, offs, gamax = _kernel_inputs(x, offsets, global_amax)
    verdict = module.can_run_quantize_grouped(x2, offs, gamax, block=block, err_mode=err_mode,
                                              e4m3_scale_bound=bound)  # fmt: skip
    if impl.declined(verdict, x, strict):
        return None
    codes, scales = quantize_outputs(x)
    module.launch_quantize_grouped(x2, offs, gamax, codes, scales.view(torch.uint8), block,
                                   err_mode, bound)  # fmt: skip
    return codes, scales


def _amax_kernel(x, offsets, experts, strict):
    """The one-launch grouped amax, or None where it does not run (strict: raises)."""
    if decide(x, "nan_amax_grouped").path != KERNEL:
        return None
    module = impl.kernel_module()
    x2, offs = _kernel_inputs(x, offsets)
    if impl.declined(module.can_run_nan_amax_grouped(x2, offs), x, strict):
        return None
    out = grouped_amax_output(x, experts)
    module.launch_nan_amax_grouped(x2, offs, out)
    return out


def _quantize_by_expert(x, offsets, expert, global_amax, block, err_mode, bound, strict):
    """Quantize ``x`` (T, C) with each row under its expert's amax (``expert`` a callable
    giving each row's expert: searched only where no grouped kernel runs)."""
    out = _quantize_kernel(x, offsets, global_amax, block, err_mode, bound, strict)
    if out is not None:
        return out
    if block == "1x16":
        return impl.quantize(x, global_amax[expert()], "1x16", err_mode, bound, strict)
    enforce(_NO_16X16, x, strict)
    band_amax = global_amax[expert()[::GROUP]]  # a band lies in one expert (offsets % 16 == 0)
    return fos_reference.quantize_tile_rows(x, band_amax, err_mode=err_mode, e4m3_scale_bound=bound)


def _segment_amax(row_amax: torch.Tensor, expert: torch.Tensor, experts: int) -> torch.Tensor:
    out = torch.zeros(experts, dtype=torch.float32, device=row_amax.device)
    return out.scatter_reduce_(0, expert, row_amax, reduce="amax", include_self=True)


def _experts_of_rows(offsets, rows, experts):
    """A callable giving each row's expert, searched once on first use."""
    found = []

    def expert() -> torch.Tensor:
        if not found:
            found.append(expert_of_row(offsets, rows, experts))
        return found[0]

    return expert


def _grouped_amax(x, offsets, expert, experts, strict):
    out = _amax_kernel(x, offsets, experts, strict)
    if out is not None:
        return out
    return _segment_amax(impl.nan_amax(x, -1, strict), expert(), experts)


def quantize_grouped(x, offsets, global_amax, block, err_mode, bound, check_offsets, strict):
    """``fos_reference.quantize_grouped``'s bits without a sync (unless ``check_offsets``)."""
    experts = resolve_quantize_grouped(
        x, offsets, global_amax, block, err_mode, bound, check_offsets
    )
    expert = _experts_of_rows(offsets, x.shape[0], experts)
    return _quantize_by_expert(x, offsets, expert, global_amax, block, err_mode, bound, strict)


def nan_amax_grouped(x, offsets, check_offsets, strict):
    """``fos_reference.nan_amax_grouped``'s bits: one launch, or per-row amax and a segment max."""
    experts = resolve_nan_amax_grouped(x, offsets, check_offsets)
    expert = _experts_of_rows(offsets, x.shape[0], experts)
    return _grouped_amax(x, offsets, expert, experts, strict)


def quantize_grouped_with_amax(x, offsets, block, err_mode, bound, check_offsets, strict):
    """The grouped amax of ``x`` and the grouped quantize under it: (codes, scales, amax)."""
    experts = resolve_quantize_grouped_with_amax(x, offsets, block, err_mode, bound, check_offsets)
    expert = _experts_of_rows(offsets, x.shape[0], experts)
    amax = _grouped_amax(x, offsets, expert, experts, strict)
    codes, scales = _quantize_by_expert(x, offsets, expert, amax, block, err_mode, bound, strict)
    return codes, scales, amax


def quantize_stacked(w, global_amax, block, err_mode, bound, strict):
    """``fos_reference.quantize_stacked``'s bits: offsets implied, nothing to search."""
    check_quantize_stacked_args(w, global_amax, block, err_mode, bound)
    experts, n, k = w.shape
    if block == "1x16":  # the row-scaled quantize, amax of leading shape (E, N)
        return impl.quantize(w, global_amax[:, None].expand(experts, n), "1x16", err_mode,
                             bound, strict)  # fmt: skip
    enforce(_NO_16X16, w, strict)
    band_amax = global_amax[:, None].expand(experts, n // GROUP).reshape(-1)
    codes, scales = fos_reference.quantize_tile_rows(
        w.reshape(experts * n, k), band_amax, err_mode=err_mode, e4m3_scale_bound=bound
    )
    return codes.reshape(experts, n, k // 2), scales.reshape(experts, n, k // GROUP)


def stacked_outputs(w, global_amax, block, err_mode, bound):
    """Validate ``quantize_stacked``'s arguments and allocate its outputs (the fake)."""
    check_quantize_stacked_args(w, global_amax, block, err_mode, bound)
    return quantize_outputs(w)
