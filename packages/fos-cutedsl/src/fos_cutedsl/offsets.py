"""Where a row's global amax lives: its own entry, or (grouped) its expert's.

SPEC's grouped quantize is a per-tensor quantize of each expert's slice of
rows under that expert's amax; since the arithmetic reads nothing of the
tensor but the global amax, it is the row-scaled kernel with row ``r`` taking
``gamax[e]`` for the expert ``e`` whose rows ``[offsets[e], offsets[e + 1])``
hold ``r``. The expert is found on the device, so the offsets never leave the
GPU and any split runs in the same launch: by a whole warp at once where the
kernel has one per row (``expert_of_row_warp``: ``ceil((E - 1) / 32)``
independent loads a lane and a ballot each), else by one thread's binary
search (``expert_of_row``: ``ceil(log2 E)`` dependent loads).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64


@cute.jit
def expert_of_row(mOffsets: cute.Tensor, row: Int64) -> Int32:
    """The last ``e`` in ``[0, E)`` with ``offsets[e] <= row`` (E + 1 offsets).

    For offsets as SPEC has them (0 first, T last, non-decreasing) and ``row``
    in ``[0, T)`` that is the expert owning ``row`` (an empty expert never is).
    For any other offsets it is still an index in ``[0, E)``: never out of bounds.
    """
    lo = Int32(0)
    hi = Int32(mOffsets.shape[0]) - 1  # invariant: offsets[lo] <= row < offsets[hi]
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if Int64(mOffsets[mid]) <= row:
            lo = mid
        else:
            hi = mid
    return lo


@cute.jit
def expert_of_row_warp(mOffsets: cute.Tensor, row: Int64) -> Int32:
    """``expert_of_row`` by a whole warp (every lane active, the same ``row``): the
    count of ``offsets[1:E]`` at or below ``row``, 32 offsets a step."""
    experts = Int32(mOffsets.shape[0]) - 1
    lane = cute.arch.lane_idx()
    count = Int32(0)
    c = Int32(1)
    while c < experts:
        at_or_below = Int32(0)
        if c + lane < experts:
            at_or_below = Int32(Int64(mOffsets[c + lane]) <= row)
        count = count + cute.arch.popc(cute.arch.vote_ballot_sync(at_or_below != 0))
        c = c + 32
    return count


@cute.jit
def amax_of_builder_row(amax, row_lo: Int64, rows: Int64, i: Int32):
    """Row-scaled table builders (8 lanes a row, whole warps: 4 rows a warp): the global
    amax of row ``row_lo + i`` (clamped to the last row); grouped, each warp searches
    its 4 rows together (``expert_of_row_warp``)."""
    if cutlass.const_expr(amax.offsets is None):
        return amax.tensor[cutlass.min(row_lo + Int64(i), rows - 1)]
    first = row_lo + Int64(i & ~3)  # the warp's first row
    mine = i & 3
    expert = Int32(0)
    for q in cutlass.range_constexpr(4):
        found = expert_of_row_warp(amax.offsets, cutlass.min(first + q, rows - 1))
        if mine == q:
            expert = found
    return amax.tensor[expert]


class RowAmax:
    """Row-scaled kernels' source of row ``r``'s global amax (read by ``amax_of_row``).

    ``RowAmax(mAmax)``: ``mAmax[r]`` ((R,) float32). ``RowAmax(mAmax, mOffsets)``:
    ``mAmax[expert_of_row(mOffsets, r)]`` ((E,) float32, (E + 1,) offsets).
    """

    def __init__(self, tensor: cute.Tensor, offsets: cute.Tensor | None = None):
        self.tensor = tensor
        self.offsets = offsets


def amax_of_row(amax: RowAmax, row):
    """Row ``row``'s global amax (a function, not a method: the DSL's ``if`` regions
    take a method call as a possible mutation of a Python object)."""
    if cutlass.const_expr(amax.offsets is None):
        return amax.tensor[row]
    return amax.tensor[expert_of_row(amax.offsets, Int64(row))]
