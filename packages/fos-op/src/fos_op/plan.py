"""The eager fast path: when to bypass the ``torch.library`` dispatcher, and the plan cache.

In eager mode on plain tensors the Python API calls the implementation
directly (the dispatcher costs tens of microseconds per call). Under
``torch.compile``, fake tensors, tensor subclasses, an active torch-function or
dispatch mode, or inputs that require grad, it goes through ``torch.ops.fos.*``
so tracing, fakes and autograd see the registered op.

A plan is what validation and dispatch resolved for one call signature: the
callable that only lays out the inputs, allocates and launches. It is keyed by
every piece of metadata that validation and dispatch read (shapes, strides,
dtypes, devices, knobs, the amax's metadata, strict mode, the current CUDA
device), so an input that would fail validation or take another path can never
find a plan: its key differs, it misses, and validation raises as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

import torch


def eager(*tensors: torch.Tensor | None) -> bool:
    """Whether a call on ``tensors`` may skip the dispatcher (see the module docstring)."""
    if torch.compiler.is_compiling():
        return False
    for t in tensors:
        if type(t) is torch.Tensor:
            if t.requires_grad:
                return False
        elif isinstance(t, torch.Tensor):  # a subclass (FakeTensor, ...)
            return False
        # None or not a tensor at all: the implementation's validation says so
    return torch._C._len_torch_function_stack() == 0 and torch._C._len_torch_dispatch_stack() == 0


def tensor_key(t: torch.Tensor | None) -> Hashable:
    """The metadata of ``t`` a plan depends on (None for an absent optional tensor)."""
    if t is None:
        return None
    if not isinstance(t, torch.Tensor):
        return object()  # never equal to anything: a miss, and validation raises
    return (t.shape, t.stride(), t.dtype, t.device)


class PlanCache:
    """Resolved plans by metadata key, built on a miss; cleared when full.

    ``lookup(key)`` is the plan or None (the dict's own ``get``: the hottest calls
    try it first); ``get`` builds on a miss. ``misses`` counts the plans built.
    """

    def __init__(self, maxsize: int = 1024):
        self.maxsize = maxsize
        self.misses = 0
        self._plans: dict[Hashable, Callable[..., Any]] = {}
        self.lookup = self._plans.get
        self._lock = threading.Lock()

    def get(
        self, key: Hashable, build: Callable[..., Callable[..., Any]], *args: Any
    ) -> Callable[..., Any]:
        """The plan for ``key``; ``build(*args)`` validates and resolves it on a miss."""
        try:
            plan = self._plans.get(key)
        except TypeError:  # an unhashable knob: validation rejects it
            return build(*args)
        if plan is not None:
            return plan
        plan = build(*args)  # raises for bad input: nothing is stored
        with self._lock:
            if len(self._plans) >= self.maxsize:
                self._plans.clear()
            self._plans[key] = plan
            self.misses += 1
        return plan

    def keys(self) -> list[Hashable]:
        """The keys of the plans held now."""
        return list(self._plans)

    def __len__(self) -> int:
        return len(self._plans)

    def clear(self) -> None:
        """Drop every plan and reset the counters."""
        with self._lock:
            self._plans.clear()
            self.misses = 0


#: The process-wide plan cache of the Python API and the ops' real impls.
PLANS = PlanCache()
