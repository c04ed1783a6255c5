"""fos-cutedsl: the four-over-six NVFP4 quantizer as a CuTe DSL GPU kernel.

``quantize`` has ``fos_reference.quantize``'s signature and gives the same
bits; ``can_run`` says whether it can run on given arguments, and why not;
``launch`` runs the kernel into caller-owned buffers (no checks: for callers
such as ``fos_op`` that have checked already). ``nan_amax`` and ``dequantize``
do the same for ``fos_reference``'s functions of those names, with
``can_run_nan_amax``/``can_run_dequantize`` and ``launch_nan_amax``/``launch_dequantize``;
``fake_quantize`` (``can_run_fake_quantize``, ``launch_fake_quantize``) is the
quantize kernels writing ``dequantize(quantize(x))`` in place of codes and scales.
Compiled variants are kept on disk across processes (``disk_cache``);
``precompile`` fills that cache ahead of a job.
"""

from .api import (
    AMAX_CACHE,
    CACHE,
    DEQUANTIZE_CACHE,
    FAKE_QUANTIZE_CACHE,
    arch_of,
    can_run,
    can_run_dequantize,
    can_run_fake_quantize,
    can_run_nan_amax,
    dequantize,
    fake_quantize,
    launch,
    launch_dequantize,
    launch_fake_quantize,
    launch_nan_amax,
    nan_amax,
    quantize,
    quantize_launcher,
)
from .cache import CompileCache
from .config import FakeQuantizeKey, QuantizeConfig, VariantKey
from .precompile import precompile

#: The ops this package has kernels for (``fos_op`` dispatches on it).
KERNELS = frozenset({"quantize", "nan_amax", "dequantize", "fake_quantize"})

__version__ = "0.2.0"

__all__ = [
    "AMAX_CACHE",
    "CACHE",
    "DEQUANTIZE_CACHE",
    "FAKE_QUANTIZE_CACHE",
    "KERNELS",
    "CompileCache",
    "FakeQuantizeKey",
    "QuantizeConfig",
    "VariantKey",
    "arch_of",
    "can_run",
    "can_run_dequantize",
    "can_run_fake_quantize",
    "can_run_nan_amax",
    "dequantize",
    "fake_quantize",
    "launch",
    "launch_dequantize",
    "launch_fake_quantize",
    "launch_nan_amax",
    "nan_amax",
    "precompile",
    "quantize",
    "quantize_launcher",
]
