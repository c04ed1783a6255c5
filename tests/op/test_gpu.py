"""On a GPU: the op takes the kernel when eligible and gives the reference's bits.

Skips without CUDA or without fos-cutedsl. Checks that explain() names the
kernel, that eager and compiled results equal fos_reference bit for bit in
every mode, that non-contiguous inputs still work, and that a fallback is
correct and raises in strict mode.
"""

from __future__ import annotations

import pytest
import torch

import fos_op
import fos_reference
from fos_op import dispatch

pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
    pytest.mark.skipif(
        torch.cuda.is_available() and dispatch.cutedsl()[0] is None,
        reason="fos-cutedsl is not importable",
    ),
]

MODES = [
    (block, err_mode, bound, row_scaled)
    for block in ("1x16", "16x16")
    for err_mode in ("mae", "mse")
    for bound in (256, 448)
    for row_scaled in ((False, True) if block == "1x16" else (False,))
]


def _inputs(rows, cols, dtype, row_scaled, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = (torch.randn(rows, cols, device="cuda", generator=gen) * 5).to(dtype)
    x[0, 1] = float("nan")
    x[1, :16] = 0
    gamax = fos_reference.nan_amax(x, dim=1) if row_scaled else fos_reference.nan_amax(x)
    return x, gamax


def _kernels():
    module = dispatch.cutedsl()[0]
    return dispatch.kernels(module) if module is not None else frozenset()


def _needs(op):
    return pytest.mark.skipif(
        torch.cuda.is_available() and op not in _kernels(),
        reason=f"this fos-cutedsl has no {op} kernel (fos_cutedsl.KERNELS)",
    )


def _bits_equal(a, b):
    """Bitwise equality with every NaN counted equal (SPEC leaves only NaN-ness)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    nan_a, nan_b = torch.isnan(a.float()), torch.isnan(b.float())
    if not torch.equal(nan_a, nan_b):
        return False
    width = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[a.element_size()]
    return torch.equal(a.view(width)[~nan_a], b.view(width)[~nan_a])


def _same(got, want):
    return torch.equal(got[0], want[0]) and torch.equal(
        got[1].view(torch.uint8), want[1].view(torch.uint8)
    )


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_kernel_path_matches_reference(block, err_mode, bound, row_scaled, dtype):
    x, gamax = _inputs(96, 256, dtype, row_scaled, seed=7)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    assert fos_op.explain(x, gamax, **knobs).path == "cutedsl"
    want = fos_reference.quantize(x, gamax, **knobs)
    assert _same(fos_op.quantize(x, gamax, strict=True, **knobs), want)
    torch._dynamo.reset()  # a fresh compile per mode: no recompile limit across the sweep
    compiled = torch.compile(lambda x, g: fos_op.quantize(x, g, **knobs), fullgraph=True)
    assert _same(compiled(x, gamax), want)


def test_non_contiguous_input_is_copied_for_the_kernel():
    x, gamax = _inputs(64, 128, torch.bfloat16, False, seed=1)
    xt = x.t().contiguous().t()  # same values, column-major
    decision = fos_op.explain(xt, gamax)
    assert decision.path == "cutedsl" and "copied" in decision.reason
    assert _same(fos_op.quantize(xt, gamax), fos_reference.quantize(x, gamax))


def test_fallback_is_correct_and_strict_raises(monkeypatch):
    x, gamax = _inputs(32, 64, torch.bfloat16, False, seed=2)
    monkeypatch.setattr(dispatch, "cutedsl", lambda: (None, "pretend it is missing"))
    decision = fos_op.explain(x, gamax)
    assert decision.path == "reference" and "pretend" in decision.reason
    assert _same(fos_op.quantize(x, gamax), fos_reference.quantize(x, gamax))
    with pytest.raises(fos_op.FallbackError):
        fos_op.quantize(x, gamax, strict=True)
    monkeypatch.setenv("FOS_STRICT", "1")
    with pytest.raises(fos_op.FallbackError):
        torch.ops.fos.quantize(x, gamax, "1x16", "mae", 256)


def _amax_layouts(gamax):
    """The same amax values laid out as callers hold them: as given, 4 bytes past a
    16-byte boundary, and (per row) every other element of a wider tensor."""
    n = gamax.numel()
    shifted = torch.full((n + 1,), float("nan"), device=gamax.device)[1:].view(gamax.shape)
    shifted.copy_(gamax)
    layouts = [gamax, shifted]
    if gamax.dim() == 0:
        layouts.append(gamax.reshape(1))
    else:
        strided = torch.full((2 * n,), float("nan"), device=gamax.device)[::2]
        strided.copy_(gamax)
        layouts.append(strided)
    return layouts


@pytest.mark.parametrize("row_scaled", [False, True])
def test_amax_as_view_offset_or_strided_gives_the_same_bits(row_scaled):
    """The plans take a 0-d, (1,), misaligned or strided amax as a view or a copy:
    every op that reads an amax gives the reference's bits for each (the plan cache
    keys on the amax's strides, so each layout resolves its own plan)."""
    x, gamax = _inputs(64, 256, torch.bfloat16, row_scaled, seed=11)
    want = fos_reference.quantize(x, gamax)
    want_fake = fos_reference.fake_quantize(x, gamax)
    for g in _amax_layouts(gamax):
        assert torch.equal(g.reshape(gamax.shape), gamax)
        assert _same(fos_op.quantize(x, g, strict=True), want), g.stride()
        assert _bits_equal(fos_op.fake_quantize(x, g, strict=True), want_fake)
        got = fos_op.dequantize(*want, g, strict=True)
        assert _bits_equal(got, fos_reference.dequantize(*want, gamax))


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_second_device():
    x, gamax = _inputs(32, 64, torch.bfloat16, False, seed=3)
    x1, g1 = x.to("cuda:1"), gamax.to("cuda:1")
    got = fos_op.quantize(x1, g1, strict=True)
    want = fos_reference.quantize(x1, g1)
    assert got[0].device == x1.device and _same(got, want)


ND_SHAPES = [(96, 256), (2, 48, 256), (4, 6, 4, 256)]


@_needs("nan_amax")
@pytest.mark.parametrize("shape", ND_SHAPES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_nan_amax_kernel_matches_reference(shape, dtype):
    x, _ = _inputs(96, 256, dtype, False, seed=11)
    x = x.reshape(shape)
    for dim in (None, -1):
        want = fos_reference.nan_amax(x, dim)
        assert _bits_equal(fos_op.nan_amax(x, dim, strict=True), want)
    assert _bits_equal(
        fos_op.nan_amax(torch.zeros(0, 16, device="cuda")), torch.zeros((), device="cuda")
    )


@_needs("dequantize")
@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_dequantize_kernel_matches_reference(block, err_mode, bound, row_scaled, out_dtype):
    x, gamax = _inputs(96, 256, torch.bfloat16, row_scaled, seed=12)
    codes, scales = fos_reference.quantize(x, gamax, block=block, err_mode=err_mode,
                                           e4m3_scale_bound=bound)  # fmt: skip
    want = fos_reference.dequantize(
        codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype
    )
    got = fos_op.dequantize(codes, scales, gamax, e4m3_scale_bound=bound, out_dtype=out_dtype,
                            strict=True)  # fmt: skip
    assert _bits_equal(got, want)


@_needs("fake_quantize")
@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_fake_quantize_kernel_matches_reference(block, err_mode, bound, row_scaled, dtype):
    x, gamax = _inputs(96, 256, dtype, row_scaled, seed=13)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    for out_dtype in (None, torch.float32):
        want = fos_reference.fake_quantize(x, gamax, out_dtype=out_dtype, **knobs)
        got = fos_op.fake_quantize(x, gamax, out_dtype=out_dtype, strict=True, **knobs)
        assert _bits_equal(got, want)


@_needs("nan_amax")
@pytest.mark.parametrize("block,err_mode,bound,row_scaled", MODES)
@pytest.mark.parametrize("shape", ND_SHAPES)
def test_quantize_with_amax_kernel_matches_reference(block, err_mode, bound, row_scaled, shape):
    x, _ = _inputs(96, 256, torch.bfloat16, False, seed=14)
    x = x.reshape(shape)
    if block == "16x16" and x.numel() // x.shape[-1] % 16:
        pytest.skip("16x16 needs 16k flattened rows")
    dim = -1 if row_scaled else None
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    gamax = fos_reference.nan_amax(x, dim)
    want = fos_reference.quantize(x, gamax, **knobs)
    codes, scales, got_amax = fos_op.quantize_with_amax(x, dim=dim, strict=True, **knobs)
    assert _same((codes, scales), want) and _bits_equal(got_amax, gamax)


def _graph_jobs(x, gamax):
    codes, scales = fos_reference.quantize(x, gamax)
    return {
        "nan_amax": lambda: fos_op.nan_amax(x, -1),
        "quantize": lambda: fos_op.quantize(x, gamax),
        "quantize_with_amax": lambda: fos_op.quantize_with_amax(x),
        "dequantize": lambda: fos_op.dequantize(codes, scales, gamax),
        "fake_quantize": lambda: fos_op.fake_quantize(x, gamax),
        "fake_quantize(amax None)": lambda: fos_op.fake_quantize(x),
    }


@pytest.mark.parametrize("force_reference", [False, True], ids=["kernel", "reference"])
@pytest.mark.parametrize("shape", [(64, 128), (2, 32, 128)])
def test_cuda_graph_capture_and_replay(monkeypatch, force_reference, shape):
    """Every op captures (no host sync, no host copy) and replays on new data."""
    if force_reference:
        monkeypatch.setattr(dispatch, "cutedsl", lambda: (None, "forced reference"))
    x, _ = _inputs(64, 128, torch.bfloat16, False, seed=15)
    x = x.reshape(shape).clone()
    gamax = fos_reference.nan_amax(x)
    for name, job in _graph_jobs(x, gamax).items():
        job()  # plans and kernels resolved outside the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = job()
        gen = torch.Generator(device="cuda").manual_seed(99)
        x.copy_(torch.randn(x.shape, device="cuda", generator=gen).to(x.dtype) * 7)
        gamax.copy_(fos_reference.nan_amax(x))
        graph.replay()
        torch.cuda.synchronize()
        want = job()
        outs = out if isinstance(out, tuple) else (out,)
        wants = want if isinstance(want, tuple) else (want,)
        for o, w in zip(outs, wants, strict=True):
            assert _bits_equal(o, w), name


# --------------------------------------------------------------------------- grouped (experts)

GROUPED_SPLITS = ([0, 0, 5, 5, 130, 131, 200, 256], [0, 256], [0, 32, 32, 48, 160, 256])


@pytest.mark.parametrize("err_mode,bound", [("mae", 256), ("mse", 448)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_grouped_kernel_path_matches_reference(err_mode, bound, dtype):
    """Grouped quantize (1x16, 16x16) and amax run their one-launch kernels (strict)."""
    x, _ = _inputs(256, 512, dtype, False, seed=21)
    for split in GROUPED_SPLITS:
        offsets = torch.tensor(split, device="cuda", dtype=torch.int32)
        amax = fos_reference.nan_amax_grouped(x, offsets)
        assert _bits_equal(fos_op.nan_amax_grouped(x, offsets, strict=True), amax)
        for block in ("1x16", "16x16"):
            if block == "16x16" and any(o % 16 for o in split):
                continue
            knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
            want = fos_reference.quantize_grouped(x, offsets, amax, **knobs)
            assert _same(fos_op.quantize_grouped(x, offsets, amax, strict=True, **knobs), want)
            codes, scales, got = fos_op.quantize_grouped_with_amax(x, offsets, strict=True, **knobs)
            assert _same((codes, scales), want) and _bits_equal(got, amax)


def test_grouped_compiled_fullgraph_on_gpu():
    """torch.compile(fullgraph=True) of every grouped op on the kernel path: the
    reference's bits, and a new split of the same shapes runs without a recompile."""
    x, _ = _inputs(256, 2048, torch.bfloat16, False, seed=25)
    w = x.reshape(4, 64, 2048)
    w_amax = fos_reference.nan_amax(x.reshape(4, -1), dim=-1)

    def run(x, offsets, w_amax):
        codes, scales, amax = fos_op.quantize_grouped_with_amax(x, offsets)
        again = fos_op.quantize_grouped(x, offsets, amax, block="16x16", err_mode="mse")
        stacked = fos_op.quantize_stacked(w, w_amax)
        return codes, scales, amax, fos_op.nan_amax_grouped(x, offsets), *again, *stacked

    def want(x, offsets, w_amax):
        amax = fos_reference.nan_amax_grouped(x, offsets)
        again = fos_reference.quantize_grouped(x, offsets, amax, block="16x16", err_mode="mse")
        return (
            *fos_reference.quantize_grouped(x, offsets, amax), amax, amax, *again,
            *fos_reference.quantize_stacked(w, w_amax),
        )  # fmt: skip

    torch._dynamo.reset()
    compiled = torch.compile(run, fullgraph=True)
    for i, split in enumerate(([0, 32, 32, 48, 160, 256], [0, 16, 16, 96, 96, 256])):
        offsets = torch.tensor(split, device="cuda", dtype=torch.int64)
        with torch._dynamo.config.patch(error_on_recompile=i > 0):
            got = compiled(x, offsets, w_amax)
        for j, (g, r) in enumerate(zip(got, want(x, offsets, w_amax), strict=True)):
            assert _bits_equal(g, r), f"output {j}, split {split}"


@pytest.mark.parametrize("force_reference", [False, True], ids=["kernel", "reference"])
def test_grouped_graph_replay_with_new_offsets(monkeypatch, force_reference):
    """Captured once, replayed with a new split (same T): the new split's bits."""
    if force_reference:
        monkeypatch.setattr(dispatch, "cutedsl", lambda: (None, "forced reference"))
    x, _ = _inputs(256, 256, torch.bfloat16, False, seed=23)
    offsets = torch.tensor(GROUPED_SPLITS[2], device="cuda", dtype=torch.int64)
    amax = fos_reference.nan_amax_grouped(x, offsets)
    w, w_amax = x.reshape(4, 64, 256), fos_reference.nan_amax(x.reshape(4, -1), dim=-1)
    jobs = {
        "nan_amax_grouped": lambda: fos_op.nan_amax_grouped(x, offsets),
        "quantize_grouped 1x16": lambda: fos_op.quantize_grouped(x, offsets, amax),
        "quantize_grouped 16x16": lambda: fos_op.quantize_grouped(x, offsets, amax, block="16x16"),
        "with_amax 1x16": lambda: fos_op.quantize_grouped_with_amax(x, offsets, err_mode="mse"),
        "with_amax 16x16": lambda: fos_op.quantize_grouped_with_amax(x, offsets, block="16x16"),
        "stacked": lambda: fos_op.quantize_stacked(w, w_amax),
    }
    wants = {
        "nan_amax_grouped": lambda: fos_reference.nan_amax_grouped(x, offsets),
        "quantize_grouped 1x16": lambda: fos_reference.quantize_grouped(x, offsets, amax),
        "quantize_grouped 16x16": lambda: fos_reference.quantize_grouped(
            x, offsets, amax, block="16x16"
        ),
        "with_amax 1x16": lambda: (
            *fos_reference.quantize_grouped(
                x, offsets, fos_reference.nan_amax_grouped(x, offsets), err_mode="mse"
            ),
            fos_reference.nan_amax_grouped(x, offsets),
        ),
        "with_amax 16x16": lambda: (
            *fos_reference.quantize_grouped(
                x, offsets, fos_reference.nan_amax_grouped(x, offsets), block="16x16"
            ),
            fos_reference.nan_amax_grouped(x, offsets),
        ),
        "stacked": lambda: fos_reference.quantize_stacked(w, w_amax),
    }
    for name, job in jobs.items():
        offsets.copy_(torch.tensor(GROUPED_SPLITS[2], device="cuda"))
        amax.copy_(fos_reference.nan_amax_grouped(x, offsets))
        job()  # plans and kernels resolved outside the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = job()
        offsets.copy_(torch.tensor([0, 16, 16, 96, 96, 96, 256], device="cuda")[: offsets.numel()])
        offsets[-1] = 256
        amax.copy_(fos_reference.nan_amax_grouped(x, offsets) * 1.5)
        w_amax.mul_(0.75)
        graph.replay()
        torch.cuda.synchronize()
        want = wants[name]()
        outs = out if isinstance(out, tuple) else (out,)
        want = want if isinstance(want, tuple) else (want,)
        for o, r in zip(outs, want, strict=True):
            assert _bits_equal(o, r), name


# --------------------------------------------------------------------------- layouts (issue 26)


@pytest.mark.parametrize("block,err_mode,bound,row_scaled", [m for m in MODES if not m[3]])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_rowwise_columnwise_kernel_path_matches_reference(
    block, err_mode, bound, row_scaled, dtype
):
    """Both layouts through the quantize kernel (strict), swizzled or not: the reference's bits."""
    x, gamax = _inputs(144, 80, dtype, False, seed=31)  # R % 128 != 0, G = 5 and 9
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
    rows = fos_reference.quantize(x, gamax, **knobs)
    cols = fos_reference.quantize(x.t().contiguous(), gamax, **knobs)
    assert _same(fos_reference.quantize_columnwise(x, gamax, **knobs), cols)
    for swizzle in (False, True):
        got = fos_op.quantize_rowwise_columnwise(x, gamax, swizzle=swizzle, strict=True, **knobs)
        rs, cs = rows[1], cols[1]
        if swizzle:
            rs, cs = fos_reference.swizzle_scales(rs), fos_reference.swizzle_scales(cs)
            cpu = fos_reference.swizzle_scales(cols[1].cpu())
            assert torch.equal(cs.cpu().view(torch.uint8), cpu.view(torch.uint8))
        assert _same(got[:2], (rows[0], rs)) and _same(got[2:4], (cols[0], cs))
    assert _same(fos_op.quantize_columnwise(x, gamax, strict=True, **knobs), cols)
    want_hat = fos_reference.fake_quantize_columnwise(x, gamax, **knobs)
    got_hat = fos_op.fake_quantize_columnwise(x, gamax, **knobs)
    assert got_hat.stride() == want_hat.stride() and _bits_equal(got_hat, want_hat)


def test_rowwise_alone_with_a_row_amax_is_row_scaled():
    """Rowwise alone may take a row-scaled amax: never the one-read kernel's per-tensor one."""
    x, gamax = _inputs(96, 160, torch.bfloat16, True, seed=35)
    got = fos_op.quantize_rowwise_columnwise(x, gamax, columnwise=False, strict=True)
    assert _same(got[:2], fos_reference.quantize(x, gamax))
    assert got[2] is None and got[3] is None


@pytest.mark.parametrize("force_reference", [False, True], ids=["kernel", "reference"])
def test_layouts_graph_capture_and_replay(monkeypatch, force_reference):
    """Rowwise + columnwise (+ swizzle) and the columnwise fake-quantize capture and replay."""
    if force_reference:
        monkeypatch.setattr(dispatch, "cutedsl", lambda: (None, "forced reference"))
    x, _ = _inputs(160, 96, torch.bfloat16, False, seed=33)
    gamax = fos_reference.nan_amax(x)
    jobs = {
        "both": lambda: tuple(fos_op.quantize_rowwise_columnwise(x, gamax)[:4]),
        "both swizzled": lambda: tuple(
            fos_op.quantize_rowwise_columnwise(x, gamax, swizzle=True, block="16x16")[:4]
        ),
        "both swizzled 1x16": lambda: tuple(
            fos_op.quantize_rowwise_columnwise(x, gamax, swizzle=True, err_mode="mse")[:4]
        ),
        "columnwise": lambda: fos_op.quantize_columnwise(x, gamax, err_mode="mse"),
        "fake columnwise": lambda: fos_op.fake_quantize_columnwise(x, gamax),
        "swizzle": lambda: fos_op.swizzle_scales(fos_op.quantize(x, gamax)[1]),
    }
    wants = {
        "both": lambda: (
            *fos_reference.quantize(x, gamax),
            *fos_reference.quantize_columnwise(x, gamax),
        ),
        "both swizzled": lambda: tuple(
            t if i % 2 == 0 else fos_reference.swizzle_scales(t)
            for i, t in enumerate(
                (
                    *fos_reference.quantize(x, gamax, block="16x16"),
                    *fos_reference.quantize_columnwise(x, gamax, block="16x16"),
                )
            )
        ),
        "both swizzled 1x16": lambda: tuple(
            t if i % 2 == 0 else fos_reference.swizzle_scales(t)
            for i, t in enumerate(
                (
                    *fos_reference.quantize(x, gamax, err_mode="mse"),
                    *fos_reference.quantize_columnwise(x, gamax, err_mode="mse"),
                )
            )
        ),
        "columnwise": lambda: fos_reference.quantize_columnwise(x, gamax, err_mode="mse"),
        "fake columnwise": lambda: fos_reference.fake_quantize_columnwise(x, gamax),
        "swizzle": lambda: fos_reference.swizzle_scales(fos_reference.quantize(x, gamax)[1]),
    }
    for name, job in jobs.items():
        job()  # plans and kernels resolved outside the capture
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = job()
        gen = torch.Generator(device="cuda").manual_seed(hash(name) % 1000)
        x.copy_(torch.randn(x.shape, device="cuda", generator=gen).to(x.dtype) * 3)
        gamax.copy_(fos_reference.nan_amax(x))
        graph.replay()
        torch.cuda.synchronize()
        want = wants[name]()
        outs = out if isinstance(out, tuple) else (out,)
        want = want if isinstance(want, tuple) else (want,)
        for o, w in zip(outs, want, strict=True):
            assert _bits_equal(o, w), name
