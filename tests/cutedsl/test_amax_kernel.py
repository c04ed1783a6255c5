"""Contract: ``fos_cutedsl.nan_amax`` returns the bits of ``fos_reference.nan_amax``.

CPU part (any machine with CuTe DSL): every amax variant (3 dtypes x per
tensor / per row) compiles for sm_90a and sm_100a, and its PTX reads 16-byte
vectors through 64-bit addresses, takes no NaN-propagating max, no ``.ftz``,
no approximation and no float fma, and per tensor makes exactly one atomic
(``red.global.max.u32``). ``can_run_nan_amax`` never raises.

GPU part (skips without an sm_90+ GPU): per tensor and per row, every input
kind of ``elementwise_cases.AMAX_KINDS`` (random bit patterns: every NaN
payload, +-Inf, subnormals, -0; all-NaN and zero rows; dtype max) and edge
shapes, the kernel's float32 bits equal the reference's on the same CUDA
tensor (-0 and +0 differ). Per-row outputs are poisoned first; per tensor the
launcher zero-fills, so a poisoned output must come back as the amax. Empty
inputs, and an input of more than 2^31 elements (where memory allows).
"""

from __future__ import annotations

import re
import zlib

import pytest
import torch
from cutedsl_gpu import skip_reason
from elementwise_cases import (
    AMAX_DTYPES,
    AMAX_KINDS,
    amax_shapes,
    make_amax_case,
    reference_amax_chunked,
    same_f32_bits,
)

import fos_cutedsl
import fos_reference

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)
POISON = float.fromhex("0x1.234568p-100")  # a finite sentinel no amax here returns

_NAMES = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}
_FORBIDDEN = {
    "ftz": re.compile(r"\.ftz\b"),
    "approx": re.compile(r"\.approx\b"),
    "float fma/mad": re.compile(r"\b(fma|mad)\.[a-z0-9.]*f(16|32|64)\b"),
    "NaN-propagating max": re.compile(r"\bmax\.NaN\b"),
    "32-bit global address": re.compile(r"\b(ld|st|red|atom)\.global[^\[]*\[%r\d+"),
}


def audit_elementwise_ptx(ptx: str) -> tuple[list[str], dict[str, int]]:
    """Failures and instruction counts of an elementwise kernel's PTX."""
    failures = [f"forbidden {name}" for name, rx in _FORBIDDEN.items() if rx.search(ptx)]
    counts = {
        "ld.global.v4": len(re.findall(r"\bld\.global\.v4\.", ptx)),
        "st.global.v4": len(re.findall(r"\bst\.global\.v4\.", ptx)),
        "red/atom": len(re.findall(r"\b(red|atom)\.", ptx)),
        "max.16x2": len(re.findall(r"\bmax\.(bf16x2|f16x2)\b", ptx)),
        "max.f32": len(re.findall(r"\bmax\.f32\b", ptx)),
        "shfl": len(re.findall(r"\bshfl\.sync\b", ptx)),
    }
    if counts["ld.global.v4"] == 0:
        failures.append("no ld.global.v4")
    return failures, counts


# ======== CPU: compile and audit


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("per_row", [False, True], ids=["tensor", "row"])
@pytest.mark.parametrize("dtype", sorted(_NAMES.values()))
def test_variant_compiles_clean(dtype, per_row, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.amax import compile_amax

    fn = compile_amax(dtype, per_row, arch, extra_options=f"--keep-ptx --dump-dir {tmp_path}")
    failures, counts = audit_elementwise_ptx(fn.__ptx__)
    assert failures == [], (failures, counts)
    assert counts["red/atom"] == (0 if per_row else 1)
    assert re.search(r"red\.relaxed\.gpu\.global\.max\.u32", fn.__ptx__) or per_row
    if dtype == "float32":
        assert counts["max.16x2"] == 0 and counts["max.f32"] > 0
    else:
        assert counts["max.16x2"] > 0


def test_ptx_audit_rejects_forbidden_forms():
    good = "ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd7];\n"
    assert audit_elementwise_ptx(good)[0] == []
    for bad in (
        "max.NaN.f32 %r1, %r2, %r3;",
        "fma.rn.f32 %r1, %r2, %r3, %r4;",
        "add.ftz.f32 %r1, %r2, %r3;",
        "ld.global.b32 %r1, [%r2];",
        "red.global.max.u32 [%r2], %r1;",
    ):
        assert audit_elementwise_ptx(good + bad)[0], bad
    assert audit_elementwise_ptx("mov.b32 %r1, %r2;")[0] == ["no ld.global.v4"]


def test_can_run_never_raises_and_says_why():
    ok, why = fos_cutedsl.can_run_nan_amax("not a tensor")
    assert not ok and why.startswith("invalid arguments")
    ok, why = fos_cutedsl.can_run_nan_amax(torch.zeros(4, 16), dim="rows")
    assert not ok and "invalid arguments" in why
    if not torch.cuda.is_available():
        ok, why = fos_cutedsl.can_run_nan_amax(torch.zeros(4, 16))
        assert not ok and why
        with pytest.raises(RuntimeError):
            fos_cutedsl.nan_amax(torch.zeros(4, 16))
    with pytest.raises(TypeError):
        fos_cutedsl.nan_amax([1.0, 2.0])


# ======== GPU: bitwise parity


def _run(x: torch.Tensor, per_row: bool) -> torch.Tensor:
    rows = x.shape[0]
    out = torch.full((rows if per_row else 1,), POISON, device=x.device)
    fos_cutedsl.launch_nan_amax(x, out, per_row)
    return out if per_row else out.reshape(())


@gpu
@pytest.mark.parametrize("kind", AMAX_KINDS)
@pytest.mark.parametrize("per_row", [False, True], ids=["tensor", "row"])
@pytest.mark.parametrize("dtype", AMAX_DTYPES, ids=lambda d: _NAMES[d])
def test_bitwise_parity(dtype, per_row, kind):
    for rows, cols in amax_shapes(dtype):
        seed = zlib.crc32(f"{dtype}/{per_row}/{kind}/{rows}x{cols}".encode())
        x = make_amax_case(kind, dtype, rows, cols, seed).cuda()
        ok, why = fos_cutedsl.can_run_nan_amax(x, 1 if per_row else None)
        assert ok, why
        want = fos_reference.nan_amax(x, dim=1 if per_row else None)
        got = _run(x, per_row)
        where = f"{_NAMES[dtype]} {'row' if per_row else 'tensor'} {kind} ({rows}, {cols})"
        if not same_f32_bits(got, want):
            bad = (got.view(torch.int32) != want.view(torch.int32)).nonzero()
            first = tuple(bad[0].tolist()) if bad.numel() else ()
            raise AssertionError(
                f"{where}: kernel {got[first].item()!r}, reference {want[first].item()!r} at "
                f"{first} ({bad.shape[0]} differ)"
            )


@gpu
@pytest.mark.parametrize("dtype", AMAX_DTYPES, ids=lambda d: _NAMES[d])
def test_public_nan_amax_matches(dtype):
    x = make_amax_case("nan_inf", dtype, 37, 64, 5).cuda()
    for dim in (None, 1):
        got = fos_cutedsl.nan_amax(x, dim)
        want = fos_reference.nan_amax(x, dim)
        assert got.dtype == torch.float32 and got.shape == want.shape
        assert same_f32_bits(got, want)
    flat = make_amax_case("bits", dtype, 1, 8 * 40, 6).cuda().reshape(4, 2, 40)  # any shape
    assert same_f32_bits(fos_cutedsl.nan_amax(flat), fos_reference.nan_amax(flat))


@gpu
def test_empty_inputs():
    for shape in ((0, 16), (4, 0), (0, 0)):
        x = torch.empty(shape, device="cuda", dtype=torch.bfloat16)
        assert same_f32_bits(fos_cutedsl.nan_amax(x), fos_reference.nan_amax(x))
        assert same_f32_bits(fos_cutedsl.nan_amax(x, 1), fos_reference.nan_amax(x, 1))
        out = torch.full((shape[0],), POISON, device="cuda")
        fos_cutedsl.launch_nan_amax(x, out, True)
        assert bool((out == 0).all())


@gpu
def test_cannot_run_says_why():
    x = torch.randn(8, 12, device="cuda")  # 12 float32: 3 vectors; 12 bf16 is not whole vectors
    assert fos_cutedsl.can_run_nan_amax(x, 1)[0]
    ok, why = fos_cutedsl.can_run_nan_amax(x.to(torch.bfloat16), 1)
    assert not ok and "multiple of 8" in why
    assert not fos_cutedsl.can_run_nan_amax(torch.randn(8, 16, device="cuda").t(), 1)[0]
    assert not fos_cutedsl.can_run_nan_amax(torch.randn(8, 16, device="cuda"), 0)[0]
    shifted = torch.randn(8 * 16 + 1, device="cuda")[1:].view(8, 16)  # 4-byte offset
    assert not fos_cutedsl.can_run_nan_amax(shifted)[0]
    assert not fos_cutedsl.can_run_nan_amax(x.double())[0]
    with pytest.raises(RuntimeError):
        fos_cutedsl.nan_amax(x.double())


@gpu
def test_non_default_stream_and_graph():
    x = make_amax_case("bits", torch.bfloat16, 64, 512, 9).cuda()
    want = fos_reference.nan_amax(x)
    out = torch.full((1,), POISON, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fos_cutedsl.launch_nan_amax(x, out, False)  # compile and warm up off the capture
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fos_cutedsl.launch_nan_amax(x, out, False)
    for _ in range(3):  # replays zero-fill again: a stale larger max cannot survive
        out.fill_(float("inf"))
        graph.replay()
        torch.cuda.synchronize()
        assert same_f32_bits(out.reshape(()), want)


def _free_bytes() -> int:
    free, _ = torch.cuda.mem_get_info()
    return free


@gpu
@pytest.mark.parametrize("per_row", [False, True], ids=["tensor", "row"])
def test_more_than_2_31_elements(per_row):
    """64-bit offsets: the largest |x| sits past element 2^31 (and per row, every row counts)."""
    cols = 16384
    rows = (2**31 + 2**20) // cols + 1
    if _free_bytes() < 3 * rows * cols * 2:
        pytest.skip("not enough free GPU memory for a 2^31-element bf16 input")
    gen = torch.Generator(device="cuda").manual_seed(11)
    x = torch.empty(rows, cols, device="cuda", dtype=torch.bfloat16)
    for r in range(0, rows, 8192):
        x[r : r + 8192].normal_(generator=gen)
    x[-1, -1] = -12345.0  # past 2^31: a 32-bit offset would miss it
    x[rows // 2, 7] = float("nan")
    got = _run(x, per_row)
    want = reference_amax_chunked(x, per_row, 8192)
    assert same_f32_bits(got, want)
    if not per_row:
        assert got.item() == 12352.0  # -12345 in bf16
