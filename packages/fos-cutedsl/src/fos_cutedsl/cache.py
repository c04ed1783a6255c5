"""An explicit in-process cache of compiled kernel variants, keyed by ``VariantKey``.

``cute.compile`` never caches and is not thread-safe, so every variant is
compiled once, under a lock, and kept for the life of the process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .config import VariantKey


class CompileCache:
    """Maps a ``VariantKey`` to its compiled function, compiling on first use."""

    def __init__(self, compile_fn: Callable[..., Any]):
        self._compile = compile_fn
        self._compiled: dict[VariantKey, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: VariantKey) -> Any:
        """The compiled function for ``key`` (compiled now if it is new)."""
        fn = self._compiled.get(key)
        if fn is None:
            with self._lock:
                fn = self._compiled.get(key)
                if fn is None:
                    fn = self._compile(*key)
                    self._compiled[key] = fn
        return fn

    def __contains__(self, key: VariantKey) -> bool:
        return key in self._compiled

    def __len__(self) -> int:
        return len(self._compiled)

    def clear(self) -> None:
        """Drop every compiled variant."""
        with self._lock:
            self._compiled.clear()
