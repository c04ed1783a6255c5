"""One-read rowwise/columnwise cases shared by ``test_dual_kernel`` and
``gpu_verify_elementwise``: shapes, inputs along rows or columns, outputs poisoned
where the kernel writes, and the reference's outputs for each layout."""

from __future__ import annotations

import torch
from cutedsl_cases import make_case

import fos_cutedsl
import fos_reference

POISON = 0xAB
LAYOUTS = ((True, False), (False, True), (True, True))  # (rowwise, columnwise)
# (R, C): one group; a tile's edge on both sides; R no multiple of 64 or 128 and C of 128;
# groups no multiple of 4 (swizzle padding); several tiles each way.
SHAPES = ((16, 16), (48, 272), (208, 144), (320, 1040), (1040, 304))
ROWWISE_ONLY_SHAPES = ((1, 16), (37, 48))  # R no multiple of 16: rowwise only


def dual_case(kind, variant, rows, cols, along, seed):
    """``make_case``'s (x (R, C), amax) with the kind's groups along x's rows, or (``along
    == "columns"``, R % 16 == 0) down its columns: the case of x^T, transposed."""
    if along == "rows":
        return make_case(kind, variant, rows, cols, seed, "cuda")
    xt, gamax = make_case(kind, variant, cols, rows, seed, "cuda")
    return xt.t().contiguous(), gamax


def real_bytes(rows: int, groups: int) -> torch.Tensor:
    """Where ``swizzle_scales`` puts real (not padding) bytes of (rows, groups) scales."""
    ones = torch.ones((rows, groups), dtype=torch.uint8).view(torch.float8_e4m3fn)
    return fos_reference.swizzle_scales(ones).view(torch.uint8) != 0


def poisoned_outputs(x, rowwise, columnwise, swizzle):
    """``rowwise_columnwise_buffers`` with every byte the kernel must write poisoned."""
    out = fos_cutedsl.rowwise_columnwise_buffers(x, rowwise, columnwise, swizzle)
    rows, cols = x.shape
    sizes = ((rows, cols // 16), (cols, rows // 16))
    for i, t in enumerate(out):
        if t is None:
            continue
        if swizzle and i % 2 == 1:
            t[real_bytes(*sizes[i // 2]).to(t.device)] = POISON
        else:
            t.fill_(POISON)
    return out


def wanted_outputs(reference, rowwise, columnwise, swizzle):
    """The reference's outputs as flat uint8, for the layouts asked (None elsewhere)."""
    out = list(reference)
    if not rowwise:
        out[0:2] = None, None
    if not columnwise:
        out[2:4] = None, None
    if swizzle:
        out[1::2] = [None if s is None else fos_reference.swizzle_scales(s) for s in out[1::2]]
    return [None if t is None else t.contiguous().view(torch.uint8).reshape(-1) for t in out]


def reference_outputs(x, gamax, knobs):
    """(row codes, row scales, column codes, column scales); columnwise None if R % 16."""
    rows = fos_reference.quantize(x, gamax, **knobs)
    if x.shape[0] % 16:
        return (*rows, None, None)
    return (*rows, *fos_reference.quantize_columnwise(x, gamax, **knobs))
