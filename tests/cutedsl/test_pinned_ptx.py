"""Contract: the kernel's software E2M1 rounding equals ``fos_reference``'s encode and decode.

The probe runs ``e2m1.e2m1_round_sw`` elementwise on the GPU; its codes
must equal ``fos_reference.e2m1_encode`` and its values the exact
``e2m1_decode`` of those codes, on rounding midpoints and their neighbours
one ulp away, -0, subnormals, Inf, NaNs of both signs and 2^24 random bit
patterns. (``gpu_verify.py`` covers all 2^32.)
"""

from __future__ import annotations

import pytest
import torch
from cutedsl_gpu import skip_reason

import fos_reference
from fos_cutedsl import arch_of

REASON = skip_reason()
pytestmark = pytest.mark.skipif(bool(REASON), reason=REASON)


def test_round_edges_and_random_bits():
    from cutedsl_probe import compile_probe

    probe = compile_probe(arch_of(torch.device("cuda")))
    mids = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0, 0.0, 1e-45, 1e-39, 2.0, 4.0])
    bits = mids.view(torch.int32)
    near = torch.cat([bits - 1, bits, bits + 1]).view(torch.float32)
    special = torch.tensor([float("inf"), float("nan"), 7.0, 1e30, 3.4e38])
    q = torch.cat([near, special])
    q = torch.cat([q, -q])
    neg_nan = torch.tensor([-float("nan")]).view(torch.int32).bitwise_or(1)
    q = torch.cat([q, neg_nan.view(torch.float32)])
    rand = torch.randint(-(2**31), 2**31, (1 << 24,), dtype=torch.int64).to(torch.int32)
    q = torch.cat([q, rand.view(torch.float32)]).cuda()
    codes = torch.empty(q.shape, dtype=torch.uint8, device="cuda")
    values = torch.empty(q.shape, dtype=torch.float32, device="cuda")
    probe(q, codes, values)
    want = fos_reference.e2m1_encode(q)
    assert torch.equal(codes, want)
    want_values = fos_reference.e2m1_decode(want)
    assert torch.equal(values.view(torch.int32), want_values.view(torch.int32))
