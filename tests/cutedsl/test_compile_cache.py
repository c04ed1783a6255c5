"""Contract: the compile cache compiles each ``VariantKey`` exactly once."""

from __future__ import annotations

import threading

from fos_cutedsl import CompileCache, VariantKey


def test_compiles_once_per_key():
    calls = []

    def compile_fn(*key):
        calls.append(key)
        return object()

    cache = CompileCache(compile_fn)
    a = VariantKey("bfloat16", "1x16", "mae", 256, False, "sm_90a")
    b = a._replace(err_mode="mse")
    first = cache.get(a)
    assert cache.get(a) is first
    assert cache.get(b) is not first
    assert calls == [tuple(a), tuple(b)]
    assert a in cache and len(cache) == 2
    cache.clear()
    assert len(cache) == 0


def test_concurrent_first_use_compiles_once():
    calls = []
    gate = threading.Event()

    def compile_fn(*key):
        gate.wait()
        calls.append(key)
        return object()

    cache = CompileCache(compile_fn)
    key = VariantKey("float32", "16x16", "mse", 448, False, "sm_100a")
    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get(key))) for _ in range(8)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert len(calls) == 1 and all(r is results[0] for r in results)


def test_a_compiled_function_is_called_through_its_inner_ffi_function():
    """A freshly compiled function (CuTe DSL's keyword-sorting wrapper) is served as the
    ``tvm_ffi.Function`` it holds, while the cache keeps the wrapper (its owner) alive."""
    import gc
    import weakref

    class Wrapper:
        def __init__(self):
            self._tvm_ffi_function = lambda *args: ("direct", args)

        def __call__(self, *args, **kwargs):
            raise AssertionError("the wrapper's __call__ must not be on the call path")

    owners = []

    def compile_fn(*key):
        owners.append(Wrapper())
        return owners[-1]

    cache = CompileCache(compile_fn)
    key = VariantKey("bfloat16", "1x16", "mae", 256, False, "sm_90a")
    fn = cache.get(key)
    assert fn(1, 2) == ("direct", (1, 2)) and cache.get(key) is fn
    alive = weakref.ref(owners.pop())
    gc.collect()
    assert alive() is not None  # the cache holds the wrapper that owns the function
    plain = CompileCache(lambda *key: print)  # no inner function: served as compiled
    assert plain.get(key) is print
