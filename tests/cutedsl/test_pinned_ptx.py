"""Contract: the kernel's software E2M1 encoder/decoder equal ``fos_reference``'s.

The probes run ``pinned.e2m1_encode_sw`` / ``e2m1_decode_sw`` elementwise on
the GPU: every code decodes exactly, and the encoder matches on rounding
midpoints, their neighbours one ulp away, -0, subnormals, Inf, NaNs of both
signs and 2^24 random bit patterns. (``gpu_verify.py`` covers all 2^32.)
"""

from __future__ import annotations

import pytest
import torch
from cutedsl_gpu import skip_reason

import fos_reference
from fos_cutedsl import arch_of

REASON = skip_reason()
pytestmark = pytest.mark.skipif(bool(REASON), reason=REASON)


@pytest.fixture(scope="module")
def probes():
    from cutedsl_probe import compile_probe

    arch = arch_of(torch.device("cuda"))
    return compile_probe(False, arch), compile_probe(True, arch)


def test_decode_every_code(probes):
    codes = torch.arange(16, dtype=torch.uint8, device="cuda")
    got = torch.empty(16, dtype=torch.float32, device="cuda")
    probes[1](codes, got)
    want = fos_reference.e2m1_decode(codes)
    assert torch.equal(got.view(torch.int32), want.view(torch.int32))


def test_encode_edges_and_random_bits(probes):
    mids = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0, 0.0, 1e-45, 1e-39])
    bits = mids.view(torch.int32)
    near = torch.cat([bits - 1, bits, bits + 1]).view(torch.float32)
    special = torch.tensor([float("inf"), float("nan"), 7.0, 1e30, 3.4e38])
    q = torch.cat([near, special])
    q = torch.cat([q, -q])
    neg_nan = torch.tensor([-float("nan")]).view(torch.int32).bitwise_or(1)
    q = torch.cat([q, neg_nan.view(torch.float32)])
    rand = torch.randint(-(2**31), 2**31, (1 << 24,), dtype=torch.int64).to(torch.int32)
    q = torch.cat([q, rand.view(torch.float32)]).cuda()
    got = torch.empty(q.shape, dtype=torch.uint8, device="cuda")
    probes[0](q, got)
    assert torch.equal(got, fos_reference.e2m1_encode(q))
