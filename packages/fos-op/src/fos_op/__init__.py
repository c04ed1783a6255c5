"""fos-op: the ``torch.library`` layer of four-over-six NVFP4 quantization.

Importing it registers ``torch.ops.fos.quantize`` and ``torch.ops.fos.dequantize``.
CUDA inputs on sm_90+ run the CuTe DSL kernel when ``fos-cutedsl`` is
installed; everything else runs the reference. Both give the same bits.
"""

from .dispatch import Decision, FallbackError
from .ops import dequantize, explain, quantize

__version__ = "0.1.0"

__all__ = ["Decision", "FallbackError", "dequantize", "explain", "quantize"]
