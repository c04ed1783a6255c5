"""The CUDA device a kernel runs on: its arch, its SMs, and running a compiled variant under it."""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch

from .cache import CompileCache

DTYPE_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}
MIN_CAPABILITY = (9, 0)
MAX_BLOCKS = 2**31 - 1  # a 1-D grid's limit


@functools.cache
def capability(index: int) -> tuple[int, int]:
    """The compute capability of CUDA device ``index``."""
    return torch.cuda.get_device_capability(index)


@functools.cache
def sm_count(index: int) -> int:
    """The number of SMs of CUDA device ``index``."""
    return torch.cuda.get_device_properties(index).multi_processor_count


def device_index(device: torch.device) -> int:
    """``device``'s index (the current device when it names none)."""
    return device.index if device.index is not None else torch.cuda.current_device()


def arch_of(device: torch.device) -> str:
    """CuTe DSL arch string for a CUDA device: ``sm_90a`` for an H100/H200."""
    major, minor = capability(device_index(device))
    return f"sm_{major}{minor}a"


def device_why_not(t: torch.Tensor) -> str:
    """Empty when ``t``'s device can run the kernels (CUDA, sm_90 or newer), else why not."""
    if t.device.type != "cuda":
        return f"the input is on {t.device.type}, the kernel needs a CUDA tensor"
    major, minor = capability(device_index(t.device))
    if (major, minor) < MIN_CAPABILITY:
        return f"{t.device} is sm_{major}{minor}, the kernel needs sm_90 or newer"
    return ""


def kernel_amax(global_amax: torch.Tensor, rows: int, row_scaled: bool) -> torch.Tensor:
    """The amax as the compiled kernels take it: 0-d per tensor, a contiguous (R,) per
    row (a view where ``global_amax`` is one already)."""
    if not row_scaled:
        return global_amax if global_amax.dim() == 0 else global_amax.reshape(())
    if global_amax.dim() == 1 and global_amax.stride() == (1,):
        return global_amax
    amax = global_amax.reshape(-1)
    if not amax.is_contiguous():  # ``can_run`` declines it; ``launch`` still copies right
        amax = amax.contiguous()
    return amax.as_strided((rows,), (1,))


def cached_under(cache: CompileCache, key, device: torch.device):
    """``key``'s compiled kernel (compiled once), called under ``device``: the kernel
    itself when ``device`` is the current one, else a wrapper that switches to it."""
    index = device_index(device)
    if index == torch.cuda.current_device():
        return cache.get(key)
    with torch.cuda.device(index):
        fn = cache.get(key)

    def on_device(*args):
        with torch.cuda.device(index):
            fn(*args)

    return on_device


def run_under(cache: CompileCache, key, device: torch.device, *args) -> None:
    """Compile (once) and run ``key``'s kernel under ``device``."""
    index = device_index(device)
    if index == torch.cuda.current_device():
        cache.get(key)(*args)
    else:  # compile and run under the input's device
        with torch.cuda.device(index):
            cache.get(key)(*args)


def verdict(why_not: Callable[..., str], *args) -> tuple[bool, str]:
    """A ``can_run_*`` answer from a ``*_why_not`` check: ``(True, "ok")`` or ``(False, why)``.

    Never raises: arguments the reference's checks reject give ``(False,
    "invalid arguments: ...")``.
    """
    try:
        why = why_not(*args)
    except (TypeError, ValueError) as exc:
        return False, f"invalid arguments: {exc}"
    return (False, why) if why else (True, "ok")
