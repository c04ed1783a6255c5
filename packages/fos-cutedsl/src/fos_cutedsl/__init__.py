"""fos-cutedsl: the four-over-six NVFP4 quantizer as a CuTe DSL GPU kernel.

``quantize`` has ``fos_reference.quantize``'s signature and gives the same
bits; ``can_run`` says whether it can run on given arguments, and why not;
``launch`` runs the kernel into caller-owned buffers (no checks: for callers
such as ``fos_op`` that have checked already).
"""

from .api import CACHE, arch_of, can_run, launch, quantize, quantize_launcher
from .cache import CompileCache, VariantKey

__version__ = "0.1.13"

__all__ = [
    "CACHE",
    "CompileCache",
    "VariantKey",
    "arch_of",
    "can_run",
    "launch",
    "quantize",
    "quantize_launcher",
]
