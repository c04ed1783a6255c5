"""Compile every kernel variant for one arch (no GPU needed) and audit its PTX.

    python -m fos_cutedsl.check --arch sm_90a [--dump-dir DIR]

For each variant the PTX must hold ``div.rn.f32`` and
``cvt.rn.satfinite.e4m3x2.f32``; ``cvt.rn.satfinite.e2m1x2.f32`` exactly on
SM100+ targets; no ``.ftz``, no approximate instruction (``div.approx``,
``div.full``, ``rcp.approx``, any ``.approx``), no float ``mad`` and no float
``fma`` except those pinned on purpose: the magic rounding's
``fma.rn.f32 t, M, +-2^22, m`` (an exact power-of-two product),
``grid_value``'s tagged ``fma.rn.f32 v, r, K, pj; // fos: exact-sum fma`` (a
representable exact sum), the two tagged ones of the division by the
constant D (``// fos: div-d fma``, checked on every input they take) and
``choose_by_bound``'s tagged threshold (``// fos: bound fma``, a bound) and the
mse fast path's tagged error sum ``fma.rn.f32 e, d, d, e; // fos: error fma``
(an approximate error inside that bound): every
other multiply and add is pinned by inline PTX, so any other fused
multiply-add could only come from compiler contraction. The thread index must
be widened to 64 bits before it forms an address.

The fake-quantize variants (``fake_variants``; ``--fake all`` for every one,
``--fake none`` for none) pass the same audit, and store only x_hat: every
global store is an ``st.global.v4`` (or ``.v2`` where a lane's piece of a row
is 8 bytes: 16x16 float32 into a 16-bit output), none of a code or a scale
byte, and a 16-bit output has its ``cvt.rn.{bf16,f16}x2.f32``. Exits
non-zero on any failure.
"""

from __future__ import annotations

import argparse
import itertools
import re
import struct
import sys
import tempfile
import time
from pathlib import Path

from .config import CHOICE_RELATIVE, FakeQuantizeKey, VariantKey

DTYPES = ("bfloat16", "float16", "float32")
ERR_MODES = ("mae", "mse")
BOUNDS = (256, 448)
# (block, row_scaled): 16x16 takes a per-tensor amax only.
LAYOUTS = (("1x16", False), ("1x16", True), ("16x16", False))

_FORBIDDEN = {
    "ftz": re.compile(r"\.ftz\b"),
    "approx": re.compile(r"\.approx\b"),
    "div.full": re.compile(r"\bdiv\.full\b"),
    "mad.f": re.compile(r"\bmad\.[a-z0-9.]*f(16|32|64)"),
}
_COUNTED = {
    "div.rn.f32": re.compile(r"\bdiv\.rn\.f32\b"),
    "mul.rn.f32": re.compile(r"\bmul\.rn\.f32\b"),
    "add.rn.f32": re.compile(r"\badd\.rn\.f32\b"),
    "e4m3x2": re.compile(r"\bcvt\.rn\.satfinite\.e4m3x2\.f32\b"),
    "e2m1x2": re.compile(r"\bcvt\.rn\.satfinite\.e2m1x2\.f32\b"),
    "shfl": re.compile(r"\bshfl\.sync\b"),
    "ld.v4": re.compile(r"\bld\.global\.v4\."),
    "l2 prefetch": re.compile(r"\bcp\.async\.bulk\.prefetch\.L2\.global\b"),  # l2_ahead, 1x16
    "l2 lines": re.compile(r"\bprefetch\.global\.L2\b"),  # l2_ahead, 16x16
}
# Any floating-point fma; and the one shape pinned on purpose: the magic-add
# rounding's ``fma.rn.f32 t, P, +-2^22, m``, whose product (a power of two) is
# exact, so it rounds once like the add it stands for (e2m1.e2m1_round_magic).
_ANY_FMA = re.compile(r"\bfma\.[a-z0-9.]*f(16|32|64)\b[^;]*;")
_MAGIC_FMA = re.compile(r"\bfma\.rn\.f32\s+[%\w]+,\s*[%\w]+,\s*0f[4C]A800000,\s*[%\w]+;")
# grid_value's fma: r * K + 2^e * J, whose exact sum is a float (e2m1.grid_value).
_EXACT_SUM_FMA = re.compile(
    r"\bfma\.rn\.f32\s+[%\w]+,\s*[%\w]+,\s*[%\w]+,\s*pj;\s*// fos: exact-sum fma"
)
# grid_constants' division by D = d * 2^k: rho = fma(w, -d, y) (exact) and
# fma(rho, RN(1/d), w) (e2m1._div_d_ptx, checked on every input it takes);
# the same pair for a / 6 (choice.div6: -6 and RN(1/6)).
_DIV_D_FMA = re.compile(
    r"\bfma\.rn\.f32\s+[%\w]+,\s*[%\w]+,"
    r"\s*0f(C0400000|C1A80000|3EAAAAAB|3D430C31|C0C00000|3E2AAAAB),"
    r"\s*[%\w]+;\s*// fos: div-d fma"
)
# choose_by_bound's threshold relative (p4 + p6) + margin (y4 + y6) as one fma, relative
# one of config.CHOICE_RELATIVE's: a bound with slack, not a rounding SPEC fixes.
_RELATIVE_HEX = "|".join(sorted({f"{struct.unpack('<I', struct.pack('<f', v))[0]:08X}"
                                 for v in CHOICE_RELATIVE.values()}))  # fmt: skip
_BOUND_FMA = re.compile(
    r"\bfma\.rn\.f32\s+[%\w]+,\s*[%\w]+,\s*0f(" + _RELATIVE_HEX + r"),\s*[%\w]+;"
    r"\s*// fos: bound fma"
)
# The mse fast path's error sum RN(e + d d): an approximate error within choose_by_bound's
# bound, not a rounding SPEC fixes (choice.add_square); the same register squared.
_ERROR_FMA = re.compile(r"\bfma\.rn\.f32\s+[%\w]+,\s*([%\w]+),\s*\1,\s*[%\w]+;\s*// fos: error fma")
# A 32-bit block or unit index times its groups (or bytes) widened to 64 bits before it
# forms an address (``persistent``: the signed unit index, ``mul.wide.s32``).
_WIDE_INDEX = re.compile(r"\bmul\.wide\.[su]32\s+%rd\d+,\s*%r\d+,\s*\d+;")
_NARROW_GLOBAL = re.compile(r"\b(ld|st)\.global[^\[]*\[%r\d+")
# Fake-quantize's stores (``memory.store_vector_if``) and every global store.
_STORE_V4 = re.compile(r"\bst\.global\.v4\.(u|b)32\b")
_STORE_V2 = re.compile(r"\bst\.global\.v2\.(u|b)32\b")
_ANY_STORE = re.compile(r"\bst\.global\.")


def variants(arch: str) -> list[VariantKey]:
    """Every variant ``quantize`` can ask for on ``arch``."""
    return [
        VariantKey(dtype, block, err, bound, row_scaled, arch)
        for dtype, (block, row_scaled), err, bound in itertools.product(
            DTYPES, LAYOUTS, ERR_MODES, BOUNDS
        )
    ]


def fake_variants(arch: str, every: bool = True) -> list[FakeQuantizeKey]:
    """The fake-quantize variants on ``arch``: every one (108), or (``every=False``) one
    output dtype per quantize variant, rotating so each input dtype and mode meets all three."""
    keys = []
    for i, (dtype, (block, row_scaled), err, bound) in enumerate(
        itertools.product(DTYPES, LAYOUTS, ERR_MODES, BOUNDS)
    ):
        outs = DTYPES if every else (DTYPES[(i + i // 4) % len(DTYPES)],)
        keys += [FakeQuantizeKey(dtype, o, block, err, bound, row_scaled, arch) for o in outs]
    return keys


def audit_fake_ptx(ptx: str, key: FakeQuantizeKey) -> tuple[list[str], dict[str, int]]:
    """``audit_ptx`` plus fake-quantize's stores: x_hat only, in 16- (or 8-) byte pieces."""
    failures, counts = audit_ptx(ptx, key.arch)
    counts["st.v4"] = len(_STORE_V4.findall(ptx))
    counts["st.v2"] = len(_STORE_V2.findall(ptx))
    narrow = len(_ANY_STORE.findall(ptx)) - counts["st.v4"] - counts["st.v2"]
    if narrow:
        failures.append(f"{narrow} global stores narrower than 8 bytes (codes or scales)")
    eight_byte_rows = key.block == "16x16" and key.dtype == "float32" and key.out_dtype != "float32"
    if counts["st.v2"] and not eight_byte_rows:
        failures.append("8-byte global stores (code words?) where x_hat goes in 16-byte pieces")
    if counts["st.v4" if not eight_byte_rows else "st.v2"] == 0:
        failures.append("no x_hat stores")
    if key.out_dtype != "float32":
        kind = "bf16" if key.out_dtype == "bfloat16" else "f16"
        if f"cvt.rn.{kind}x2.f32" not in ptx:
            failures.append(f"no cvt.rn.{kind}x2.f32 for the {key.out_dtype} output")
    return failures, counts


def fake_name(key: FakeQuantizeKey) -> str:
    """``fake-<dtype>-to-<out>-<block>-<err>-<bound>[-row]`` (no quantize variant's name)."""
    row = "-row" if key.row_scaled else ""
    return f"fake-{key.dtype}-to-{key.out_dtype}-{key.block}-{key.err_mode}-{key.bound}{row}"


def has_hw_fp4(arch: str) -> bool:
    """Whether ``arch`` (``sm_XYa``) has the FP4 conversions (SM100 and newer)."""
    return int(re.match(r"sm_(\d+)", arch).group(1)) >= 100


def audit_ptx(ptx: str, arch: str) -> tuple[list[str], dict[str, int]]:
    """Audit one variant's PTX: return (failures, instruction counts)."""
    counts = {name: len(rx.findall(ptx)) for name, rx in _COUNTED.items()}
    failures = [f"forbidden {name}" for name, rx in _FORBIDDEN.items() if rx.search(ptx)]
    counts["magic fma"] = len(_MAGIC_FMA.findall(ptx))
    counts["exact-sum fma"] = len(_EXACT_SUM_FMA.findall(ptx))
    counts["div-d fma"] = len(_DIV_D_FMA.findall(ptx))
    counts["bound fma"] = len(_BOUND_FMA.findall(ptx))
    counts["error fma"] = len(_ERROR_FMA.findall(ptx))
    pinned = sum(
        counts[k] for k in ("magic fma", "exact-sum fma", "div-d fma", "bound fma", "error fma")
    )
    if len(_ANY_FMA.findall(ptx)) != pinned:
        failures.append("forbidden fma (not one of the pinned shapes)")
    if counts["div.rn.f32"] == 0:
        failures.append("no div.rn.f32")
    if counts["e4m3x2"] == 0:
        failures.append("no cvt.rn.satfinite.e4m3x2.f32")
    if has_hw_fp4(arch) and counts["e2m1x2"] == 0:
        failures.append(f"no cvt.rn.satfinite.e2m1x2.f32 on {arch}")
    if not has_hw_fp4(arch) and counts["e2m1x2"] != 0:
        failures.append(f"e2m1x2 conversion on {arch}")
    if not _WIDE_INDEX.search(ptx):
        failures.append("block offset not widened to 64 bits (mul.wide of a 32-bit index)")
    if _NARROW_GLOBAL.search(ptx):
        failures.append("global access through a 32-bit address register")
    return failures, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", required=True, help="sm_90a, sm_100a, ...")
    parser.add_argument("--dump-dir", help="keep each variant's PTX here")
    parser.add_argument(
        "--fake",
        choices=("some", "all", "none"),
        default="some",
        help="fake-quantize variants: one output dtype per mode (default), all 108, none",
    )
    args = parser.parse_args(argv)

    from .compile import compile_fake_variant, compile_variant  # the DSL: only to compile

    start = time.perf_counter()
    failed = 0
    keys = variants(args.arch)
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(args.dump_dir or tmp)
        dump.mkdir(parents=True, exist_ok=True)
        for key in keys:
            t0 = time.perf_counter()
            fn = compile_variant(key, extra_options=f"--keep-ptx --dump-dir {dump}")
            ptx = fn.__ptx__ or ""
            failures, counts = audit_ptx(ptx, args.arch)
            name = f"{key.dtype}-{key.block}-{key.err_mode}-{key.bound}" + (
                "-row" if key.row_scaled else ""
            )
            if args.dump_dir:
                (dump / f"{name}.{args.arch}.ptx").write_text(ptx)
            status = "FAIL " + "; ".join(failures) if failures else "ok"
            summary = " ".join(f"{k}={v}" for k, v in counts.items())
            print(f"{name:32s} {time.perf_counter() - t0:5.1f}s {summary}  {status}", flush=True)
            failed += bool(failures)
        total = time.perf_counter() - start
        print(f"{args.arch}: {len(keys) - failed}/{len(keys)} variants pass ({total:.0f}s)")
        fakes = [] if args.fake == "none" else fake_variants(args.arch, args.fake == "all")
        fake_failed = 0
        for key in fakes:
            t0 = time.perf_counter()
            fn = compile_fake_variant(key, extra_options=f"--keep-ptx --dump-dir {dump}")
            ptx = fn.__ptx__ or ""
            failures, counts = audit_fake_ptx(ptx, key)
            name = fake_name(key)
            if args.dump_dir:
                (dump / f"{name}.{args.arch}.ptx").write_text(ptx)
            status = "FAIL " + "; ".join(failures) if failures else "ok"
            summary = " ".join(f"{k}={v}" for k, v in counts.items())
            print(f"{name:46s} {time.perf_counter() - t0:5.1f}s {summary}  {status}", flush=True)
            fake_failed += bool(failures)
    if fakes:
        total = time.perf_counter() - start
        passed = len(fakes) - fake_failed
        print(f"{args.arch}: {passed}/{len(fakes)} fake-quantize variants pass ({total:.0f}s)")
    return 1 if failed or fake_failed else 0


if __name__ == "__main__":
    sys.exit(main())
