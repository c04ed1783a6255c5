"""The fast kernel's exact shortcuts, checked on the CPU against fos_reference.

Contract under test (see ``fast_model``): the magic-constant E2M1 rounding
and the bit-pattern code equal SPEC's encoder; the two-constant grid value
``pow2(r) * W`` equals SPEC's ``RN(RN(RN(r f) g) / D)`` wherever
``fast_value_ok`` holds, and ``fast_value_ok`` holds for every scale byte
over the whole practical range of global amax. The full 2^31 non-negative
float32 sweep of the rounding is in ``gpu_verify.py`` (and
``python tests/cutedsl/test_fast_algebra.py --all`` runs it on the CPU).
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import fast_model as fm
import pytest
import torch

import fos_reference
from fos_cutedsl import config

F32 = torch.float32
THRESHOLDS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0)


def _check_rounding(m: torch.Tensor) -> None:
    code = fos_reference.e2m1_encode(m)
    want = fos_reference.e2m1_decode(code)
    r = fm.round_e2m1_saturating(m)
    bad = r != want
    below7 = m < 7  # the kernel's unsaturated rounding, for the magnitudes it takes
    assert torch.equal(fm.round_e2m1(m[below7]), want[below7])
    assert not bad.any(), f"{int(bad.sum())} mismatches, first m={float(m[bad][0])!r}"
    assert torch.equal(fm.e2m1_code(r), code & 7)


def _check_scaled_rounding(m: torch.Tensor) -> None:
    """``e4m3_codes``: rounding ``m * 2^-6`` gives SPEC's rounding of ``m``, scaled."""
    m = m[m < 7]
    want = fos_reference.e2m1_decode(fos_reference.e2m1_encode(m))
    scale = torch.tensor(fm.CODE_SCALE, dtype=F32)
    got = fm.round_e2m1_scaled(m * scale)
    bad = got != want * scale
    assert not bad.any(), f"{int(bad.sum())} mismatches, first m={float(m[bad][0])!r}"


def test_scaled_rounding_bf16_thresholds_and_binade():
    _check_scaled_rounding((torch.arange(0, 1 << 15, dtype=torch.int32) << 16).view(F32))
    offsets = torch.arange(-4096, 4097, dtype=torch.int32)
    for t in THRESHOLDS:
        center = torch.tensor(t, dtype=F32).view(torch.int32)
        _check_scaled_rounding((center + offsets).view(F32))
    one = torch.tensor(1.0, dtype=F32).view(torch.int32)  # every float32 in [1, 2)
    _check_scaled_rounding(
        torch.arange(int(one), int(one) + (1 << 23), dtype=torch.int32).view(F32)
    )
    tiny = torch.tensor([0.0, 1e-45, 1e-38, 2.0**-120, 2.0**-121, 0.2499999], dtype=F32)
    _check_scaled_rounding(tiny)  # m * 2^-6 subnormal or zero: r = 0


def test_e4m3_code_packing():
    """Each grid magnitude times 2^-6 as E4M3 is its code << 2; the word has code j in nibble j."""
    grid = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=F32)
    scaled = grid * torch.tensor(fm.CODE_SCALE, dtype=F32)
    as_e4m3 = scaled.to(torch.float8_e4m3fn)
    assert torch.equal(as_e4m3.float(), scaled)  # exact: no rounding to agree on
    assert torch.equal(as_e4m3.view(torch.uint8).long(), torch.arange(8) << 2)
    gen = torch.Generator().manual_seed(5)
    codes = torch.randint(0, 8, (4096, 8), generator=gen)
    codes[:8] = torch.arange(8)[:, None]  # each code in every position
    want = sum(codes[:, j] << (4 * j) for j in range(8))
    assert torch.equal(fm.code_word(*fm.grid_code_bytes(scaled[codes])), want)


def test_codes_off_1_5_is_the_value_rule():
    """``codes_off_1_5`` is 0 exactly where each map-to-6 code's magnitude is 1.5 times its
    map-to-4 code's, for nibble words and for ``grid_code_bytes``' E4M3 byte words."""
    grid = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=F32)
    up = {0: 0, 2: 3, 4: 5, 6: 7}  # 1.5 r on the grid: r = 0, 1, 2, 4
    gen = torch.Generator().manual_seed(6)
    c4 = torch.randint(0, 8, (1 << 14, 8), generator=gen)
    c6 = torch.tensor([up.get(c, c) for c in c4.flatten().tolist()]).reshape(c4.shape)
    flip = torch.rand(c4.shape, generator=gen) < 0.02  # some words off in one code or more
    c6 = torch.where(flip, torch.randint(0, 8, c4.shape, generator=gen), c6)
    pairs = torch.cartesian_prod(torch.arange(8), torch.arange(8))  # every pair at every place
    for j in range(8):
        c4 = torch.cat([c4, torch.zeros(64, 8, dtype=torch.int64)])
        c6 = torch.cat([c6, torch.zeros(64, 8, dtype=torch.int64)])
        c4[-64:, j], c6[-64:, j] = pairs[:, 0], pairs[:, 1]
    want = (grid[c6] == grid[c4] * 1.5).all(dim=1)
    nibbles4 = sum(c4[:, j] << (4 * j) for j in range(8))
    nibbles6 = sum(c6[:, j] << (4 * j) for j in range(8))
    assert torch.equal(fm.codes_off_1_5(nibbles4, nibbles6, 0x11111111) == 0, want)
    assert want.any() and not want.all()
    bytes4 = [sum(c4[:, 2 * i + h] << (8 * i + 2) for i in range(4)) for h in (0, 1)]
    bytes6 = [sum(c6[:, 2 * i + h] << (8 * i + 2) for i in range(4)) for h in (0, 1)]
    off = fm.codes_off_1_5(bytes4[0], bytes6[0], 0x04040404)
    off = off | fm.codes_off_1_5(bytes4[1], bytes6[1], 0x04040404)
    assert torch.equal(off == 0, want)


def test_rounding_all_nonnegative_bf16():
    b = torch.arange(0, 1 << 15, dtype=torch.int32) << 16  # every bf16 with sign 0
    _check_rounding(b.view(F32))


def test_rounding_near_every_threshold():
    offsets = torch.arange(-4096, 4097, dtype=torch.int32)
    for t in THRESHOLDS:
        center = torch.tensor(t, dtype=F32).view(torch.int32)
        _check_rounding((center + offsets).view(F32))


def test_rounding_specials_and_random():
    special = torch.tensor(
        [0.0, 1e-45, 1.2e-38, float("inf"), float("nan"), 3.4028235e38, 7.0, 6.5, 5.0000005],
        dtype=F32,
    )
    _check_rounding(special)
    gen = torch.Generator().manual_seed(0)
    b = torch.randint(0, 0x7F800001, (1 << 22,), generator=gen, dtype=torch.int64)
    _check_rounding(b.to(torch.int32).view(F32))


def _all_scales() -> torch.Tensor:
    return torch.arange(0, 0x7F, dtype=torch.uint8).view(torch.float8_e4m3fn).float()


@pytest.mark.parametrize("d", [1536.0, 2688.0])
def test_grid_value_equals_spec_where_ok(d):
    gen = torch.Generator().manual_seed(int(d))
    exps = torch.randint(-149, 128, (4096,), generator=gen).float()
    gamax = (torch.rand(4096, generator=gen) + 1) * torch.exp2(exps)
    gamax = torch.cat([gamax, torch.tensor([0.0, float("inf"), float("nan"), 1.0, 448.0])])
    f = _all_scales()[:, None]  # (127, 1) x (1, G)
    g = gamax[None, :]
    ok = fm.fast_value_ok(f, g, d)
    w1, w15 = fm.value_constants(f, g, d)
    for r in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0):
        rr = torch.full_like(w1, r)
        fast = fm.grid_value(rr, *fm.slope_constants(w1, w15))
        exact = fm.exact_value(rr, f, g, d)
        same = (fast.view(torch.int32) == exact.view(torch.int32)) | (
            torch.isnan(fast) & torch.isnan(exact)
        )
        assert same[ok].all(), f"r={r}: {int((~same & ok).sum())} mismatches"


@pytest.mark.parametrize("d", [1536.0, 2688.0])
def test_slope_constants_are_exact_where_ok(d):
    """``K = 2 (W15 - W1)`` and ``J = W1 - K`` carry no rounding on the fast path."""
    g = torch.logspace(-38, 38, 4001)[None, :].to(F32)
    f = _all_scales()[:, None]
    ok = fm.fast_value_ok(f, g, d)
    w1, w15 = fm.value_constants(f, g, d)
    assert fm.slope_exact(w1, w15)[ok].all()


def _check_div_d(p: torch.Tensor, d: float) -> None:
    """``div_d`` equals ``div.rn`` for every finite ``p >= D * 2^-124``."""
    p = p[(p >= fm.div_d_range(d)) & torch.isfinite(p)]
    want = p / torch.tensor(d, dtype=F32)
    bad = fm.div_d(p, d).view(torch.int32) != want.view(torch.int32)
    assert not bad.any(), f"D={d}: {int(bad.sum())} mismatches, first p={float(p[bad][0])!r}"


@pytest.mark.parametrize("d", [1536.0, 2688.0])
def test_div_d_one_binade_and_edges(d):
    """Every mantissa of one binade (the division is scale-free there), and the range ends."""
    binade = torch.arange(0x3F800000, 0x40000000, dtype=torch.int32).view(F32)
    _check_div_d(binade, d)
    ends = torch.tensor([fm.div_d_range(d), 3.4028235e38], dtype=F32).view(torch.int32)
    offsets = torch.arange(-4096, 4097, dtype=torch.int32)
    _check_div_d((ends[:, None] + offsets).reshape(-1).view(F32), d)


def _check_div6(a: torch.Tensor) -> None:
    """``div6`` equals ``div.rn(a, 6)`` for ``a = 0`` and every finite ``a >= 6 * 2^-124``."""
    a = a[((a >= fm.DIV6_LOW) | (a == 0)) & torch.isfinite(a)]
    want = a / torch.tensor(6.0, dtype=F32)
    bad = fm.div6(a).view(torch.int32) != want.view(torch.int32)
    assert not bad.any(), f"{int(bad.sum())} mismatches, first a={float(a[bad][0])!r}"


def test_div6_one_binade_and_edges():
    binade = torch.arange(0x3F800000, 0x40000000, dtype=torch.int32).view(F32)
    _check_div6(binade)
    ends = torch.tensor([fm.DIV6_LOW, 3.4028235e38], dtype=F32).view(torch.int32)
    offsets = torch.arange(-4096, 4097, dtype=torch.int32)
    _check_div6(torch.cat([(ends[:, None] + offsets).reshape(-1).view(F32), torch.zeros(1)]))


def test_fast_values_cover_the_practical_range():
    """Every nonzero scale byte takes the fast path for 1e-20 <= gamax <= 1e20."""
    f = _all_scales()[1:, None]
    g = torch.logspace(-20, 20, 2001)[None, :].to(F32)
    for d in (1536.0, 2688.0):
        assert fm.fast_value_ok(f, g, d).all()


def _row_case(g: torch.Tensor, d: float):
    """SPEC's y and capped inv for every scale byte (127 positive and 0) of rows ``g``,
    the kernel's current per-candidate rule, and the row-table shortcut's (inv, y)."""
    s = fos_reference.global_encode_scale(g, int(d / 6))
    s_dec = torch.tensor(1.0, dtype=F32) / s
    f = _all_scales()[None, :]  # (1, 127), byte 0 first
    y = f * s_dec[:, None]
    inv = torch.fmin(torch.tensor(1.0, dtype=F32) / y, torch.tensor(3.4028235e38, dtype=F32))
    nan = torch.tensor(float("nan"), dtype=F32)
    now = torch.where(fm.fast_value_ok(f, g[:, None], d) & (inv > 0), inv, nan)
    # The row is in choose_by_bound's model only for D 2^-126 <= g <= FLT_MAX; off it
    # the kernel's table holds NaN (every nonzero scale then takes the exact path).
    in_model = (g >= d * 2.0**-126) & (g <= 3.4028235e38)
    y_tab, inv_tab = fm.row_tables(s_dec)
    y_tab = torch.where(in_model[:, None], y_tab, nan)
    inv_tab = torch.where(in_model[:, None], inv_tab, nan)
    fast_inv = torch.empty_like(inv)
    fast_y = torch.empty_like(inv)
    zero_inv = fm.zero_scale_inv(g)
    for r in range(g.numel()):
        fast_inv[r], fast_y[r] = fm.row_candidate(f[0], y_tab[r], inv_tab[r], zero_inv[r])
    return y, now, fast_inv, fast_y


@pytest.mark.parametrize("d", [1536.0, 2688.0])
def test_row_candidate_equals_spec_where_taken(d):
    """The row-scaled shortcut gives SPEC's inv and y, bit for bit, or NaN (exact path)."""
    gen = torch.Generator().manual_seed(7 + int(d))
    exps = torch.randint(-149, 128, (3000,), generator=gen).float()
    g = ((torch.rand(3000, generator=gen) + 1) * torch.exp2(exps)).to(F32)
    special = [0.0, -0.0, -1.0, float("inf"), float("-inf"), float("nan"), 3.4028235e38, 1e-45]
    special += [d * 2.0**-126, 1e-40]
    g = torch.cat([g, torch.tensor(special, dtype=F32)])
    y, now, fast_inv, fast_y = _row_case(g, d)
    taken = ~torch.isnan(fast_inv)
    assert torch.equal(fast_inv[taken].view(torch.int32), now[taken].view(torch.int32))
    # y scales choose_by_bound's margin; a zero scale's (0 or NaN) leaves the choice open.
    nonzero = taken.clone()
    nonzero[:, 0] = False
    assert torch.equal(fast_y[nonzero].view(torch.int32), y[nonzero].view(torch.int32))
    assert ((fast_y[:, 0] == 0) | torch.isnan(fast_y[:, 0])).all()


@pytest.mark.parametrize("d", [1536.0, 2688.0])
def test_row_candidate_code_scale_is_the_scaled_candidate(d):
    """E4M3 codes, row-scaled: ``2^-6`` folded into ``row_candidate``'s ``2^-e`` gives
    what ``group._scaled_candidate`` makes of the unscaled inv (NaN where that is
    below 2^-120, else ``inv 2^-6``), bit for bit, for every scale byte."""
    gen = torch.Generator().manual_seed(11 + int(d))
    exps = torch.randint(-149, 128, (2000,), generator=gen).float()
    g = ((torch.rand(2000, generator=gen) + 1) * torch.exp2(exps)).to(F32)
    special = [0.0, -0.0, -1.0, float("inf"), float("nan"), 3.4028235e38, 1e-45, d * 2.0**-126]
    g = torch.cat([g, torch.tensor(special, dtype=F32)])
    s = fos_reference.global_encode_scale(g, int(d / 6))
    s_dec = torch.tensor(1.0, dtype=F32) / s
    y_tab, inv_tab = fm.row_tables(s_dec)
    f = _all_scales()
    scale = torch.tensor(fm.CODE_SCALE, dtype=F32)
    zero_inv = fm.zero_scale_inv(g)
    checked = 0
    for r in range(g.numel()):
        inv, y = fm.row_candidate(f, y_tab[r], inv_tab[r], zero_inv[r])
        inv_s, y_s = fm.row_candidate(f, y_tab[r], inv_tab[r], zero_inv[r] * scale, fm.CODE_SCALE)
        small = inv < 2.0**-126 / fm.CODE_SCALE
        want = torch.where(small, torch.tensor(float("nan")), inv * scale)
        assert torch.equal(torch.isnan(inv_s), torch.isnan(want))
        ok = ~torch.isnan(want)
        assert torch.equal(inv_s[ok].view(torch.int32), want[ok].view(torch.int32))
        assert torch.equal(y_s.view(torch.int32), y.view(torch.int32))
        checked += int(ok.sum())
    assert checked > 100_000  # most rows and scales take the fast path


def test_row_candidate_covers_the_practical_range():
    """Every scale byte takes the shortcut for 1e-20 <= gamax <= 1e20."""
    g = torch.logspace(-20, 20, 801).to(F32)
    for d in (1536.0, 2688.0):
        assert not torch.isnan(_row_case(g, d)[2]).any()


def _spec_pick4(groups: torch.Tensor, gamax: float, d: float, err_mode: str) -> torch.Tensor:
    g = torch.tensor([gamax], dtype=F32)
    return fos_reference.quantize_with_choice(
        groups, g, block="1x16", err_mode=err_mode, e4m3_scale_bound=int(d / 6)
    )[2].reshape(-1)


def _near_tie_groups(gen, n, gamax, d, err_mode, base=None) -> torch.Tensor:
    """Groups within a few thousand ulps of one element of a flip of SPEC's choice.

    Element 0 of each random group (``base``, else normals) sweeps (0.01, 3]; where
    SPEC's choice flips between two grid points, bisection on the bit pattern finds the two
    adjacent floats it flips between, and the group is copied with element 0
    at every 16th float from 4096 below to 4096 above. There ``err4 - err6``
    crosses zero, so the copies span undecided ones and decided ones just
    outside the margin, where a wrong bound would show.
    """
    base = torch.randn(n, 16, generator=gen) if base is None else base
    grid = torch.linspace(0.01, 3.0, 257)
    sweep = base.repeat_interleave(grid.numel(), dim=0)
    sweep[:, 0] = grid.repeat(n)
    pick = _spec_pick4(sweep, gamax, d, err_mode).reshape(n, -1)
    flips = (pick[:, 1:] != pick[:, :-1]).float().argmax(dim=1)
    has = (pick[:, 1:] != pick[:, :-1]).any(dim=1)
    base, flips = base[has], flips[has]
    lo = grid[flips].view(torch.int32).clone()
    hi = grid[flips + 1].view(torch.int32).clone()
    pick_lo = _spec_pick4(torch.cat([grid[flips, None], base[:, 1:]], dim=1), gamax, d, err_mode)
    for _ in range(24):
        mid = (lo + hi) // 2
        groups = torch.cat([mid.view(F32)[:, None], base[:, 1:]], dim=1)
        same = _spec_pick4(groups, gamax, d, err_mode) == pick_lo
        lo = torch.where(same, mid, lo)
        hi = torch.where(same, hi, mid)
    steps = torch.arange(-4096, 4097, 16, dtype=torch.int32)
    near = base.repeat_interleave(steps.numel(), dim=0)
    near[:, 0] = (lo.repeat_interleave(steps.numel()) + steps.repeat(lo.numel())).view(F32)
    return near


def _rn_f32(q: Fraction) -> float:
    """The float32 nearest the rational ``q`` (ties to even), exactly (finite, normal range)."""
    near = torch.tensor(float(q), dtype=F32)
    cands = [near, torch.nextafter(near, torch.tensor(-math.inf)),
             torch.nextafter(near, torch.tensor(math.inf))]  # fmt: skip

    def rank(c):
        return abs(Fraction(float(c)) - q), int(c.view(torch.int32)) & 1

    return float(min(cands, key=rank))


def test_fma32_rounds_once():
    """``fast_model.fma32`` is ``fma.rn.f32``: the exact ``a b + c`` rounded once, also where
    the float64 sum lands on a float32 midpoint it did not reach (a double rounding)."""
    gen = torch.Generator().manual_seed(3)
    n = 4000
    a = torch.randn(n, generator=gen) * torch.exp2(torch.randint(-20, 20, (n,), generator=gen))
    b = torch.randn(n, generator=gen)
    c = torch.randn(n, generator=gen) * torch.exp2(torch.randint(-40, 40, (n,), generator=gen))
    # Near midpoints: c + h (1 - 2^-46), h half an ulp of c; and h (1 + 2^-46) above.
    c2 = (torch.rand(n, generator=gen) + 1) * torch.exp2(
        torch.randint(-10, 10, (n,), generator=gen)
    )
    h = (torch.nextafter(c2, torch.tensor(math.inf)) - c2) / 2
    one_up = torch.tensor(1 + 2.0**-23, dtype=F32)
    a2 = torch.cat([h * one_up, h * one_up])
    b2 = torch.cat([torch.full((n,), 1 - 2.0**-23), torch.full((n,), 1 + 2.0**-23)])
    a, b, c = torch.cat([a, a2]), torch.cat([b, b2.float()]), torch.cat([c, c2, c2])
    got = fm.fma32(a, b, c)
    want = [
        _rn_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
        for x, y, z in zip(a.tolist(), b.tolist(), c.tolist(), strict=True)
    ]
    bad = got != torch.tensor(want, dtype=F32)
    assert not bad.any(), f"{int(bad.sum())} of {got.numel()} differ"
    naive = (a.double() * b.double() + c.double()).float()
    assert (naive != got).any()  # the construction does reach double roundings


@pytest.mark.parametrize("err_mode", ["mae", "mse"])
@pytest.mark.parametrize(("block", "lane_elements"), [("1x16", 8), ("16x16", 8), ("16x16", 4)])
def test_bounded_choice_is_spec_choice_where_decided(err_mode, block, lane_elements):
    """Every choice the bound decides is SPEC's; random groups are nearly all decided.

    16x16 with 8 (16-bit) and 4 (float32) elements a lane: ``tile``'s sum orders.
    """
    gen = torch.Generator().manual_seed(7)
    near = torch.cat([
        _near_tie_groups(gen, 256, 4.0, 1536.0, err_mode),
        _near_tie_groups(gen, 256, 4.0, 1536.0, err_mode, _large_error_groups(gen, 256)),
    ])  # fmt: skip
    outliers = _outlier_channels(gen, 256, 2048)
    if block == "16x16":  # each group on all 16 rows of its tile: the tile is as near a flip
        near = near.unsqueeze(0).expand(16, -1, -1).reshape(16, -1)
    for x, gamax, d in (
        (near, 4.0, 1536.0),
        (torch.randn(512, 1024, generator=gen), 5.0, 2688.0),
        (torch.randn(256, 512, generator=gen) * torch.exp(torch.randn(256, 512) * 3), 1e4, 1536.0),
        (torch.randn(128, 256, generator=gen).bfloat16().float() * 1e-30, 1e-29, 1536.0),
        (outliers, float(outliers.abs().max()), 1536.0),
    ):
        x = x.float()
        g = torch.tensor([gamax], dtype=F32)
        want = fos_reference.quantize_with_choice(
            x, g, block=block, err_mode=err_mode, e4m3_scale_bound=int(d / 6)
        )[2]
        pick4, decided = fm.bounded_choice(x, gamax, d, err_mode, block, lane_elements)
        wrong = decided & (pick4 != want)
        assert not wrong.any(), f"{int(wrong.sum())} decided choices differ from SPEC's"
    random = torch.randn(256, 4096, generator=gen)
    decided = fm.bounded_choice(random, 4.5, 1536.0, err_mode, block, lane_elements)[1]
    assert decided.float().mean() > 0.99
    if block == "1x16":  # the outlier groups' ties: most of what the bound leaves open
        decided = fm.bounded_choice(outliers, float(outliers.abs().max()), 1536.0, err_mode, block)
        assert (1 - decided[1].float().mean()) < 0.3 * 0.016


# ``choice.choose_by_bound``'s proven distance from SPEC's error to the fast one, per
# 1x16 group: relative (of p) and absolute (of the bound scale y, mse y^2), before slack;
# a 16x16 tile's absolute one is 16 times as large.
PROVEN_BOUND = {"mae": (44 * 2.0**-24, 816 * 2.0**-24), "mse": (250 * 2.0**-24, 204 * 2.0**-24)}


def _spec_sum(terms: torch.Tensor) -> torch.Tensor:
    """SPEC step 6's in-order float32 sum over the last dimension."""
    total = terms[..., 0]
    for i in range(1, terms.shape[-1]):
        total = total + terms[..., i]
    return total


def _candidate_errors(x, gamax: float, d: float, err_mode: str, block: str, lanes: int = 8):
    """Per group (1x16) or tile (16x16) of ``x`` (R, C) and candidate: (SPEC's error, the
    fast ``p``, its bound scale), for those inside the fast path's model."""
    g, dd = torch.tensor(gamax, dtype=F32), torch.tensor(d, dtype=F32)
    s_dec = torch.tensor(1.0, dtype=F32) / (dd / g)
    rows, cols = x.shape
    ax = x.float().abs().reshape(rows, cols // 16, 16)
    a = ax.amax(dim=2)
    if block == "16x16":
        a = a.reshape(rows // 16, 16, -1).amax(dim=1).repeat_interleave(16, dim=0)
    base = fm.div6(a) * (dd / g)
    big = torch.tensor(448.0, dtype=F32)
    for f in (torch.fmin(base * 1.5, big), torch.fmin(base, big)):
        f = f.to(torch.float8_e4m3fn).float()
        y = f * s_dec
        m = ax * (torch.tensor(1.0, dtype=F32) / y).unsqueeze(2)
        r = fm.round_e2m1(m)
        spec_d = fm.exact_value(r, f.unsqueeze(2), g, d) - ax
        spec = _spec_sum(spec_d.abs() if err_mode == "mae" else spec_d * spec_d)
        yb = y if err_mode == "mae" else y * y
        inside = (m.amax(dim=2) < 7) & (y > 0)
        if block == "16x16":
            e = fm.tile_error_sum(r - m, lanes, err_mode)[::16]
            folded = spec.reshape(rows // 16, 16, -1)
            for half in (8, 4, 2, 1):  # SPEC step 7
                folded = folded[:, :half] + folded[:, half : 2 * half]
            spec, yb, y = folded[:, 0], yb[::16], y[::16]
            inside = inside.reshape(rows // 16, 16, -1).all(dim=1)
        else:
            e = fm.fast_term(r[..., 0] - m[..., 0], None, err_mode)
            for i in range(1, 16):
                e = fm.fast_term(r[..., i] - m[..., i], e, err_mode)
        yield spec[inside], (e * yb)[inside], yb[inside]


@pytest.mark.parametrize("err_mode", ["mae", "mse"])
@pytest.mark.parametrize(("block", "lanes"), [("1x16", 8), ("16x16", 8), ("16x16", 4)])
def test_fast_error_within_proven_bound(err_mode, block, lanes):
    """SPEC's error of each candidate lies within ``choose_by_bound``'s proven distance of
    the fast one (before the margins' slack), on normals and on groups of large errors."""
    gen = torch.Generator().manual_seed(11)
    relative, absolute = PROVEN_BOUND[err_mode]
    absolute *= 16 if block == "16x16" else 1
    worst = 0.0
    for x, gamax, d in (
        (torch.randn(1024, 1024, generator=gen), 5.0, 2688.0),
        (torch.randn(1024, 1024, generator=gen), 4.5, 1536.0),
        (_large_error_groups(gen, 65536).reshape(1024, 1024), 3.0, 1536.0),
        (_large_error_groups(gen, 65536).reshape(1024, 1024), 3.1, 2688.0),
    ):
        for spec, p, yb in _candidate_errors(x, gamax, d, err_mode, block, lanes):
            worst = max(worst, float(((spec - p).abs() / (relative * p + absolute * yb)).max()))
    assert worst <= 1.0, f"SPEC's error is {worst:.2f} times the proven bound from the fast one"


@pytest.mark.parametrize("err_mode", ["mae", "mse"])
def test_margins_keep_slack_over_the_bound(err_mode):
    """The kernels' margins (and the model's) are at least twice the proven bound."""
    relative, absolute = PROVEN_BOUND[err_mode]
    for margins in ((config.CHOICE_RELATIVE, config.CHOICE_ABSOLUTE),
                    (fm.CHOICE_RELATIVE, fm.CHOICE_ABSOLUTE)):  # fmt: skip
        assert margins[0][err_mode] >= 2 * relative
        assert margins[1][err_mode] >= 2 * absolute
        assert margins == (config.CHOICE_RELATIVE, config.CHOICE_ABSOLUTE)


def _large_error_groups(gen, n) -> torch.Tensor:
    """Groups whose elements sit near E2M1 ties of both candidates (amax 3, element 1),
    so each ``|r - m|`` is large: where mse's cross terms ``2 d eps`` are largest."""
    ties = torch.tensor([0.4375, 0.625, 0.8333, 0.875, 0.9167])  # of the amax: m4 or m6 ties
    pick = torch.randint(0, ties.numel(), (n, 16), generator=gen)
    jitter = 1 + 2.0**-10 * torch.randn(n, 16, generator=gen)
    sign = torch.where(torch.rand(n, 16, generator=gen) < 0.5, -1.0, 1.0)
    base = 3.0 * ties[pick] * jitter * sign
    base[:, 1] = 3.0
    return base


def _outlier_channels(gen, rows, cols) -> torch.Tensor:
    """Normals with 1% of the columns 50 times larger, as bf16 values (activations'
    outlier channels: about 1.6% of 1x16 groups are near ties of the two candidates)."""
    wide = torch.where(torch.rand(cols, generator=gen) < 0.01, 50.0, 1.0)
    return (torch.randn(rows, cols, generator=gen) * wide).bfloat16().float()


def _sweep_all(chunk: int = 1 << 24) -> None:
    for lo in range(0, 0x7F800001, chunk):
        hi = min(lo + chunk, 0x7F800001)  # every non-negative float32 up to +Inf
        a = torch.arange(lo, hi, dtype=torch.int64).to(torch.int32).view(F32)
        _check_rounding(a)
        _check_scaled_rounding(a)
        for d in fm.DIVISORS:
            _check_div_d(a, d)
        _check_div6(a)
    print(
        "all non-negative float32 up to +Inf: rounding, p / D and a / 6 match fos_reference, div.rn"
    )


if __name__ == "__main__" and "--all" in sys.argv:
    _sweep_all()
