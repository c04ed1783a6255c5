"""fos_op's grouped ops give fos_reference.quantize_grouped's bits, eager and compiled.

On the CPU every step runs the reference, so these tests pin the composition
(expert of each row by searchsorted, the amax gather, the segment max) and the
op plumbing: fakes allocate exactly the real outputs, opcheck passes,
torch.compile(fullgraph=True) gives the eager bits, and bad input raises the
reference's errors through the Python API and ``torch.ops.fos.*`` alike.
"""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fos_op
import fos_reference as F

MODES = [("1x16", "mae", 256), ("1x16", "mse", 448), ("16x16", "mae", 448), ("16x16", "mse", 256)]
OPCHECK_UTILS = ("test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
SPLITS = {  # T = 96
    "skewed": [0, 0, 3, 3, 70, 71, 90, 96],
    "one_owns_all": [0, 0, 0, 96, 96],
    "single": [0, 96],
    "by16": [0, 16, 16, 64, 96],
    "odd": [0, 5, 7, 13, 50, 51, 96],
}


def _x(rows, cols, dtype, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(rows, cols, generator=gen) * 3).to(dtype)
    if rows > 10:
        x[3, 5] = float("nan")
        x[7] = 0
        x[9, 2] = float("-inf")
        x[10] = x[10] * 1e-40 if dtype != torch.float16 else x[10] * 1e-6
    return x


def _same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert torch.equal(g.view(torch.uint8), w.view(torch.uint8))


def _splits(block):
    return [s for s, v in SPLITS.items() if block == "1x16" or all(o % 16 == 0 for o in v)]


@pytest.mark.parametrize("block,err_mode,bound", MODES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("offset_dtype", [torch.int32, torch.int64])
def test_grouped_equals_reference(block, err_mode, bound, dtype, offset_dtype):
    x = _x(96, 64, dtype, seed=bound)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    for split in _splits(block):
        offsets = torch.tensor(SPLITS[split], dtype=offset_dtype)
        amax = F.nan_amax_grouped(x, offsets)
        assert torch.equal(fos_op.nan_amax_grouped(x, offsets), amax)
        assert torch.equal(torch.ops.fos.nan_amax_grouped(x, offsets, False), amax)
        want = F.quantize_grouped(x, offsets, amax, **knobs)
        _same(fos_op.quantize_grouped(x, offsets, amax, **knobs), want)
        _same(fos_op.quantize_grouped(x, offsets, amax, check_offsets=True, **knobs), want)
        _same(torch.ops.fos.quantize_grouped(x, offsets, amax, block, err_mode, bound, False), want)
        _same(fos_op.quantize_grouped_with_amax(x, offsets, **knobs), (*want, amax))


@pytest.mark.parametrize("experts", [64, 256])
def test_many_experts(experts):
    x = _x(320, 32, torch.bfloat16, seed=experts)
    gen = torch.Generator().manual_seed(experts)
    cuts = torch.sort(torch.randint(0, 321, (experts - 1,), generator=gen)).values
    offsets = torch.cat((torch.zeros(1, dtype=torch.int64), cuts, torch.tensor([320])))
    amax = F.nan_amax_grouped(x, offsets)
    got = fos_op.quantize_grouped_with_amax(x, offsets, err_mode="mse")
    _same(got, (*F.quantize_grouped(x, offsets, amax, err_mode="mse"), amax))


@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_stacked_equals_reference(block):
    w = _x(96, 48, torch.bfloat16, seed=4).reshape(3, 32, 48)
    amax = F.nan_amax(w.reshape(3, -1), dim=-1)
    want = F.quantize_stacked(w, amax, block=block)
    _same(fos_op.quantize_stacked(w, amax, block=block), want)
    _same(torch.ops.fos.quantize_stacked(w, amax, block, "mae", 256), want)


def test_non_contiguous_input():
    x = _x(64, 96, torch.float32).t()  # (96, 64), a transposed view
    offsets = torch.tensor(SPLITS["odd"])
    amax = F.nan_amax_grouped(x, offsets)
    _same(fos_op.quantize_grouped(x, offsets, amax), F.quantize_grouped(x, offsets, amax))


def test_empty():
    x = torch.zeros(0, 32)
    offsets = torch.zeros(3, dtype=torch.int32)
    codes, scales, amax = fos_op.quantize_grouped_with_amax(x, offsets, block="16x16")
    assert codes.shape == (0, 16) and scales.shape == (0, 2) and torch.equal(amax, torch.zeros(2))


@pytest.mark.parametrize("block,err_mode,bound", MODES)
def test_fakes_match_real(block, err_mode, bound):
    x = _x(96, 64, torch.float16)
    offsets = torch.tensor(SPLITS["by16"], dtype=torch.int32)
    amax = F.nan_amax_grouped(x, offsets)
    w = x.reshape(3, 32, 64)
    calls = [
        (torch.ops.fos.quantize_grouped, (x, offsets, amax, block, err_mode, bound, False)),
        (torch.ops.fos.nan_amax_grouped, (x, offsets, False)),
        (torch.ops.fos.quantize_grouped_with_amax, (x, offsets, block, err_mode, bound, False)),
        (torch.ops.fos.quantize_stacked, (w, amax[:3], block, err_mode, bound)),
    ]
    for op, args in calls:
        real = op(*args)
        with FakeTensorMode() as mode:
            fake = op(*(mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args))
        real = real if isinstance(real, tuple) else (real,)
        fake = fake if isinstance(fake, tuple) else (fake,)
        for r, f in zip(real, fake, strict=True):
            assert (r.shape, r.dtype, r.stride()) == (f.shape, f.dtype, f.stride())


@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_opcheck(block):
    x = _x(64, 32, torch.bfloat16)
    offsets = torch.tensor([0, 16, 16, 64])
    amax = F.nan_amax_grouped(x, offsets)
    for op, args in (
        (torch.ops.fos.quantize_grouped.default, (x, offsets, amax, block, "mse", 448, False)),
        (torch.ops.fos.nan_amax_grouped.default, (x, offsets, True)),
        (torch.ops.fos.quantize_grouped_with_amax.default, (x, offsets, block, "mae", 256, True)),
        (
            torch.ops.fos.quantize_stacked.default,
            (x.reshape(2, 32, 32), amax[:2], block, "mae", 256),
        ),
    ):
        torch.library.opcheck(op, args, test_utils=OPCHECK_UTILS)


@pytest.mark.parametrize("block", ["1x16", "16x16"])
def test_compiled_equals_eager(block):
    x = _x(96, 64, torch.bfloat16, seed=9)
    offsets = torch.tensor(SPLITS["by16"])

    def run(x, offsets):
        codes, scales, amax = fos_op.quantize_grouped_with_amax(x, offsets, block=block)
        again = fos_op.quantize_grouped(x, offsets, amax, block=block, err_mode="mse")
        stacked = fos_op.quantize_stacked(x.reshape(3, 32, 64), amax[:3], block=block)
        return codes, scales, amax, fos_op.nan_amax_grouped(x, offsets), *again, *stacked

    torch._dynamo.reset()
    compiled = torch.compile(run, fullgraph=True)
    _same(compiled(x, offsets), run(x, offsets))
    new = torch.tensor([0, 32, 32, 48, 96])  # another split, same shapes: no recompile needed
    _same(compiled(x, new), run(x, new))


def _good():
    return {"x": torch.randn(32, 32), "offsets": torch.tensor([0, 16, 32]), "amax": torch.ones(2)}


BAD = [
    ({"x": torch.randn(32, 32, dtype=torch.float64)}, TypeError, "x must have dtype"),
    ({"x": torch.randn(2, 16, 32)}, ValueError, "x must be 2-D"),
    ({"offsets": torch.tensor([0.0, 16.0, 32.0])}, TypeError, "offsets must have dtype"),
    ({"offsets": torch.tensor([[0, 16, 32]])}, ValueError, "offsets must be 1-D"),
    ({"offsets": torch.tensor([0, 8, 16, 32])}, ValueError, r"global_amax must have shape \(3,\)"),
    ({"amax": torch.ones(2, dtype=torch.float16)}, TypeError, "global_amax must be float32"),
    ({"amax": torch.ones(3)}, ValueError, r"global_amax must have shape \(2,\)"),
    (
        {"offsets": torch.zeros(3, dtype=torch.int64, device="meta")},
        ValueError,
        "offsets must be on",
    ),
    ({"block": "4x4"}, ValueError, "block must be one of"),
    (
        {"x": torch.randn(24, 32), "block": "16x16", "offsets": torch.tensor([0, 16, 24])},
        ValueError,
        "multiple of 16",
    ),
]
# Need the offsets' values: raised only with check_offsets=True.
BAD_VALUES = [
    ({"offsets": torch.tensor([2, 16, 32])}, r"offsets\[0\] must be 0"),
    ({"offsets": torch.tensor([0, 16, 30])}, r"offsets\[-1\] must be the row count 32"),
    ({"offsets": torch.tensor([0, 20, 12, 32]), "amax": torch.ones(3)}, "non-decreasing"),
    ({"offsets": torch.tensor([0, 8, 32]), "block": "16x16"}, r"multiple of 16, got offsets\[1\]"),
]


def _calls(args, check):
    x, offsets, amax, block = args["x"], args["offsets"], args["amax"], args.get("block", "1x16")
    return [
        lambda: fos_op.quantize_grouped(x, offsets, amax, block=block, check_offsets=check),
        lambda: torch.ops.fos.quantize_grouped(x, offsets, amax, block, "mae", 256, check),
        lambda: fos_op.quantize_grouped_with_amax(x, offsets, block=block, check_offsets=check),
        lambda: torch.ops.fos.quantize_grouped_with_amax(x, offsets, block, "mae", 256, check),
        lambda: F.quantize_grouped(x, offsets, amax, block=block),
    ]


@pytest.mark.parametrize("change,exc,match", BAD)
def test_bad_input_raises_reference_errors(change, exc, match):
    args = {**_good(), **change}
    calls = _calls(args, False)
    if "global_amax" in match:  # the with-amax calls take no amax
        calls = calls[:2] + calls[4:]
    for call in calls:
        with pytest.raises(exc, match=match):
            call()


@pytest.mark.parametrize("change,match", BAD_VALUES)
def test_offset_values_checked_on_request(change, match):
    args = {**_good(), **change}
    for call in _calls(args, True):
        with pytest.raises(ValueError, match=match):
            call()
    if args.get("block", "1x16") == "1x16":
        with pytest.raises(ValueError, match=match):
            fos_op.nan_amax_grouped(args["x"], args["offsets"], check_offsets=True)
    fos_op.quantize_grouped(
        args["x"], args["offsets"], args["amax"], block=args.get("block", "1x16")
    )


def test_bad_stacked():
    with pytest.raises(ValueError, match="N to be a multiple of 16"):
        fos_op.quantize_stacked(torch.randn(2, 8, 32), torch.ones(2), block="16x16")
    with pytest.raises(ValueError, match=r"global_amax must have shape \(2,\)"):
        torch.ops.fos.quantize_stacked(torch.randn(2, 8, 32), torch.ones(()), "1x16", "mae", 256)
