"""Contract: ``fos_cutedsl.fake_quantize`` returns the bits of ``fos_reference.fake_quantize``.

The fake-quantize variants are the quantize kernels with ``QuantizeConfig.fake``:
they read x once and write ``dequantize(quantize(x))``, never the codes and
scales. Where the reference is NaN the kernel must be NaN (SPEC fixes only
NaN-ness there); everywhere else the bits must be equal (-0 and +0 differ).

CPU part: every fake-quantize variant (3 input dtypes x 3 output dtypes x
{1x16 per tensor, 1x16 row-scaled, 16x16} x 2 error modes x 2 bounds)
compiles for sm_90a and sm_100a and passes ``check.audit_fake_ptx`` (the
quantize audit, and only x_hat stores); the argument checks are the
reference's and ``can_run_fake_quantize`` never raises.

GPU part (skips without an sm_90+ GPU): every variant over every input kind
of ``cutedsl_cases.KINDS`` and ``fake_cases.fake_shapes``, outputs poisoned
with a NaN sentinel that no result has, so an element the kernel skips shows up.
"""

from __future__ import annotations

import pytest
import torch
from cutedsl_gpu import skip_reason
from fake_cases import NAMES, OUT_DTYPES, check_variant, fake_variants, mismatch

import fos_cutedsl
import fos_reference
from fos_cutedsl.check import audit_fake_ptx, variants
from fos_cutedsl.check import fake_variants as fake_keys

REASON = skip_reason()
gpu = pytest.mark.skipif(bool(REASON), reason=REASON)


# ======== CPU: every variant compiles and passes the audit


def test_fake_key_list():
    keys = fake_keys("sm_90a")
    assert len(keys) == 108 and len(set(keys)) == 108
    some = fake_keys("sm_90a", every=False)
    assert len(some) == 36
    # one output dtype per quantize variant; each input dtype and mode meets all three
    assert {k[:1] + k[2:] for k in some} == set(variants("sm_90a"))
    for dtype in ("bfloat16", "float16", "float32"):
        for block, row in (("1x16", False), ("1x16", True), ("16x16", False)):
            outs = {
                k.out_dtype for k in some if (k.dtype, k.block, k.row_scaled) == (dtype, block, row)
            }
            assert len(outs) == 3


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("key", fake_keys("sm_90a"), ids=lambda k: "-".join(map(str, k[:6])))
def test_fake_variant_compiles_clean(key, arch, tmp_path):
    pytest.importorskip("cutlass", reason="CuTe DSL (nvidia-cutlass-dsl) is not installed")
    from fos_cutedsl.compile import compile_fake_variant

    key = key._replace(arch=arch)
    fn = compile_fake_variant(key, f"--keep-ptx --dump-dir {tmp_path}")
    failures, counts = audit_fake_ptx(fn.__ptx__, key)
    assert failures == [], (failures, counts)


def test_audit_rejects_code_stores():
    from fos_cutedsl.config import FakeQuantizeKey

    key = FakeQuantizeKey("bfloat16", "bfloat16", "1x16", "mae", 256, False, "sm_90a")
    base = "div.rn.f32 %f1, %f2, %f3;\ncvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;\n"
    base += "mul.wide.u32 %rd1, %r1, 16;\ncvt.rn.bf16x2.f32 %r2, %f1, %f2;\n"
    good = base + "st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n"
    assert audit_fake_ptx(good, key)[0] == []
    codes = good + "st.global.v2.u32 [%rd3], {%r1, %r2};\nst.global.u8 [%rd4], %rs1;\n"
    failures = audit_fake_ptx(codes, key)[0]
    assert any("narrower" in f for f in failures) and any("8-byte" in f for f in failures)
    assert any("no x_hat" in f for f in audit_fake_ptx(base, key)[0])
    f16 = key._replace(out_dtype="float16")
    assert any("f16x2" in f for f in audit_fake_ptx(good, f16)[0])


def test_config_rejects_staging_and_bad_outputs():
    from fos_cutedsl.config import QuantizeConfig

    assert not QuantizeConfig("float32", "16x16", "mae", 256, False, fake="bfloat16").stage_stores
    with pytest.raises(ValueError):
        QuantizeConfig("float32", "16x16", "mae", 256, False, fake="float32", stage_stores=True)
    with pytest.raises(ValueError):
        QuantizeConfig("bfloat16", "1x16", "mae", 256, False, fake="int8")


def test_can_run_never_raises_and_validates():
    x = torch.zeros(4, 32)
    gamax = torch.ones(1)
    ok, why = fos_cutedsl.can_run_fake_quantize(x, gamax, out_dtype=torch.int8)
    assert not ok and why.startswith("invalid arguments")
    ok, why = fos_cutedsl.can_run_fake_quantize(x, gamax, block="16x16")
    assert not ok and why.startswith("invalid arguments")
    ok, why = fos_cutedsl.can_run_fake_quantize(x[:, :20], gamax)
    assert not ok and why.startswith("invalid arguments")
    with pytest.raises(TypeError):
        fos_cutedsl.fake_quantize(x, gamax, out_dtype=torch.int8)
    with pytest.raises(ValueError):
        fos_cutedsl.fake_quantize(x, gamax, e4m3_scale_bound=300)
    if not torch.cuda.is_available():
        ok, why = fos_cutedsl.can_run_fake_quantize(x, gamax)
        assert not ok and why
        with pytest.raises(RuntimeError):
            fos_cutedsl.fake_quantize(x, gamax)
    assert "fake_quantize" in fos_cutedsl.KERNELS


# ======== GPU: bitwise parity


@gpu
@pytest.mark.parametrize(
    ("variant", "out_dtype"), fake_variants(), ids=lambda v: NAMES.get(v, str(v))
)
def test_bitwise_parity(variant, out_dtype):
    failures = check_variant(variant, out_dtype)
    assert not failures, "\n".join(failures[:10])


@gpu
@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_public_fake_quantize(block):
    x = torch.randn(64, 512, device="cuda", dtype=torch.bfloat16)
    amaxes = [fos_reference.nan_amax(x).reshape(1), fos_reference.nan_amax(x)]
    if block == "1x16":
        amaxes.append(fos_reference.nan_amax(x, dim=1))
    for gamax in amaxes:
        for out_dtype in (None, *OUT_DTYPES):
            knobs = {"block": block, "out_dtype": out_dtype}
            got = fos_cutedsl.fake_quantize(x, gamax, **knobs)
            want = fos_reference.fake_quantize(x, gamax, **knobs)
            assert got.dtype == (out_dtype or x.dtype)
            assert not mismatch(got, want), mismatch(got, want)
    empty = fos_cutedsl.fake_quantize(x[:0], amaxes[0], block=block)
    assert empty.shape == (0, 512)


@gpu
def test_cannot_run_says_why():
    gamax = torch.ones(1, device="cuda")
    # 4 elements (8 bytes) off a 16-byte boundary
    shifted = torch.zeros(4 * 32 + 4, device="cuda", dtype=torch.bfloat16)[4:].view(4, 32)
    ok, why = fos_cutedsl.can_run_fake_quantize(shifted, gamax)
    assert not ok and "16-byte" in why
    ok, why = fos_cutedsl.can_run_fake_quantize(torch.zeros(32, 4, device="cuda").t(), gamax)
    assert not ok and "contiguous" in why
