"""An explicit in-process cache of compiled kernel variants, keyed by ``VariantKey``.

``cute.compile`` never caches and is not thread-safe, so every variant is
compiled once, under a lock, and kept for the life of the process. A cache
given a kernel-family ``name`` also keeps its variants on disk
(``disk_cache``): a miss in memory loads the stored variant, or compiles,
stores and returns it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .config import VariantKey
from .disk_cache import DiskCache


def direct_call(compiled: Any) -> Any:
    """The function to call for ``compiled``: the ``tvm_ffi.Function`` inside a freshly
    compiled one (whose Python ``__call__`` sorts keyword arguments first, host time on
    every call), as a variant loaded from disk already is; any other as it is."""
    inner = getattr(compiled, "_tvm_ffi_function", None)
    return compiled if inner is None else inner


class CompileCache:
    """Maps a key (a NamedTuple) to its compiled function, compiling on first use.

    ``compile_fn(*key)`` compiles; with ``name`` (the kernel family, e.g.
    ``"quantize"``) the variants persist on disk across processes.
    """

    def __init__(self, compile_fn: Callable[..., Any], name: str | None = None):
        self._compile = compile_fn
        self.disk = DiskCache(name) if name is not None else None
        self._compiled: dict[VariantKey, Any] = {}
        self._owners: dict[VariantKey, Any] = {}  # what keeps each compiled function alive
        self._lock = threading.Lock()

    def get(self, key: VariantKey) -> Any:
        """The compiled function for ``key`` (compiled now if it is new)."""
        fn = self._compiled.get(key)
        if fn is None:
            with self._lock:
                fn = self._compiled.get(key)
                if fn is None:
                    if self.disk is None:
                        compiled = self._compile(*key)
                    else:
                        compiled = self.disk.get(key, self._compile)
                    self._owners[key] = compiled
                    fn = self._compiled[key] = direct_call(compiled)
        return fn

    def __contains__(self, key: VariantKey) -> bool:
        return key in self._compiled

    def __len__(self) -> int:
        return len(self._compiled)

    def clear(self) -> None:
        """Drop every compiled variant from memory (the disk keeps its copies)."""
        with self._lock:
            self._compiled.clear()
            self._owners.clear()
