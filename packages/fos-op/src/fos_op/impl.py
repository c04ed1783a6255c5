"""The implementations behind every op: validate, decide, build a plan, run it.

Each public function here is what ``torch.ops.fos.*`` runs on real tensors
and what the Python API calls directly in eager mode. A call looks up its plan
by metadata (``plan.PLANS``); on a miss the ``_resolve_*`` function validates
with the reference's checks (so errors are the reference's ``TypeError`` /
``ValueError``) and ``decide`` picks the kernel or the reference, then the
plan is built. A plan only lays the inputs out for the kernel (contiguous,
16-byte aligned 2-D views: at most one copy), allocates the outputs and
launches. Nothing reads tensor values or copies from the host, so every path
can be captured in a CUDA graph.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import torch

import fos_reference
from fos_reference.validation import (
    check_block_rows,
    check_dequantize_args,
    check_fake_quantize_args,
    check_knobs,
    check_nan_amax_args,
    check_quantize_args,
    check_x,
    flat_rows,
)

from . import dispatch
from .dispatch import KERNEL, REFERENCE, Decision, decide, enforce
from .plan import PLANS, tensor_key
from .shapes import amax_output, dequantize_output, fake_quantize_output

ALIGN_BYTES = 16


# --------------------------------------------------------------------------- layout


def laid_out(t: torch.Tensor, rows: int, cols: int) -> torch.Tensor:
    """``t`` as a contiguous, aligned (rows, cols) tensor: a view when it is one, else one copy."""
    if not t.is_contiguous():
        t = t.contiguous()
    elif t.data_ptr() % ALIGN_BYTES != 0:
        t = t.clone()
    return t.as_strided((rows, cols), (cols, 1))  # canonical strides, whatever size-1 dims carry


def _vec(t: torch.Tensor, n: int) -> torch.Tensor:
    """A one-element or n-element float32 amax as a contiguous (n,) vector: a view when
    it is one (the kernels take the amax 4-byte aligned, as any float32 tensor is)."""
    if t.dim() == 1 and t.stride() == (1,):
        return t
    if t.dim() == 0:
        return t.view(1)
    if not t.is_contiguous():
        t = t.contiguous()
    return t.as_strided((n,), (1,))


def _kernel_amax(t: torch.Tensor, n: int) -> torch.Tensor:
    """A one-element or n-element float32 amax as the compiled kernels take it: 0-d per
    tensor (n == 1), a contiguous (n,) vector per row; a view where it is one."""
    if n == 1:
        return t if t.dim() == 0 else t.reshape(())
    return _vec(t, n)


def _laid_out_fn(t: torch.Tensor, rows: int, cols: int) -> Callable:
    """``fn(t) -> t2d``: a call's tensor as ``laid_out`` makes it, for a plan built on
    ``t``: one with the plan's (rows, cols) strides passes straight if 16-byte aligned."""
    direct = t.dim() == 2 and t.stride() == (cols, 1)

    def fn(t: torch.Tensor) -> torch.Tensor:
        if direct and t.data_ptr() % ALIGN_BYTES == 0:
            return t
        return laid_out(t, rows, cols)

    return fn


def _amax_direct(global_amax: torch.Tensor) -> bool:
    """Whether ``global_amax`` is already as ``_kernel_amax`` makes it (passed straight)."""
    if global_amax.numel() == 1:
        return global_amax.dim() == 0
    return global_amax.dim() == 1 and global_amax.stride() == (1,)


def _kernel_amax_fn(global_amax: torch.Tensor) -> Callable:
    """``fn(g) -> g``: a call's amax as ``_kernel_amax`` makes it, for a plan built on
    ``global_amax`` (its layout decided here once)."""
    if _amax_direct(global_amax):
        return lambda g: g
    n = global_amax.numel()
    return lambda g: _kernel_amax(g, n)


def _kernel_inputs(x: torch.Tensor, global_amax: torch.Tensor, rows: int, cols: int) -> Callable:
    """``fn(x, g) -> (x2d, g)``: a quantize call's inputs in the kernel's layout."""
    x_in, amax_in = _laid_out_fn(x, rows, cols), _kernel_amax_fn(global_amax)
    return lambda x, g: (x_in(x), amax_in(g))


def _template(shape: tuple[int, ...], dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """A tensor whose ``torch.empty_like`` is a new contiguous tensor of ``shape``: the
    allocation with the fewest arguments to parse per call. One element expanded where
    ``empty_like`` makes that contiguous, else a real contiguous tensor of ``shape``
    (never a wrong layout; only the plan's memory differs)."""
    like = torch.empty((), dtype=dtype, device=device).expand(shape)
    want = _contiguous_strides(shape)
    if torch.empty_like(like).stride() == want:
        return like
    return torch.empty_strided(shape, want, dtype=dtype, device=device)


def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The strides of a contiguous tensor of ``shape``, as torch makes them."""
    return torch.empty(shape, device="meta").stride()


def _env(t: torch.Tensor) -> Hashable:
    """What else a plan depends on: the kernel source and, for CUDA, the current device."""
    cuda = isinstance(t, torch.Tensor) and t.is_cuda
    return dispatch.cutedsl, torch.cuda.current_device() if cuda else None


def _typed(v: object) -> tuple[type, object]:
    """A knob in a key with its type: 256.0 and True must not hit the plans of 256 and 1."""
    return type(v), v


def kernel_module():
    return dispatch.cutedsl()[0]


def refused(verdict: tuple[bool, str]) -> Decision:
    """The decision for a kernel that declined the laid-out inputs (``can_run_*``).

    The plan's inputs are laid out (contiguous, aligned) before the kernel's own
    check, so what it can still refuse depends on shapes alone: the same for
    every call the plan serves.
    """
    return Decision(REFERENCE, f"the kernel declined: {verdict[1]}")


def declined(verdict: tuple[bool, str], x: torch.Tensor, strict: bool | None) -> bool:
    """Whether the kernel declined (``can_run_*``); raises in strict mode (no plan kept)."""
    if not verdict[0]:
        enforce(refused(verdict), x, strict)
    return not verdict[0]


def fallback(decision: Decision, x: torch.Tensor, strict: bool | None, reference: Callable):
    """A plan that runs ``reference``: raises now in strict mode. With ``strict=None``
    (``FOS_STRICT`` decides) a CUDA plan reads the variable again on every call, so
    the kernel plans never read it: they cannot fall back."""
    enforce(decision, x, strict)
    if strict is not None or x.device.type != "cuda":
        return reference

    def checked(first: torch.Tensor, *rest):
        enforce(decision, first, None)
        return reference(first, *rest)

    return checked


# --------------------------------------------------------------------------- nan_amax


def resolve_nan_amax(x: torch.Tensor, dim: int | None) -> tuple[Decision, int | None]:
    """Validate ``nan_amax``'s arguments; the decision and ``dim`` made non-negative."""
    dim = check_nan_amax_args(x, dim)
    decision = decide(x, "nan_amax")
    if decision.path == KERNEL and dim is not None and dim != x.dim() - 1:
        decision = Decision(REFERENCE, "the amax kernel reduces per tensor or over the last dim")
    return decision, dim


def _nan_amax_plan(x: torch.Tensor, dim: int | None, strict: bool | None) -> Callable:
    decision, dim = resolve_nan_amax(x, dim)

    def reference(x: torch.Tensor) -> torch.Tensor:
        return fos_reference.nan_amax(x, dim)

    if decision.path != KERNEL:
        return fallback(decision, x, strict, reference)
    module = kernel_module()
    per_row = dim is not None
    cols = x.shape[-1] if x.dim() else 1
    rows = x.numel() // cols
    verdict = module.can_run_nan_amax(laid_out(x, rows, cols), 1 if per_row else None)
    if not verdict[0]:
        return fallback(refused(verdict), x, strict, reference)
    # As the quantize plan: the compiled kernel resolved once, the output allocated by
    # ``empty_like`` of a template, inputs already in the kernel's layout passed straight.
    # Per tensor the kernel reads whole 16-byte vectors in memory order, so any (R, C) of
    # them goes as it is and anything else as rows of one vector.
    per_vector = ALIGN_BYTES // x.element_size()
    if per_row or cols % per_vector == 0:
        x_in = _laid_out_fn(x, rows, cols)
    else:
        x_in = _laid_out_fn(x, x.numel() // per_vector, per_vector)
    fn = module.nan_amax_launcher(x_in(x), per_row)
    like = amax_output(x.to("meta"), dim)
    out_like = _template(tuple(like.shape), torch.float32, x.device)
    flat = like.dim() <= 1  # 0-d per tensor, (R,) per row of a 2-D x

    def run(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(out_like)
        if not per_row:
            out.zero_()  # the kernel max-reduces into it
        fn(x_in(x), out if flat else out.view(rows))
        return out

    return run


def nan_amax(x: torch.Tensor, dim: int | None, strict: bool | None) -> torch.Tensor:
    """``fos_reference.nan_amax``'s bits: the kernel per tensor / per row where it runs."""
    key = ("nan_amax", tensor_key(x), _typed(dim), strict, _env(x))
    return PLANS.get(key, _nan_amax_plan, x, dim, strict)(x)


# --------------------------------------------------------------------------- quantize


def resolve_quantize(x, global_amax, block, err_mode, e4m3_scale_bound) -> Decision:
    """Validate ``quantize``'s arguments and decide its path."""
    check_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound)
    return decide(x, "quantize")


def _quantize_plan(x, global_amax, block, err_mode, bound, strict) -> Callable:
    decision = resolve_quantize(x, global_amax, block, err_mode, bound)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}

    def reference(x: torch.Tensor, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return fos_reference.quantize(x, g, **knobs)

    if decision.path != KERNEL:
        return fallback(decision, x, strict, reference)
    module = kernel_module()
    rows, cols = flat_rows(x.shape), x.shape[-1]
    n = global_amax.numel()
    x2, g1 = laid_out(x, rows, cols), _vec(global_amax, n)
    verdict = module.can_run(x2, g1, **knobs)
    if not verdict[0]:
        return fallback(refused(verdict), x, strict, reference)
    launch = module.quantize_launcher(x2, _kernel_amax(global_amax, n), block, err_mode, bound)
    # Inputs already in the kernel's layout go straight in (checked inline: the
    # most frequent call); outputs are allocated in it (2-D x: no reshaping views).
    x_direct = x.dim() == 2 and x.stride() == (cols, 1)
    g_direct = _amax_direct(global_amax)
    flat = x.dim() == 2
    lead, device = tuple(x.shape[:-1]), x.device
    codes_shape, scales_shape = (*lead, cols // 2), (*lead, cols // 16)
    codes_like = _template(codes_shape, torch.uint8, device)
    scales_like = _template(scales_shape, torch.float8_e4m3fn, device)
    empty_like = torch.empty_like

    def run(x: torch.Tensor, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        codes, scales = empty_like(codes_like), empty_like(scales_like)
        if not (x_direct and x.data_ptr() % ALIGN_BYTES == 0):
            x = laid_out(x, rows, cols)
        if not g_direct:
            g = _kernel_amax(g, n)
        if flat:
            launch(x, g, codes, scales)
        else:
            launch(x, g, codes.view(rows, cols // 2), scales.view(rows, cols // 16))
        return codes, scales

    return run


def quantize(x, global_amax, block, err_mode, e4m3_scale_bound, strict):
    """``fos_reference.quantize``'s bits: the kernel where it runs."""
    g = global_amax
    bound = e4m3_scale_bound
    # The most frequent call: ``tensor_key``, ``_typed`` and ``_env`` inline and flat
    # (the current device as ``torch.cuda.current_device`` reads it, once CUDA is up).
    try:
        key = ("quantize", x.shape, x.stride(), x.dtype, x.device, g.shape, g.stride(),
               g.dtype, g.device, block, err_mode, type(bound), bound, strict,
               dispatch.cutedsl, torch._C._cuda_getDevice() if x.is_cuda else None)  # fmt: skip
        plan = PLANS.lookup(key)
    except (AttributeError, RuntimeError, TypeError):  # not strided, an unhashable knob
        return _quantize_plan(x, g, block, err_mode, bound, strict)(x, g)  # validation raises
    if plan is None:
        plan = PLANS.get(key, _quantize_plan, x, g, block, err_mode, bound, strict)
    return plan(x, g)


# --------------------------------------------------------------------------- quantize_with_amax


def resolve_quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound) -> int | None:
    """Validate ``quantize_with_amax``'s arguments; ``dim`` as ``nan_amax`` takes it."""
    rows, _ = check_x(x)
    check_knobs(block, err_mode, e4m3_scale_bound)
    check_block_rows(block, rows)
    if dim is None:
        return None
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"dim must be None or an int, got {type(dim).__name__}")
    if dim not in (-1, x.dim() - 1):
        raise ValueError(
            f"dim must be None (per tensor) or -1 (per row: the last dimension), got {dim}"
        )
    if block == "16x16":
        raise ValueError("block='16x16' needs a per-tensor global_amax, got one per row")
    return -1


def _fused_row_amax_plan(x, err_mode, bound) -> Callable | None:
    """The one-read row-amax quantize kernel's plan, or None where it cannot run."""
    if decide(x, "quantize_row_amax").path != KERNEL:
        return None
    module = kernel_module()
    rows, cols = flat_rows(x.shape), x.shape[-1]
    ok, _ = module.can_run_quantize_row_amax(
        laid_out(x, rows, cols), err_mode=err_mode, e4m3_scale_bound=bound
    )
    if not ok:
        return None
    launch = module.launch_quantize_row_amax
    lead, device = tuple(x.shape[:-1]), x.device

    def run(x: torch.Tensor):
        amax = torch.empty(lead, dtype=torch.float32, device=device)
        codes = torch.empty((*lead, cols // 2), dtype=torch.uint8, device=device)
        scales = torch.empty((*lead, cols // 16), dtype=torch.uint8, device=device)
        launch(laid_out(x, rows, cols), amax.view(rows), codes.view(rows, cols // 2),
               scales.view(rows, cols // 16), err_mode, bound)  # fmt: skip
        return codes, scales.view(torch.float8_e4m3fn), amax

    return run


def quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound, strict):
    """The NaN-dropping amax of ``x`` (per tensor or per row) and ``quantize`` under it.

    Per row, where the fused kernel runs, the amax comes from the same read of
    ``x`` as the codes; otherwise it is ``nan_amax`` followed by ``quantize``.
    """
    key = ("quantize_with_amax", tensor_key(x), _typed(dim), block, err_mode,
           _typed(e4m3_scale_bound), strict, _env(x))  # fmt: skip

    def build() -> Callable:
        amax_dim = resolve_quantize_with_amax(x, dim, block, err_mode, e4m3_scale_bound)
        if amax_dim is not None:
            fused = _fused_row_amax_plan(x, err_mode, e4m3_scale_bound)
            if fused is not None:
                return fused

        def run(x: torch.Tensor):
            gamax = nan_amax(x, amax_dim, strict)
            return (*quantize(x, gamax, block, err_mode, e4m3_scale_bound, strict), gamax)

        return run

    return PLANS.get(key, build)(x)


# --------------------------------------------------------------------------- dequantize


def resolve_dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype) -> Decision:
    """Validate ``dequantize``'s arguments and decide its path."""
    check_dequantize_args(codes, scales, global_amax, e4m3_scale_bound, out_dtype)
    return decide(codes, "dequantize", dtype=out_dtype)


def _dequantize_plan(codes, scales, global_amax, bound, out_dtype, strict) -> Callable:
    decision = resolve_dequantize(codes, scales, global_amax, bound, out_dtype)

    def reference(c: torch.Tensor, s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return fos_reference.dequantize(c, s, g, e4m3_scale_bound=bound, out_dtype=out_dtype)

    if decision.path != KERNEL:
        return fallback(decision, codes, strict, reference)
    module = kernel_module()
    rows, half_cols = flat_rows(codes.shape), codes.shape[-1]
    n = global_amax.numel()
    inputs = (
        laid_out(codes, rows, half_cols),
        laid_out(scales.view(torch.uint8), rows, half_cols // 8).view(torch.float8_e4m3fn),
        _vec(global_amax, n),
    )
    verdict = module.can_run_dequantize(*inputs, e4m3_scale_bound=bound, out_dtype=out_dtype)
    if not verdict[0]:
        return fallback(refused(verdict), codes, strict, reference)
    # As the quantize plan: the compiled kernel resolved once, the output allocated by
    # ``empty_like`` of a template, inputs already in the kernel's layout passed straight.
    groups = half_cols // 8
    empty = rows * half_cols == 0  # nothing to launch
    compiled = (
        None
        if empty
        else module.dequantize_launcher(inputs[0], _kernel_amax(global_amax, n), out_dtype, bound)
    )
    like = dequantize_output(codes.to("meta"), out_dtype)
    out_like = _template(tuple(like.shape), out_dtype, codes.device)
    codes_in = _laid_out_fn(codes, rows, half_cols)
    scales_in = _laid_out_fn(scales.view(torch.uint8), rows, groups)
    amax_in = _kernel_amax_fn(global_amax)
    flat = codes.dim() == 2
    u8 = torch.uint8

    def run(c: torch.Tensor, s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(out_like)
        if not empty:
            out2 = out if flat else out.view(rows, 2 * half_cols)
            compiled(codes_in(c), scales_in(s.view(u8)), amax_in(g), out2)
        return out

    return run


def dequantize(codes, scales, global_amax, e4m3_scale_bound, out_dtype, strict):
    """``fos_reference.dequantize``'s bits: the kernel where it runs."""
    key = ("dequantize", tensor_key(codes), tensor_key(scales), tensor_key(global_amax),
           _typed(e4m3_scale_bound), out_dtype, strict, _env(codes))  # fmt: skip

    plan = PLANS.get(
        key, _dequantize_plan, codes, scales, global_amax, e4m3_scale_bound, out_dtype, strict
    )
    return plan(codes, scales, global_amax)


# --------------------------------------------------------------------------- fake_quantize


def resolve_fake_quantize(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype):
    """Validate ``fake_quantize``'s arguments (``global_amax`` given) and decide its path."""
    check_fake_quantize_args(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype)
    return decide(x, "fake_quantize")


def _fake_quantize_plan(x, global_amax, block, err_mode, bound, out_dtype, strict) -> Callable:
    decision = resolve_fake_quantize(x, global_amax, block, err_mode, bound, out_dtype)
    knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}

    def reference(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        return fos_reference.fake_quantize(x, g, out_dtype=out_dtype, **knobs)

    if decision.path != KERNEL:
        return fallback(decision, x, strict, reference)
    module = kernel_module()
    rows, cols = flat_rows(x.shape), x.shape[-1]
    n = global_amax.numel()
    verdict = module.can_run_fake_quantize(
        laid_out(x, rows, cols), _vec(global_amax, n), out_dtype=out_dtype, **knobs
    )
    if not verdict[0]:
        return fallback(refused(verdict), x, strict, reference)
    # As the quantize plan: the compiled kernel resolved once, the output allocated by
    # ``empty_like`` of a template, inputs already laid out passed straight.
    empty = rows * cols == 0  # nothing to launch
    compiled = None if empty else module.fake_quantize_launcher(
        laid_out(x, rows, cols), _kernel_amax(global_amax, n), out_dtype or x.dtype,
        block, err_mode, bound,
    )  # fmt: skip
    like = fake_quantize_output(x.to("meta"), out_dtype)
    out_like = _template(tuple(like.shape), like.dtype, x.device)
    inputs = _kernel_inputs(x, global_amax, rows, cols)
    flat = x.dim() == 2

    def run_compiled(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(out_like)
        if not empty:
            x, g = inputs(x, g)
            compiled(x, g, out if flat else out.view(rows, cols))
        return out

    return run_compiled


def fake_quantize(x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype, strict):
    """``fos_reference.fake_quantize``'s bits; ``global_amax`` None: the per-tensor amax of x."""
    if global_amax is None:
        global_amax = nan_amax(x, None, strict)
    key = ("fake_quantize", tensor_key(x), tensor_key(global_amax), block, err_mode,
           _typed(e4m3_scale_bound), out_dtype, strict, _env(x))  # fmt: skip

    plan = PLANS.get(
        key, _fake_quantize_plan, x, global_amax, block, err_mode, e4m3_scale_bound, out_dtype,
        strict,
    )  # fmt: skip
    return plan(x, global_amax)
