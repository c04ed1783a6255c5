"""Contract: ``fos_cutedsl.quantize`` writes the bits ``fos_reference.quantize`` returns.

For every compiled variant (3 dtypes x {1x16 per-tensor, 1x16 row-scaled,
16x16} x 2 error modes x 2 scale bounds), every input kind of
``cutedsl_cases.KINDS`` and five tile-edge shapes, the kernel's codes and
scale bytes equal the reference's, computed on the same CUDA tensors. The
output buffers are poisoned with 0xAB first, so a byte the kernel forgets to
write shows up. Skips, with the reason, without an sm_90+ GPU and CuTe DSL.
"""

from __future__ import annotations

import zlib

import pytest
import torch
from cutedsl_cases import KINDS, Variant, make_case, shapes, variants
from cutedsl_gpu import skip_reason

import fos_cutedsl
import fos_reference
from fos_cutedsl.api import launch

REASON = skip_reason()
pytestmark = pytest.mark.skipif(bool(REASON), reason=REASON)

POISON = 0xAB
DEVICE = "cuda"


def _mismatch(name: str, got: torch.Tensor, want: torch.Tensor) -> str:
    bad = (got != want).nonzero()
    first = tuple(bad[0].tolist())
    return (
        f"{name}: {bad.shape[0]} of {want.numel()} bytes differ; first at {first}: "
        f"kernel 0x{int(got[first]):02x}, reference 0x{int(want[first]):02x}"
    )


def _assert_writes_reference(run, variant: Variant, kind: str, shape, seed_key: str, where: str):
    """Poison the outputs, let ``run(x, gamax, codes, scales)`` write them, compare bits."""
    rows, cols = shape
    x, gamax = make_case(kind, variant, rows, cols, zlib.crc32(seed_key.encode()), DEVICE)
    want_codes, want_scales = fos_reference.quantize(x, gamax, **variant.knobs)
    want_scales = want_scales.view(torch.uint8)
    codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device=DEVICE)
    scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device=DEVICE)
    run(x, gamax, codes, scales)
    where = f"{where} {kind} shape=({rows}, {cols})"
    assert torch.equal(codes, want_codes), f"{where}: {_mismatch('codes', codes, want_codes)}"
    assert torch.equal(scales, want_scales), f"{where}: {_mismatch('scales', scales, want_scales)}"


def _compiled_runner(fn):
    """Adapt a compiled quantize to ``run(x, gamax, codes, scales)`` (scales as uint8)."""

    def run(x, gamax, codes, scales):
        fn(x, gamax.reshape(()), codes, scales.view(torch.float8_e4m3fn))

    return run


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("variant", variants(), ids=str)
def test_bitwise_parity(variant, kind):
    def run(x, gamax, codes, scales):
        ok, why = fos_cutedsl.can_run(x, gamax, **variant.knobs)
        assert ok, why
        launch(x, gamax, codes, scales, variant.block, variant.err_mode, variant.bound)

    for i, shape in enumerate(shapes(variant.block)):
        _assert_writes_reference(run, variant, kind, shape, f"{variant}/{kind}/{i}", str(variant))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("err_mode", ["mae", "mse"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("persistent", [True, False], ids=["persistent", "per-cta"])
def test_tile_kernels_many_items(persistent, dtype, err_mode, kind):
    """16-bit 16x16 per tensor on both kernels (``tile_persistent``, the default, and the
    per-CTA ``tile``), on shapes with more work items than resident warps, a ragged last
    strip and a ragged last row block, so warps draw items from the counter."""
    from fos_cutedsl.compile import compile_quantize

    name = str(dtype).removeprefix("torch.")
    fn = compile_quantize(
        name, "16x16", err_mode, 448, False, fos_cutedsl.arch_of(torch.device("cuda")),
        persistent=persistent,
    )  # fmt: skip
    variant = Variant(dtype, "16x16", False, err_mode, 448)
    for i, shape in enumerate(((2416, 4112), (16 * 7, 16 * 4001))):
        _assert_writes_reference(
            _compiled_runner(fn), variant, kind, shape, f"many/{variant}/{kind}/{i}",
            f"{variant} persistent={persistent}",
        )  # fmt: skip


@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_public_quantize_matches(block):
    x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16)
    gamax = fos_reference.nan_amax(x).reshape(1)
    codes, scales = fos_cutedsl.quantize(x, gamax, block=block)
    want_codes, want_scales = fos_reference.quantize(x, gamax, block=block)
    assert scales.dtype == torch.float8_e4m3fn and codes.dtype == torch.uint8
    assert torch.equal(codes, want_codes)
    assert torch.equal(scales.view(torch.uint8), want_scales.view(torch.uint8))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_tile_rows_past_grid_y(dtype):
    """16x16 with more row blocks than grid.y takes (65535): they spill into grid.z."""
    from fos_cutedsl.config import QuantizeConfig

    name = {torch.bfloat16: "bfloat16", torch.float32: "float32"}[dtype]
    units = QuantizeConfig(name, "16x16", "mae", 256, False).groups_per_thread
    rows = 16 * units * 65535 + 16 * 3  # two grid.z layers, the last one mostly past the end
    x = torch.randn(rows, 16, device="cuda", generator=torch.Generator("cuda").manual_seed(3))
    x = x.to(dtype)
    gamax = fos_reference.nan_amax(x).reshape(1)
    codes = torch.full((rows, 8), POISON, dtype=torch.uint8, device="cuda")
    scales = torch.full((rows, 1), POISON, dtype=torch.uint8, device="cuda")
    launch(x, gamax, codes, scales, "16x16", "mae", 256)
    want_codes, want_scales = fos_reference.quantize(x, gamax, block="16x16")
    assert torch.equal(codes, want_codes), _mismatch("codes", codes, want_codes)
    want_scales = want_scales.view(torch.uint8)
    assert torch.equal(scales, want_scales), _mismatch("scales", scales, want_scales)


def test_zero_dim_amax_and_one_row_vector():
    x = torch.randn(1, 64, device="cuda")
    for gamax in (torch.tensor(2.5, device="cuda"), torch.tensor([[2.5]], device="cuda")):
        codes, scales = fos_cutedsl.quantize(x, gamax)
        want_codes, want_scales = fos_reference.quantize(x, gamax)
        assert torch.equal(codes, want_codes)
        assert torch.equal(scales.view(torch.uint8), want_scales.view(torch.uint8))


@pytest.mark.parametrize("shape", [(0, 32), (4, 0), (0, 0)])
def test_empty_returns_empty(shape):
    x = torch.empty(shape, device="cuda", dtype=torch.bfloat16)
    codes, scales = fos_cutedsl.quantize(x, torch.ones(1, device="cuda"))
    assert codes.shape == (shape[0], shape[1] // 2) and scales.shape == (shape[0], shape[1] // 16)


def test_declines_and_raises():
    x = torch.randn(32, 64, device="cuda")
    gamax = torch.ones(1, device="cuda")
    ok, why = fos_cutedsl.can_run(x.t(), gamax)
    assert not ok and "contiguous" in why
    with pytest.raises(RuntimeError, match="contiguous"):
        fos_cutedsl.quantize(x.t(), gamax)
    shifted = torch.randn(32 * 64 + 1, device="cuda")[1:].view(32, 64)  # 4-byte offset
    ok, why = fos_cutedsl.can_run(shifted, gamax)
    assert not ok and "16-byte" in why
    rows = torch.ones(64, device="cuda")[::2]
    ok, why = fos_cutedsl.can_run(x, rows)
    assert not ok and "row global_amax" in why
