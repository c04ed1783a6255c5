"""fos-cutedsl: four-over-six NVFP4 as CuTe DSL GPU kernels, bit-identical to ``fos_reference``.

Each public function has the reference's signature and bits, a ``can_run_*``
that says whether it can run on given arguments (and why not) and a
``launch_*`` that runs it into caller-owned buffers without checks (for
callers such as ``fos_op`` that have checked already):

- ``quantize`` (``can_run``, ``launch``, ``quantize_launcher``) and
  ``fake_quantize`` (``fake_quantize_launcher``): the quantize kernels (``api``);
- ``nan_amax`` (``nan_amax_launcher``) and ``dequantize`` (``dequantize_launcher``):
  the elementwise kernels
  (``api_elementwise``);
- ``quantize_row_amax``: row-scaled quantize that finds each row's amax in the
  same read of x and returns it with the codes and scales (``api_row_amax``);
- ``quantize_grouped`` (1x16 and 16x16) and ``nan_amax_grouped``: every expert of a
  mixture-of-experts tensor in one launch, offsets on the device (``api_grouped``);
- ``quantize_rowwise_columnwise``: rowwise and/or columnwise (x^T) 1x16 codes and
  scales from one read of x, the scales optionally swizzled (``api_dual``).

Compiled variants are kept on disk across processes (``disk_cache``);
``precompile`` fills that cache ahead of a job.
"""

from .api import (
    CACHE,
    FAKE_QUANTIZE_CACHE,
    can_run,
    can_run_fake_quantize,
    fake_quantize,
    fake_quantize_launcher,
    launch,
    launch_fake_quantize,
    quantize,
    quantize_launcher,
)
from .api_dual import (
    DUAL_CACHE,
    can_run_quantize_rowwise_columnwise,
    launch_quantize_rowwise_columnwise,
    quantize_rowwise_columnwise,
    rowwise_columnwise_buffers,
)
from .api_elementwise import (
    AMAX_CACHE,
    DEQUANTIZE_CACHE,
    can_run_dequantize,
    can_run_nan_amax,
    dequantize,
    dequantize_launcher,
    launch_dequantize,
    launch_nan_amax,
    nan_amax,
    nan_amax_launcher,
)
from .api_grouped import (
    GROUPED_AMAX_CACHE,
    GROUPED_QUANTIZE_CACHE,
    can_run_nan_amax_grouped,
    can_run_quantize_grouped,
    launch_nan_amax_grouped,
    launch_quantize_grouped,
    nan_amax_grouped,
    quantize_grouped,
)
from .api_row_amax import (
    ROW_AMAX_CACHE,
    can_run_quantize_row_amax,
    launch_quantize_row_amax,
    quantize_row_amax,
)
from .cache import CompileCache
from .config import FakeQuantizeKey, QuantizeConfig, VariantKey
from .device import arch_of
from .precompile import precompile

#: The ops this package has kernels for (``fos_op`` dispatches on it).
KERNELS = frozenset(
    {
        "quantize",
        "fake_quantize",
        "nan_amax",
        "dequantize",
        "quantize_row_amax",
        "quantize_grouped",
        "nan_amax_grouped",
        "nan_amax_launcher",
        "quantize_rowwise_columnwise",
    }
)

__version__ = "0.6.23"

__all__ = [
    "AMAX_CACHE",
    "CACHE",
    "DEQUANTIZE_CACHE",
    "DUAL_CACHE",
    "FAKE_QUANTIZE_CACHE",
    "GROUPED_AMAX_CACHE",
    "GROUPED_QUANTIZE_CACHE",
    "KERNELS",
    "ROW_AMAX_CACHE",
    "CompileCache",
    "FakeQuantizeKey",
    "QuantizeConfig",
    "VariantKey",
    "arch_of",
    "can_run",
    "can_run_dequantize",
    "can_run_fake_quantize",
    "can_run_nan_amax",
    "can_run_nan_amax_grouped",
    "can_run_quantize_grouped",
    "can_run_quantize_row_amax",
    "can_run_quantize_rowwise_columnwise",
    "dequantize",
    "dequantize_launcher",
    "fake_quantize",
    "fake_quantize_launcher",
    "launch",
    "launch_dequantize",
    "launch_fake_quantize",
    "launch_nan_amax",
    "launch_nan_amax_grouped",
    "launch_quantize_grouped",
    "launch_quantize_row_amax",
    "launch_quantize_rowwise_columnwise",
    "nan_amax",
    "nan_amax_grouped",
    "nan_amax_launcher",
    "precompile",
    "quantize",
    "quantize_grouped",
    "quantize_launcher",
    "quantize_row_amax",
    "quantize_rowwise_columnwise",
    "rowwise_columnwise_buffers",
]
