"""Contract: ``fos_cutedsl.check`` accepts the kernel's PTX and rejects each forbidden form.

The audit rules run on synthetic PTX on any machine; with CuTe DSL
installed, one real variant per arch is compiled (no GPU needed) and must pass.
"""

from __future__ import annotations

import pytest

from fos_cutedsl.check import audit_ptx, variants

GOOD = """
    mul.wide.u32 	%rd7, %r366, 256;
    ld.global.v4.b32 	{%r1, %r2, %r3, %r4}, [%rd12];
    div.rn.f32 %r5, %r6, %r7;
    { .reg .b16 t; cvt.rn.satfinite.e4m3x2.f32 t, %r47, %r48; cvt.u32.u16 %r49, t; }
"""
E2M1 = "cvt.rn.satfinite.e2m1x2.f32 b0, %r1, %r2;\n"


def test_good_ptx_passes():
    assert audit_ptx(GOOD, "sm_90a")[0] == []
    assert audit_ptx(GOOD + E2M1, "sm_100a")[0] == []


@pytest.mark.parametrize(
    ("extra", "arch", "expect"),
    [
        ("fma.rn.f32 %r1, %r2, %r3, %r4;\n", "sm_90a", "forbidden fma"),
        ("fma.rn.f32 t, p, 0f4A000000, %r4;\n", "sm_90a", "forbidden fma"),
        ("fma.rn.f32 t, p, %r3, 0f4A800000;\n", "sm_90a", "forbidden fma"),
        ("add.ftz.f32 %r1, %r2, %r3;\n", "sm_90a", "forbidden ftz"),
        ("div.approx.f32 %r1, %r2, %r3;\n", "sm_90a", "forbidden approx"),
        ("div.full.f32 %r1, %r2, %r3;\n", "sm_90a", "forbidden div.full"),
        ("rcp.approx.ftz.f32 %r1, %r2;\n", "sm_90a", "forbidden approx"),
        (E2M1, "sm_90a", "e2m1x2 conversion on sm_90a"),
        ("ld.global.b32 %r1, [%r2];\n", "sm_90a", "32-bit address"),
    ],
)
def test_forbidden_forms_fail(extra, arch, expect):
    failures, _ = audit_ptx(GOOD + extra, arch)
    assert any(expect in f for f in failures), failures


def test_the_pinned_fma_shapes_pass():
    """Only the magic rounding's and grid_value's tagged exact fma shapes are allowed."""
    magic = "fma.rn.f32 t, c, 0f4A800000, %r64; fma.rn.f32 t, c, 0fCA800000, t;\n"
    tagged = "fma.rn.f32 %r93, %r90, %r91, pj; // fos: exact-sum fma\n"
    failures, counts = audit_ptx(GOOD + magic + tagged, "sm_90a")
    assert failures == [] and counts["magic fma"] == 2 and counts["exact-sum fma"] == 1


def test_the_bound_fma_passes():
    for relative in ("0f37800000", "0f38000000"):  # 2^-16 (mae), 2^-15 (mse)
        bound = f"fma.rn.f32 m, s, {relative}, yy; // fos: bound fma\n"
        failures, counts = audit_ptx(GOOD + bound, "sm_90a")
        assert failures == [] and counts["bound fma"] == 1
    other = bound.replace("0f38000000", "0f38800000")  # another constant: not the bound
    assert any("forbidden fma" in f for f in audit_ptx(GOOD + other, "sm_90a")[0])


def test_the_div_d_fma_pair_passes():
    pair = (
        "fma.rn.f32 ar, aw, 0fC0400000, ay; // fos: div-d fma\n"
        "fma.rn.f32 w1, ar, 0f3EAAAAAB, aw; // fos: div-d fma\n"
    )
    failures, counts = audit_ptx(GOOD + pair, "sm_90a")
    assert failures == [] and counts["div-d fma"] == 2


def test_untagged_general_fma_fails():
    failures, _ = audit_ptx(GOOD + "fma.rn.f32 %r93, %r90, %r91, pj;\n", "sm_90a")
    assert any("forbidden fma" in f for f in failures)


def test_missing_instructions_fail():
    assert "no div.rn.f32" in audit_ptx(GOOD.replace("div.rn.f32", "mov.b32"), "sm_90a")[0]
    assert any("e2m1x2" in f for f in audit_ptx(GOOD, "sm_100a")[0])
    narrow = GOOD.replace("mul.wide.u32", "mul.lo.u32")
    assert any("64 bits" in f for f in audit_ptx(narrow, "sm_90a")[0])


def test_variant_list_covers_every_knob():
    keys = variants("sm_90a")
    assert len(keys) == 36 and len(set(keys)) == 36
    assert not any(k.block == "16x16" and k.row_scaled for k in keys)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
def test_real_variant_compiles_clean(arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig

    fn = compile_quantize(
        "bfloat16", "1x16", "mse", 256, False, arch, f"--keep-ptx --dump-dir {tmp_path}"
    )
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == []
    cfg = QuantizeConfig("bfloat16", "1x16", "mse", 256, False)
    assert cfg.persistent  # 16-bit 1x16 per tensor: one CTA per SM (``persistent``)
    groups = cfg.groups_per_thread
    # 2 per element per candidate: per group of a unit in the fast path and again in
    # the undecided branch, and once more in the ragged last unit's fast path.
    assert counts["magic fma"] == 2 * 64 * groups + 64
    assert counts["exact-sum fma"] == 32 * groups  # 1 per element per candidate, undecided
    # E4M3 codes: 4 cvt per 8 codes, both candidates, plus the scale pair, per group and
    # in the ragged path; 2 scale pairs in the exact path. No L2 prefetch (the persistent
    # kernel measured faster without).
    assert counts["e4m3x2"] == (16 + 1) * (groups + 1) + 2
    assert counts["bound fma"] == groups + 1  # one choice per fast group
    assert counts["l2 prefetch"] == counts["l2 lines"] == 0
    assert counts["shfl"] == 2  # the drawn unit's broadcast (and the DSL's smem base)


def test_per_cta_variant_compiles_clean(tmp_path):
    """``persistent=False``: one CTA per 1024 groups, a full and a ragged copy of the loop."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig

    fn = compile_quantize(
        "bfloat16", "1x16", "mse", 256, False, "sm_90a", f"--keep-ptx --dump-dir {tmp_path}",
        persistent=False,
    )  # fmt: skip
    failures, counts = audit_ptx(fn.__ptx__, "sm_90a")
    assert failures == []
    groups = QuantizeConfig(
        "bfloat16", "1x16", "mse", 256, False, persistent=False
    ).groups_per_thread
    assert counts["magic fma"] == 2 * 128 * groups  # fast and undecided, both copies
    assert counts["exact-sum fma"] == 2 * 32 * groups
    assert counts["e4m3x2"] == (16 + 1) * 2 * groups + 1  # codes and scales, both copies
    assert counts["bound fma"] == 2 * groups
    assert counts["l2 prefetch"] == 1  # a later CTA's input, full CTAs only
    assert counts["l2 lines"] == 0


def _rare_shuffles(lanes: int, levels: int) -> tuple[int, int]:
    """A 16x16 kernel's shuffles in its rare paths, each once in the code: (undecided,
    exact). Each takes the tile amax (``levels``), then per candidate folds the rows (2)
    and broadcasts (1); its run-time loop holds one code word's rows, ``lanes / 2`` of
    them, each handed across its ``lanes - 1`` steps."""
    one = levels + lanes // 2 * (lanes - 1) + 2 * (2 + 1)
    return one, one


@pytest.mark.parametrize(("dtype", "lanes"), [("bfloat16", 2), ("float32", 4)])
@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
def test_tile_variant_compiles_clean(arch, dtype, lanes, tmp_path):
    """16x16 (``tile``): 8 lanes a tile; undecided units get SPEC's errors from
    ``grid_value`` after the loop, flagged ones the exact path."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig

    keep = f"--keep-ptx --dump-dir {tmp_path}"
    fn = compile_quantize(dtype, "16x16", "mae", 256, False, arch, keep, persistent=False)
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == []
    units = QuantizeConfig(dtype, "16x16", "mae", 256, False, persistent=False).groups_per_thread
    elements = 4 * 16 // lanes  # a unit: 4 rows of 16 / lanes elements
    levels = (lanes.bit_length() - 1) + 2  # shuffle levels: parts, then 2 of rows
    undecided, exact = _rare_shuffles(lanes, levels)
    # Fast path per unit: amax and both errors; then the rare paths once each.
    # (+1: the DSL broadcasts the shared-memory base with a shfl.idx.)
    assert counts["shfl"] == 3 * levels * units + undecided + exact + 1
    # The fast path's rounding per unit (2 fma a magic rounding, both candidates); the
    # undecided unit's loops round one code word (8 elements) for its codes and one for
    # its errors; the exact path rounds as SPEC writes it (no magic).
    assert counts["magic fma"] == 2 * 2 * elements * units + 2 * 8 * 2
    assert counts["exact-sum fma"] == 8  # the undecided loop's grid values, a code word
    assert counts["l2 prefetch"] == 0  # the bulk prefetch: 1x16 per tensor only
    assert counts["bound fma"] == units
    if dtype == "float32":
        assert counts["e4m3x2"] == units + 2  # the scale pairs only (fast, undecided, exact)
        assert counts["l2 lines"] == 0
    else:
        # E4M3 codes: 4 cvt per 8 codes, 4 code words a unit, both candidates, and the
        # scale pair, per unit; the undecided unit's pair and its codes loop's code word
        # (one candidate); the exact path's pair.
        assert counts["e4m3x2"] == (4 * 4 * 2 + 1) * units + (1 + 4) + 1
        assert counts["l2 lines"] == 0  # the line prefetch is off by default (v16)
        # Asked for, the later CTA's 16 * units rows x 1 KB are 128-byte lines over
        # 256 threads.
        ahead = compile_quantize(
            dtype, "16x16", "mae", 256, False, arch, keep, l2_ahead=33, persistent=False
        )
        failures, counts = audit_ptx(ahead.__ptx__, arch)
        assert failures == []
        assert counts["l2 lines"] == -(-(16 * units * 8) // 256)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
def test_tile_persistent_variant_compiles_clean(arch, tmp_path):
    """16-bit 16x16 per tensor (``tile_persistent``): ``tile``'s units in a loop over work
    items, the rare paths once inside it; no spills at its default 640 threads."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig

    cfg = QuantizeConfig("bfloat16", "16x16", "mae", 256, False)
    assert cfg.persistent  # the default for 16-bit 16x16 quantize
    fn = compile_quantize(
        "bfloat16", "16x16", "mae", 256, False, arch, f"--keep-ptx --dump-dir {tmp_path}"
    )
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == []
    units, elements, levels = cfg.groups_per_thread, 32, 3  # 2 lanes a tile row
    undecided, exact = _rare_shuffles(2, levels)
    # (+2: the DSL's shared-memory base broadcast, and the drawn item's broadcast.)
    assert counts["shfl"] == 3 * levels * units + undecided + exact + 2
    assert counts["magic fma"] == 2 * 2 * elements * units + 2 * 8 * 2
    assert counts["exact-sum fma"] == 8
    assert counts["e4m3x2"] == (4 * 4 * 2 + 1) * units + (1 + 4) + 1
    assert "ld.local" not in fn.__ptx__ and "st.local" not in fn.__ptx__


def test_undecided_out_of_line_variant_compiles_clean(tmp_path):
    """``undecided_inline=False``: no exact-error branch per group (the exact path redoes them)."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig

    fn = compile_quantize(
        "bfloat16", "1x16", "mae", 256, False, "sm_90a", f"--keep-ptx --dump-dir {tmp_path}",
        undecided_inline=False, persistent=False,
    )  # fmt: skip
    failures, counts = audit_ptx(fn.__ptx__, "sm_90a")
    assert failures == []
    groups = QuantizeConfig(
        "bfloat16", "1x16", "mae", 256, False, persistent=False
    ).groups_per_thread
    assert counts["magic fma"] == 2 * 64 * groups  # the fast path's only, both copies
    assert counts["exact-sum fma"] == 0


def test_tuning_defaults_per_mode():
    """Zero tuning knobs take the mode's measured default; explicit knobs win."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.config import (
        DEFAULT_TUNING,
        FLOAT32_TUNING,
        PERSISTENT_THREADS,
        PERSISTENT_TUNING,
        ROW_SCALED_THREADS,
        TILE_PERSISTENT_THREADS,
        TILE_PERSISTENT_TUNING,
        QuantizeConfig,
    )

    for (block, row_scaled), tuned in DEFAULT_TUNING.items():
        cfg = QuantizeConfig("bfloat16", block, "mae", 256, row_scaled, persistent=False)
        assert (cfg.groups_per_thread, cfg.prefetch, cfg.min_blocks) == tuned
        assert cfg.threads == (ROW_SCALED_THREADS if row_scaled else 256)
    # Row-scaled: 16-bit in 64-thread CTAs (4 rows; 256 in v15), float32 in 256 (16 rows).
    assert ROW_SCALED_THREADS == 64
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True).threads == 64
    assert QuantizeConfig("float16", "1x16", "mse", 448, True).threads == 64
    assert QuantizeConfig("float32", "1x16", "mae", 256, True).threads == 256
    # 16-bit 1x16 per tensor runs the persistent kernel (one CTA of 768 threads per SM).
    for dtype in ("bfloat16", "float16"):
        cfg = QuantizeConfig(dtype, "1x16", "mae", 256, False)
        assert cfg.persistent and cfg.threads == PERSISTENT_THREADS and cfg.sms == 132
        assert (cfg.groups_per_thread, cfg.prefetch, cfg.min_blocks) == PERSISTENT_TUNING
    assert not QuantizeConfig("float32", "1x16", "mae", 256, False).persistent
    assert not QuantizeConfig("bfloat16", "1x16", "mae", 256, True).persistent
    # 16-bit 16x16 per tensor quantize runs ``tile_persistent`` (640 threads, one CTA an
    # SM); its fake-quantize and float32 keep the per-CTA ``tile`` kernel.
    for dtype in ("bfloat16", "float16"):
        cfg = QuantizeConfig(dtype, "16x16", "mse", 448, False)
        assert cfg.persistent and cfg.threads == TILE_PERSISTENT_THREADS
        assert (cfg.groups_per_thread, cfg.prefetch, cfg.min_blocks) == TILE_PERSISTENT_TUNING
        assert not QuantizeConfig(dtype, "16x16", "mae", 256, False, fake=dtype).persistent
    assert not QuantizeConfig("float32", "16x16", "mae", 256, False).persistent
    for bad in (
        dict(row_scaled=True, persistent=True),
        dict(dtype="float32", persistent=True),
        dict(block="16x16", persistent=True, threads=100),
        dict(block="16x16", persistent=True, fake="bfloat16"),
        dict(threads=784),
        dict(l2_ahead=4),
        dict(sms=0),
    ):
        with pytest.raises(ValueError, match=r"persistent|l2_ahead|sms"):
            QuantizeConfig(**{**dict(dtype="bfloat16", block="1x16", err_mode="mae", bound=256,
                                     row_scaled=False), **bad})  # fmt: skip
    for (block, row_scaled), tuned in FLOAT32_TUNING.items():
        cfg = QuantizeConfig("float32", block, "mse", 448, row_scaled)
        assert (cfg.groups_per_thread, cfg.prefetch, cfg.min_blocks) == tuned
    cfg = QuantizeConfig("float32", "1x16", "mse", 448, False, groups_per_thread=2, prefetch=3)
    assert (cfg.groups_per_thread, cfg.prefetch) == (2, 3)
    # E4M3 code packing: every 16-bit mode (row-scaled too), never float32.
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, False).e4m3_codes
    assert QuantizeConfig("float16", "1x16", "mse", 256, False).e4m3_codes
    assert QuantizeConfig("bfloat16", "16x16", "mae", 256, False).e4m3_codes
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True).e4m3_codes
    assert QuantizeConfig("float16", "1x16", "mse", 448, True).e4m3_codes
    assert not QuantizeConfig("float32", "1x16", "mae", 256, False).e4m3_codes
    assert not QuantizeConfig("float32", "1x16", "mae", 256, True).e4m3_codes
    assert not QuantizeConfig("float32", "16x16", "mae", 256, False).e4m3_codes
    assert not QuantizeConfig("bfloat16", "1x16", "mae", 256, True, e4m3_codes=False).e4m3_codes
    with pytest.raises(ValueError, match="e4m3_codes"):
        QuantizeConfig("float32", "1x16", "mae", 256, True, e4m3_codes=True)
    with pytest.raises(ValueError, match="e4m3_codes"):
        QuantizeConfig("float32", "1x16", "mae", 256, False, e4m3_codes=True)
    with pytest.raises(ValueError, match="e4m3_codes"):
        QuantizeConfig("float32", "16x16", "mae", 256, False, e4m3_codes=True)
    # The L2 prefetch of a later CTA's input: on for 16-bit 1x16 per tensor with one CTA
    # per 1024 groups only (off in the persistent kernel; 16x16 takes it when asked).
    from fos_cutedsl.config import L2_AHEAD

    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, False).l2_ahead == 0
    per_cta = QuantizeConfig("float16", "1x16", "mse", 448, False, persistent=False)
    assert per_cta.l2_ahead == L2_AHEAD > 0
    assert QuantizeConfig("bfloat16", "16x16", "mae", 256, False).l2_ahead == 0
    tile = QuantizeConfig("bfloat16", "16x16", "mae", 256, False, l2_ahead=33, persistent=False)
    assert tile.l2_ahead == 33
    assert QuantizeConfig("float32", "1x16", "mae", 256, False).l2_ahead == 0
    assert QuantizeConfig("float32", "16x16", "mae", 256, False).l2_ahead == 0
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True).l2_ahead == 0
    for bad in ({"l2_ahead": -1}, {"l2_ahead": 8, "row_scaled": True, "persistent": False}):
        with pytest.raises(ValueError, match="l2_ahead"):
            QuantizeConfig(**{**dict(dtype="bfloat16", block="1x16", err_mode="mae", bound=256,
                                     row_scaled=False), **bad})  # fmt: skip
    # float32 16x16 stages its codes and scale bytes in shared memory (whole-row stores).
    staged = QuantizeConfig("float32", "16x16", "mse", 448, False)
    assert staged.stage_stores and staged.stage_bytes == 4 * 16 * 16 * 9
    assert staged.smem_bytes == 256 * 16 + staged.stage_bytes
    assert not QuantizeConfig("bfloat16", "16x16", "mae", 256, False).stage_stores
    assert QuantizeConfig("float16", "16x16", "mae", 256, False, stage_stores=True).stage_bytes
    assert not QuantizeConfig("float32", "1x16", "mae", 256, False).stage_stores
    with pytest.raises(ValueError, match="stage_stores"):
        QuantizeConfig("float32", "1x16", "mae", 256, False, stage_stores=True)
    # One thread per scale byte builds the per-tensor table; 16x16 is 8 strips of a warp.
    with pytest.raises(ValueError, match="per tensor"):
        QuantizeConfig("bfloat16", "1x16", "mae", 256, False, threads=128)
    with pytest.raises(ValueError, match="16x16"):
        QuantizeConfig("bfloat16", "16x16", "mae", 256, False, threads=512, persistent=False)
    # Row-scaled CTAs are 64 groups wide and build 8 table entries per row, a thread each.
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True).cta_rows == 4
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True, threads=384).cta_rows == 24
    assert QuantizeConfig("float32", "1x16", "mae", 256, True).cta_rows == 16
    from fos_cutedsl.api import _MIN_ROW_SCALED_CTA_ROWS  # its grid.x bound holds for both

    assert _MIN_ROW_SCALED_CTA_ROWS == 4
    with pytest.raises(ValueError, match="row-scaled"):
        QuantizeConfig("bfloat16", "1x16", "mae", 256, True, groups_per_thread=16)
    assert {(v.block, v.row_scaled) for v in variants("sm_90a")} == set(DEFAULT_TUNING)


def test_ptxas_level(monkeypatch):
    """Every variant is built with ptxas -O2 unless asked otherwise (same PTX, other SASS)."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl import compile as compile_module
    from fos_cutedsl.config import PTXAS_OPT, QuantizeConfig

    assert PTXAS_OPT == 2
    for dtype in ("bfloat16", "float16", "float32"):
        assert QuantizeConfig(dtype, "16x16", "mae", 256, False).ptxas_opt == 2
    assert QuantizeConfig("bfloat16", "1x16", "mae", 256, True, ptxas_opt=3).ptxas_opt == 3
    with pytest.raises(ValueError, match="ptxas_opt"):
        QuantizeConfig("bfloat16", "1x16", "mae", 256, False, ptxas_opt=4)
    seen = []
    monkeypatch.setattr(compile_module.cute, "compile", lambda *args, options: seen.append(options))
    compile_module.compile_quantize("bfloat16", "1x16", "mae", 256, False, "sm_90a", "--keep-ptx")
    compile_module.compile_quantize("float32", "1x16", "mae", 256, True, "sm_90a", ptxas_opt=3)
    assert seen == [
        "--enable-tvm-ffi --gpu-arch sm_90a --ptxas-options=-O2 --keep-ptx",
        "--enable-tvm-ffi --gpu-arch sm_90a",
    ]
