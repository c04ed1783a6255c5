"""Fill the disk cache ahead of a job: every variant of every kernel family, or a chosen few.

``precompile()`` from Python, ``python -m fos_cutedsl.precompile`` from a shell.
Compiling needs no GPU, and neither does loading a stored ``.o`` (the kernel
runs only on a GPU of its arch): on a CPU-only machine name the arch
(``arch="sm_90a"``) and the target's SM count (``sms``, a field of the keys
of persistent kernels; 132 on an H100/H200 SXM).

A kernel family takes part by one ``register(KeyType, cache, variants)``
line: ``cache`` a named ``CompileCache`` and ``variants(arch)`` every key that
family's API can ask for on ``arch``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import torch

from .. import check
from ..api import CACHE, FAKE_QUANTIZE_CACHE
from ..api_dual import DUAL_CACHE, _dual
from ..api_elementwise import AMAX_CACHE, DEQUANTIZE_CACHE, _amax, _dequantize
from ..api_grouped import GROUPED_AMAX_CACHE, GROUPED_QUANTIZE_CACHE, _grouped
from ..api_row_amax import ROW_AMAX_CACHE, _row_amax
from ..cache import CompileCache
from ..config import FakeQuantizeKey, VariantKey
from ..device import arch_of


class Family(NamedTuple):
    """A kernel family's compile cache and its variant enumeration."""

    cache: CompileCache | None  # None when CuTe DSL is not importable
    variants: Callable[[str], list[tuple]]


#: Key type -> its family, filled by ``register``.
FAMILIES: dict[type, Family] = {}


def register(key_type: type, cache: CompileCache | None, variants: Callable[[str], list]) -> None:
    """Let ``precompile`` enumerate and store ``key_type``'s variants through ``cache``."""
    FAMILIES[key_type] = Family(cache, variants)


register(VariantKey, CACHE, check.variants)
register(FakeQuantizeKey, FAKE_QUANTIZE_CACHE, check.fake_variants)
if _amax is not None:
    register(_amax.AmaxKey, AMAX_CACHE, _amax.variants)
if _dequantize is not None:
    register(_dequantize.DequantizeKey, DEQUANTIZE_CACHE, _dequantize.variants)
if _row_amax is not None:
    register(_row_amax.RowAmaxKey, ROW_AMAX_CACHE, _row_amax.variants)
if _grouped is not None:
    register(_grouped.GroupedQuantizeKey, GROUPED_QUANTIZE_CACHE, _grouped.quantize_variants)
    register(_grouped.GroupedAmaxKey, GROUPED_AMAX_CACHE, _grouped.amax_variants)
if _dual is not None:
    register(_dual.DualKey, DUAL_CACHE, _dual.variants)


class Result(NamedTuple):
    """What ``precompile`` did for one variant."""

    key: tuple
    status: str  # "on disk" | "compiled" | "not stored"
    seconds: float


def default_arch() -> str:
    """``CUTE_DSL_ARCH``, else the current GPU's arch."""
    arch = os.environ.get("CUTE_DSL_ARCH")
    if arch:
        return arch
    if torch.cuda.is_available():
        return arch_of(torch.device("cuda"))
    raise RuntimeError("no GPU here: name the arch (arch='sm_90a', or CUTE_DSL_ARCH)")


def default_sms() -> int | None:
    """The current GPU's SM count, or None without a GPU (the keys keep their default)."""
    if torch.cuda.is_available():
        return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    return None


def every_variant(arch: str, sms: int | None = None) -> list[tuple]:
    """Every registered family's variants on ``arch``, with ``sms`` where a key has that field."""
    keys = [key for family in FAMILIES.values() for key in family.variants(arch)]
    if sms is not None:
        keys = [k._replace(sms=sms) if "sms" in k._fields else k for k in keys]
    return keys


def precompile(
    variants: Iterable[tuple] | None = None,
    arch: str | None = None,
    *,
    sms: int | None = None,
    report: Callable[[Result], Any] | None = None,
) -> list[Result]:
    """Store every variant (or ``variants``, keys of registered types) in the disk cache.

    ``arch`` and ``sms`` (default: ``default_arch()``, ``default_sms()``) select
    the variants when ``variants`` is None. A variant already on disk is
    verified and loaded; a new one is compiled, stored and loaded back. Each
    ``Result`` also goes to ``report`` as soon as it is known.
    """
    if variants is None:
        variants = every_variant(arch or default_arch(), sms if sms is not None else default_sms())
    results = []
    for key in variants:
        family = FAMILIES.get(type(key))
        if family is None:
            raise TypeError(f"no kernel family is registered for {type(key).__name__}")
        if family.cache is None:
            raise RuntimeError("CuTe DSL is not importable here (fos_cutedsl.can_run says why)")
        start = time.perf_counter()
        disk = family.cache.disk
        if disk is not None and disk.load(key) is not None:
            status = "on disk"
        else:
            family.cache.get(key)
            stored = disk is not None and disk.load(key) is not None
            status = "compiled" if stored else "not stored"
        result = Result(key, status, time.perf_counter() - start)
        if report is not None:
            report(result)
        results.append(result)
    return results
