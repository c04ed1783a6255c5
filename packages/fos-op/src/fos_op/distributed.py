"""Sharded inputs: ``torch.distributed.tensor.DTensor`` through the Python API.

Each rank quantizes its local shard with the amax of the *whole* tensor, so
the local codes and scales are the single-device quantize of the full tensor,
sliced (1x16 groups, and 16x16 tiles whose rows do not straddle a shard,
depend only on their own elements and the amax). What each placement does, on
every mesh dim:

- ``Replicate()``: every rank holds the full extent of that mesh dim; nothing
  is communicated for it.
- ``Shard(d)`` on a leading dim (rows): 1x16 takes any split; 16x16 needs every
  shard's boundaries, in flattened rows, on multiples of 16 (``ValueError``
  otherwise). Row-scaled amaxes stay local.
- ``Shard(-1)`` (columns): every shard's column boundaries must be multiples
  of 16 elements (``ValueError`` otherwise); codes (..., C/2) and scales
  (..., C/16) are sharded on their last dim too. A row amax is reduced over
  the column shards.
- ``Partial()``: rejected (``ValueError``): the local shards are unreduced.

Communication: the per-tensor amax is each rank's ``nan_amax`` of its shard,
then ``torch.distributed.all_reduce(op=MAX)`` over the group of every mesh dim
the tensor is sharded on; a row amax (``dim=-1``) is reduced the same way over
the mesh dims that shard the last dim only. Local NaN-dropping amaxes are
never NaN, so MAX gives the exact global amax. A ``global_amax`` the caller
passes (a plain tensor, the same on every rank, or a DTensor on the same mesh)
is used as is: nothing is communicated. Uneven shards follow torch's chunking
(``Shard.local_shard_size_and_offset``); shards made by ``DTensor.from_local``
with other sizes are rejected.

Every check reads only global metadata (shapes, placements, the mesh), so all
ranks raise the same error before any collective: a bad call never leaves a
rank waiting in an all-reduce.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import torch

from fos_reference.validation import (
    GROUP,
    check_fake_quantize_args,
    check_nan_amax_args,
    check_quantize_args,
)

from . import api  # api imports this module too; attributes are read at call time
from .impl import resolve_quantize_with_amax


def is_dtensor(t: object) -> bool:
    """Whether ``t`` is a ``DTensor``, without importing ``torch.distributed.tensor``.

    A DTensor can only exist once that module is imported, so a process that
    never imported it pays one dict lookup.
    """
    if type(t) is torch.Tensor or t is None:
        return False
    module = sys.modules.get("torch.distributed.tensor")
    return module is not None and isinstance(t, module.DTensor)


def any_dtensor(*tensors: object) -> bool:
    """Whether any of ``tensors`` is a ``DTensor`` (the API's branch to this module)."""
    return any(is_dtensor(t) for t in tensors)


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """A DTensor's mesh, its placements, and the tensor dim each mesh dim shards (or None)."""

    mesh: object  # torch.distributed.device_mesh.DeviceMesh
    placements: tuple
    sharded: tuple[int | None, ...]

    def mesh_dims_on(self, dims: set[int]) -> list[int]:
        """The mesh dims that shard one of the tensor dims ``dims``."""
        return [i for i, d in enumerate(self.sharded) if d is not None and d in dims]


def _layout(name: str, t) -> Layout:
    """``t``'s layout; ``ValueError`` for a placement other than ``Replicate`` or ``Shard``."""
    from torch.distributed.tensor import Replicate, Shard

    placements, sharded = [], []
    for i, p in enumerate(t.placements):
        if type(p) is Shard:
            d = p.dim % max(t.dim(), 1)
            placements.append(Shard(d))
            sharded.append(d)
        elif isinstance(p, Replicate):
            placements.append(p)
            sharded.append(None)
        elif p.is_partial():
            raise ValueError(
                f"{name} is a DTensor with a Partial placement on mesh dim {i} "
                f"({t.placements}): its local shards are unreduced partial values; "
                "redistribute it to Replicate() or Shard() first"
            )
        else:
            raise ValueError(
                f"{name} is a DTensor with placement {p!r} on mesh dim {i}: fos_op takes "
                "Replicate() and Shard(d) only"
            )
    return Layout(t.device_mesh, tuple(placements), tuple(sharded))


def _chunks(size: int, layout: Layout, dim: int) -> list[tuple[int, int]]:
    """Every rank's (offset, length) on tensor dim ``dim``, by torch's nested chunking."""
    from torch.distributed.tensor import Shard

    spans = [(0, size)]
    for i in layout.mesh_dims_on({dim}):
        n = layout.mesh.size(i)
        spans = [
            (start + off, length)
            for start, span in spans
            for length, off in (Shard.local_shard_size_and_offset(span, n, r) for r in range(n))
        ]
    return spans


def _region(shape, layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """This rank's (local shape, global offset) of a tensor of global ``shape``."""
    from torch.distributed.tensor import Shard

    coord = layout.mesh.get_coordinate()
    if coord is None:
        raise ValueError("this rank is not part of the DTensor's device mesh")
    local, offset = list(shape), [0] * len(shape)
    for i, d in enumerate(layout.sharded):
        if d is not None:
            length, off = Shard.local_shard_size_and_offset(local[d], layout.mesh.size(i), coord[i])
            local[d], offset[d] = length, offset[d] + off
    return tuple(local), tuple(offset)


def _local(name: str, t, layout: Layout) -> torch.Tensor:
    """``t.to_local()``, checked against torch's chunking of its global shape."""
    local = t.to_local()
    want, _ = _region(t.shape, layout)
    if tuple(local.shape) != want:
        raise ValueError(
            f"{name}'s local shard has shape {tuple(local.shape)}, but torch's chunking of "
            f"{tuple(t.shape)} over {layout.placements} gives {want}: fos_op takes evenly "
            "chunked shards only (as distribute_tensor makes them)"
        )
    return local


def _check_quantize_layout(x, layout: Layout, block: str) -> None:
    """Shard boundaries for quantize: columns on multiples of 16; 16x16 rows on 16 too."""
    last = x.dim() - 1
    if layout.mesh_dims_on({last}):
        spans = _chunks(x.shape[last], layout, last)
        if any(n and (off % GROUP or n % GROUP) for off, n in spans):
            raise ValueError(
                f"x is sharded on its last dim (columns) with {layout.placements}: every "
                f"shard's column boundaries must be multiples of {GROUP} elements, but "
                f"{x.shape[last]} columns give shards (offset, size) {spans}"
            )
    if block != "16x16":
        return
    for d in sorted({d for d in layout.sharded if d is not None and d < last}):
        inner = 1
        for size in x.shape[d + 1 : last]:
            inner *= size
        spans = [(off * inner, n * inner) for off, n in _chunks(x.shape[d], layout, d)]
        per_outer = x.shape[d] * inner  # rows between consecutive indices of the dims before d
        misaligned = any(n and (off % GROUP or n % GROUP) for off, n in spans)
        if misaligned or (d > 0 and per_outer % GROUP):
            raise ValueError(
                f"block='16x16' on x sharded on dim {d} with {layout.placements} needs every "
                f"shard's row boundaries (leading dimensions flattened) on multiples of "
                f"{GROUP}, but x of shape {tuple(x.shape)} gives shards (first row, rows) "
                f"{spans}"
            )


# --------------------------------------------------------------------------- amax


def _all_reduce_max(t: torch.Tensor, layout: Layout, mesh_dims: list[int]) -> torch.Tensor:
    """``t`` reduced in place with MAX over the process group of each mesh dim in ``mesh_dims``."""
    import torch.distributed as dist

    for i in mesh_dims:
        dist.all_reduce(t, op=dist.ReduceOp.MAX, group=layout.mesh.get_group(i))
    return t


def _reduced_placements(layout: Layout, dim: int | None) -> list:
    """The placements of ``nan_amax(x, dim)``: 0-d replicated, or x's less the reduced dim."""
    from torch.distributed.tensor import Replicate, Shard

    out = []
    for p, d in zip(layout.placements, layout.sharded, strict=True):
        if d is None or dim is None or d == dim:
            out.append(Replicate())
        else:
            out.append(Shard(d - 1) if d > dim else p)
    return out


def _amax_mesh_dims(x, layout: Layout, dim: int | None) -> list[int]:
    """The mesh dims whose shards an amax over ``dim`` (None: every dim) must combine."""
    return layout.mesh_dims_on(set(range(x.dim())) if dim is None else {dim})


def _local_amax(global_amax, x, layout: Layout) -> torch.Tensor:
    """The caller's amax for this rank's shard: as is per tensor, this shard's rows per row."""
    if is_dtensor(global_amax):
        if global_amax.device_mesh != layout.mesh:
            raise ValueError("global_amax is a DTensor on another device mesh than x's")
        a_layout = _layout("global_amax", global_amax)
        for i, d in enumerate(a_layout.sharded):
            if d is not None and layout.sharded[i] != d:
                raise ValueError(
                    f"global_amax is sharded with {global_amax.placements}, x with "
                    f"{x.placements}: an amax shard must be x's row shard (same dim, same "
                    "mesh dim) or replicated"
                )
        local = _local("global_amax", global_amax, a_layout)
        _, a_offset = _region(global_amax.shape, a_layout)
    else:
        local, a_offset = global_amax, (0,) * global_amax.dim()
    if global_amax.numel() == 1 or local.dim() == 0:
        return local  # per tensor
    x_shape, x_offset = _region(x.shape, layout)
    for d in range(local.dim()):  # this shard's rows out of the amax's own region
        local = local.narrow(d, x_offset[d] - a_offset[d], x_shape[d])
    return local


def _wrap(local: torch.Tensor, layout: Layout, shape, placements=None):
    """``local`` as this rank's shard of a DTensor of global ``shape`` (no communication)."""
    from torch.distributed.tensor import DTensor

    shape = torch.Size(shape)
    stride, step = [], 1
    for size in reversed(shape):
        stride.append(step)
        step *= max(size, 1)
    return DTensor.from_local(
        local,
        layout.mesh,
        layout.placements if placements is None else placements,
        run_check=False,
        shape=shape,
        stride=tuple(reversed(stride)),
    )


def _global_amax(x, layout: Layout, local: torch.Tensor, dim: int | None, strict) -> torch.Tensor:
    """``nan_amax`` of the whole tensor over ``dim``, this rank's part of it (plain tensor)."""
    amax = api.nan_amax(local, dim, strict=strict)
    return _all_reduce_max(amax, layout, _amax_mesh_dims(x, layout, dim))


def _amax_shape(x, dim: int | None) -> tuple[int, ...]:
    return () if dim is None or x.dim() == 0 else (*x.shape[:dim], *x.shape[dim + 1 :])


# --------------------------------------------------------------------------- the API


def nan_amax(x, dim: int | None, strict: bool | None):
    """``fos_op.nan_amax`` of a DTensor: the local amax, all-reduced (MAX) where sharded."""
    layout = _layout("x", x)
    dim = check_nan_amax_args(x, dim)
    amax = _global_amax(x, layout, _local("x", x, layout), dim, strict)
    return _wrap(amax, layout, _amax_shape(x, dim), _reduced_placements(layout, dim))


def quantize(x, global_amax, block, err_mode, e4m3_scale_bound, strict):
    """``fos_op.quantize`` of a DTensor ``x`` under the caller's amax (no communication)."""
    if not is_dtensor(x):
        raise TypeError(f"global_amax is a DTensor: x must be one too, got {type(x).__name__}")
    layout = _layout("x", x)
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    _check_quantize_layout(x, layout, block)
    local = _local("x", x, layout)
    g = _local_amax(global_amax, x, layout)
    codes, scales = api.quantize(local, g, block=block, err_mode=err_mode,
                                 e4m3_scale_bound=e4m3_scale_bound, strict=strict)  # fmt: skip
    *lead, cols = x.shape
    return (
        _wrap(codes, layout, (*lead, cols // 2)),
        _wrap(scales, layout, (*lead, cols // GROUP)),
    )


def quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound, strict):
    """``fos_op.quantize_with_amax`` of a DTensor: the global amax, then the local quantize.

    Per tensor the amax is all-reduced over every sharded mesh dim. Per row
    (``dim=-1``) only a column shard (``Shard(-1)``) needs one: each rank's row
    amax of its columns, all-reduced (MAX) over the column shards, gives every
    rank the whole row's amax; row shards keep theirs local (and the fused
    row-amax kernel where it runs).
    """
    layout = _layout("x", x)
    amax_dim = resolve_quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound)
    _check_quantize_layout(x, layout, block)
    local = _local("x", x, layout)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": e4m3_scale_bound}
    reduced = None if amax_dim is None else x.dim() - 1
    if _amax_mesh_dims(x, layout, reduced):
        amax = _global_amax(x, layout, local, reduced, strict)
        codes, scales = api.quantize(local, amax, strict=strict, **knobs)
    else:
        codes, scales, amax = api.quantize_with_amax(local, dim=amax_dim, strict=strict, **knobs)
    *lead, cols = x.shape
    return (
        _wrap(codes, layout, (*lead, cols // 2)),
        _wrap(scales, layout, (*lead, cols // GROUP)),
        _wrap(amax, layout, _amax_shape(x, reduced), _reduced_placements(layout, reduced)),
    )


def fake_quantize(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype, strict):
    """``fos_op.fake_quantize`` of a DTensor; ``global_amax`` None: the all-reduced amax of x."""
    if not is_dtensor(x):
        raise TypeError(f"global_amax is a DTensor: x must be one too, got {type(x).__name__}")
    layout = _layout("x", x)
    check_amax = global_amax
    if global_amax is None:
        check_amax = torch.empty((), dtype=torch.float32, device=x.device)
    check_fake_quantize_args(x, check_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    _check_quantize_layout(x, layout, block)
    local = _local("x", x, layout)
    if global_amax is None:
        g = _global_amax(x, layout, local.detach(), None, strict)
    else:
        g = _local_amax(global_amax, x, layout)
    x_hat = api.fake_quantize(local, g, block=block, err_mode=err_mode,
                              e4m3_scale_bound=e4m3_scale_bound, out_dtype=out_dtype,
                              strict=strict)  # fmt: skip
    return _wrap(x_hat, layout, x.shape)
