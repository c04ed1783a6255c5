"""``copy_async``: the persistent 16x16 kernel's input through shared memory, an item ahead.

Each warp owns ``K`` (``groups_per_thread``) stages of one unit each (16 rows x 128
bytes, ``tile``'s lane layout). While the warp computes unit ``k`` of an item, stage
``k`` already fills with unit ``k`` of its next item: each lane issues its four 16-byte
``cp.async`` copies (the same addresses ``tile_math.load_unit_into`` loads) into its own
16-byte slots and commits them as one group. The copies hold no registers, so a warp
has a whole item (6 KB for 16-bit) in flight where the register scheme holds one unit
(2 KB). Every unit is one group, so the unit to read is always the oldest of ``K``
pending: ``cp.async.wait_group K - 1``, then four ``ld.shared.v4`` of the lane's own
slots (no other lane touches them, so no barrier). Same words, so the same bits.
"""

from __future__ import annotations

import cutlass.cute as cute
from cutlass import Int32, Uint8

from .config import GROUP
from .memory import copy_async_commit, copy_async_if, copy_async_wait, load_shared_v4
from .tile_math import ROWS_PER_LANE

UNIT_BYTES = GROUP * 128  # one unit: 16 rows of a 128-byte strip
ROW_BYTES = 128


def stage_bytes(warps: int, units: int) -> int:
    """Shared memory for ``warps`` warps of ``units`` stages each, and its alignment."""
    return warps * units * UNIT_BYTES + ROW_BYTES


class Stages:
    """The calling lane's slots in its warp's stages (allocated for every warp from ``smem``)."""

    def __init__(self, cfg, smem):
        tidx, _, _ = cute.arch.thread_idx()
        warps, units = cfg.threads // 32, cfg.groups_per_thread
        data = smem.allocate_tensor(
            Uint8, cute.make_layout(warps * units * UNIT_BYTES), byte_alignment=128
        ).iterator.toint()
        warp, lane = Int32(tidx) // 32, Int32(tidx) & 31
        self.units = units
        # row r4 of the lane's unit, its 16 bytes; rows r4 + 4 i are 4 i rows further
        self.slots = data + warp * (units * UNIT_BYTES) + (lane >> 3) * ROW_BYTES + (lane & 7) * 16

    def issue(self, k, lanes, live):
        """Copy unit ``k`` of the item at ``lanes`` (a ``tile.Lanes``) into stage ``k``
        (nothing where ``live`` is 0: past the last item); one group either way."""
        for i in range(ROWS_PER_LANE):
            src = lanes.address(lanes.x, k, ROWS_PER_LANE * i)
            copy_async_if(live, self.slot(k, i), src)
        copy_async_commit()

    def read(self, k):
        """Stage ``k``'s 16 words of this lane, in ``load_unit_into``'s order, once its
        group (the oldest pending) has landed."""
        copy_async_wait(self.units - 1)
        words = []
        for i in range(ROWS_PER_LANE):
            words += list(load_shared_v4(self.slot(k, i)))
        return words

    def slot(self, k, i):
        """Shared address of the lane's 16 bytes of row ``r4 + 4 i`` in stage ``k``."""
        return self.slots + k * UNIT_BYTES + i * (ROWS_PER_LANE * ROW_BYTES)
