"""Contract: ``fos_cutedsl.dequantize`` returns the bits of ``fos_reference.dequantize``.

Where the reference is NaN the kernel must be NaN (SPEC fixes only NaN-ness
there); everywhere else the bits must be equal (-0 and +0 differ).

CPU part: the kernel's E2M1 decode (code bits at 24..22 and 31 of a float32,
times 2^126) is checked against ``e2m1_decode`` for all 16 codes; every
variant (3 output dtypes x 2 bounds x per tensor / row-scaled) compiles for
sm_90a and sm_100a and its PTX has 4-byte code word and 1-byte scale loads,
all of a full CTA's loads before its first store, 16-byte output stores only,
one ``div.rn.f32`` (factor_inv), ``mul.rn.f32`` only (no fma, no ``.ftz``, no
approximation) and 64-bit addresses. ``can_run_dequantize`` never raises.

GPU part (skips without an sm_90+ GPU): every input kind of
``elementwise_cases.DEQUANT_KINDS`` (quantized normals; random codes with
every scale byte incl. the NaN bytes 0x7F/0xFF and -0 0x80; gamax 0, Inf,
NaN, 3e38, subnormal, negative) over tile-edge shapes (one group, odd group
counts per row, whole and ragged CTAs, C = 16, rows that straddle CTAs), with
outputs poisoned by a finite sentinel so any element the kernel skips shows
up. One output of more than 2^31 elements where memory allows.
"""

from __future__ import annotations

import re
import zlib

import pytest
import torch
from cutedsl_gpu import skip_reason
from elementwise_cases import (
    BOUNDS,
    DEQUANT_KINDS,
    OUT_DTYPES,
    dequant_mismatch,
    dequant_shapes,
    make_dequant_case,
    poison_like,
)
from test_amax_kernel import audit_elementwise_ptx

import fos_cutedsl
import fos_reference

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)
_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}


# ======== CPU: the decode's algebra, compile and audit


def test_e2m1_bit_decode_is_exact():
    """``decode._e2m1_value_ptx``'s construction, in torch, for every code."""
    codes = torch.arange(16, dtype=torch.int32)
    bits = ((codes & 7) << 22) | ((codes & 8) << 28)
    value = bits.view(torch.float32) * torch.tensor(2.0**126)
    want = fos_reference.e2m1_decode(codes.to(torch.uint8))
    assert torch.equal(value.view(torch.int32), want.view(torch.int32))  # incl. code 8 = -0.0


def test_zero_byte_rule_matches_reference():
    """``group_scale``'s zero test (bits 6..0 clear) is the reference's ``f == 0``."""
    f = torch.arange(256, dtype=torch.uint8).view(torch.float8_e4m3fn).float()
    by_bits = (torch.arange(256) & 0x7F) == 0
    assert torch.equal(f == 0, by_bits)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("row_scaled", [False, True], ids=["tensor", "row"])
@pytest.mark.parametrize("bound", BOUNDS)
@pytest.mark.parametrize("out_dtype", sorted(_NAMES.values()))
def test_variant_compiles_clean(out_dtype, bound, row_scaled, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.dequantize import DequantizeConfig, compile_dequantize

    fn = compile_dequantize(out_dtype, bound, row_scaled, arch, f"--keep-ptx --dump-dir {tmp_path}")
    ptx = fn.__ptx__
    failures, counts = audit_elementwise_ptx(ptx)
    # The kernel loads 4-byte code words (a warp: 128 contiguous bytes), not 16-byte vectors.
    failures = [f for f in failures if f != "no ld.global.v4"]
    assert failures == [], (failures, counts)
    cfg = DequantizeConfig(out_dtype, bound, row_scaled)
    stores_per_half = cfg.half_out_bytes // 16
    assert counts["ld.global.v4"] == 0
    assert len(re.findall(r"\bld\.global\.(?!b32|b8|u32|u8)", ptx)) == 0  # words and bytes only
    # Full CTAs: one code word, one scale byte and 16-byte stores a step; the ragged
    # path's half-groups the same way (LLVM may unroll its loop, never narrow it).
    assert len(re.findall(r"\bld\.global\.(b8|u8)\b", ptx)) >= cfg.steps
    assert counts["st.global.v4"] % stores_per_half == 0
    assert counts["st.global.v4"] >= cfg.steps * stores_per_half
    assert len(re.findall(r"\bst\.global\.(?!v4)", ptx)) == 0  # every store is 16 bytes
    # The full CTA's block: every load (codes, scale bytes, row gamax) before its first store.
    blocks = re.split(r"^\$L__BB\d+_\d+:", ptx, flags=re.M)
    full = [
        b
        for b in blocks
        if len(re.findall(r"\bst\.global\.v4\.", b)) >= cfg.steps * stores_per_half
    ]
    full = [b for b in full if len(re.findall(r"\bld\.global\.(b8|u8)\b", b)) == cfg.steps]
    assert len(full) == 1, [len(b) for b in blocks]
    first_store = full[0].index("st.global")
    assert "ld.global" not in full[0][first_store:]
    # Per half-group: 2 for ds, and per element one exact 2^126 scaling and one rounded product.
    assert len(re.findall(r"\bmul\.rn\.f32\b", ptx)) % (2 + 2 * 8) == 0
    assert len(re.findall(r"\bdiv\.rn\.f32\b", ptx)) == 1
    assert counts["red/atom"] == 0
    cvt = len(re.findall(r"\bcvt\.rn\.(bf16|f16)x2\.f32\b", ptx))
    assert (cvt == 0) == (out_dtype == "float32")
    if out_dtype != "float32":
        assert f"cvt.rn.{'bf16' if out_dtype == 'bfloat16' else 'f16'}x2.f32" in ptx


def test_can_run_never_raises_and_says_why():
    codes = torch.zeros(4, 8, dtype=torch.uint8)
    scales = torch.zeros(4, 1, dtype=torch.float8_e4m3fn)
    gamax = torch.ones(1)
    ok, why = fos_cutedsl.can_run_dequantize(codes, scales.view(torch.uint8), gamax)
    assert not ok and why.startswith("invalid arguments")
    ok, why = fos_cutedsl.can_run_dequantize(codes, scales, gamax, e4m3_scale_bound=300)
    assert not ok and "invalid arguments" in why
    with pytest.raises(ValueError):
        fos_cutedsl.dequantize(codes, scales[:2], gamax)
    with pytest.raises(TypeError):
        fos_cutedsl.dequantize(codes, scales, gamax, out_dtype=torch.int8)
    if not torch.cuda.is_available():
        ok, why = fos_cutedsl.can_run_dequantize(codes, scales, gamax)
        assert not ok and why
        with pytest.raises(RuntimeError):
            fos_cutedsl.dequantize(codes, scales, gamax)


# ======== GPU: bitwise parity


def _run(codes, scales, gamax, bound, out_dtype):
    rows, half = codes.shape
    out = poison_like((rows, 2 * half), out_dtype, codes.device)
    fos_cutedsl.launch_dequantize(codes, scales.view(torch.uint8), gamax, out, bound)
    return out


@gpu
@pytest.mark.parametrize("kind", DEQUANT_KINDS)
@pytest.mark.parametrize("row_scaled", [False, True], ids=["tensor", "row"])
@pytest.mark.parametrize("bound", BOUNDS)
@pytest.mark.parametrize("out_dtype", OUT_DTYPES, ids=lambda d: _NAMES[d])
def test_bitwise_parity(out_dtype, bound, row_scaled, kind):
    for rows, cols in dequant_shapes():
        seed = zlib.crc32(f"{out_dtype}/{bound}/{row_scaled}/{kind}/{rows}x{cols}".encode())
        codes, scales, gamax = (
            t.cuda() for t in make_dequant_case(kind, rows, cols, row_scaled, bound, seed)
        )
        knobs = {"e4m3_scale_bound": bound, "out_dtype": out_dtype}
        ok, why = fos_cutedsl.can_run_dequantize(codes, scales, gamax, **knobs)
        assert ok, why
        want = fos_reference.dequantize(codes, scales, gamax, **knobs)
        got = _run(codes, scales, gamax, bound, out_dtype)
        bad = dequant_mismatch(got, want)
        where = f"{_NAMES[out_dtype]} bound={bound} row={row_scaled} {kind} ({rows}, {cols})"
        assert not bad, f"{where}: {bad}"


# A CTA takes 4096 half-groups (2048 groups; DequantizeConfig's 512 threads x 8 steps).
TAIL_SHAPES = [
    (4099, 16),  # C = 16: 2 full CTAs and 3 groups; a CTA's rows end mid-step
    (2731, 48),  # 3 groups a row: row steps of 85 rows and 1 group; 4 full CTAs + 1 group
    (2049, 32),  # 2 full CTAs + 2 groups, rows straddle every CTA boundary
    (3, 16 * 1001),  # 1 full CTA, then a ragged CTA of 1910 halves (several per thread)
    (257, 48),  # no full CTA at all: 771 groups
    (1, 16 * 4097),  # 2 full CTAs and one more group, all in one row
]


@gpu
@pytest.mark.parametrize("kind", ["quantized", "all_bytes"])
@pytest.mark.parametrize("row_scaled", [False, True], ids=["tensor", "row"])
@pytest.mark.parametrize("bound", BOUNDS)
@pytest.mark.parametrize("out_dtype", OUT_DTYPES, ids=lambda d: _NAMES[d])
def test_bitwise_parity_tile_tails(out_dtype, bound, row_scaled, kind):
    """Shapes whose groups are not whole CTAs, with rows crossing the CTAs' chunks."""
    for rows, cols in TAIL_SHAPES:
        seed = zlib.crc32(f"tail/{out_dtype}/{bound}/{row_scaled}/{kind}/{rows}x{cols}".encode())
        codes, scales, gamax = (
            t.cuda() for t in make_dequant_case(kind, rows, cols, row_scaled, bound, seed)
        )
        knobs = {"e4m3_scale_bound": bound, "out_dtype": out_dtype}
        want = fos_reference.dequantize(codes, scales, gamax, **knobs)
        got = _run(codes, scales, gamax, bound, out_dtype)
        bad = dequant_mismatch(got, want)
        where = f"{_NAMES[out_dtype]} bound={bound} row={row_scaled} {kind} ({rows}, {cols})"
        assert not bad, f"{where}: {bad}"


@gpu
@pytest.mark.parametrize("out_dtype", OUT_DTYPES, ids=lambda d: _NAMES[d])
def test_every_code_under_every_scale_byte(out_dtype):
    """All 16 codes x all 256 scale bytes x a few gamax (per row: one gamax a row)."""
    gamaxes = torch.tensor([1.0, 448.0 * 6, 1e-30, 3e38, 0.0, float("inf")], device="cuda")
    rows = gamaxes.numel() * 256
    row = torch.tensor([0x10 * k + (15 - k) for k in range(16)], dtype=torch.uint8)
    codes = row.to("cuda").repeat(rows, 1)  # (rows, 16): every code in both nibbles
    scales = torch.arange(256, dtype=torch.uint8, device="cuda").repeat(gamaxes.numel())
    scales = scales.reshape(rows, 1).repeat(1, 2).view(torch.float8_e4m3fn)  # both groups
    gamax = gamaxes.repeat_interleave(256)
    for bound in BOUNDS:
        knobs = {"e4m3_scale_bound": bound, "out_dtype": out_dtype}
        want = fos_reference.dequantize(codes, scales, gamax, **knobs)
        got = _run(codes, scales, gamax, bound, out_dtype)
        assert not dequant_mismatch(got, want), dequant_mismatch(got, want)


@gpu
def test_public_dequantize_round_trip():
    x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16)
    for gamax in (fos_reference.nan_amax(x).reshape(1), fos_reference.nan_amax(x, dim=1)):
        codes, scales = fos_reference.quantize(x, gamax)
        for out_dtype in OUT_DTYPES:
            got = fos_cutedsl.dequantize(codes, scales, gamax, out_dtype=out_dtype)
            want = fos_reference.dequantize(codes, scales, gamax, out_dtype=out_dtype)
            assert got.dtype == out_dtype and not dequant_mismatch(got, want)
    zero_d = fos_reference.nan_amax(x)  # a 0-d per-tensor amax
    codes, scales = fos_reference.quantize(x, zero_d.reshape(1))
    got = fos_cutedsl.dequantize(codes, scales, zero_d)
    assert not dequant_mismatch(got, fos_reference.dequantize(codes, scales, zero_d))
    empty = fos_cutedsl.dequantize(codes[:0], scales[:0], zero_d)
    assert empty.shape == (0, 256)


@gpu
def test_cannot_run_says_why():
    codes = torch.zeros(4, 8 * 3, dtype=torch.uint8, device="cuda")
    scales = torch.zeros(4, 3, dtype=torch.float8_e4m3fn, device="cuda")
    gamax = torch.ones(1, device="cuda")
    assert fos_cutedsl.can_run_dequantize(codes, scales, gamax)[0]
    shifted = torch.zeros(4 * 24 + 8, dtype=torch.uint8, device="cuda")[8:].view(4, 24)
    ok, why = fos_cutedsl.can_run_dequantize(shifted, scales, gamax)
    assert not ok and "16-byte" in why
    odd = torch.zeros(13, dtype=torch.uint8, device="cuda")[1:].view(4, 3)
    ok, why = fos_cutedsl.can_run_dequantize(codes, odd.view(torch.float8_e4m3fn), gamax)
    assert not ok and "2-byte" in why
    strided_rows = torch.ones(8, device="cuda")[::2]
    assert not fos_cutedsl.can_run_dequantize(codes, scales, strided_rows)[0]


@gpu
def test_output_of_more_than_2_31_elements():
    """64-bit offsets: an output past 2^31 elements (bf16), checked in row chunks."""
    cols = 16384
    rows = (2**31 + 2**20) // cols + 1
    need = rows * cols * (2 + 2 + 0.6)  # output, the reference's chunk temporaries, inputs
    free, _ = torch.cuda.mem_get_info()
    if free < need:
        pytest.skip("not enough free GPU memory for a 2^31-element output")
    gen = torch.Generator(device="cuda").manual_seed(21)
    codes = torch.randint(
        0, 256, (rows, cols // 2), device="cuda", dtype=torch.uint8, generator=gen
    )
    scales = torch.randint(
        0, 256, (rows, cols // 16), device="cuda", dtype=torch.uint8, generator=gen
    )
    scales = scales.view(torch.float8_e4m3fn)
    gamax = torch.rand(rows, device="cuda", generator=gen) * 100
    out = poison_like((rows, cols), torch.bfloat16, "cuda")
    fos_cutedsl.launch_dequantize(codes, scales.view(torch.uint8), gamax, out, 256)
    for r in range(0, rows, 8192):
        want = fos_reference.dequantize(
            codes[r : r + 8192], scales[r : r + 8192], gamax[r : r + 8192]
        )
        bad = dequant_mismatch(out[r : r + 8192], want)
        assert not bad, f"rows {r}..: {bad}"
