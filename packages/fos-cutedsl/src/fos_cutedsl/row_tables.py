"""Per-row tables of step 4 for the row-amax kernels (``QuantizeConfig.row_tables``).

Row-scaled step 4 computes each candidate's ``(inv, bound scale)`` from the row's 8
mantissa constants (``group.row_scale_entry``, ``choice.row_candidate``): about a dozen
instructions per candidate and group. A row-amax kernel whose threads share one row can
instead evaluate that same function once for each scale byte a non-negative amax can
give (``ROW_BYTES``: 0 to 0x7E, and 0x7F for NaN), after the row's constants exist, and
``fast_group`` looks its two candidates up as the per-tensor kernels look up theirs.
Same function, same arguments: the same bits. A negative amax (a caller's) gives bytes
from 0x80 on, which the lookup folds onto the table: its row's entries are all NaN, so
each of its groups takes the exact path, which computes SPEC's bits.
"""

from __future__ import annotations

import dataclasses

import cutlass
import cutlass.cute as cute
from cutlass import Float32

from .config import NAN, ROW_BYTES
from .group import row_scale_entry
from .ieee import e4m3x2_to_f32, less_mask, pick_f32


def allocate_row_bytes(cfg, smem, mantissas):
    """What ``fast_group`` looks step 4 up in: with ``cfg.row_tables`` a (rows_per_cta *
    ROW_BYTES, 2) shared table for ``build_row_bytes``; otherwise the mantissa tables."""
    if cutlass.const_expr(not cfg.row_tables):
        return mantissas
    layout = cute.make_layout((cfg.rows_per_cta * ROW_BYTES, 2), stride=(2, 1))
    return smem.allocate_tensor(Float32, layout, byte_alignment=16)


@cute.jit
def build_row_bytes(cfg, table, mantissas, lookups, team, member):
    """``cfg.row_tables`` (a ``row_amax.RowAmaxConfig``): team ``team``'s row entries, a
    byte a thread from the row's mantissa constants and zero-scale inv (``table[team, 2]``;
    a negative row amax ``table[team, 0]``: NaN), then the team's barrier. Needs those
    constants complete (the barrier after them)."""
    if cutlass.const_expr(not cfg.row_tables):
        return
    entry_cfg = dataclasses.replace(cfg.quantize, row_tables=False)  # the computed entry
    negative = less_mask(table[team, 0], Float32(0.0))
    for byte in cutlass.range(member, ROW_BYTES, cfg.team, unroll=1):
        f = e4m3x2_to_f32(byte)[1]
        inv, yb = row_scale_entry(entry_cfg, mantissas, team, f, table[team, 2])
        lookups[team * ROW_BYTES + byte, 0] = pick_f32(negative, Float32(NAN), inv)
        lookups[team * ROW_BYTES + byte, 1] = yb
    if cutlass.const_expr(cfg.team == 32):  # one warp a row
        cute.arch.sync_warp()
    else:
        cute.arch.sync_threads()
