"""A float32 model of the fast kernel's arithmetic, one torch op per instruction.

The fast path replaces SPEC's per-element divisions and the compare-count
E2M1 encoder with cheaper sequences that give the same bits. Each function
here mirrors one such sequence instruction for instruction (torch's CPU
float32 ops round once each, like the GPU's), so the claims can be checked on
the CPU, exhaustively where the domain allows:

* ``round_e2m1``: E2M1 round-to-nearest-even of ``0 <= m < 7`` by subtracting
  the magic constant ``C = max(m, 2) * 2**22``: ``|m - C|`` lies in the binade
  whose ulp is the E2M1 spacing at ``m`` (0.5 below 2, 1 below 4, 2 above),
  and ``C`` is an even multiple of that ulp wherever ``m`` is a tie, so
  ``RN(m - C) + C`` rounds ``m`` to the grid with ties to even. Just above a
  power of two ``|m - C|`` drops into the binade below (a finer grid), which
  only happens within 2 ulps of ``m``'s grid point. No exponent mask: one
  ``max`` and two ``fma`` whose products are exact.
* ``e2m1_code``: the code of an on-grid magnitude is the bit pattern of
  ``r * 2**-126`` shifted right by 22 (0.5 lands on the subnormal 2**-127).
* ``grid_value``: ``RN(RN(RN(r * f) * g) / D)`` for the 8 grid magnitudes ``r``
  is ``2**e * W``, with ``W`` one of two per-candidate constants
  (``W1`` for r in {0.5, 1, 2, 4}, ``W15`` for r in {1.5, 3, 6}), whenever
  no intermediate is subnormal or overflows (``fast_value_ok``). With
  ``K = 2 (W15 - W1)`` and ``J = W1 - K`` (both exact, Sterbenz) that is one
  ``fma(r, K, 2**e * J)``: the exact sum is ``2**e W1`` or ``2**e W15``.
* ``bounded_choice``: the kernel's choice of candidate from approximate
  errors, decided only where a bound on their distance to SPEC's errors
  leaves no doubt (``choice.choose_by_bound``); undecided groups compute
  SPEC's errors exactly.
* ``div6``: the kernel's ``RN(a / 6)``, which is ``div_d``'s division by 3 of
  ``a / 2`` with every value doubled.
* ``div_d``: ``RN(p / D)`` for ``D = d * 2^k`` (1536 = 3 * 2^9, 2688 = 21 * 2^7)
  as ``y = p * 2^-k`` (exact), ``q = RN(y c)``, ``rho = fma(-d, q, y)`` (exact),
  ``fma(rho, c, q)`` with ``c = RN(1/d)``: equal to ``div.rn`` for every
  ``p >= D * 2^-124`` (checked on all of them), which is the fast path's range.
"""

from __future__ import annotations

import math

import torch

F32 = torch.float32
SIGN_EXP_MASK = -8388608  # 0xFF800000 as int32


def fma32(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """``fma.rn.f32``: ``RN(a b + c)`` of float32 tensors, rounded once.

    In float64 ``a b`` is exact (48 bits); the sum's rounding error comes from
    TwoSum, and the float64 sum is moved to round-to-odd (an odd last bit where
    it was inexact), so rounding it to float32 (24 bits, 53 >= 24 + 2) is the
    single rounding of the exact sum, never a double rounding.
    """
    p, q = a.double() * b.double(), c.double()
    s = p + q
    t = s - q
    err = (p - t) + (q - (s - t))
    raw = s.view(torch.int64)
    even = (raw & 1) == 0
    away = (err > 0) == (s > 0)  # the exact sum lies beyond s (in magnitude) or short of it
    fix = (err != 0) & even & (s != 0)
    raw = torch.where(fix, raw + torch.where(away, 1, -1), raw)
    return raw.view(torch.float64).float()


def bits(v: torch.Tensor) -> torch.Tensor:
    return v.view(torch.int32)


def floats(b: torch.Tensor) -> torch.Tensor:
    return b.view(F32)


def round_e2m1(m: torch.Tensor) -> torch.Tensor:
    """E2M1 magnitude of ``0 <= m < 7`` (RNE) by a magic subtract; no saturation (the kernel's)."""
    c = torch.fmax(m, torch.tensor(2.0, dtype=F32)) * torch.tensor(2.0**22, dtype=F32)  # exact
    t = m - c  # fma.rn(M, -2^22, m): the product is exact, so one rounding
    return t + c  # fma.rn(M, 2^22, t): exact


CODE_SCALE = 2.0**-6  # config.CODE_SCALE


def round_e2m1_scaled(ms: torch.Tensor) -> torch.Tensor:
    """``round_e2m1`` on ``ms = m * 2^-6`` (``e4m3_codes``): ``max(ms, 2^-5) * 2^22``."""
    c = torch.fmax(ms, torch.tensor(2.0 * CODE_SCALE, dtype=F32)) * torch.tensor(2.0**22, dtype=F32)
    return (ms - c) + c


def grid_code_bytes(rs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``e2m1.grid_code_bytes`` on (N, 8) scaled magnitudes: (even, odd) int64 words.

    E4M3 bytes (exact values: any rounding casts them the same) of elements 0, 2, 4,
    6 in the even word's bytes 0..3 and of 1, 3, 5, 7 in the odd word's.
    """
    b = rs.to(torch.float8_e4m3fn).view(torch.uint8).to(torch.int64)
    even = sum(b[:, 2 * i] << (8 * i) for i in range(4))
    odd = sum(b[:, 2 * i + 1] << (8 * i) for i in range(4))
    return even, odd


def code_word(even: torch.Tensor, odd: torch.Tensor) -> torch.Tensor:
    """``e2m1.code_word``: ``(even >> 2) + (odd << 2)`` as a 32-bit word."""
    return ((even >> 2) + (odd << 2)) & 0xFFFFFFFF


def round_e2m1_saturating(m: torch.Tensor) -> torch.Tensor:
    """``round_e2m1`` then ``min.f32`` with 6: every ``m >= 0``, Inf and NaN (-> 6) too."""
    return torch.fmin(round_e2m1(m), torch.tensor(6.0, dtype=F32))


def e2m1_code(r: torch.Tensor) -> torch.Tensor:
    """Code 0..7 of an on-grid magnitude: bits(r * 2^-126) >> 22."""
    return (bits(r * torch.tensor(2.0**-126, dtype=F32)) >> 22).to(torch.uint8)


def value_constants(f: torch.Tensor, gamax: torch.Tensor, d: float):
    """Per-candidate ``W1 = RN(RN(f g) / D)`` and ``W15 = RN(RN(RN(1.5 f) g) / D)``."""
    dd = torch.tensor(d, dtype=F32)
    w1 = (f * gamax) / dd
    w15 = ((f * torch.tensor(1.5, dtype=F32)) * gamax) / dd
    return w1, w15


def fast_value_ok(f: torch.Tensor, gamax: torch.Tensor, d: float) -> torch.Tensor:
    """Where ``grid_value`` is exact: every product and quotient normal and finite.

    Zero ``f`` with a finite gamax is fine too (every value is then 0).
    """
    w1 = value_constants(f, gamax, d)[0]
    lo = w1 >= torch.tensor(2.0**-124, dtype=F32)  # 0.5 * W1 normal, 0.5 * J exact
    hi = (f * torch.tensor(1.5, dtype=F32)) * gamax <= torch.tensor(2.0**124, dtype=F32)
    zero = (f == 0) & torch.isfinite(gamax)
    return (lo & hi) | zero


def slope_constants(w1: torch.Tensor, w15: torch.Tensor):
    """``K = 2 (W15 - W1)`` and ``J = W1 - K``; exact when ``W1 <= W15 <= 2 W1`` (Sterbenz)."""
    k = (w15 - w1) * torch.tensor(2.0, dtype=F32)
    return k, w1 - k


def slope_exact(w1: torch.Tensor, w15: torch.Tensor) -> torch.Tensor:
    """Whether ``K`` and ``J`` are exact: ``K + J == W1`` and ``1.5 K + J == W15`` (float64)."""
    k, j = slope_constants(w1, w15)
    k64, j64 = k.double(), j.double()
    return ((k64 + j64) == w1.double()) & ((1.5 * k64 + j64) == w15.double())


def grid_value(r: torch.Tensor, k: torch.Tensor, j: torch.Tensor) -> torch.Tensor:
    """``V(r) = fma(r, K, pow2(r) * J)``: and.b32, mul.rn, fma.rn (float64 holds the exact sum)."""
    pow2 = floats(bits(r) & SIGN_EXP_MASK)
    ej = pow2 * j  # exact: a power of two times a multiple of ulp(W1) >= 2^-148
    return (r.double() * k.double() + ej.double()).to(F32)


DIVISORS = {1536.0: (3.0, 9), 2688.0: (21.0, 7)}  # D = d * 2^k


def div_d(p: torch.Tensor, d_full: float) -> torch.Tensor:
    """``RN(p / D)`` without a division; float64 holds every exact intermediate."""
    d, k = DIVISORS[d_full]
    c = torch.tensor(1.0, dtype=F32) / torch.tensor(d, dtype=F32)
    y = p * torch.tensor(2.0**-k, dtype=F32)  # mul.rn: exact in the fast path's range
    q = y * c  # mul.rn
    rho = (y.double() - d * q.double()).to(F32)  # fma.rn(q, -d, y): exact
    return (rho.double() * c.double() + q.double()).to(F32)  # fma.rn(rho, c, q)


def div6(a: torch.Tensor) -> torch.Tensor:
    """The kernel's ``RN(a / 6)`` (``choice.div6``): mul.rn, then two fma.rn."""
    c = torch.tensor(1.0, dtype=F32) / torch.tensor(6.0, dtype=F32)
    w = a * c  # mul.rn
    rho = (a.double() - 6.0 * w.double()).to(F32)  # fma.rn(w, -6, a): exact where it is used
    return (rho.double() * c.double() + w.double()).to(F32)  # fma.rn(rho, c, w)


DIV6_LOW = 6.0 * 2.0**-124  # div6 is exact for a = 0 and every a >= this


def div_d_range(d_full: float) -> float:
    """The smallest dividend of the fast path: ``D * 2^-124`` (then ``RN(p / D) >= 2^-124``)."""
    return d_full * 2.0**-124


def exact_value(r: torch.Tensor, f: torch.Tensor, gamax: torch.Tensor, d: float):
    """SPEC step 6's value for magnitude ``r``: ``RN(RN(RN(r * f) * g) / D)``."""
    return ((r * f) * gamax) / torch.tensor(d, dtype=F32)


CHOICE_RELATIVE = {"mae": 2.0**-16, "mse": 2.0**-15}
CHOICE_ABSOLUTE = {"mae": 2.0**-13, "mse": 2.0**-15}


def bounded_choice(
    x: torch.Tensor, gamax: float, d: float, err_mode: str, block: str, lane_elements: int = 8
):
    """The kernel's fast choice for per-tensor ``x`` (R, C): (pick4, decided), both (R, C/16).

    Mirrors ``group``: ``m = RN(|x| inv)``, ``r = round_e2m1(m)``, error sum of
    ``|RN(r - m)|`` (or for mse its square, fused into the add) in order,
    ``p = RN(e y)`` (``y = RN(f s_dec)``,
    squared for mse), then ``choice.choose_by_bound``; a 1x16 group whose candidates
    dequantize to equal values (``same_values``) is decided: the tie it is. A 16x16 tile sums as
    ``tile`` does with ``lane_elements`` (E) per lane: see ``tile_error_sum``.
    Groups outside the fast path (``m >= 7``, NaN) come out undecided or are
    flagged by the kernel anyway.
    """
    rows, cols = x.shape
    g = torch.tensor(gamax, dtype=F32)
    dd = torch.tensor(d, dtype=F32)
    s = torch.fmin(dd / g, torch.tensor(3.4028234663852886e38, dtype=F32))
    s_dec = torch.tensor(1.0, dtype=F32) / s
    ax = x.float().abs().reshape(rows, cols // 16, 16)
    a = ax.amax(dim=2)
    if block == "16x16":
        a = a.reshape(rows // 16, 16, -1).amax(dim=1).repeat_interleave(16, dim=0)
    base = div6(a) * s
    big = torch.tensor(448.0, dtype=F32)
    f4 = torch.fmin(base * torch.tensor(1.5, dtype=F32), big).to(torch.float8_e4m3fn).float()
    f6 = torch.fmin(base, big).to(torch.float8_e4m3fn).float()
    ps, ys, rs = [], [], []
    for f in (f4, f6):
        y = f * s_dec
        inv = torch.fmin(torch.tensor(1.0, dtype=F32) / y, torch.tensor(3.4028234663852886e38))
        m = ax * inv.unsqueeze(2)
        r = round_e2m1(m)
        rs.append(r)
        diff = r - m
        yb = y if err_mode == "mae" else y * y
        yb = torch.where(y > 0, yb, torch.tensor(float("nan")))
        if block == "16x16":
            p = tile_error_sum(diff, lane_elements, err_mode) * yb
        else:
            e = fast_term(diff[:, :, 0], None, err_mode)
            for i in range(1, 16):
                e = fast_term(diff[:, :, i], e, err_mode)
            p = e * yb
        ps.append(p)
        ys.append(yb)
    absolute = CHOICE_ABSOLUTE[err_mode] * (16 if block == "16x16" else 1)
    ok = (g >= d * 2.0**-126) & (g <= 3.4028234663852886e38)
    margin = torch.tensor(absolute if bool(ok) else float("nan"), dtype=F32)
    (p4, p6), (y4, y6) = ps, ys
    m = (p4 + p6) * torch.tensor(CHOICE_RELATIVE[err_mode], dtype=F32) + (y4 + y6) * margin
    delta = p6 - p4
    pick4 = delta > m
    decided = pick4 | (delta < -m) | (f4 == f6)
    if block == "1x16":  # ``group.same_values``: a tie, SPEC keeps map-to-6 (pick4 is False)
        decided = decided | same_values(f4, f6, rs[0], rs[1])
    return pick4, decided


def same_values(f4: torch.Tensor, f6: torch.Tensor, r4: torch.Tensor, r6: torch.Tensor):
    """``group.same_values`` on (R, G) scales and (R, G, 16) magnitudes: ``f4 = 1.5 f6``
    and ``r6 = 1.5 r4`` everywhere, so every ``r4 f4 = r6 f6`` (exact products)."""
    onex5 = torch.tensor(1.5, dtype=F32)
    return (f4 == f6 * onex5) & (r6 == r4 * onex5).all(dim=2)


def codes_off_1_5(c4: torch.Tensor, c6: torch.Tensor, low: int) -> torch.Tensor:
    """``e2m1.codes_off_1_5`` on int64 words: 0 where every code of ``c6`` is 1.5 times
    ``c4``'s (bit 0 of each code at a set bit of ``low``)."""
    nonzero = ((c4 >> 1) | (c4 >> 2)) & low
    return (((nonzero | c4) ^ c6) | (c4 & low)) & 0xFFFFFFFF


def fast_term(diff: torch.Tensor, err: torch.Tensor | None, err_mode: str) -> torch.Tensor:
    """``group.add_fast_error``: ``err + |d|`` (mae), ``RN(err + d d)`` in one fma (mse);
    the first term alone (``err`` None): ``|d|`` or ``RN(d d)``."""
    if err_mode == "mae":
        return diff.abs() if err is None else err + diff.abs()
    return diff * diff if err is None else fma32(diff, diff, err)


def tile_error_sum(diffs: torch.Tensor, lane_elements: int, err_mode: str) -> torch.Tensor:
    """``tile``'s approximate error sum of each 16x16 tile, on every row: (R, C/16).

    ``diffs`` (R, C/16, 16) are the per-element ``RN(r - m)``, summed by
    ``fast_term`` in each lane's chain. A lane holds E
    elements of rows ``r4 + 4 i`` of a tile: a chain per row part, then
    ``(i0 + i2) + (i1 + i3)``, then ``shfl.bfly`` over the parts (xor 1 [, 2]),
    then over r4 (xor 16: r4 ^ 2; xor 8: r4 ^ 1); each lane adds its own
    value first, as the kernel does.
    """
    rows, groups, _ = diffs.shape
    parts = 16 // lane_elements
    t = diffs.reshape(rows, groups, parts, lane_elements)
    chain = fast_term(t[..., 0], None, err_mode)
    for j in range(1, lane_elements):
        chain = fast_term(t[..., j], chain, err_mode)
    chain = chain.reshape(rows // 16, 4, 4, groups, parts)  # row 4 i + r4 -> (i, r4)
    lane = (chain[:, 0] + chain[:, 2]) + (chain[:, 1] + chain[:, 3])  # (tiles, r4, groups, parts)
    for off in [1 << b for b in range(parts.bit_length() - 1)]:
        lane = lane + lane[..., torch.arange(parts) ^ off]
    for off in (2, 1):
        lane = lane + lane[:, torch.arange(4) ^ off]
    return lane[:, 0, :, 0].repeat_interleave(16, dim=0)


# Row-scaled candidates (``choice.row_candidate``): f = 2^e * M_j with M_j = 1 + j/8
# (every E4M3 value, subnormals included, is one as a float32). Per row the kernel
# tabulates Y_j = RN(M_j s_dec) and INV_j = RN(1 / Y_j); a power of two scales
# exactly while nothing is subnormal or overflows, so y = 2^e Y_j and
# inv = 2^-e INV_j wherever y lies in [ROW_Y_LOW, ROW_Y_HIGH]. That range also
# implies ``fast_value_ok`` (f g = y D within 4 ulps when s and s_dec are normal).
ROW_Y_LOW = 2.0**-123
ROW_Y_HIGH = 2.0**110


def row_tables(s_dec: torch.Tensor):
    """Per row (R,): Y (R, 8) and INV (R, 8) for the 8 mantissas ``1 + j/8``."""
    m = 1 + torch.arange(8, dtype=F32) / 8  # exact
    y = m[None, :] * s_dec[:, None]
    return y, torch.tensor(1.0, dtype=F32) / y


def row_candidate(
    f: torch.Tensor, y_row: torch.Tensor, inv_row: torch.Tensor, zero_inv, inv_scale=1.0
):
    """The kernel's (inv, y) for scales ``f`` from one row's tables; inv NaN off the range.

    ``f == 0`` takes ``zero_inv``, the row's inv for a zero scale (FLT_MAX or NaN).
    ``inv_scale`` (``CODE_SCALE`` for E4M3 codes) is folded into ``2^-e``.
    """
    b = bits(f)
    j = (b >> 20) & 7
    e = b & 0x7F800000  # 2^e as float32 bits (0 for f = 0)
    shift = int(math.log2(inv_scale))
    pe, ne = floats(e), floats(0x7F000000 + (shift << 23) - e)  # 2^e and 2^-e inv_scale
    y = y_row[j] * pe
    inv = inv_row[j] * ne
    ok = (y >= ROW_Y_LOW) & (y <= ROW_Y_HIGH)
    nan = torch.tensor(float("nan"), dtype=F32)
    return torch.where(ok, inv, torch.where(f == 0, zero_inv, nan)), y


def zero_scale_inv(gamax: torch.Tensor) -> torch.Tensor:
    """The kernel's inv for a zero scale in a row (``choice.zero_scale_inv``)."""
    ok = (gamax >= 0) & (gamax < float("inf"))
    return torch.where(ok, torch.tensor(3.4028235e38, dtype=F32), torch.tensor(float("nan")))
