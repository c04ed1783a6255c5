"""Contract: ``fos_cutedsl.quantize_row_amax`` returns the row amax ``fos_reference.nan_amax(x,
dim=1)`` and the codes and scales of ``fos_reference.quantize(x, that amax, block="1x16")``,
bit for bit, from one read of x.

CPU part (any machine with CuTe DSL): every variant (3 dtypes x 2 error modes x 2 scale
bounds) compiles for sm_90a and sm_100a and its PTX passes ``check.audit_ptx`` (pinned
roundings, no contraction, 64-bit addresses), reads x with ``ld.global.v4`` and stages it
with ``st.shared.v4``/``ld.shared.v4``; ``can_run_quantize_row_amax`` never raises, and the
public function raises the reference's ``TypeError``/``ValueError`` for bad arguments.

GPU part (skips without an sm_90+ GPU): for every variant, every input kind of
``cutedsl_cases.KINDS`` (the row amax always from the data) and edge shapes (one row,
one group, 2048 and 7168 columns, a width that is no multiple of a CTA's read of a row,
the widest row allowed), the codes, scale bytes and amax bits (as int32) equal the
reference's; every output byte is poisoned first.
"""

from __future__ import annotations

import zlib

import pytest
import torch
from cutedsl_cases import DTYPES, ERR_MODES, KINDS, Variant, make_case
from cutedsl_gpu import skip_reason

import fos_cutedsl
import fos_reference

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)
POISON = 0xAB
_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}


def _max_cols(dtype: torch.dtype, tiling: str | None = None) -> int:
    """The widest row the launcher takes (``tiling``: that tiling holds)."""
    from fos_cutedsl.row_amax import max_cols, tiling_config

    if tiling is None:
        return max_cols(_NAMES[dtype], "mae", 256)
    return tiling_config(_NAMES[dtype], "mae", 256, tiling).max_cols


def _shapes(dtype: torch.dtype) -> list[tuple[int, int]]:
    """One row, one group, the benchmark widths, a ragged read (the default read of a row
    is 8 loads x 64 threads x 16 bytes: 4096 16-bit elements), the widest row; and for the
    register-held tilings (``TILINGS``: a warp a row up to 2048 wide, two warps up to 4096)
    rows of 33 and 127 groups, rows just inside and past each tiling's width (the team
    kernel's too: "wide" beyond it), row counts that leave the last CTA's teams partly idle."""
    team = _max_cols(dtype, "team")
    wide = [(2, team)] + ([(3, team + 16)] if team < _max_cols(dtype) else [])
    return [(1, 16), (3, 16), (5, 2048), (2, 7168), (7, 4096 + 48), (1, _max_cols(dtype)),
            (9, 528), (6, 2032), (13, 2064), (5, 4080), (3, 4112), *wide]  # fmt: skip


# ======== CPU: compile and audit


@pytest.mark.parametrize("tiling", ["team", "warp", "pair", "wide"])
@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("bound", [256, 448])
@pytest.mark.parametrize("err_mode", ERR_MODES)
@pytest.mark.parametrize("dtype", sorted(_NAMES.values()))
def test_variant_compiles_clean(dtype, err_mode, bound, arch, tiling, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import RowAmaxKey, compile_key

    key = RowAmaxKey(dtype, err_mode, bound, arch, tiling)
    ptx = compile_key(key, extra_options=f"--keep-ptx --dump-dir {tmp_path}").__ptx__
    failures, counts = audit_ptx(ptx, arch)
    if tiling not in ("team", "wide") and "mul.lo.s64" in ptx:
        # Register rows may form every address with 64-bit multiplies (float32 "pair":
        # no mul.wide at all); 32-bit global addresses stay forbidden (the audit's own
        # ``ld/st.global [%r]`` rule).
        failures = [f for f in failures if not f.startswith("block offset not widened")]
    assert failures == [], (failures, counts)
    assert counts["ld.v4"] > 0, counts
    assert counts["shfl"] >= 5, counts  # the row amax's butterfly
    # Team rows stage the row in shared memory behind CTA barriers; register rows meet
    # their warps' maxima (or, one warp a row, build the CTA's entries) behind them too.
    assert "bar.sync" in ptx
    if tiling in ("team", "wide"):
        assert "st.shared.v4.b32" in ptx and "ld.shared.v4.b32" in ptx
    assert "max.NaN" not in ptx  # the amax drops NaN
    assert "ld.global.nc" not in ptx  # the exact path reads the amax this kernel wrote


# Given-amax tunings: (tiling, row_tables), a row-scaled quantize by whole rows.
GIVEN = [("warp", False), ("pair", False), ("team", False), ("warp", True), ("team", True)]


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize(("tiling", "row_tables"), GIVEN)
@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_given_amax_variant_compiles_clean(dtype, tiling, row_tables, arch, tmp_path):
    """Rows that read each row's amax (a row-scaled quantize): audited PTX, no amax
    butterfly, the table entry behind the team's barrier."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import TILINGS, compile_row_amax

    tuning = dict(
        TILINGS[tiling], given_amax=True, row_tables=row_tables, group_amax=False, cta_build=False
    )
    fn = compile_row_amax(dtype, "mse", 448, arch, f"--keep-ptx --dump-dir {tmp_path}", **tuning)
    failures, counts = audit_ptx(fn.__ptx__, arch)
    if tiling != "team" and "mul.lo.s64" in fn.__ptx__:  # as for the register tilings above
        failures = [f for f in failures if not f.startswith("block offset not widened")]
    assert failures == [], (failures, counts)
    assert counts["shfl"] < 5, counts  # no amax butterfly
    assert ("bar.warp.sync" in fn.__ptx__) == (tiling == "warp")


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("tiling", ["team", "warp", "pair"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_row_tables_variant_compiles_clean(dtype, tiling, arch, tmp_path):
    """``row_tables``: audited PTX; step 4 is a table lookup, so the quantize loop has no
    per-group ``choice.row_candidate`` (its range test against ``ROW_Y_HIGH``)."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import TILINGS, compile_row_amax

    tuning = dict(TILINGS[tiling], row_tables=True)
    fn = compile_row_amax(dtype, "mse", 448, arch, f"--keep-ptx --dump-dir {tmp_path}", **tuning)
    failures, counts = audit_ptx(fn.__ptx__, arch)
    if tiling != "team" and "mul.lo.s64" in fn.__ptx__:  # as for the register tilings above
        failures = [f for f in failures if not f.startswith("block offset not widened")]
    assert failures == [], (failures, counts)
    assert counts["shfl"] >= 5, counts  # the row amax's butterfly


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_fold_and_unroll_tunings_compile_clean(dtype, arch, tmp_path):
    """``xorsign_fold`` folds with ``max.xorsign.abs``; ``quantize_unroll=1`` pins the
    quantize loop; audited PTX; ``quantize_unroll`` is refused where no loop is."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import compile_row_amax

    kind = "bf16x2" if dtype == "bfloat16" else "f16x2"
    keep = f"--keep-ptx --dump-dir {tmp_path}"
    plain = compile_row_amax(dtype, "mae", 256, arch, keep).__ptx__
    fn = compile_row_amax(dtype, "mae", 256, arch, keep, xorsign_fold=True, quantize_unroll=1)
    failures, counts = audit_ptx(fn.__ptx__, arch)
    assert failures == [], (failures, counts)
    folds = f"max.xorsign.abs.{kind}"  # the fast path's block amax uses it too
    assert fn.__ptx__.count(folds) > plain.count(folds)
    with pytest.raises(ValueError, match="quantize_unroll"):
        compile_row_amax(dtype, "mae", 256, arch, register_rows=True, quantize_unroll=2)


@pytest.mark.parametrize("tiling", ["warp", "team"])
def test_min_blocks_caps_the_registers(tiling, tmp_path):
    """``min_blocks`` asks ptxas for that many CTAs an SM (launch bounds in the PTX)."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import TILINGS, compile_row_amax

    keep = f"--keep-ptx --dump-dir {tmp_path}"
    ptx = compile_row_amax("bfloat16", "mae", 256, "sm_90a", keep,
                           **dict(TILINGS[tiling], min_blocks=8)).__ptx__  # fmt: skip
    failures, counts = audit_ptx(ptx, "sm_90a")
    if tiling != "team":  # as for the register tilings above
        failures = [f for f in failures if not f.startswith("block offset not widened")]
    assert failures == [], (failures, counts)
    assert ".minnctapersm 8" in ptx
    with pytest.raises(ValueError, match="min_blocks"):
        compile_row_amax("bfloat16", "mae", 256, "sm_90a", min_blocks=-1)


def test_row_tables_only_where_the_kernel_builds_them():
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_quantize
    from fos_cutedsl.config import QuantizeConfig
    from fos_cutedsl.row_amax import RowAmaxConfig

    assert RowAmaxConfig("bfloat16", "mae", 256, row_tables=True).quantize.row_tables
    with pytest.raises(ValueError, match="row_tables"):
        QuantizeConfig("bfloat16", "1x16", "mae", 256, False, row_tables=True)
    with pytest.raises(ValueError, match="row_tables"):  # rowwise builds no byte tables
        compile_quantize("bfloat16", "1x16", "mae", 256, True, "sm_90a", row_tables=True)


def test_every_variant_is_registered_for_precompile():
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.precompile import FAMILIES
    from fos_cutedsl.row_amax import RowAmaxKey, variants

    assert RowAmaxKey in FAMILIES
    assert FAMILIES[RowAmaxKey].cache is fos_cutedsl.ROW_AMAX_CACHE
    assert len(variants("sm_90a")) == 48  # every tiling
    assert "quantize_row_amax" in fos_cutedsl.KERNELS


def test_cpu_input_is_declined_with_reason():
    ok, why = fos_cutedsl.can_run_quantize_row_amax(torch.randn(4, 32))
    assert not ok and ("CUDA" in why or "CuTe DSL" in why)
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.quantize_row_amax(torch.randn(4, 32))


@pytest.mark.parametrize(
    ("x", "kwargs", "error"),
    [
        ("not a tensor", {}, TypeError),
        (torch.zeros(4, 32, dtype=torch.int32), {}, TypeError),
        (torch.zeros(4, 24), {}, ValueError),
        (torch.zeros(4, 32), {"err_mode": "max"}, ValueError),
        (torch.zeros(4, 32), {"e4m3_scale_bound": 300}, ValueError),
        (torch.zeros(4, 32), {"e4m3_scale_bound": True}, ValueError),
    ],
)
def test_invalid_arguments(x, kwargs, error):
    ok, why = fos_cutedsl.can_run_quantize_row_amax(x, **kwargs)
    assert not ok and why.startswith("invalid arguments")
    with pytest.raises(error):
        fos_cutedsl.quantize_row_amax(x, **kwargs)


def test_register_rows_team_sizes():
    """Register rows take 1 to 16 warps a row and at most 1024 threads a CTA; a team of
    ``row_warps`` warps holds ``512 * row_warps * groups_per_lane`` columns."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.row_amax import RowAmaxConfig

    cfg = RowAmaxConfig("bfloat16", "mae", 256, register_rows=True, row_warps=7,
                        groups_per_lane=2, rows_per_cta=2)  # fmt: skip
    assert (cfg.threads, cfg.max_cols, cfg.quantize.row_threads) == (448, 7168, 224)
    for bad in ({"row_warps": 0}, {"row_warps": 17}, {"row_warps": 16, "rows_per_cta": 3}):
        with pytest.raises(ValueError):
            RowAmaxConfig("bfloat16", "mae", 256, register_rows=True, **bad)


@pytest.mark.parametrize("group_amax", [False, True])
def test_max_cols_fits_the_shared_memory_limit(group_amax):
    """The staged row (and with ``group_amax`` 4 bytes a group) fits, 16 more columns not."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.row_amax import SMEM_LIMIT, RowAmaxConfig

    for dtype, size in (("bfloat16", 2), ("float16", 2), ("float32", 4)):
        cfg = RowAmaxConfig(dtype, "mae", 256, group_amax=group_amax)
        per_group = 16 * size + (4 if group_amax else 0)
        assert cfg.max_cols % 16 == 0 and cfg.max_cols >= 7168
        assert cfg.reserve + cfg.max_cols // 16 * per_group <= SMEM_LIMIT
        assert cfg.reserve + (cfg.max_cols // 16 + 1) * per_group > SMEM_LIMIT


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("tiling", ["team", "warp", "pair"])
def test_group_amax_compiles_clean_and_folds_once(tiling, arch, tmp_path):
    """``group_amax``: audited PTX, and no more ``max.xorsign.abs`` than groups' words need
    once (the fast path no longer folds a group's words again); refused with ``given_amax``."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.check import audit_ptx
    from fos_cutedsl.row_amax import TILINGS, compile_row_amax

    keep = f"--keep-ptx --dump-dir {tmp_path}"
    tuning = dict(TILINGS[tiling], xorsign_fold=True, group_amax=False)
    plain = compile_row_amax("bfloat16", "mae", 256, arch, keep, **tuning).__ptx__
    tuning["group_amax"] = True
    ptx = compile_row_amax("bfloat16", "mae", 256, arch, keep, **tuning).__ptx__
    failures, counts = audit_ptx(ptx, arch)
    if tiling != "team":  # as for the register tilings above
        failures = [f for f in failures if not f.startswith("block offset not widened")]
    assert failures == [], (failures, counts)
    if tiling != "team":  # no loops: every group's fold is in the text once, not twice
        assert ptx.count("max.xorsign.abs.bf16x2") < plain.count("max.xorsign.abs.bf16x2")
    else:  # the maxima staged after the rows
        assert ptx.count("st.shared.b32") > plain.count("st.shared.b32")
    with pytest.raises(ValueError, match="group_amax"):
        compile_row_amax("bfloat16", "mae", 256, arch, given_amax=True, group_amax=True)


@pytest.mark.parametrize("dtype", sorted(_NAMES.values()))
def test_tiling_by_row_width(dtype):
    """The launcher's tiling: a warp a row to 2048 columns, a pair of warps to 4096,
    the staged team kernel beyond, "wide" for the rows whose group maxima do not fit
    beside them (``TILINGS``, in that order); wider rows are refused."""
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.row_amax import max_cols, tiling_config, tiling_for

    widths = {16: "warp", 2048: "warp", 2064: "pair", 4096: "pair", 4112: "team", 7168: "team"}
    team = tiling_config(dtype, "mae", 256, "team").max_cols
    widest = max_cols(dtype, "mae", 256)
    assert widest == tiling_config(dtype, "mae", 256, "wide").max_cols >= team
    if widest > team:  # 16-bit: the team kernel's group maxima take 4 bytes a group
        widths.update({team: "team", team + 16: "wide", widest: "wide"})
    for cols, tiling in widths.items():
        assert tiling_for(dtype, "mae", 256, cols) == tiling, cols
    with pytest.raises(ValueError, match="at most"):
        tiling_for(dtype, "mae", 256, widest + 16)


# ======== GPU: bitwise parity


def _run_poisoned(x, err_mode, bound, fn=None):
    """The launcher (or the compiled variant ``fn``) into poisoned outputs."""
    rows, cols = x.shape
    codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device=x.device)
    scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device=x.device)
    amax = torch.full((rows * 4,), POISON, dtype=torch.uint8, device=x.device).view(torch.float32)
    if fn is None:
        fos_cutedsl.launch_quantize_row_amax(x, amax, codes, scales, err_mode, bound)
    else:
        fn(x, amax, codes, scales)
    return codes, scales, amax


def _check(x, err_mode, bound, where, fn=None):
    """The reference's row amax, codes and scale bytes from the launcher (or ``fn``)."""
    if fn is None:
        ok, why = fos_cutedsl.can_run_quantize_row_amax(
            x, err_mode=err_mode, e4m3_scale_bound=bound
        )
        assert ok, why
    want_amax = fos_reference.nan_amax(x, dim=1)
    want_codes, want_scales = fos_reference.quantize(
        x, want_amax, block="1x16", err_mode=err_mode, e4m3_scale_bound=bound
    )
    codes, scales, amax = _run_poisoned(x, err_mode, bound, fn)
    assert torch.equal(amax.view(torch.int32), want_amax.view(torch.int32)), f"{where}: amax"
    assert torch.equal(codes, want_codes), f"{where}: codes"
    assert torch.equal(scales, want_scales.view(torch.uint8)), f"{where}: scales"


@gpu
@pytest.mark.parametrize("kind", [k for k in KINDS if k != "amax_special"])
@pytest.mark.parametrize("bound", [256, 448])
@pytest.mark.parametrize("err_mode", ERR_MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_bitwise_parity(dtype, err_mode, bound, kind):
    variant = Variant(dtype, "1x16", True, err_mode, bound)
    for i, (rows, cols) in enumerate(_shapes(dtype)):
        seed = zlib.crc32(f"row_amax/{variant}/{kind}/{i}".encode())
        x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
        _check(x, err_mode, bound, f"{variant} {kind} shape=({rows}, {cols})")


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_special_rows(dtype):
    """All-NaN, all-zero, -0, Inf, one-subnormal and huge rows side by side."""
    x = _special_rows(dtype, 272).cuda()
    for err_mode in ERR_MODES:
        for bound in (256, 448):
            _check(x, err_mode, bound, f"{dtype} special rows {err_mode} {bound}")


def _special_rows(dtype, cols: int) -> torch.Tensor:
    """Rows of ``cols``: all NaN, all +0, all -0, one Inf, one subnormal, all the largest
    finite, a NaN every third element, all negative (on the CPU)."""
    x = torch.randn(8, cols).to(dtype)
    finfo = torch.finfo(dtype)
    tiny = torch.finfo(torch.float32).tiny if dtype == torch.bfloat16 else finfo.tiny
    x[0] = float("nan")
    x[1] = 0.0
    x[2] = -0.0
    x[3, 5] = float("inf")
    x[4] = 0.0
    x[4, 17] = tiny / 4  # a subnormal row amax
    x[5] = finfo.max
    x[6, ::3] = float("nan")
    x[7] = -x[7].abs()
    return x


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_tunings_give_the_same_bits(dtype):
    """Two rows per CTA (a ragged last CTA: 7 rows) and other read unrolls: same bits."""
    from fos_cutedsl import arch_of
    from fos_cutedsl.row_amax import compile_row_amax

    variant = Variant(dtype, "1x16", True, "mae", 256)
    x, _ = make_case("normal", variant, 7, 4096 + 48, 7, "cuda")
    for tuning in ({"rows_per_cta": 2}, {"rows_per_cta": 4, "unroll": 3}, {"unroll": 1}):
        fn = compile_row_amax(_NAMES[dtype], "mae", 256, arch_of(x.device), **tuning)
        _check(x, "mae", 256, tuning, fn)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_register_rows_tunings_give_the_same_bits(dtype):
    """The register-held rows at other team sizes, CTA sizes and groups a lane (rows as
    wide as each allows, and narrower): the same amax, codes and scale bytes."""
    from fos_cutedsl import arch_of
    from fos_cutedsl.row_amax import compile_row_amax

    variant = Variant(dtype, "1x16", True, "mse", 448)
    for row_warps, rows_per_cta, groups_per_lane in (
        (1, 1, 4), (1, 2, 2), (1, 8, 4), (1, 4, 8), (2, 1, 7), (2, 4, 4), (2, 3, 2),
        (7, 2, 2),
    ):  # fmt: skip
        tuning = {"row_warps": row_warps, "rows_per_cta": rows_per_cta,
                  "groups_per_lane": groups_per_lane}  # fmt: skip
        arch = arch_of(torch.device("cuda"))
        fn = compile_row_amax(_NAMES[dtype], "mse", 448, arch, register_rows=True, **tuning)
        widest = 512 * row_warps * groups_per_lane
        for kind in ("normal", "nan_inf", "ties", "subnormal"):
            for rows, cols in ((11, widest), (5, widest - 16), (3, 16)):
                seed = zlib.crc32(f"regs/{dtype}/{row_warps}/{rows_per_cta}/{kind}/{cols}".encode())
                x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
                where = (row_warps, rows_per_cta, groups_per_lane, kind, rows, cols)
                _check(x, "mse", 448, where, fn)


# Tunings of the amax fold, step 4 and the quantize loop: knobs, the tilings they take.
STEP_TUNINGS = {
    "row_tables": ({"row_tables": True}, ("warp", "pair", "team")),
    "xorsign_fold": ({"xorsign_fold": True}, ("warp", "pair", "team")),
    "unroll_1": ({"quantize_unroll": 1}, ("team",)),
    "unroll_3": ({"quantize_unroll": 3}, ("team",)),
    "all": ({"row_tables": True, "xorsign_fold": True, "quantize_unroll": 2}, ("team",)),
    "group_amax": ({"group_amax": True}, ("warp", "pair", "team")),
    "group_amax_unroll": ({"group_amax": True, "unroll": 7, "quantize_unroll": 2}, ("team",)),
    "warp_build": ({"cta_build": False}, ("warp",)),
    "l2_ahead": ({"l2_ahead": 3}, ("warp", "pair", "team")),
    "min_blocks": ({"min_blocks": 8}, ("warp", "team")),
    "cta_build_8": ({"cta_build": True, "rows_per_cta": 8, "group_amax": False}, ("warp",)),
}


@gpu
@pytest.mark.parametrize("name", sorted(STEP_TUNINGS))
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_step_tunings_give_the_same_bits(dtype, err_mode, bound, name):
    """Each tiling with ``row_tables`` (step 4 from a per-row table of every scale byte),
    ``xorsign_fold`` (|x| folded with garbage signs) or another quantize loop unroll:
    the reference's amax, codes and scale bytes for every input kind and the special
    rows, on rows as wide as the tiling takes, ragged ones and one group; every output
    byte poisoned."""
    from fos_cutedsl import arch_of
    from fos_cutedsl.row_amax import TILINGS, RowAmaxConfig, compile_row_amax

    variant = Variant(dtype, "1x16", True, err_mode, bound)
    arch = arch_of(torch.device("cuda"))
    knobs, tilings = STEP_TUNINGS[name]
    for tiling in tilings:
        tuning = dict(TILINGS[tiling], **knobs)
        fn = compile_row_amax(_NAMES[dtype], err_mode, bound, arch, **tuning)
        widest = min(RowAmaxConfig(_NAMES[dtype], err_mode, bound, **tuning).max_cols, 7168)
        _check(_special_rows(dtype, widest).cuda(), err_mode, bound, (name, tiling), fn)
        for kind in [k for k in KINDS if k != "amax_special"]:
            for rows, cols in ((9, widest), (5, widest - 48), (3, 16)):
                seed = zlib.crc32(f"{name}/{variant}/{tiling}/{kind}/{cols}".encode())
                x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
                _check(x, err_mode, bound, (name, tiling, kind, rows, cols), fn)


@gpu
@pytest.mark.parametrize(("tiling", "row_tables"), GIVEN)
@pytest.mark.parametrize(("err_mode", "bound"), [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_given_amax_bits_equal_the_row_scaled_quantize(dtype, err_mode, bound, tiling,
                                                        row_tables):  # fmt: skip
    """Rows reading the caller's row amax: the codes and scale bytes of
    ``fos_reference.quantize(x, row_amax)`` for the data's own amax, amaxes above and
    below it, and 0, NaN, Inf, subnormal and negative amaxes; the amax is left as given."""
    from fos_cutedsl import arch_of
    from fos_cutedsl.row_amax import TILINGS, RowAmaxConfig, compile_row_amax

    variant = Variant(dtype, "1x16", True, err_mode, bound)
    tuning = dict(
        TILINGS[tiling], given_amax=True, row_tables=row_tables, group_amax=False, cta_build=False
    )
    fn = compile_row_amax(_NAMES[dtype], err_mode, bound, arch_of(torch.device("cuda")),
                          **tuning)  # fmt: skip
    widest = min(RowAmaxConfig(_NAMES[dtype], err_mode, bound, **tuning).max_cols, 7168)
    for kind in [k for k in KINDS if k != "amax_special"]:
        for rows, cols in ((13, widest), (7, widest - 48), (3, 16)):
            seed = zlib.crc32(f"given/{variant}/{tiling}/{row_tables}/{kind}/{cols}".encode())
            x, _ = make_case(kind, variant, rows, cols, seed, "cuda")
            amax = fos_reference.nan_amax(x, dim=1)
            factors = torch.tensor([1.0, 4.0, 0.25, 1.0], device="cuda").repeat(rows)[:rows]
            amax = amax * factors
            special = [0.0, float("nan"), float("inf"), 1e-40, -3.0]
            special = torch.tensor(special, device="cuda")
            amax[: min(rows, 5)] = special[: min(rows, 5)]
            want = fos_reference.quantize(x, amax, err_mode=err_mode, e4m3_scale_bound=bound)
            codes = torch.full((rows, cols // 2), POISON, dtype=torch.uint8, device="cuda")
            scales = torch.full((rows, cols // 16), POISON, dtype=torch.uint8, device="cuda")
            given = amax.clone()
            fn(x, given, codes, scales)
            where = (kind, rows, cols)
            assert torch.equal(given.view(torch.int32), amax.view(torch.int32)), where
            assert torch.equal(codes, want[0]), where
            assert torch.equal(scales, want[1].view(torch.uint8)), where


@gpu
def test_public_function_shapes_and_bits():
    x = torch.randn(2, 3, 7168, device="cuda").to(torch.bfloat16)
    codes, scales, amax = fos_cutedsl.quantize_row_amax(x, err_mode="mse", e4m3_scale_bound=448)
    want_amax = fos_reference.nan_amax(x, dim=-1)
    want_codes, want_scales = fos_reference.quantize(
        x, want_amax, block="1x16", err_mode="mse", e4m3_scale_bound=448
    )
    assert amax.shape == (2, 3) and scales.dtype == torch.float8_e4m3fn
    assert torch.equal(amax.view(torch.int32), want_amax.view(torch.int32))
    assert torch.equal(codes, want_codes)
    assert torch.equal(scales.view(torch.uint8), want_scales.view(torch.uint8))


@gpu
def test_empty_and_too_wide():
    codes, scales, amax = fos_cutedsl.quantize_row_amax(torch.zeros(0, 64, device="cuda"))
    assert codes.shape == (0, 32) and scales.shape == (0, 4) and amax.shape == (0,)
    codes, scales, amax = fos_cutedsl.quantize_row_amax(torch.zeros(5, 0, device="cuda"))
    assert codes.shape == (5, 0) and torch.equal(amax, torch.zeros(5, device="cuda"))
    wide = torch.zeros(2, _max_cols(torch.float32) + 16, device="cuda")
    ok, why = fos_cutedsl.can_run_quantize_row_amax(wide)
    assert not ok and "columns" in why
    with pytest.raises(RuntimeError, match="cannot run"):
        fos_cutedsl.quantize_row_amax(wide)
