"""The eager fast path and its plan cache never serve a plan to a call it does not fit.

Contract: in eager mode on plain tensors the Python API resolves a plan once
per metadata signature (shapes, strides, dtypes, devices, knobs, amax
metadata, strict mode) and reuses it; any change in that metadata is a miss
(a fresh validation), so a bad input always gets the reference's error and a
changed layout always gets a fitting plan. Under fake tensors, subclasses,
modes, ``torch.compile`` or requires-grad inputs the registered op runs instead.
"""

from __future__ import annotations

import pytest
import torch
from torch.overrides import TorchFunctionMode

import fos_op
import fos_reference as ref
from fos_op import plan


@pytest.fixture(autouse=True)
def _fresh_plans():
    fos_op.PLANS.clear()
    yield
    fos_op.PLANS.clear()


def _x(shape=(32, 64), dtype=torch.bfloat16):
    return (torch.randn(shape, generator=torch.Generator().manual_seed(0)) * 2).to(dtype)


def _codes_equal(got, want):
    return torch.equal(got[0], want[0]) and torch.equal(
        got[1].view(torch.uint8), want[1].view(torch.uint8)
    )


def test_repeat_call_hits_one_plan():
    x = _x()
    g = ref.nan_amax(x)
    for _ in range(3):
        fos_op.quantize(x, g)
    assert (fos_op.PLANS.misses, len(fos_op.PLANS)) == (1, 1)
    fos_op.quantize(_x().add(1), g)  # new data, same metadata: the same plan
    assert (fos_op.PLANS.misses, len(fos_op.PLANS)) == (1, 1)


def _variants():
    """Calls that differ from the base call in exactly one piece of metadata."""
    x = _x()
    g = ref.nan_amax(x)
    base = (x, g, {})
    xt = x.t().contiguous().t()  # same shape and values, other strides
    return base, [
        ("strides", (xt, g, {})),
        ("dtype", (x.float(), g, {})),
        ("shape", (x[:16], g, {})),
        ("N-D shape", (x.view(2, 16, 64), g, {})),
        ("block", (x, g, {"block": "16x16"})),
        ("err_mode", (x, g, {"err_mode": "mse"})),
        ("bound", (x, g, {"e4m3_scale_bound": 448})),
        ("amax shape", (x, g.reshape(1), {})),
        ("amax row", (x, ref.nan_amax(x, dim=-1), {})),
        ("amax strides", (x, ref.nan_amax(x, dim=-1).repeat_interleave(2)[::2], {})),
        ("strict", (x, g, {"strict": True})),
    ]


def test_every_metadata_change_is_a_miss_and_fits():
    (x, g, knobs), variants = _variants()
    fos_op.quantize(x, g, **knobs)
    seen = set(fos_op.PLANS.keys())
    for name, (vx, vg, vknobs) in variants:
        misses = fos_op.PLANS.misses
        got = fos_op.quantize(vx, vg, **vknobs)
        assert fos_op.PLANS.misses == misses + 1, f"{name}: served a cached plan"
        vknobs.pop("strict", None)
        assert _codes_equal(got, ref.quantize(vx, vg, **vknobs)), name
        new = set(fos_op.PLANS.keys()) - seen
        assert len(new) == 1, name
        seen |= new


@pytest.mark.parametrize(
    "bad, exc, match",
    [
        ({"e4m3_scale_bound": 256.0}, ValueError, "e4m3_scale_bound must be one of"),
        ({"e4m3_scale_bound": True}, ValueError, "e4m3_scale_bound must be one of"),
        ({"block": ["1x16"]}, ValueError, "block must be one of"),
    ],
)
def test_equal_hashing_knobs_do_not_hit_a_valid_plan(bad, exc, match):
    """256.0 == 256 and True == 1 in a dict: the key keeps each knob's type."""
    x = _x()
    g = ref.nan_amax(x)
    fos_op.quantize(x, g)
    fos_op.quantize(x, g, e4m3_scale_bound=448)
    with pytest.raises(exc, match=match):
        fos_op.quantize(x, g, **bad)


def test_bad_input_never_reaches_a_cached_plan():
    x = _x()
    g = ref.nan_amax(x)
    fos_op.quantize(x, g)
    with pytest.raises(TypeError, match="global_amax must be float32"):
        fos_op.quantize(x, g.double())
    with pytest.raises(ValueError, match="global_amax must hold one element"):
        fos_op.quantize(x.view(2, 16, 64), ref.nan_amax(x, dim=-1))  # flattened (R,) amax
    with pytest.raises(ValueError, match="global_amax must be on"):
        fos_op.quantize(x, g.to("meta"))
    with pytest.raises(TypeError, match="dim must be None or an int"):
        fos_op.nan_amax(x, True)
    assert fos_op.PLANS.misses == 1


def test_each_op_keys_its_own_metadata():
    x = _x((2, 16, 32))
    g = ref.nan_amax(x)
    codes, scales = fos_op.quantize(x, g)
    fos_op.dequantize(codes, scales, g)
    fos_op.dequantize(codes, scales, g, out_dtype=torch.float32)
    fos_op.fake_quantize(x, g)
    fos_op.fake_quantize(x, g, out_dtype=torch.float16)
    fos_op.fake_quantize(x)  # + the per-tensor amax plan; its 0-d amax fits the first plan
    fos_op.nan_amax(x)
    fos_op.nan_amax(x, -1)
    fos_op.quantize_with_amax(x)  # + its own plan
    fos_op.quantize_with_amax(x, dim=-1)  # + a row-scaled quantize plan
    ops = sorted(k[0] for k in fos_op.PLANS.keys())  # noqa: SIM118
    assert ops == sorted(["quantize", "dequantize", "dequantize", "fake_quantize",
                          "fake_quantize", "nan_amax", "nan_amax",
                          "quantize_with_amax", "quantize_with_amax", "quantize"])  # fmt: skip


def test_strict_argument_is_part_of_the_key():
    x = _x()
    g = ref.nan_amax(x)
    fos_op.quantize(x, g)
    fos_op.quantize(x, g, strict=True)
    fos_op.quantize(x, g, strict=False)
    assert fos_op.PLANS.misses == 3


class _CudaLike:
    """Just what ``dispatch.enforce`` reads of a tensor: a CUDA device, some elements."""

    device = torch.device("cuda")

    def numel(self) -> int:
        return 4


def test_a_fallback_plan_reads_fos_strict_on_every_call(monkeypatch):
    """A plan built with ``strict=None`` outlives the environment it was built under:
    its fallback raises once ``FOS_STRICT=1`` is set, and not after it is unset; an
    explicit ``strict=False`` plan never raises."""
    from fos_op import impl
    from fos_op.dispatch import REFERENCE, Decision

    decision = Decision(REFERENCE, "pretend")
    monkeypatch.delenv("FOS_STRICT", raising=False)
    lenient = impl.fallback(decision, _CudaLike(), None, lambda x: "reference")
    never = impl.fallback(decision, _CudaLike(), False, lambda x: "reference")
    assert lenient(_CudaLike()) == "reference"
    monkeypatch.setenv("FOS_STRICT", "1")
    with pytest.raises(fos_op.FallbackError):
        lenient(_CudaLike())
    assert never(_CudaLike()) == "reference"
    with pytest.raises(fos_op.FallbackError):  # built under FOS_STRICT=1: raises at once
        impl.fallback(decision, _CudaLike(), None, lambda x: "reference")
    monkeypatch.setenv("FOS_STRICT", "0")
    assert lenient(_CudaLike()) == "reference"


def test_kernel_source_is_part_of_the_key(monkeypatch):
    """Replacing ``dispatch.cutedsl`` (as the GPU tests do to force the reference) misses."""
    x = _x()
    g = ref.nan_amax(x)
    fos_op.quantize(x, g)
    monkeypatch.setattr(fos_op.dispatch, "cutedsl", lambda: (None, "pretend it is missing"))
    fos_op.quantize(x, g)
    assert fos_op.PLANS.misses == 2


def test_non_eager_calls_go_through_the_op():
    x = _x()
    assert plan.eager(x)
    assert not plan.eager(x.clone().requires_grad_())

    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Mode():
        assert not plan.eager(x)
        fos_op.quantize(x, ref.nan_amax(x))
    assert len(fos_op.PLANS) == 1  # the op's real impl plans too: one entry, reached via the op

    class Sub(torch.Tensor):
        pass

    assert not plan.eager(x.as_subclass(Sub))


def test_plan_cache_is_bounded():
    cache = plan.PlanCache(maxsize=2)
    for i in range(5):
        assert cache.get(i, lambda i=i: lambda: i)() == i
    assert len(cache) <= 2 and cache.misses == 5


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(3.0),  # 0-d
        lambda: torch.tensor([3.0]),  # (1,)
        lambda: torch.arange(9.0)[1:8],  # offset: 4 bytes past the storage's start
        lambda: torch.arange(16.0)[::2],  # strided
        lambda: torch.arange(8.0).reshape(8, 1),  # 2-D, contiguous
    ],
    ids=["0-d", "1", "offset", "strided", "2-D"],
)
def test_amax_vector_is_a_view_where_it_can_be(make):
    """``impl._vec``: the amax as a contiguous (n,) float32 vector, the same values, a
    view of the caller's tensor unless it is strided (then one copy)."""
    from fos_op import impl

    t = make()
    v = impl._vec(t, t.numel())
    assert v.shape == (t.numel(),) and v.stride() == (1,)
    assert torch.equal(v, t.reshape(-1))
    assert (v.data_ptr() == t.data_ptr()) == t.is_contiguous()


def _kernel_amax_layout(g: torch.Tensor, rows: int) -> bool:
    """Whether ``g`` is laid out as the compiled kernels take an amax: 0-d per tensor,
    a contiguous (R,) vector per row."""
    if g.numel() == 1:
        return g.dim() == 0
    return g.shape == (rows,) and g.stride() == (1,)


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(3.0),  # 0-d
        lambda: torch.tensor([3.0]),  # (1,)
        lambda: torch.tensor([[3.0]]),  # (1, 1)
        lambda: torch.arange(9.0)[1:8],  # offset
        lambda: torch.arange(16.0)[::2],  # strided
    ],
    ids=["0-d", "1", "1x1", "offset", "strided"],
)
def test_kernel_amax_is_0d_per_tensor_and_a_vector_per_row(make):
    """``impl._kernel_amax``: one element as a 0-d view (the tensor itself when it is
    0-d already), n elements as ``_vec``'s contiguous (n,) vector; the same values."""
    from fos_op import impl

    t = make()
    k = impl._kernel_amax(t, t.numel())
    assert _kernel_amax_layout(k, t.numel())
    assert torch.equal(k.reshape(-1), t.reshape(-1))
    if t.dim() == 0:
        assert k is t
    assert impl._amax_direct(k)


@pytest.mark.parametrize(
    "shape", [(32, 64), (2, 16, 8), (2, 3, 4, 8), (2, 1, 3, 4, 8), (3, 0, 8), (1, 1, 1, 1)]
)
@pytest.mark.parametrize("dtype", [torch.uint8, torch.float8_e4m3fn, torch.bfloat16])
def test_template_allocates_new_contiguous_tensors(shape, dtype):
    """``impl._template``: ``empty_like`` of it is a new contiguous tensor of ``shape``
    and ``dtype``, every call its own storage; the template itself holds one element
    (a view of it) wherever that gives those strides."""
    from fos_op import impl

    like = impl._template(shape, dtype, torch.device("cpu"))
    a, b = torch.empty_like(like), torch.empty_like(like)
    assert a.shape == shape and a.dtype == dtype and a.is_contiguous()
    assert a.stride() == torch.empty(shape).stride()
    if a.numel() > 1:
        assert a.data_ptr() != b.data_ptr()
    assert like.untyped_storage().nbytes() in (like.element_size(), a.numel() * a.element_size())


class _StubKernels:
    """A kernel module whose compiled quantize writes the reference's bits, checking that
    the plan hands it the kernel's layouts (so the plan's run is tested without a GPU)."""

    def __init__(self):
        self.launches = 0

    def can_run(self, x, global_amax, **knobs):
        return True, ""

    def quantize_launcher(self, x2, amax, block, err_mode, bound):
        def launch(x, g, codes, scales):
            rows, cols = x.shape
            assert x.is_contiguous() and x.data_ptr() % 16 == 0
            assert _kernel_amax_layout(g, rows)
            assert codes.shape == (rows, cols // 2) and codes.dtype == torch.uint8
            assert scales.shape == (rows, cols // 16) and scales.dtype == torch.float8_e4m3fn
            assert codes.is_contiguous() and scales.is_contiguous()
            want = ref.quantize(x, g,
                                block=block, err_mode=err_mode, e4m3_scale_bound=bound)  # fmt: skip
            codes.copy_(want[0])
            scales.copy_(want[1])
            self.launches += 1

        return launch

    def can_run_fake_quantize(self, x, global_amax, **knobs):
        return True, ""

    def fake_quantize_launcher(self, x2, amax, out_dtype, block, err_mode, bound):
        def launch(x, g, out):
            rows, cols = x.shape
            assert x.is_contiguous() and x.data_ptr() % 16 == 0
            assert _kernel_amax_layout(g, rows)
            assert out.shape == (rows, cols) and out.is_contiguous() and out.dtype == out_dtype
            out.copy_(ref.fake_quantize(x, g, block=block, err_mode=err_mode,
                                        e4m3_scale_bound=bound, out_dtype=out_dtype))  # fmt: skip
            self.launches += 1

        return launch


class _StubAmax(_StubKernels):
    def can_run_nan_amax(self, x, dim=None):
        return True, ""

    def nan_amax_launcher(self, x2, per_row):
        def launch(x, out):
            rows, cols = x.shape
            assert x.is_contiguous() and x.data_ptr() % 16 == 0
            assert cols % (16 // x.element_size()) == 0 and x.dtype == x2.dtype
            assert out.dtype == torch.float32 and out.is_contiguous()
            if per_row:
                assert out.shape == (rows,)
                out.copy_(ref.nan_amax(x, dim=1))
            else:
                assert out.dim() == 0 and out.item() == 0  # zero-filled: the kernel max-reduces
                out.copy_(torch.fmax(out, ref.nan_amax(x)))
            self.launches += 1

        return launch


@pytest.mark.parametrize(
    ("shape", "dim", "transposed"),
    [
        ((32, 64), None, False),
        ((8, 12), None, False),  # columns not whole vectors: rows of one vector
        ((2, 16, 64), None, False),
        ((64, 32), None, True),
        ((32, 64), -1, False),
        ((2, 16, 64), -1, False),
        ((64, 32), -1, True),
    ],
)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_nan_amax_kernel_plan_lays_out_and_allocates(monkeypatch, shape, dim, transposed, dtype):
    """The amax kernel plan's run on CPU, the kernel stubbed: per tensor any layout as
    whole 16-byte vectors and a zero-filled 0-d output, per row the (R,) rows of the
    caller's leading shape; the reference's bits on a first and a repeated call."""
    stub = _stub_kernels(monkeypatch, _StubAmax())
    x = _x(shape, dtype)
    x = x.t() if transposed else x
    x[0, 0] = float("nan")  # dropped, as the reference drops it
    for _ in range(2):
        got = fos_op.nan_amax(x, dim=dim)
        want = ref.nan_amax(x, dim=dim)
        assert got.shape == want.shape and got.is_contiguous()
        assert torch.equal(got.view(torch.int32), want.view(torch.int32))
    assert stub.launches == 2 and fos_op.PLANS.misses == 1


class _StubDequantize(_StubKernels):
    def can_run_dequantize(self, codes, scales, global_amax, **knobs):
        return True, ""

    def dequantize_launcher(self, codes_u8, amax, out_dtype, bound):
        def launch(codes, scales, g, out):
            rows, half_cols = codes.shape
            assert codes.dtype == scales.dtype == torch.uint8
            assert codes.is_contiguous() and scales.is_contiguous()
            assert scales.shape == (rows, half_cols // 8)
            assert _kernel_amax_layout(g, rows)
            assert out.shape == (rows, 2 * half_cols) and out.dtype == out_dtype
            scales8 = scales.view(torch.float8_e4m3fn)
            out.copy_(ref.dequantize(codes, scales8, g, e4m3_scale_bound=bound,
                                     out_dtype=out_dtype))  # fmt: skip
            self.launches += 1

        return launch


def _stub_kernels(monkeypatch, stub=None) -> _StubKernels:
    from fos_op import impl
    from fos_op.dispatch import KERNEL, Decision

    stub = stub or _StubKernels()
    monkeypatch.setattr(impl, "decide", lambda x, op="quantize", dtype=None: Decision(KERNEL, ""))
    monkeypatch.setattr(impl, "kernel_module", lambda: stub)
    return stub


def _amax_of(x, amax_shape):
    if amax_shape == ():
        return ref.nan_amax(x)
    if amax_shape == (1,):
        return ref.nan_amax(x).reshape(1)
    return ref.nan_amax(x, dim=-1)


PLAN_CASES = [
    ((32, 64), (), False),
    ((32, 64), (1,), False),
    ((2, 16, 64), (), False),
    ((2, 16, 64), (2, 16), False),
    ((64, 32), (), True),  # x.t(): laid out by one copy
    ((3, 0, 32), (), False),
    ((2, 2, 8, 64), (2, 2, 8), False),  # 4-D: where empty_like could pick channels_last
    ((1, 2, 2, 8, 32), (), False),
]


@pytest.mark.parametrize(("shape", "amax_shape", "transposed"), PLAN_CASES)
def test_fake_quantize_kernel_plan_lays_out_and_allocates(
    monkeypatch, shape, amax_shape, transposed
):
    """The fake-quantize kernel plan's run on CPU, the kernel stubbed: as the quantize
    plan's, for each output dtype; an empty x launches nothing."""
    stub = _stub_kernels(monkeypatch)
    x = _x(shape)
    x = x.t() if transposed else x
    amax = _amax_of(x, amax_shape)
    for out_dtype in (None, torch.float32):
        for _ in range(2):
            got = fos_op.fake_quantize(x, amax, out_dtype=out_dtype)
            want = ref.fake_quantize(x, amax, out_dtype=out_dtype)
            assert got.shape == want.shape and got.dtype == want.dtype and got.is_contiguous()
            assert torch.equal(got.view(torch.uint8), want.view(torch.uint8))
    assert stub.launches == (0 if x.numel() == 0 else 4)


@pytest.mark.parametrize(("shape", "amax_shape", "transposed"), PLAN_CASES)
def test_kernel_plan_lays_out_and_allocates(monkeypatch, shape, amax_shape, transposed):
    """The kernel plan's run on CPU, the kernel stubbed: N-D inputs flattened, the amax
    as a vector, outputs of the caller's leading shape, contiguous, the reference's bits
    on a first and a repeated call."""
    stub = _stub_kernels(monkeypatch)
    x = _x(shape)
    x = x.t() if transposed else x
    amax = _amax_of(x, amax_shape)
    for _ in range(2):
        codes, scales = fos_op.quantize(x, amax)
        want = ref.quantize(x, amax)
        assert codes.shape == want[0].shape and scales.shape == want[1].shape
        assert codes.is_contiguous() and scales.is_contiguous()
        assert scales.dtype == torch.float8_e4m3fn
        assert _codes_equal((codes, scales), want)
    assert stub.launches == 2 and fos_op.PLANS.misses == 1


@pytest.mark.parametrize(("shape", "amax_shape", "transposed"), PLAN_CASES)
def test_dequantize_kernel_plan_lays_out_and_allocates(monkeypatch, shape, amax_shape, transposed):
    """The dequantize kernel plan's run on CPU, the kernel stubbed: N-D codes and scales,
    every amax layout, transposed (copied) codes, each output dtype; empty: no launch."""
    x = _x(shape)
    x = x.t() if transposed else x
    amax = _amax_of(x, amax_shape)
    codes, scales = ref.quantize(x, amax)
    if transposed:  # codes and scales as non-contiguous views of the same values
        codes, scales = codes.t().contiguous().t(), scales.t().contiguous().t()
    stub = _stub_kernels(monkeypatch, _StubDequantize())
    for out_dtype in (torch.bfloat16, torch.float32):
        for _ in range(2):
            got = fos_op.dequantize(codes, scales, amax, out_dtype=out_dtype)
            want = ref.dequantize(codes, scales, amax, out_dtype=out_dtype)
            assert got.shape == want.shape and got.dtype == out_dtype and got.is_contiguous()
            assert torch.equal(got.view(torch.uint8), want.view(torch.uint8))
    assert stub.launches == (0 if x.numel() == 0 else 4)
