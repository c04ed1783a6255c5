"""Contract: ``fos_cutedsl.quantize_rowwise_columnwise`` gives the bits of
``fos_reference.quantize`` (rowwise) and ``fos_reference.quantize_columnwise`` (x^T),
either or both from one read of x, the scales plain or as ``swizzle_scales`` lays them.

CPU part (any machine with CuTe DSL): variants compile for sm_90a and sm_100a and pass
``check.audit_ptx``; every variant is registered for ``precompile``; ``can_run`` never
raises and says why not (16x16, row-scaled amax, CPU input, columns no multiple of 16).

GPU part (skips without an sm_90+ GPU): every variant (3 dtypes x 2 error modes x 2
bounds x 3 layouts x plain/swizzled scales) over every input kind of ``cutedsl_cases.KINDS``,
each built along rows and along columns (so the adversarial groups of a kind are the
columnwise groups too), on shapes with ragged tiles (R no multiple of 64 or 128, C no
multiple of 128, groups no multiple of 4); every byte the kernel must write is
poisoned first. A CUDA graph captured once is replayed on new data.
"""

from __future__ import annotations

import itertools
import zlib

import pytest
import torch
from cutedsl_cases import DTYPES, KINDS, Variant
from cutedsl_gpu import skip_reason
from dual_cases import (
    LAYOUTS,
    ROWWISE_ONLY_SHAPES,
    SHAPES,
    dual_case,
    poisoned_outputs,
    reference_outputs,
    wanted_outputs,
)

import fos_cutedsl
import fos_reference

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)


def _layout_id(layout):
    return {(True, False): "rows", (False, True): "cols", (True, True): "both"}[layout]


# ======== CPU: compile and audit


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(
    ("dtype", "err_mode", "bound", "swizzle"),
    [("bfloat16", "mae", 256, False), ("float16", "mse", 448, True), ("float32", "mae", 448, True)],
)
@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_variant_compiles_clean(dtype, err_mode, bound, swizzle, layout, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.dual import DualKey, compile_dual

    key = DualKey(dtype, err_mode, bound, *layout, swizzle, arch)
    fn = compile_dual(key, extra_options=f"--keep-ptx --dump-dir {tmp_path}")
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == [], (failures, counts)
    assert counts["ld.v4"] > 0, counts
    assert ("st.shared.v4.u32" in fn.__ptx__) == layout[1]  # the tile staged: columnwise only
    assert "griddepcontrol.wait" in fn.__ptx__  # the table from the setup launch


def test_every_variant_is_registered_for_precompile():
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.dual import DualKey, variants
    from fos_cutedsl.precompile import FAMILIES

    assert FAMILIES[DualKey].cache is fos_cutedsl.DUAL_CACHE
    keys = variants("sm_90a")
    assert len(keys) == len(set(keys)) == 72


def test_swizzled_index_is_the_reference_layout():
    """``dual.swizzled_index`` places every byte where ``swizzle_scales`` does."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.dual import swizzled_index

    for rows, groups in ((1, 1), (130, 5), (256, 8), (33, 13)):
        codes = torch.arange(rows * groups, dtype=torch.int64).reshape(rows, groups)
        bits = (codes % 200 + 1).to(torch.uint8)  # nonzero, as a scale byte's stand-in
        want = fos_reference.swizzle_scales(bits.view(torch.float8_e4m3fn)).view(torch.uint8)
        got = torch.zeros_like(want)
        for r, g in itertools.product(range(rows), range(groups)):
            got[swizzled_index(r, g, groups)] = bits[r, g]
        assert torch.equal(got, want), (rows, groups)


def test_can_run_says_why_not():
    x = torch.zeros(32, 32)
    g = torch.ones(1)
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x, g)
    assert not ok and why
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x, g, rowwise=False, columnwise=False)
    assert not ok and "invalid arguments" in why
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x, g, rowwise=1)
    assert not ok and "invalid arguments" in why
    with pytest.raises(ValueError, match="at least one layout"):
        fos_cutedsl.quantize_rowwise_columnwise(x, g, rowwise=False, columnwise=False)
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.quantize_rowwise_columnwise(x, g)


@gpu
def test_can_run_declines_what_the_kernel_does_not_take():
    x = torch.zeros(32, 48, device="cuda")
    g = torch.ones(1, device="cuda")
    assert fos_cutedsl.can_run_quantize_rowwise_columnwise(x, g) == (True, "ok")
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x, g, block="16x16")
    assert not ok and "1x16 only" in why
    rows = torch.ones(32, device="cuda")
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x, rows, columnwise=False)
    assert not ok and "per-tensor" in why
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(
        torch.zeros(32, 40, device="cuda"), g, rowwise=False
    )
    assert not ok and "40 columns" in why
    ok, why = fos_cutedsl.can_run_quantize_rowwise_columnwise(x[:, 8:40], g)
    assert not ok and "contiguous" in why


# ======== GPU: bits


def _check(x, gamax, reference, knobs, label):
    """Every layout and scale layout of one input against the reference, poisoned first."""
    for (rowwise, columnwise), swizzle in itertools.product(LAYOUTS, (False, True)):
        if columnwise and x.shape[0] % 16:
            continue
        got = poisoned_outputs(x, rowwise, columnwise, swizzle)
        fos_cutedsl.launch_quantize_rowwise_columnwise(
            x, gamax, *got, knobs["err_mode"], knobs["e4m3_scale_bound"]
        )
        want = wanted_outputs(reference, rowwise, columnwise, swizzle)
        names = ("row codes", "row scales", "column codes", "column scales")
        for name, g, w in zip(names, got, want, strict=True):
            assert (g is None) == (w is None), (label, name)
            if g is not None:
                where = (label, rowwise, columnwise, swizzle, name)
                assert torch.equal(g.reshape(-1), w), where


@gpu
@pytest.mark.parametrize("bound", [256, 448])
@pytest.mark.parametrize("err_mode", ["mae", "mse"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_bits_equal_reference(dtype, err_mode, bound):
    """Every layout (rows, columns, both; plain and swizzled scales) of every case."""
    variant = Variant(dtype, "1x16", False, err_mode, bound)
    knobs = variant.knobs
    for (rows, cols), kind, along in itertools.product(
        SHAPES + ROWWISE_ONLY_SHAPES, KINDS, ("rows", "columns")
    ):
        seed = zlib.crc32(f"{rows}-{cols}-{kind}-{along}".encode()) % 10_000
        if along == "columns" and rows % 16:
            continue
        x, gamax = dual_case(kind, variant, rows, cols, along, seed)
        _check(x, gamax, reference_outputs(x, gamax, knobs), knobs, (rows, cols, kind, along))


# R / 16 odd (x^T rows not 16-byte aligned) and even; partial last tiles; swizzle padding.
TUNED_SHAPES = ((16, 16), (48, 272), (96, 160), (208, 144), (320, 1040))


TUNINGS = (
    {"stage_columns": False},
    {"rows_undecided_inline": False},
    {"columns_undecided_inline": False},
    {"stage_columns": True, "rows_undecided_inline": False, "tile_rows": 128},
    {"setup_table": False},
    {"setup_table": False, "rows_undecided_inline": False, "columns_undecided_inline": False},
    {"tile_rows": 256, "min_blocks": 0},
    {"tile_rows": 192},
    {"tile_rows": 128, "min_blocks": 3},
)


@gpu
@pytest.mark.parametrize("tuning", TUNINGS, ids=lambda t: ",".join(t))
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_tunings_bits_equal_reference(dtype, err_mode, bound, tuning):
    """``DualConfig``'s tunings compute the same bits: columnwise outputs stored a group
    at a time (``stage_columns=False``; the default stages them), rowwise or columnwise
    undecided groups through the exact path (both: a table without K and J), taller
    tiles, the table built by every CTA (the default: by a setup launch, its workspace
    NaN first), tiles of 256 rows (swizzled rowwise scales over two GEMM tiles), 192
    (their scale bytes computed per step) and 128, register caps for 3 CTAs an SM or
    none; every layout, plain and swizzled, every kind."""
    from fos_cutedsl.dual import WORK_FLOATS, DualKey, compile_dual

    variant = Variant(dtype, "1x16", False, err_mode, bound)
    knobs = variant.knobs
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    name = str(dtype).removeprefix("torch.")
    layouts = LAYOUTS[1:] if tuning.get("stage_columns") else LAYOUTS
    compiled = {
        (layout, swizzle): compile_dual(
            DualKey(name, err_mode, bound, *layout, swizzle, arch), **tuning
        )
        for layout in layouts
        for swizzle in (False, True)
    }
    for (rows, cols), kind, along in itertools.product(TUNED_SHAPES, KINDS, ("rows", "columns")):
        seed = zlib.crc32(f"tuned-{rows}-{cols}-{kind}-{along}".encode()) % 10_000
        x, gamax = dual_case(kind, variant, rows, cols, along, seed)
        reference = reference_outputs(x, gamax, knobs)
        for ((rowwise, columnwise), swizzle), fn in compiled.items():
            got = poisoned_outputs(x, rowwise, columnwise, swizzle)
            unused = x.new_empty(16, dtype=torch.uint8)
            work = x.new_empty(WORK_FLOATS, dtype=torch.float32).fill_(float("nan"))
            flat = [unused if t is None else t.view(-1) for t in got]
            fn(x, gamax.reshape(1), *flat, work)
            want = wanted_outputs(reference, rowwise, columnwise, swizzle)
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                if g is not None:
                    where = (rows, cols, kind, along, rowwise, columnwise, swizzle, i)
                    assert torch.equal(g.reshape(-1), w), where


@gpu
def test_public_api_returns_float8_scales_and_none_for_layouts_not_asked():
    x = torch.randn(96, 160, device="cuda", dtype=torch.bfloat16)
    g = fos_reference.nan_amax(x)
    rc, rs, cc, cs = fos_cutedsl.quantize_rowwise_columnwise(x, g, rowwise=False, swizzle=True)
    assert rc is None and rs is None
    assert cs.dtype == torch.float8_e4m3fn and cs.dim() == 1
    want = fos_reference.quantize_columnwise(x, g)
    assert torch.equal(cc, want[0])
    assert torch.equal(
        cs.view(torch.uint8), fos_reference.swizzle_scales(want[1]).view(torch.uint8)
    )


@gpu
def test_graph_replay_on_new_data():
    x = torch.randn(320, 1040, device="cuda", dtype=torch.float16)
    g = fos_reference.nan_amax(x)
    fos_cutedsl.quantize_rowwise_columnwise(x, g, swizzle=True)  # compiled outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fos_cutedsl.quantize_rowwise_columnwise(x, g, swizzle=True)
    x.copy_(torch.randn(x.shape, device="cuda", dtype=x.dtype) * 7)
    g.copy_(fos_reference.nan_amax(x))
    graph.replay()
    torch.cuda.synchronize()
    want = wanted_outputs(reference_outputs(x, g, {}), True, True, True)
    for got, w in zip(out, want, strict=True):
        assert torch.equal(got.contiguous().view(torch.uint8).reshape(-1), w)
