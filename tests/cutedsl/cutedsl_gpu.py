"""Shared GPU gate for the kernel tests: why they cannot run here, if they cannot."""

from __future__ import annotations

import torch

import fos_cutedsl


def skip_reason() -> str:
    """Empty when a CUDA sm_90+ device and CuTe DSL are available, else why not."""
    if not torch.cuda.is_available():
        return "no CUDA device: the kernel's parity tests need an sm_90+ GPU"
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) < (9, 0):
        return f"the kernel needs sm_90+, this GPU is sm_{major}{minor}"
    probe = torch.zeros(1, 16, device="cuda")
    ok, why = fos_cutedsl.can_run(probe, torch.ones(1, device="cuda"))
    return "" if ok else why
