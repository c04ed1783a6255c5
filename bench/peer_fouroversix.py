"""mit-han-lab/fouroversix as an in-run peer: its Triton quantize, not exact, its own amax.

Only its ``quantize`` subpackage is loaded, from an installed copy or from a checkout
under ``scratch/peers/fouroversix`` (fetched there, never vendored). The package's own
``__init__`` imports its model code, which needs ``transformers``, and reads its installed
version, so neither a checkout nor a GPU host without ``transformers`` could import it
whole: the subpackage is imported under a bare parent module instead.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import torch

NAME = "fouroversix"


def load(checkout: Path) -> tuple[SimpleNamespace | None, str]:
    """(the peer's API, "") or (None, why not): an installed copy first, else ``checkout``."""
    where = _installed_dir()
    if where is None:
        where = checkout / "src" / NAME
        if not where.is_dir():
            return None, f"not installed and {where} absent"
    try:
        return _import_quantize(where), ""
    except Exception as exc:  # an optional peer: any failure only skips it, said why
        return None, f"{where}: {type(exc).__name__}: {exc}".splitlines()[0][:200]


def _installed_dir() -> Path | None:
    """The installed package's directory, found without running its ``__init__``."""
    try:
        spec = importlib.util.find_spec(NAME)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _import_quantize(package_dir: Path) -> SimpleNamespace:
    """``fouroversix.quantize`` and ``fouroversix.utils`` under a parent that runs nothing."""
    if NAME not in sys.modules:
        spec = importlib.machinery.ModuleSpec(NAME, None, is_package=True)
        parent = importlib.util.module_from_spec(spec)
        parent.__path__ = [str(package_dir)]
        sys.modules[NAME] = parent
    quantize = importlib.import_module(f"{NAME}.quantize")
    utils = importlib.import_module(f"{NAME}.utils")
    return SimpleNamespace(
        quantize=quantize.quantize,
        QuantizationConfig=quantize.QuantizationConfig,
        QuantizeBackend=utils.QuantizeBackend,
        ScaleRule=utils.ScaleRule,
    )


def call(
    peer: SimpleNamespace, x: torch.Tensor, *, err_mode: str, fake: bool, block: str
) -> Callable:
    """The peer's Triton call on ``x``: NVFP4 4/6 codes and scales, or (``fake``) its
    pseudo-quantized x_hat; ``block`` "16x16" is its 2-D block scaling."""
    config = peer.QuantizationConfig(
        backend=peer.QuantizeBackend.triton,
        scale_rule=peer.ScaleRule(err_mode),
        pseudo_quantize=fake,
        block_scale_2d=block == "16x16",
    )
    return lambda: peer.quantize(x, config)
