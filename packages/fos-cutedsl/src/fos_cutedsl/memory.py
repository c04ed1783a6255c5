"""Memory and warp instructions pinned in inline PTX: loads, stores, L2 prefetches,
atomics and shuffles.

Each but ``load_v4_if`` (a pure load of x) has side effects
(``has_side_effects=True``), so the compiler keeps it where the kernel puts it:
a reload is not merged with the first load of the same address, a predicated
store is not turned into a branch, a prefetch is not dropped for having no result.
"""

from __future__ import annotations

from cutlass import Float32, Int32, Int64
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T, dsl_user_op

from .ieee import _asm, _f, _i


@dsl_user_op
def reload_v4(addr, *, loc=None, ip=None) -> tuple[Int32, Int32, Int32, Int32]:
    """Four 32-bit words at the 16-byte aligned global address ``addr``, loaded again.

    ``ld.global.v4`` marked as having side effects, so the compiler neither
    merges it with the group's first load nor keeps that load's registers
    alive for it: the rare exact-error branch rereads its group (an L1/L2 hit).
    """
    quad = llvm.StructType.get_literal([T.i32()] * 4)
    text = "ld.global.v4.u32 {$0, $1, $2, $3}, [$4];"
    res = _asm(quad, [Int64(addr).ir_value(loc=loc, ip=ip)], text, "=r,=r,=r,=r,l", True)
    return tuple(Int32(llvm.extractvalue(T.i32(), res, [i], loc=loc, ip=ip)) for i in range(4))


@dsl_user_op
def load_v4_if(mask, addr, *, loc=None, ip=None) -> tuple[Int32, Int32, Int32, Int32]:
    """``ld.global.v4.u32`` at the 16-byte aligned ``addr`` where ``mask`` is nonzero, else 0s.

    Pure (x is never written here); predicated, so a slot past the row's end
    costs no memory traffic, and its zeros leave a running max unchanged.
    """
    quad = llvm.StructType.get_literal([T.i32()] * 4)
    text = (
        "{ .reg .pred p; setp.ne.u32 p, $4, 0;"
        " mov.b32 $0, 0; mov.b32 $1, 0; mov.b32 $2, 0; mov.b32 $3, 0;"
        " @p ld.global.v4.u32 {$0, $1, $2, $3}, [$5]; }"
    )
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
    res = _asm(quad, ops, text, "=r,=r,=r,=r,r,l")
    return tuple(Int32(llvm.extractvalue(T.i32(), res, [i], loc=loc, ip=ip)) for i in range(4))


@dsl_user_op
def store_shared_v4_if(mask, addr, words, *, loc=None, ip=None) -> None:
    """``st.shared.v4.b32`` of four words at the shared ``addr`` where ``mask`` is nonzero."""
    text = "{ .reg .pred p; setp.ne.u32 p, $0, 0; @p st.shared.v4.b32 [$1], {$2, $3, $4, $5}; }"
    ops = [_i(mask, loc, ip), _i(addr, loc, ip)] + [_i(w, loc, ip) for w in words]
    _asm(None, ops, text, "r,r,r,r,r,r", side_effects=True)


@dsl_user_op
def store_shared_if(mask, addr, value, *, loc=None, ip=None) -> None:
    """``st.shared.b32`` of ``value`` at the shared ``addr`` where ``mask`` is nonzero."""
    text = "{ .reg .pred p; setp.ne.u32 p, $0, 0; @p st.shared.b32 [$1], $2; }"
    _asm(None, [_i(mask, loc, ip), _i(addr, loc, ip), _i(value, loc, ip)], text, "r,r,r", True)


@dsl_user_op
def prefetch_l2(mask, addr, nbytes, *, loc=None, ip=None) -> None:
    """``cp.async.bulk.prefetch.L2`` of ``nbytes`` (a multiple of 16: a Python int, or a
    run-time 32-bit value) at ``addr`` where ``mask`` is nonzero.

    One instruction asks L2 for a whole contiguous range; no registers wait for it.
    """
    if isinstance(nbytes, int):
        text = (
            "{ .reg .pred p; setp.ne.u32 p, $0, 0;"
            f" @p cp.async.bulk.prefetch.L2.global [$1], {nbytes}; }}"
        )
        ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
        _asm(None, ops, text, "r,l", side_effects=True)
        return
    text = "{ .reg .pred p; setp.ne.u32 p, $0, 0; @p cp.async.bulk.prefetch.L2.global [$1], $2; }"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip), _i(nbytes, loc, ip)]
    _asm(None, ops, text, "r,l,r", side_effects=True)


@dsl_user_op
def prefetch_line_l2(mask, addr, *, loc=None, ip=None) -> None:
    """``prefetch.global.L2`` of the line at ``addr`` where ``mask`` is nonzero (one per thread)."""
    text = "{ .reg .pred p; setp.ne.u32 p, $0, 0; @p prefetch.global.L2 [$1]; }"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
    _asm(None, ops, text, "r,l", side_effects=True)


@dsl_user_op
def store_if(mask, addr, value, bits: int, *, loc=None, ip=None) -> None:
    """``st.global.u{bits}`` of ``value``'s low bits at ``addr`` where ``mask`` is nonzero.

    A predicated store instead of a branch: lanes past a tensor's edge skip it
    without splitting the code into blocks.
    """
    text = f"{{ .reg .pred p; setp.ne.u32 p, $0, 0; @p st.global.u{bits} [$1], $2; }}"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip), _i(value, loc, ip)]
    _asm(None, ops, text, "r,l,r", side_effects=True)


@dsl_user_op
def store_vector_if(mask, addr, words, *, loc=None, ip=None) -> None:
    """``st.global.v{n}.u32`` of the 2 or 4 ``words`` at ``addr`` (aligned to ``4 n``)
    where ``mask`` is nonzero: ``store_if`` for 8- and 16-byte pieces."""
    n = len(words)
    regs = ", ".join(f"${k + 2}" for k in range(n))
    text = f"{{ .reg .pred p; setp.ne.u32 p, $0, 0; @p st.global.v{n}.u32 [$1], {{{regs}}}; }}"
    ops = [_i(mask, loc, ip), Int64(addr).ir_value(loc=loc, ip=ip)]
    ops += [_i(w, loc, ip) for w in words]
    _asm(None, ops, text, "r,l" + ",r" * n, side_effects=True)


@dsl_user_op
def store_shared(addr, value, bits: int, *, loc=None, ip=None) -> None:
    """``st.shared.u{bits}`` of ``value``'s low bits at the shared-memory address ``addr``."""
    text = f"st.shared.u{bits} [$0], $1;"
    ops = [_i(addr, loc, ip), _i(value, loc, ip)]
    _asm(None, ops, text, "r,r", side_effects=True)


@dsl_user_op
def store_shared_vector(addr, words, *, loc=None, ip=None) -> None:
    """``st.shared.v{n}.u32`` of the 2 or 4 ``words`` at the shared-memory address ``addr``
    (aligned to ``4 n``)."""
    n = len(words)
    regs = ", ".join(f"${k + 1}" for k in range(n))
    text = f"st.shared.v{n}.u32 [$0], {{{regs}}};"
    ops = [_i(addr, loc, ip)] + [_i(w, loc, ip) for w in words]
    _asm(None, ops, text, "r" + ",r" * n, side_effects=True)


@dsl_user_op
def load_shared_v4(addr, *, loc=None, ip=None) -> tuple[Int32, Int32, Int32, Int32]:
    """``ld.shared.v4.b32``: the four 32-bit words at the 16-byte aligned shared address
    (side effects keep it after the barrier that publishes them)."""
    quad = llvm.StructType.get_literal([T.i32()] * 4)
    text = "ld.shared.v4.b32 {$0, $1, $2, $3}, [$4];"
    res = _asm(quad, [_i(addr, loc, ip)], text, "=r,=r,=r,=r,r", True)
    return tuple(Int32(llvm.extractvalue(T.i32(), res, [i], loc=loc, ip=ip)) for i in range(4))


@dsl_user_op
def load_shared(addr, bits: int, *, loc=None, ip=None) -> Int32:
    """``ld.shared.u{bits}`` at the shared-memory address ``addr`` (zero-extended)."""
    text = f"ld.shared.u{bits} $0, [$1];"
    return Int32(_asm(T.i32(), [_i(addr, loc, ip)], text, "=r,r", True))


@dsl_user_op
def shfl_bfly_f32(v, lane_mask: int, *, loc=None, ip=None) -> Float32:
    """``shfl.sync.bfly.b32`` over the full warp: ``v`` of lane ``lane ^ lane_mask`` (bits only)."""
    text = f"shfl.sync.bfly.b32 $0, $1, {lane_mask}, 0x1f, 0xffffffff;"
    return Float32(_asm(T.f32(), [_f(v, loc, ip)], text, "=f,f", side_effects=True))


@dsl_user_op
def red_max_u32(addr, value, *, loc=None, ip=None) -> None:
    """``red.relaxed.gpu.global.max.u32 [addr], value`` (an atomic max, no result).

    On non-negative, non-NaN float32 bit patterns the unsigned order is the
    float order, so this is an exact float max of such values.
    """
    text = "red.relaxed.gpu.global.max.u32 [$0], $1;"
    ops = [Int64(addr).ir_value(loc=loc, ip=ip), _i(value, loc, ip)]
    _asm(None, ops, text, "l,r", side_effects=True)
