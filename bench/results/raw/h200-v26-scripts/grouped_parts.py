"""v26: where the persistent grouped kernel's time over the per-tensor quantize goes.

Times, bf16 mae, T = 32768, C = 7168 and 2048, E = 8 / 64 / 256 (skewed): the whole
call (setup + kernel, PDL), the same without PDL, the setup launch alone, the kernel
launch alone (workspace left by a whole call), and the per-tensor quantize. Bits of the
whole call and of the no-PDL call are checked against the reference first.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass import Int32, Int64

import fos_cutedsl
import fos_op
import fos_reference
from bench import replay_us, skewed_offsets
from fos_cutedsl import grouped_persistent as gp
from fos_cutedsl.config import QuantizeConfig, compile_options, launch_bounds
from fos_cutedsl.grouped import workspace_floats


class Parts(gp.GroupedPersistentKernel):
    def __init__(self, cfg, which):
        super().__init__(cfg)
        self.which = which

    @cute.jit
    def __call__(self, mX, mAmax, mOffsets, mCodes, mScales, mWork, stream):
        cfg = self.cfg
        unit = gp.WARP * cfg.groups_per_thread
        gpr = Int64(mX.shape[1]) // 16
        total = Int64(mX.shape[0]) * gpr
        units = (total + (unit - 1)) // unit
        experts = Int64(mAmax.shape[0])
        jobs = cutlass.max(experts * gp.TABLE, units)
        if cutlass.const_expr(self.which in ("setup", "nopdl")):
            self.setup(mAmax, mOffsets, mWork, gpr, total, units).launch(
                grid=[Int32((jobs + 255) // 256), 1, 1],
                block=[256, 1, 1],
                smem=(gp.MAX_EXPERTS + 1) * 8 + 16,
                stream=stream,
            )
        if cutlass.const_expr(self.which in ("kernel", "nopdl")):
            grid = Int32(cutlass.max(cutlass.min(units, Int64(cfg.sms)), Int64(1)))
            self.kernel(mX, mOffsets, mCodes, mScales, mWork, gpr, total, units).launch(
                grid=[grid, 1, 1],
                block=[cfg.threads, 1, 1],
                smem=16,
                stream=stream,
                **launch_bounds(cfg.threads, cfg.min_blocks),
            )


def compiled(which):
    cfg = QuantizeConfig("bfloat16", "1x16", "mae", 256, False, x_no_l1=True)
    fake = cute.runtime.make_fake_compact_tensor
    r = cute.sym_int64()
    args = (
        fake(
            cutlass.BFloat16,
            (r, cute.sym_int64(divisibility=16)),
            stride_order=(1, 0),
            assumed_align=16,
        ),
        fake(cutlass.Float32, (cute.sym_int64(),), assumed_align=4),
        fake(cutlass.Int64, (cute.sym_int64(),), assumed_align=4),
        fake(cutlass.Uint8, (r, cute.sym_int64()), stride_order=(1, 0), assumed_align=16),
        fake(cutlass.Uint8, (r, cute.sym_int64()), stride_order=(1, 0), assumed_align=16),
        fake(cutlass.Float32, (cute.sym_int64(),), assumed_align=16),
    )
    stream = cute.runtime.make_fake_stream(use_tvm_ffi_env_stream=True)
    opts = compile_options(fos_cutedsl.arch_of(torch.device("cuda")), cfg.ptxas_opt)
    kernel = gp.GroupedPersistentKernel(cfg) if which == "whole" else Parts(cfg, which)
    return cute.compile(kernel, *args, stream, options=opts)


def main():
    fns = {w: compiled(w) for w in ("whole", "nopdl", "setup", "kernel")}
    gen = torch.Generator(device="cuda").manual_seed(3)
    for cols in (7168, 2048):
        x = torch.randn(32768, cols, device="cuda", generator=gen).to(torch.bfloat16)
        amax = fos_op.nan_amax(x)
        per_tensor = replay_us(lambda x=x, a=amax: fos_op.quantize(x, a, strict=True))
        for experts in (8, 64, 256):
            offsets = skewed_offsets(32768, experts, "cuda")
            gamax = fos_reference.nan_amax_grouped(x, offsets)
            work = torch.full(
                (workspace_floats(32768, cols, experts),), float("nan"), device="cuda"
            )
            codes = torch.empty(32768, cols // 2, dtype=torch.uint8, device="cuda")
            scales = torch.empty(32768, cols // 16, dtype=torch.uint8, device="cuda")
            want = fos_reference.quantize_grouped(x, offsets, gamax)
            line = f"{cols} E={experts:3d} per tensor {per_tensor:6.1f}"
            for w in ("nopdl", "whole", "setup", "kernel"):
                codes.fill_(0xAB)
                scales.fill_(0xAB)
                fns[w](x, gamax, offsets, codes, scales, work)
                ok = torch.equal(codes, want[0]) and torch.equal(scales, want[1].view(torch.uint8))
                args = (x, gamax, offsets, codes, scales, work)
                us = replay_us(lambda f=fns[w], a=args: f(*a))
                line += f" | {w} {us:6.1f}" + ("" if ok or w == "setup" else " WRONG")
            print(line, flush=True)


if __name__ == "__main__":
    main()
