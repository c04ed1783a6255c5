"""fos_op on DTensors, two ranks: gloo on the CPU (every push), NCCL on two GPUs.

Contract: for ``Shard(0)``, ``Shard(1)`` and ``Replicate()`` on a 1-D mesh of
two ranks, every rank's local codes, scales, x_hat and amax equal
``fos_reference`` on the full tensor, sliced as torch chunks the shard; the
outputs are DTensors with the expected placements and global shapes. The data
is adversarial (NaN, Inf, -0, zero groups) and holds a huge value on rank 1's
shard only, so a rank that skipped the all-reduce would get other bits. Bad
layouts (16x16 over misaligned row shards, column shards off multiples of 16,
Partial placements) raise the same ``ValueError`` on both ranks before any
collective (a rank that did not would hang, and the run would time out).

The parent spawns two copies of this file as workers (``python
test_distributed.py BACKEND OUT_DIR``, torchrun's environment: loopback
``MASTER_ADDR``, a free port, ``WORLD_SIZE=2``, ``RANK``); each runs every case
and writes what happened to a JSON file; each case is then one test here.
``torch.distributed.tensor`` is imported inside the cases, so this module
collects (and skips) where torch.distributed is missing.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import traceback
from datetime import timedelta

import pytest
import torch
import torch.distributed as dist

import fos_op
import fos_reference as ref

WORLD = 2
WORKER_TIMEOUT_S = 120
PG_TIMEOUT_S = 15
HUGE = 3.0e38


# --------------------------------------------------------------------------- data and checks


def _x(shape, dtype=torch.bfloat16, seed=0, device="cpu", inf=True):
    """Adversarial (..., C) data, the same on every rank (one seed).

    NaN, -0 and zero groups everywhere; the huge value and (``inf``) the
    infinities only at rows >= 16 and columns >= 32, which rank 1 holds under
    both Shard(0) and Shard(1): rank 0's local amax is not the global one.
    """
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=gen) * 3
    flat = x.view(-1, shape[-1])
    flat[1, 3] = float("nan")
    flat[-1, 5] = float("nan")
    flat[3, 16:32] = -0.0
    flat[4, 32:48] = 0.0
    if flat.shape[0] > 21 and flat.shape[1] > 47:
        flat[20, 40] = HUGE
        if inf:
            flat[21, 47] = float("inf")
            flat[-2, 33] = float("-inf")
    return x.to(dtype).to(device)


def _bits(t):
    t = t.detach().contiguous()
    if t.element_size() == 1:
        return t.view(torch.uint8)
    return t.view(torch.int16 if t.element_size() == 2 else torch.int32)


def _slice(full, placement, rank, dim_map=None):
    """The rank's part of ``full`` under ``placement`` (torch.chunk: DTensor's chunking)."""
    if placement.is_replicate():
        return full
    dim = placement.dim if dim_map is None else dim_map
    return torch.chunk(full, WORLD, dim=dim % full.dim())[rank]


def _same(got, want):
    assert got.shape == want.shape, (got.shape, want.shape)
    nan_got, nan_want = torch.isnan(got.float()), torch.isnan(want.float())
    if got.is_floating_point() and got.element_size() > 1:
        assert torch.equal(nan_got, nan_want)  # only NaN-ness is specified
        got, want = torch.where(nan_got, 0, got), torch.where(nan_want, 0, want)
    assert torch.equal(_bits(got), _bits(want))


def _check(dt, want_full, placements, rank, out_placement=None):
    """``dt`` is a DTensor of ``want_full``'s shape whose local shard is ``want_full`` sliced."""
    from torch.distributed.tensor import DTensor

    assert isinstance(dt, DTensor), type(dt)
    assert tuple(dt.shape) == tuple(want_full.shape), (dt.shape, want_full.shape)
    expected = placements if out_placement is None else out_placement
    assert tuple(dt.placements) == tuple(expected), (dt.placements, expected)
    _same(dt.to_local(), _slice(want_full, expected[0], rank))


# --------------------------------------------------------------------------- cases (in a worker)

# (block, err_mode, bound, inf): with inf the global amax is Inf (from rank 1), else the
# huge finite value (also rank 1's)
MODES = [("1x16", "mae", 256, True), ("16x16", "mse", 448, False), ("1x16", "mse", 448, False)]


def _placements():
    from torch.distributed.tensor import Replicate, Shard

    return {"shard0": Shard(0), "shard1": Shard(1), "shardm1": Shard(-1), "replicate": Replicate()}


def _dist(ctx, full, placement):
    from torch.distributed.tensor import distribute_tensor

    return distribute_tensor(full, ctx["mesh"], [placement])


def _norm(p, ndim):
    from torch.distributed.tensor import Shard

    return Shard(p.dim % ndim) if p.is_shard() else p


def case_nan_amax(ctx, name):
    from torch.distributed.tensor import Replicate, Shard

    p = _placements()[name]
    for inf in (True, False):
        full = _x((32, 64), device=ctx["device"], inf=inf)
        x = _dist(ctx, full, p)
        got = fos_op.nan_amax(x, strict=ctx["strict"])
        _check(got, ref.nan_amax(full), [p], ctx["rank"], [Replicate()])
        row_out = Shard(0) if p.is_shard() and p.dim == 0 else Replicate()
        got_rows = fos_op.nan_amax(x, -1, strict=ctx["strict"])
        _check(got_rows, ref.nan_amax(full, -1), [p], ctx["rank"], [row_out])
        if p.is_shard() and ctx["rank"] == 0:  # after every collective: the all-reduce mattered
            assert not torch.equal(ref.nan_amax(x.to_local()), got.to_local())


def case_quantize(ctx, name):

    p = _placements()[name]
    n = _norm(p, 2)
    for block, err_mode, bound, inf in MODES:
        full = _x((32, 64), seed=1, device=ctx["device"], inf=inf)
        x = _dist(ctx, full, p)
        gamax = ref.nan_amax(full)  # a plain tensor, the same on both ranks
        knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
        codes, scales = fos_op.quantize(x, gamax, strict=ctx["strict"], **knobs)
        want_c, want_s = ref.quantize(full, gamax, **knobs)
        _check(codes, want_c, [n], ctx["rank"])
        _check(scales, want_s, [n], ctx["rank"])
        # the amax as a replicated DTensor: the same bits
        g_dt = fos_op.nan_amax(x)
        codes2, scales2 = fos_op.quantize(x, g_dt, strict=ctx["strict"], **knobs)
        _same(codes2.to_local(), codes.to_local())
        _same(scales2.to_local(), scales.to_local())


def case_quantize_with_amax(ctx, name):
    from torch.distributed.tensor import Replicate, Shard

    p = _placements()[name]
    n = _norm(p, 2)
    for block, err_mode, bound, inf in MODES:
        full = _x((32, 64), seed=2, device=ctx["device"], inf=inf)
        x = _dist(ctx, full, p)
        knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
        codes, scales, amax = fos_op.quantize_with_amax(x, strict=ctx["strict"], **knobs)
        want_a = ref.nan_amax(full)
        want_c, want_s = ref.quantize(full, want_a, **knobs)
        _check(amax, want_a, [n], ctx["rank"], [Replicate()])
        _check(codes, want_c, [n], ctx["rank"])
        _check(scales, want_s, [n], ctx["rank"])
    # per row: Shard(0) stays local; Shard(1) all-reduces the (local rows,) amax
    full = _x((32, 64), seed=2, device=ctx["device"])
    x = _dist(ctx, full, p)
    knobs = {"err_mode": "mse", "e4m3_scale_bound": 448}
    codes, scales, amax = fos_op.quantize_with_amax(x, dim=-1, strict=ctx["strict"], **knobs)
    want_a = ref.nan_amax(full, -1)
    want_c, want_s = ref.quantize(full, want_a, **knobs)
    row_out = Shard(0) if n.is_shard() and n.dim == 0 else Replicate()
    _check(amax, want_a, [n], ctx["rank"], [row_out])
    _check(codes, want_c, [n], ctx["rank"])
    _check(scales, want_s, [n], ctx["rank"])
    # the row amax handed back to quantize (a DTensor sharded like x's rows, or replicated)
    codes2, scales2 = fos_op.quantize(x, amax, strict=ctx["strict"], **knobs)
    _same(codes2.to_local(), codes.to_local())
    _same(scales2.to_local(), scales.to_local())
    codes3, _ = fos_op.quantize(x, want_a, strict=ctx["strict"], **knobs)  # plain, full rows
    _same(codes3.to_local(), codes.to_local())


def case_fake_quantize(ctx, name):

    p = _placements()[name]
    n = _norm(p, 2)
    for block, err_mode, bound, inf in MODES:
        full = _x((32, 64), seed=3, device=ctx["device"], inf=inf)
        x = _dist(ctx, full, p)
        knobs = {"block": block, "err_mode": err_mode, "e4m3_scale_bound": bound}
        want = ref.fake_quantize(full, ref.nan_amax(full), **knobs)
        _check(fos_op.fake_quantize(x, strict=ctx["strict"], **knobs), want, [n], ctx["rank"])
        g = ref.nan_amax(full)
        got = fos_op.fake_quantize(x, g, out_dtype=torch.float32, strict=ctx["strict"], **knobs)
        want = ref.fake_quantize(full, g, out_dtype=torch.float32, **knobs)
        _check(got, want, [n], ctx["rank"])
    # straight-through gradient through the DTensor
    xg = _dist(ctx, full, p).requires_grad_()
    y = fos_op.fake_quantize(xg, strict=ctx["strict"])
    y.to_local().float().sum().backward()
    assert torch.equal(xg.grad.to_local(), torch.ones_like(x.to_local()))


def case_nd_and_uneven(ctx, name):
    """(2, 16, 64) on Shard(0) (16x16 tiles stay whole); 33 uneven rows for 1x16."""
    from torch.distributed.tensor import Replicate, Shard

    full = _x((2, 16, 64), seed=4, device=ctx["device"])
    x = _dist(ctx, full, Shard(0))
    codes, scales, amax = fos_op.quantize_with_amax(x, block="16x16", strict=ctx["strict"])
    want_c, want_s = ref.quantize(full, ref.nan_amax(full), block="16x16")
    _check(codes, want_c, [Shard(0)], ctx["rank"])
    _check(scales, want_s, [Shard(0)], ctx["rank"])
    _check(amax, ref.nan_amax(full), [Shard(0)], ctx["rank"], [Replicate()])
    full = _x((33, 32), seed=5, device=ctx["device"])  # rank 0: 17 rows, rank 1: 16
    x = _dist(ctx, full, Shard(0))
    assert x.to_local().shape[0] == (17, 16)[ctx["rank"]]
    codes, scales, _ = fos_op.quantize_with_amax(x, strict=ctx["strict"])
    want_c, want_s = ref.quantize(full, ref.nan_amax(full))
    _check(codes, want_c, [Shard(0)], ctx["rank"])
    _check(scales, want_s, [Shard(0)], ctx["rank"])
    codes, _, _ = fos_op.quantize_with_amax(x, dim=-1, strict=ctx["strict"])
    _check(codes, ref.quantize(full, ref.nan_amax(full, -1))[0], [Shard(0)], ctx["rank"])


def _raises(fn, match):
    try:
        fn()
    except ValueError as e:
        assert match in str(e), str(e)
        return
    raise AssertionError(f"no ValueError ({match!r})")


def case_errors(ctx, name):
    from torch.distributed.tensor import DTensor, Partial, Shard

    s = ctx["strict"]
    rows48 = _dist(ctx, _x((48, 32), device=ctx["device"]), Shard(0))  # 24 rows a shard
    g = ref.nan_amax(_x((48, 32), device=ctx["device"]))
    _raises(lambda: fos_op.quantize(rows48, g, block="16x16", strict=s), "row boundaries")
    _raises(lambda: fos_op.quantize_with_amax(rows48, block="16x16", strict=s), "row boundaries")
    _raises(lambda: fos_op.fake_quantize(rows48, block="16x16", strict=s), "row boundaries")
    fos_op.quantize(rows48, g, strict=s)  # 1x16 takes any row split
    cols80 = _dist(ctx, _x((16, 80), device=ctx["device"]), Shard(1))  # 40 columns a shard
    g = ref.nan_amax(_x((16, 80), device=ctx["device"]))
    _raises(lambda: fos_op.quantize(cols80, g, strict=s), "column boundaries")
    _raises(lambda: fos_op.quantize_with_amax(cols80, dim=-1, strict=s), "column boundaries")
    _raises(lambda: fos_op.fake_quantize(cols80, strict=s), "column boundaries")
    fos_op.nan_amax(cols80)  # an amax alone needs no 16-column shards
    local = _x((16, 64), device=ctx["device"])
    partial = DTensor.from_local(local, ctx["mesh"], [Partial()], run_check=False)
    for call in (
        lambda: fos_op.nan_amax(partial),
        lambda: fos_op.quantize_with_amax(partial, strict=s),
        lambda: fos_op.fake_quantize(partial, strict=s),
        lambda: fos_op.quantize(partial, ref.nan_amax(local), strict=s),
    ):
        _raises(call, "Partial")
    x = _dist(ctx, local, Shard(0))
    g_partial = DTensor.from_local(ref.nan_amax(local), ctx["mesh"], [Partial()], run_check=False)
    _raises(lambda: fos_op.quantize(x, g_partial, strict=s), "Partial")
    try:
        fos_op.quantize(local, fos_op.nan_amax(x), strict=s)
    except TypeError as e:
        assert "x must be one too" in str(e)
    else:
        raise AssertionError("a plain x with a DTensor amax did not raise")


CASES = {
    **{
        f"{case.__name__[5:]}[{p}]": (case, p)
        for case in (case_nan_amax, case_quantize, case_quantize_with_amax, case_fake_quantize)
        for p in ("shard0", "shard1", "shardm1", "replicate")
    },
    "nd_and_uneven": (case_nd_and_uneven, None),
    "errors": (case_errors, None),
}


def _worker(backend: str, out_dir: str) -> None:
    """One rank: init the group, run every case, write the outcomes, tear down."""
    from torch.distributed.device_mesh import DeviceMesh

    rank = int(os.environ["RANK"])
    device = "cpu"
    if backend == "nccl":
        torch.cuda.set_device(rank)
        device = f"cuda:{rank}"
    dist.init_process_group(backend, timeout=timedelta(seconds=PG_TIMEOUT_S))
    ctx = {
        "rank": rank,
        "mesh": DeviceMesh("cpu" if backend == "gloo" else "cuda", list(range(WORLD))),
        "device": device,
        "strict": backend == "nccl",  # the kernel path on GPUs, or FallbackError
    }
    results = {}
    for name, (case, arg) in CASES.items():
        try:
            case(ctx, arg)
            results[name] = "ok"
        except Exception:
            results[name] = traceback.format_exc()
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(results, f)
    dist.barrier()
    dist.destroy_process_group()
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown, where gloo's threads have aborted (SIGABRT)


# --------------------------------------------------------------------------- the parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _skip_reason(backend: str) -> str | None:
    if not dist.is_available():
        return "torch.distributed is not available in this build"
    if backend == "gloo":
        return None if dist.is_gloo_available() else "the gloo backend is not available"
    if not dist.is_nccl_available():
        return "the NCCL backend is not available"
    if torch.cuda.device_count() < WORLD:
        return "needs two GPUs"
    return None


_TEARDOWN_ABORT = "terminate called without an active exception"


def _launch(backend: str, out_dir: str, tries: int = 2) -> dict[str, dict[str, str]]:
    """Run the two workers (bounded); each rank's case outcomes.

    A port taken between ``_free_port`` and the store's bind gets one retry.
    """
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(_free_port()),
               WORLD_SIZE=str(WORLD), OMP_NUM_THREADS="1")  # fmt: skip
    if os.path.exists("/sys/class/net/lo"):
        env["GLOO_SOCKET_IFNAME"] = "lo"  # loopback only
    procs = []
    for rank in range(WORLD):
        env_r = dict(env, RANK=str(rank), LOCAL_RANK=str(rank))
        cmd = [sys.executable, __file__, backend, out_dir]
        procs.append(subprocess.Popen(cmd, env=env_r, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))  # fmt: skip
    logs = []
    for proc in procs:
        try:
            logs.append(proc.communicate(timeout=WORKER_TIMEOUT_S)[0])
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            pytest.fail(f"the {backend} workers ran past {WORKER_TIMEOUT_S} s")
    out = {}
    for rank, (proc, log) in enumerate(zip(procs, logs, strict=True)):
        path = os.path.join(out_dir, f"rank{rank}.json")
        # gloo can abort in its teardown after every case ran and was written (seen once:
        # "terminate called without an active exception"); the outcomes still count.
        torn_down = os.path.exists(path) and _TEARDOWN_ABORT in log
        if (proc.returncode != 0 and not torn_down) or not os.path.exists(path):
            if tries > 1 and ("EADDRINUSE" in log or "address already in use" in log):
                return _launch(backend, out_dir, tries - 1)
            pytest.fail(f"{backend} rank {rank} exited with {proc.returncode}:\n{log[-4000:]}")
        with open(path) as f:
            out[rank] = json.load(f)
    return out


@pytest.fixture(scope="module", params=["gloo", "nccl"])
def outcomes(request, tmp_path_factory):
    reason = _skip_reason(request.param)
    if reason is not None:
        pytest.skip(reason)
    if request.param == "nccl":
        kernel, why = fos_op.dispatch.cutedsl()
        if kernel is None:
            pytest.skip(f"the kernels do not import: {why}")
    return _launch(request.param, str(tmp_path_factory.mktemp(request.param)))


@pytest.mark.parametrize("case", list(CASES))
def test_two_ranks(outcomes, case):
    for rank, results in outcomes.items():
        assert results[case] == "ok", f"rank {rank}:\n{results[case]}"


if __name__ == "__main__":
    _worker(sys.argv[1], sys.argv[2])
