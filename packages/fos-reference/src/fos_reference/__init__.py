"""fos-reference: the exact pure-PyTorch four-over-six NVFP4 quantizer.

This package is SPEC.md in code and the bitwise oracle for every faster
implementation: same bits on CPU and CUDA, for every input.
"""

from .formats import E2M1_MAGNITUDES, E4M3_MAX, e2m1_decode, e2m1_encode, e4m3_saturate
from .grouped import nan_amax_grouped, quantize_grouped, quantize_stacked, quantize_tile_rows
from .quantize import (
    FLT_MAX,
    NVFP4_SCALE_BOUND,
    dequantize,
    fake_quantize,
    global_encode_scale,
    nan_amax,
    quantize,
    quantize_nvfp4,
    quantize_with_choice,
)
from .validation import (
    check_dequantize_args,
    check_fake_quantize_args,
    check_nan_amax_args,
    check_nan_amax_grouped_args,
    check_offsets,
    check_offsets_values,
    check_quantize_args,
    check_quantize_grouped_args,
    check_quantize_stacked_args,
)

__version__ = "0.3.0"

__all__ = [
    "E2M1_MAGNITUDES",
    "E4M3_MAX",
    "FLT_MAX",
    "NVFP4_SCALE_BOUND",
    "check_dequantize_args",
    "check_fake_quantize_args",
    "check_nan_amax_args",
    "check_nan_amax_grouped_args",
    "check_offsets",
    "check_offsets_values",
    "check_quantize_args",
    "check_quantize_grouped_args",
    "check_quantize_stacked_args",
    "dequantize",
    "e2m1_decode",
    "e2m1_encode",
    "e4m3_saturate",
    "fake_quantize",
    "global_encode_scale",
    "nan_amax",
    "nan_amax_grouped",
    "quantize",
    "quantize_grouped",
    "quantize_nvfp4",
    "quantize_stacked",
    "quantize_tile_rows",
    "quantize_with_choice",
]

# Training-step layouts (SPEC's "Columnwise (transposed) output" and "Swizzled scales").
from .layouts import (
    FLOAT4_E2M1FN_X2,
    as_float4,
    fake_quantize_columnwise,
    quantize_columnwise,
    swizzle_scales,
    swizzled_shape,
    unswizzle_scales,
)
from .validation import (
    check_quantize_columnwise_args,
    check_swizzle_args,
    check_unswizzle_args,
)

__all__ += [
    "FLOAT4_E2M1FN_X2",
    "as_float4",
    "check_quantize_columnwise_args",
    "check_swizzle_args",
    "check_unswizzle_args",
    "fake_quantize_columnwise",
    "quantize_columnwise",
    "swizzle_scales",
    "swizzled_shape",
    "unswizzle_scales",
]
