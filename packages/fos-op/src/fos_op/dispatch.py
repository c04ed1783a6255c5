"""Which implementation runs: the CuTe DSL kernel or the reference.

The decision reads only metadata (device, its arch, dtype, knobs), whether
``fos_cutedsl`` imports, which is found out once per process, and which kernels
it advertises (``fos_cutedsl.KERNELS``, a frozenset of op names; a package
without it has the quantize kernel only). So it is the
same under FakeTensor tracing as in eager mode, and it costs no GPU sync.
Layout is not part of it: the op copies a non-contiguous or misaligned input
before the kernel instead of falling back.

Strict mode (``strict=True`` or ``FOS_STRICT=1``) raises where the reference
would otherwise run for a CUDA input.
"""

from __future__ import annotations

import functools
import itertools
import os
from dataclasses import dataclass
from types import ModuleType

import torch

KERNEL = "cutedsl"
REFERENCE = "reference"
MIN_CAPABILITY = (9, 0)
KERNEL_DTYPES = (torch.bfloat16, torch.float16, torch.float32)
#: The ops a kernel package may advertise in ``fos_cutedsl.KERNELS``.
OPS = (
    "quantize",
    "nan_amax",
    "dequantize",
    "fake_quantize",
    "quantize_row_amax",
    "quantize_grouped",
    "nan_amax_grouped",
    "quantize_rowwise_columnwise",
)
_DEFAULT_KERNELS = frozenset({"quantize"})


class FallbackError(RuntimeError):
    """Strict mode: a CUDA input would have fallen back to the reference."""


@dataclass(frozen=True)
class Decision:
    """The path a call takes and why, in words a user can act on."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


#: The oldest fos-cutedsl whose launchers this fos-op calls (0-d per-tensor amax: 0.6).
MIN_CUTEDSL = (0, 6)


@functools.cache
def cutedsl() -> tuple[ModuleType | None, str]:
    """Import ``fos_cutedsl`` once; return it (or None) and why not."""
    try:
        import fos_cutedsl
    except ImportError as exc:
        return None, f"fos-cutedsl is not usable ({exc}); pip install 'fos-op[cutedsl]'"
    version = getattr(fos_cutedsl, "__version__", "0")
    if _release(version) < MIN_CUTEDSL:
        need = ".".join(map(str, MIN_CUTEDSL))
        return None, f"fos-cutedsl {version} is older than {need}; pip install 'fos-op[cutedsl]'"
    return fos_cutedsl, ""


def _release(version: str) -> tuple[int, ...]:
    """The leading numeric parts of a version string ("0.5.0rc1" -> (0, 5, 0))."""
    parts = []
    for piece in version.split("."):
        digits = "".join(itertools.takewhile(str.isdigit, piece))
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) != len(piece):
            break
    return tuple(parts)


@functools.cache
def _capability(index: int) -> tuple[int, int]:
    return torch.cuda.get_device_capability(index)


def strict_from_env() -> bool:
    """``FOS_STRICT=1`` turns every fallback of a CUDA input into an error."""
    return os.environ.get("FOS_STRICT", "") not in ("", "0")


def kernels(module: ModuleType) -> frozenset[str]:
    """The op names whose kernels ``module`` (``fos_cutedsl``) advertises."""
    return getattr(module, "KERNELS", _DEFAULT_KERNELS)


def decide(x: torch.Tensor, op: str = "quantize", dtype: torch.dtype | None = None) -> Decision:
    """Pick the path for ``op`` on ``x`` (arguments already validated).

    ``dtype`` is the floating dtype the kernel works in when it is not
    ``x``'s (dequantize: the output dtype).
    """
    dtype = x.dtype if dtype is None else dtype
    if x.device.type != "cuda":
        return Decision(REFERENCE, f"input is on {x.device.type}, the kernel needs CUDA")
    if dtype not in KERNEL_DTYPES:
        return Decision(REFERENCE, f"the kernel does not take {dtype}")
    index = x.device.index if x.device.index is not None else torch.cuda.current_device()
    capability = _capability(index)
    if capability < MIN_CAPABILITY:
        return Decision(REFERENCE, f"cuda:{index} is sm_{capability[0]}{capability[1]} < sm_90")
    module, why = cutedsl()
    if module is None:
        return Decision(REFERENCE, why)
    if op not in kernels(module):
        version = getattr(module, "__version__", "?")
        return Decision(REFERENCE, f"fos-cutedsl {version} has no {op} kernel")
    if x.numel() == 0:
        return Decision(REFERENCE, "empty input: nothing to launch")
    return Decision(
        KERNEL, f"CUDA sm_{capability[0]}{capability[1]}, {dtype}, {op} kernel available"
    )


def enforce(decision: Decision, x: torch.Tensor, strict: bool | None) -> None:
    """Raise ``FallbackError`` in strict mode (None: ``FOS_STRICT`` says) when a CUDA
    input falls back."""
    if decision.path == KERNEL or x.device.type != "cuda" or x.numel() == 0:
        return
    if strict_from_env() if strict is None else strict:
        raise FallbackError(f"strict mode: would fall back to the reference ({decision.reason})")
