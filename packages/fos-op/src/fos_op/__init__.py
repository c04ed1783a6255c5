"""fos-op: the ``torch.library`` layer of four-over-six NVFP4 quantization.

Importing it registers ``torch.ops.fos.{nan_amax, quantize, quantize_with_amax,
dequantize, fake_quantize}`` and the grouped (mixture-of-experts) ops
``torch.ops.fos.{quantize_grouped, nan_amax_grouped, quantize_grouped_with_amax,
quantize_stacked}``. CUDA inputs on sm_90+ run the CuTe DSL kernels
that ``fos-cutedsl`` has (``fos_cutedsl.KERNELS``) when it is installed;
everything else runs the reference. Both give the same bits. In eager mode the
Python API skips the dispatcher through a cache of validated plans. A
``DTensor`` input is quantized shard by shard under the whole tensor's amax
(``fos_op.distributed``).
"""

from . import ops as _ops  # noqa: F401  (registers the torch.ops.fos.* ops)
from .api import (
    dequantize,
    explain,
    fake_quantize,
    nan_amax,
    nan_amax_grouped,
    quantize,
    quantize_grouped,
    quantize_grouped_with_amax,
    quantize_stacked,
    quantize_with_amax,
)
from .dispatch import Decision, FallbackError
from .plan import PLANS

__version__ = "0.4.0"

__all__ = [
    "PLANS",
    "Decision",
    "FallbackError",
    "dequantize",
    "explain",
    "fake_quantize",
    "nan_amax",
    "nan_amax_grouped",
    "quantize",
    "quantize_grouped",
    "quantize_grouped_with_amax",
    "quantize_stacked",
    "quantize_with_amax",
]

# Training-step layouts (issue 26): columnwise output and swizzled scales.
from .api import (
    RowwiseColumnwise,
    as_float4,
    fake_quantize_columnwise,
    quantize_columnwise,
    quantize_rowwise_columnwise,
    swizzle_scales,
    unswizzle_scales,
)

__all__ += [
    "RowwiseColumnwise",
    "as_float4",
    "fake_quantize_columnwise",
    "quantize_columnwise",
    "quantize_rowwise_columnwise",
    "swizzle_scales",
    "unswizzle_scales",
]
