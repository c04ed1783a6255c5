"""Where a row's global amax lives: its own entry, or (grouped) its expert's.

SPEC's grouped quantize is a per-tensor quantize of each expert's slice of
rows under that expert's amax; since the arithmetic reads nothing of the
tensor but the global amax, it is the row-scaled kernel with row ``r`` taking
``gamax[e]`` for the expert ``e`` whose rows ``[offsets[e], offsets[e + 1])``
hold ``r``. The expert is found on the device by a binary search of the
offsets (``ceil(log2 E)`` loads of a vector that stays in L1), so the offsets
never leave the GPU and any split runs in the same launch. (A warp-wide count
of the offsets at or below a row, 32 a step with a ballot, measured slower:
``bench/NOTES.md`` v19.)
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


def amax_vector(mAmax: cute.Tensor) -> cute.Tensor:
    """The kernels' amax as the (1,) or (R,) tensor they index: a per-tensor amax
    comes as a 0-d tensor (``nan_amax``'s result, passed with no view per call)."""
    if len(mAmax.shape) == 0:
        return cute.make_tensor(mAmax.iterator, cute.make_layout((1,), stride=(1,)))
    return mAmax


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
