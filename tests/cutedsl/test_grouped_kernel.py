"""Contract: ``fos_cutedsl.quantize_grouped`` (1x16, 16x16) and ``nan_amax_grouped`` give the
bits of ``fos_reference.quantize_grouped`` and ``nan_amax_grouped``, every expert in one launch.

CPU part (any machine with CuTe DSL): grouped variants compile for sm_90a and sm_100a
and pass ``check.audit_ptx`` (the quantize) or read 16-byte vectors and fold with
``red.global.max.u32`` (the amax); every variant is registered for ``precompile``;
``can_run_*`` never raise and say why not (16x16, CPU input, bad arguments).

GPU part (skips without an sm_90+ GPU): every variant (3 dtypes x 2 blocks x 2 error
modes x 2 bounds x int32/int64 offsets) over every input kind of ``cutedsl_cases.KINDS`` and
splits with empty experts, one expert owning every row, offsets that are no multiple
of a CTA's rows and 256 experts (16x16: the same splits in units of 16 rows); every
output byte is poisoned first. A CUDA graph
captured once is replayed with new offsets and new data.
"""

from __future__ import annotations

import zlib

import pytest
import torch
from cutedsl_cases import DTYPES, ERR_MODES, KINDS, Variant, make_case
from cutedsl_gpu import skip_reason
from grouped_cases import (
    POISON,
    SPLITS,
    expert_amax,
    poisoned_amax,
    poisoned_quantize,
    skewed,
)

import fos_cutedsl
import fos_reference

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)


# ======== CPU: compile and audit


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(
    ("dtype", "err_mode", "bound", "offsets"),
    [("bfloat16", "mae", 256, "int32"), ("float32", "mse", 448, "int64")],
)
@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_quantize_variant_compiles_clean(dtype, block, err_mode, bound, offsets, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize

    key = GroupedQuantizeKey(dtype, block, err_mode, bound, offsets, arch)
    fn = compile_grouped_quantize(key, extra_options=f"--keep-ptx --dump-dir {tmp_path}")
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == [], (failures, counts)
    assert counts["ld.v4"] > 0, counts


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(
    ("dtype", "err_mode", "offsets"), [("bfloat16", "mae", "int32"), ("float16", "mse", "int64")]
)
def test_persistent_variant_compiles_clean(dtype, err_mode, offsets, arch, tmp_path):
    """The persistent grouped kernel (with its setup launch) passes the same audit."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize

    key = GroupedQuantizeKey(dtype, "1x16", err_mode, 448, offsets, arch, True)
    fn = compile_grouped_quantize(key, extra_options=f"--keep-ptx --dump-dir {tmp_path}")
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == [], (failures, counts)
    assert counts["ld.v4"] > 0 and counts["shfl"] > 0, counts


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(("dtype", "offsets"), [("bfloat16", "int64"), ("float32", "int32")])
def test_amax_variant_compiles_clean(dtype, offsets, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.grouped import GroupedAmaxKey, compile_grouped_amax

    fn = compile_grouped_amax(
        GroupedAmaxKey(dtype, offsets, arch), extra_options=f"--keep-ptx --dump-dir {tmp_path}"
    )
    ptx = fn.__ptx__
    assert "ld.global.v4" in ptx
    assert "red.relaxed.gpu.global.max.u32" in ptx
    assert "max.NaN" not in ptx


def test_every_variant_is_registered_for_precompile():
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.grouped import (
        GroupedAmaxKey,
        GroupedQuantizeKey,
        amax_variants,
        quantize_variants,
    )
    from fos_cutedsl.precompile import FAMILIES

    assert FAMILIES[GroupedQuantizeKey].cache is fos_cutedsl.GROUPED_QUANTIZE_CACHE
    assert FAMILIES[GroupedAmaxKey].cache is fos_cutedsl.GROUPED_AMAX_CACHE
    assert len(quantize_variants("sm_90a")) == 64 and len(amax_variants("sm_90a")) == 6
    assert {"quantize_grouped", "nan_amax_grouped"} <= fos_cutedsl.KERNELS


def test_persistent_choice_and_workspace_size():
    """The launcher's choice of the persistent grouped kernel, and its workspace: E tables
    of 256 entries of 4 floats, E constants, 4 floats a unit of 128 groups."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.grouped import (
        MAX_EXPERTS,
        GroupedQuantizeKey,
        compile_grouped_quantize,
        quantize_variants,
        uses_persistent,
        workspace_floats,
    )
    from fos_cutedsl.grouped_persistent import units_of

    assert uses_persistent("bfloat16", "1x16", 1) and uses_persistent("float16", "1x16", 1024)
    assert not uses_persistent("float32", "1x16", 8)
    assert not uses_persistent("bfloat16", "16x16", 8)
    assert not uses_persistent("bfloat16", "1x16", MAX_EXPERTS + 1)
    assert units_of(32768, 7168) == 32768 * 448 // 128 and units_of(1, 16) == 1
    assert units_of(3, 16 * 129) == 4  # 387 groups: three whole units and a ragged one
    assert workspace_floats(32768, 2048, 8) == 8 * (256 * 4 + 4) + 32768 * 4
    persistent = [k for k in quantize_variants("sm_90a") if k.persistent]
    assert len(persistent) == 16 and all(k.block == "1x16" and k.dtype != "float32"
                                         for k in persistent)  # fmt: skip
    for bad in (("float32", "1x16"), ("bfloat16", "16x16")):
        with pytest.raises(ValueError, match="16-bit 1x16 only"):
            compile_grouped_quantize(GroupedQuantizeKey(*bad, "mae", 256, "int32", "sm_90a", True))


def test_cannot_run_says_why_on_cpu():
    x, offsets, gamax = torch.zeros(32, 32), torch.tensor([0, 16, 32]), torch.ones(2)
    ok, why = fos_cutedsl.can_run_quantize_grouped(x, offsets, gamax)
    assert not ok and ("CUDA" in why or "CuTe DSL" in why)
    ok, why = fos_cutedsl.can_run_nan_amax_grouped(x, offsets)
    assert not ok and ("CUDA" in why or "CuTe DSL" in why)
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.quantize_grouped(x, offsets, gamax)
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.nan_amax_grouped(x, offsets)


@pytest.mark.parametrize(
    ("offsets", "gamax", "error"),
    [
        (torch.tensor([0.0, 32.0]), torch.ones(1), TypeError),  # float offsets
        (torch.tensor([0, 16, 32]), torch.ones(3), ValueError),  # amax of the wrong length
        (torch.tensor([[0, 32]]), torch.ones(1), ValueError),  # 2-D offsets
        (torch.tensor([0]), torch.ones(0), ValueError),  # no expert for 32 rows
        (torch.tensor([0, 32]), torch.ones(1, dtype=torch.float16), TypeError),
    ],
)
def test_invalid_arguments(offsets, gamax, error):
    x = torch.zeros(32, 32)
    ok, why = fos_cutedsl.can_run_quantize_grouped(x, offsets, gamax)
    assert not ok and why.startswith("invalid arguments")
    with pytest.raises(error):
        fos_cutedsl.quantize_grouped(x, offsets, gamax)


def test_16x16_needs_whole_tile_rows():
    x = torch.zeros(24, 32)
    ok, why = fos_cutedsl.can_run_quantize_grouped(x, torch.tensor([0, 24]), torch.ones(1),
                                                   block="16x16")  # fmt: skip
    assert not ok and why.startswith("invalid arguments")


# ======== GPU: bitwise parity


@gpu
@pytest.mark.parametrize("offset_dtype", [torch.int32, torch.int64], ids=str)
@pytest.mark.parametrize("bound", [256, 448])
@pytest.mark.parametrize("err_mode", ERR_MODES)
@pytest.mark.parametrize("block", ["1x16", "16x16"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_quantize_bitwise_parity(dtype, block, err_mode, bound, offset_dtype):
    variant = Variant(dtype, "1x16", True, err_mode, bound)
    unit = 16 if block == "16x16" else 1  # 16x16: splits in whole tile rows
    for kind in KINDS:
        for i, (rows, split) in enumerate(SPLITS):
            seed = zlib.crc32(f"grouped/{variant}/{block}/{kind}/{i}".encode())
            cols = (16, 272, 2048)[i % 3]
            rows, split = rows * unit, [o * unit for o in split]
            x, g = make_case(kind, variant, rows, cols, seed, "cuda")
            offsets = torch.tensor(split, dtype=offset_dtype, device="cuda")
            gamax = expert_amax(g, split)
            want = fos_reference.quantize_grouped(
                x, offsets, gamax, block=block, err_mode=err_mode, e4m3_scale_bound=bound
            )
            codes, scales = poisoned_quantize(x, offsets, gamax, block, err_mode, bound)
            where = f"{variant} {kind} split {i} ({rows}x{cols}, {len(split) - 1} experts)"
            assert torch.equal(codes, want[0]), f"{where}: codes"
            assert torch.equal(scales, want[1].view(torch.uint8)), f"{where}: scales"


@gpu
@pytest.mark.parametrize("offset_dtype", [torch.int32, torch.int64], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_amax_bitwise_parity(dtype, offset_dtype):
    variant = Variant(dtype, "1x16", True, "mae", 256)
    for kind in KINDS:
        for i, (rows, split) in enumerate(SPLITS):
            seed = zlib.crc32(f"grouped_amax/{dtype}/{kind}/{i}".encode())
            cols = (16, 272, 2064)[i % 3]  # whole groups: make_case's unit
            x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
            offsets = torch.tensor(split, dtype=offset_dtype, device="cuda")
            want = fos_reference.nan_amax_grouped(x, offsets)
            got = poisoned_amax(x, offsets)
            assert torch.equal(got.view(torch.int32), want.view(torch.int32)), (kind, i)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_amax_special_rows(dtype):
    """All-NaN, -0, Inf and huge rows, each in its own expert and together in one."""
    x = torch.randn(9, 64).to(dtype)
    x[0] = float("nan")
    x[1] = -0.0
    x[2, 7] = float("inf")
    x[3] = torch.finfo(dtype).max
    x[4, ::2] = float("nan")
    x = x.cuda()
    for split in ([0, 1, 2, 3, 4, 5, 9], [0, 0, 9], [0, 2, 2, 9]):
        offsets = torch.tensor(split, device="cuda")
        want = fos_reference.nan_amax_grouped(x, offsets)
        got = fos_cutedsl.nan_amax_grouped(x, offsets)
        assert torch.equal(got.view(torch.int32), want.view(torch.int32)), split


@gpu
def test_graph_replay_with_new_offsets():
    """One capture; replays with other splits (same E) and new data match the reference."""
    rows, cols, experts = 96, 256, 6
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    offsets = torch.tensor([0, 16, 16, 40, 41, 80, 96], device="cuda", dtype=torch.int32)
    gamax = torch.empty(experts, device="cuda")
    codes = torch.empty(rows, cols // 2, dtype=torch.uint8, device="cuda")
    scales = torch.empty(rows, cols // 16, dtype=torch.uint8, device="cuda")

    def step():
        fos_cutedsl.launch_nan_amax_grouped(x, offsets, gamax)
        fos_cutedsl.launch_quantize_grouped(x, offsets, gamax, codes, scales, "1x16", "mae", 256)

    step()  # compile outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    for split in ([0, 0, 0, 96, 96, 96, 96], [0, 1, 2, 3, 5, 8, 96], [0, 50, 60, 70, 80, 90, 96]):
        offsets.copy_(torch.tensor(split, device="cuda", dtype=torch.int32))
        x.copy_(torch.randn(rows, cols, device="cuda") * 3)
        codes.fill_(POISON)
        scales.fill_(POISON)
        graph.replay()
        want_amax = fos_reference.nan_amax_grouped(x, offsets)
        want = fos_reference.quantize_grouped(x, offsets, want_amax)
        assert torch.equal(gamax.view(torch.int32), want_amax.view(torch.int32)), split
        assert torch.equal(codes, want[0]), split
        assert torch.equal(scales, want[1].view(torch.uint8)), split


@gpu
def test_cannot_run_says_why_on_the_gpu():
    x = torch.zeros(32, 64, device="cuda").t()  # (64, 32), not contiguous
    offsets, gamax = torch.tensor([0, 64], device="cuda"), torch.ones(1, device="cuda")
    ok, why = fos_cutedsl.can_run_quantize_grouped(x, offsets, gamax)
    assert not ok and "contiguous" in why
    x = torch.zeros(64, 32, device="cuda")
    strided = torch.ones(4, device="cuda")[::2]
    ok, why = fos_cutedsl.can_run_quantize_grouped(x, torch.tensor([0, 1, 64], device="cuda"),
                                                   strided)  # fmt: skip
    assert not ok and "contiguous" in why
    assert fos_cutedsl.can_run_quantize_grouped(x, offsets, gamax)[0]
    assert fos_cutedsl.can_run_nan_amax_grouped(x, offsets)[0]


# (rows, cols, offsets) for the persistent grouped kernel: units (128 groups) inside one
# expert and units across experts (7168 columns: 3.5 units a row; 16 and 272: many rows
# a unit), a ragged last unit, empty experts first and last, 256 experts.
PERSISTENT_SPLITS = [
    (512, 7168, skewed(512, 8, 4)),
    (700, 2048, [0, 0, 1, 128, 129, 400, 700, 700]),
    (1100, 272, skewed(1100, 256, 5)),
    (4097, 16, skewed(4097, 64, 6)),
    (96, 4096, [0, 96]),
    (2048, 1040, skewed(2048, 16, 7)),
]


# The persistent kernel's offsets dtypes (the default tuning).
SETUPS = {
    "1-ahead": ({}, "int64"),
    "1-ahead-int32": ({}, "int32"),
}


@gpu
@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448), ("mse", 256)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_persistent_bitwise_parity(dtype, err_mode, bound, setup):
    """``GroupedQuantizeKey.persistent`` called directly, its workspace NaN first, then
    holding the previous split's tables and unit map."""
    from fos_cutedsl.grouped import (
        GroupedQuantizeKey,
        compile_grouped_quantize,
        workspace_floats,
    )

    variant = Variant(dtype, "1x16", True, err_mode, bound)
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    name = str(dtype).removeprefix("torch.")
    tuning, offsets_dtype = SETUPS[setup]
    key = GroupedQuantizeKey(name, "1x16", err_mode, bound, offsets_dtype, arch, True)
    fn = compile_grouped_quantize(key, **tuning)
    work = torch.full((workspace_floats(4097, 7168, 256),), float("nan"), device="cuda")
    for kind in KINDS:
        for i, (rows, cols, split) in enumerate(PERSISTENT_SPLITS):
            seed = zlib.crc32(f"persistent/{variant}/{kind}/{i}".encode())
            x, g = make_case(kind, variant, rows, cols, seed, "cuda")
            offsets = torch.tensor(split, dtype=getattr(torch, offsets_dtype), device="cuda")
            gamax = expert_amax(g, split)
            want = fos_reference.quantize_grouped(
                x, offsets, gamax, block="1x16", err_mode=err_mode, e4m3_scale_bound=bound
            )
            codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device="cuda")
            scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device="cuda")
            fn(x, gamax, offsets, codes, scales, work[: workspace_floats(rows, cols, len(gamax))])
            where = f"{variant} {kind} split {i} ({rows}x{cols}, {len(split) - 1} experts)"
            assert torch.equal(codes, want[0]), f"{where}: codes"
            assert torch.equal(scales, want[1].view(torch.uint8)), f"{where}: scales"


@gpu
def test_many_experts_take_the_row_scaled_kernel():
    """Past ``MAX_EXPERTS`` the launcher takes the row-scaled grouped kernel: same bits."""
    from fos_cutedsl.grouped import MAX_EXPERTS, uses_persistent

    experts = MAX_EXPERTS + 77
    assert not uses_persistent("bfloat16", "1x16", experts)
    assert uses_persistent("bfloat16", "1x16", MAX_EXPERTS)
    variant = Variant(torch.bfloat16, "1x16", True, "mae", 256)
    x, g = make_case("normal", variant, 2000, 64, 7, "cuda")
    split = skewed(2000, experts, 8)
    offsets = torch.tensor(split, device="cuda")
    gamax = expert_amax(g, split)
    want = fos_reference.quantize_grouped(x, offsets, gamax)
    codes, scales = poisoned_quantize(x, offsets, gamax, "1x16", "mae", 256)
    assert torch.equal(codes, want[0]) and torch.equal(scales, want[1].view(torch.uint8))


@gpu
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_per_cta_tables_bitwise_parity(dtype, err_mode, bound):
    """The ``per_cta_tables`` tuning (1x16 on the per-tensor kernel, a table a CTA for its
    first group's expert, later experts' groups through the exact path): the same bits,
    on the small splits (many experts a CTA) and a large skewed one (few boundary CTAs)."""
    from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize

    variant = Variant(dtype, "1x16", True, err_mode, bound)
    arch = fos_cutedsl.arch_of(torch.device("cuda"))
    name = str(dtype).removeprefix("torch.")
    fns = {
        offset_dtype: compile_grouped_quantize(
            GroupedQuantizeKey(name, "1x16", err_mode, bound, str(offset_dtype)[6:], arch),
            per_cta_tables=True,
        )
        for offset_dtype in (torch.int32, torch.int64)
    }
    splits = [*SPLITS, (4096, skewed(4096, 64, 3))]
    for kind in KINDS:
        for i, (rows, split) in enumerate(splits):
            offset_dtype = (torch.int32, torch.int64)[i % 2]
            seed = zlib.crc32(f"tables/{variant}/{kind}/{i}".encode())
            cols = (16, 272, 2048)[i % 3]
            x, g = make_case(kind, variant, rows, cols, seed, "cuda")
            offsets = torch.tensor(split, dtype=offset_dtype, device="cuda")
            gamax = expert_amax(g, split)
            want = fos_reference.quantize_grouped(
                x, offsets, gamax, block="1x16", err_mode=err_mode, e4m3_scale_bound=bound
            )
            codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device="cuda")
            scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device="cuda")
            fns[offset_dtype](x, gamax, offsets, codes, scales)
            where = f"{variant} {kind} split {i} ({rows}x{cols}, {len(split) - 1} experts)"
            assert torch.equal(codes, want[0]), f"{where}: codes"
            assert torch.equal(scales, want[1].view(torch.uint8)), f"{where}: scales"
