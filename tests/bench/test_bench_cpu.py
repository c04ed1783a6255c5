"""bench/ on a CPU: ``bench.py --quick`` runs; its JSON has the schema plots and summaries read.

Contract: every record names its ``op`` (one of ``bench.OPS``), carries
``bitwise_equal`` (checked before timing) and ``pct_of_copy`` (None without a
GPU: there is no copy roofline); the header names the device and the copy
bandwidth; ``summary.aggregate`` and ``summary.target_rows`` read the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import fos_reference

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


@pytest.fixture(scope="module")
def payload(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("bench") / "cpu.json"
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "FOS_COMMIT": "test"}
    done = subprocess.run(
        [sys.executable, str(BENCH / "bench.py"), "--quick", "--no-plot", "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "GPU rows skipped" in done.stdout
    return json.loads(out.read_text())


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import bench

    return bench


@pytest.fixture
def summary(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import summary

    return summary


def test_header(payload):
    assert payload["device"] == "cpu"
    assert payload["copy_tbps"] is None
    assert payload["commit"] == "test"
    assert payload["failures"] == []
    for key in ("torch", "cutedsl", "date", "command", "records", "summary"):
        assert key in payload


def test_records(payload, bench):
    records = payload["records"]
    assert {r["op"] for r in records} == set(bench.OPS)
    for r in records:
        assert r["impl"] == "reference"
        assert r["bitwise_equal"] is True
        assert r["pct_of_copy"] is None and r["pct_of_copy_min"] is None
        assert r["us"] > 0 and r["us_min"] <= r["us"] <= r["us_max"]
        assert r["l2"] == "flushed" and r["run"] == 0 and r["buffers"] == 1
        assert r["us_buffers"] == [r["us"]]
        per_tensor = r["op"] in ("quantize", "fake_quantize", "dequantize") and not r["row_scaled"]
        if per_tensor:  # the data's global amax, for the share of undecided groups
            assert len(r["global_amaxes"]) == 1 and r["global_amaxes"][0] > 0
        case = bench.Case(**{k: r[k] for k in ("op", "rows", "cols", "dtype", "block",
                                               "row_scaled", "err_mode", "l2")})  # fmt: skip
        assert r["tbps"] == pytest.approx(case.bytes_moved / (r["us"] * 1e6))


def test_bytes_per_element(bench):
    """Each op's bytes per element for a bf16 input, as bench/README.md lists them."""
    per_elt = {"quantize": 2.5625, "nan_amax": 2, "dequantize": 2.5625, "fake_quantize": 4,
               "amax+quantize": 4.5625, "quantize_row_amax": 2.5625}  # fmt: skip
    for op, want in per_elt.items():
        assert bench.Case(op=op, rows=16, cols=1024).bytes_moved == want * 16 * 1024


def test_outlier_channels_data(bench, summary):
    """``--data outlier_channels``: the quantize inputs' columns, 1% of them 50 times larger;
    records of it are their own case, and no target reads them."""
    case = bench.Case(op="quantize", rows=64, cols=4096, data="outlier_channels")
    x = bench.make_inputs(case, "cpu", seed=1)["x"].float()
    wide = x.abs().amax(dim=0) > 12  # 50 sigma columns: every row's normal times 50
    assert 10 <= int(wide.sum()) <= 80
    assert "outlier_channels" in case.label()
    normal = bench.make_inputs(bench.Case(op="quantize", rows=64, cols=4096), "cpu", seed=1)["x"]
    assert not torch.equal(normal, x.bfloat16())
    assert summary.case_of({"op": "quantize"})[-1] == "normal"  # records before the field
    assert bench.parse_args(["--data", "outlier_channels"]).data == "outlier_channels"


def test_summary_reads_it(payload, summary):
    rows = summary.aggregate(payload["records"])
    assert len(rows) == len(payload["records"])  # one run, one impl per case
    targets = summary.target_rows(payload)
    assert len(targets) == len(summary.TARGETS)
    assert all(t["us"] is None for t in targets)  # no fos rows without a GPU


def test_aggregate_worst_over_runs(summary):
    """The worst % of copy is the slowest buffer of any run; the median is of the medians."""
    base = {"op": "quantize", "rows": 1, "cols": 16, "dtype": "bfloat16", "block": "1x16",
            "row_scaled": False, "err_mode": "mae", "l2": "flushed", "impl": "fos",
            "timing": "graph", "bitwise_equal": True, "buffers": 2}  # fmt: skip
    runs = [
        {**base, "us": 10.0, "us_min": 9.0, "us_max": 11.0, "pct_of_copy": 80.0,
         "pct_of_copy_min": 72.0},
        {**base, "us": 12.0, "us_min": 11.0, "us_max": 14.0, "pct_of_copy": 66.0,
         "pct_of_copy_min": 57.0},
        {**base, "us": 11.0, "us_min": 10.0, "us_max": 12.0, "pct_of_copy": 72.0,
         "pct_of_copy_min": 66.0, "bitwise_equal": False},
    ]  # fmt: skip
    (row,) = summary.aggregate(runs)
    assert (row["us"], row["us_min"], row["us_max"]) == (11.0, 9.0, 14.0)
    assert (row["pct_of_copy"], row["pct_of_copy_min"]) == (72.0, 57.0)
    assert row["runs"] == 3 and row["buffers"] == 6 and row["bitwise_equal"] is False


def test_grouped_and_swizzle_rows_find_their_baselines(summary):
    """The grouped row sits beside the per-tensor quantize and the loop of its shape, the
    swizzled layout beside the plain one: records carry "data" (and "experts", "swizzle")."""
    base = {"rows": 32, "cols": 16, "dtype": "bfloat16", "block": "1x16", "row_scaled": False,
            "err_mode": "mae", "l2": "flushed", "data": "normal", "impl": "fos",
            "timing": "graph", "bitwise_equal": True, "buffers": 1, "us_min": 1.0,
            "us_max": 99.0, "pct_of_copy": 50.0, "pct_of_copy_min": 50.0}  # fmt: skip
    records = [
        {**base, "op": "quantize", "experts": 0, "swizzle": False, "us": 10.0},
        {**base, "op": "quantize_grouped", "experts": 64, "swizzle": False, "us": 11.0},
        {**base, "op": "quantize_grouped", "experts": 64, "swizzle": False, "us": 220.0,
         "impl": "fos_loop"},
        {**base, "op": "quantize_rowwise_columnwise", "experts": 0, "swizzle": False, "us": 40.0},
        {**base, "op": "quantize_rowwise_columnwise", "experts": 0, "swizzle": True, "us": 41.0},
    ]  # fmt: skip
    (grouped,) = summary.grouped_rows({"records": records})
    assert grouped["experts"] == 64 and grouped["per_tensor_us"] == 10.0
    assert grouped["vs_per_tensor"] == 1.1 and grouped["loop_speedup"] == 20.0
    (swizzled,) = summary.swizzle_rows({"records": records})
    assert swizzled["plain_us"] == 40.0 and swizzled["ratio"] == 41.0 / 40.0


def test_mse_rows_find_their_mae_case(summary):
    """Each mse quantize sits beside the mae case of its shape and mode, and nothing else."""
    base = {"op": "quantize", "rows": 32, "cols": 16, "dtype": "bfloat16", "block": "1x16",
            "l2": "flushed", "experts": 0, "swizzle": False, "data": "normal", "impl": "fos",
            "timing": "graph", "bitwise_equal": True, "buffers": 1, "us_min": 1.0,
            "us_max": 99.0, "pct_of_copy": 50.0, "pct_of_copy_min": 50.0}  # fmt: skip
    records = [
        {**base, "row_scaled": False, "err_mode": "mae", "us": 10.0},
        {**base, "row_scaled": True, "err_mode": "mae", "us": 20.0},
        {**base, "row_scaled": True, "err_mode": "mse", "us": 21.0},
        {**base, "row_scaled": True, "err_mode": "mse", "us": 1.0, "impl": "reference"},
    ]  # fmt: skip
    (row,) = summary.mse_rows({"records": records})
    assert row["amax"] == "row" and row["mae_us"] == 20.0 and row["ratio"] == 21.0 / 20.0


def test_plot_reads_the_committed_results(tmp_path, monkeypatch):
    """The plot takes the committed GPU results too (records from before "op" are quantize)."""
    pytest.importorskip("matplotlib")
    monkeypatch.syspath_prepend(str(BENCH))
    import plot

    path = tmp_path / "h200.json"
    path.write_text((BENCH / "results" / "h200.json").read_text())
    assert plot.plot_ops(path).stat().st_size > 10_000


@pytest.fixture
def no_fouroversix_modules():
    """No ``fouroversix`` module imported before or left after the test."""

    def clear():
        for name in [m for m in sys.modules if m.split(".")[0] == "fouroversix"]:
            del sys.modules[name]

    clear()
    yield
    clear()


def test_fouroversix_peer_loads_without_its_package_init(
    tmp_path, monkeypatch, no_fouroversix_modules
):
    """The peer's ``quantize`` subpackage imports from a checkout whose top-level
    ``__init__`` would fail (as fouroversix's does without ``transformers``)."""
    monkeypatch.syspath_prepend(str(BENCH))
    import peer_fouroversix

    pkg = tmp_path / "src" / "fouroversix"
    (pkg / "quantize").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('no transformers here')\n")
    (pkg / "utils.py").write_text(
        "import enum\n"
        "class QuantizeBackend(enum.Enum):\n    triton = 'triton'\n"
        "class ScaleRule(enum.Enum):\n    mae = 'mae'\n    mse = 'mse'\n"
    )
    (pkg / "quantize" / "__init__.py").write_text(
        "import dataclasses\n"
        "@dataclasses.dataclass\nclass QuantizationConfig:\n"
        "    backend: object = None\n    scale_rule: object = None\n"
        "    pseudo_quantize: bool = False\n    block_scale_2d: bool = False\n"
        "def quantize(x, config):\n    return x, config\n"
    )
    monkeypatch.setattr(peer_fouroversix, "_installed_dir", lambda: None)

    api, why = peer_fouroversix.load(tmp_path)
    assert api is not None and why == ""
    x = torch.zeros(16, 16)
    got, config = peer_fouroversix.call(api, x, err_mode="mse", fake=True, block="16x16")()
    assert got is x
    assert config.scale_rule is api.ScaleRule.mse and config.backend is api.QuantizeBackend.triton
    assert config.pseudo_quantize and config.block_scale_2d

    missing, why = peer_fouroversix.load(tmp_path / "absent")
    assert missing is None and "absent" in why


def test_packed_study_rounds_as_spec(monkeypatch):
    """``packed_study``'s float32 magic rounding is SPEC's E2M1 rounding (ties included), its
    float16 one too on float16 inputs, and its shares are shares."""
    monkeypatch.syspath_prepend(str(BENCH))
    import packed_study

    ties = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    m = torch.cat([torch.linspace(0, 6.99, 20011), ties, ties.nextafter(torch.tensor(0.0))])
    want = fos_reference.e2m1_decode(fos_reference.e2m1_encode(m))
    assert torch.equal(packed_study.e2m1_magic(m, torch.float32), want)
    m16 = m.half().float()
    want16 = fos_reference.e2m1_decode(fos_reference.e2m1_encode(m16))
    assert torch.equal(packed_study.e2m1_magic(m16, torch.float16).float(), want16)

    x = torch.randn(64, 256, generator=torch.Generator().manual_seed(1)).to(torch.bfloat16)
    res = packed_study.study(x)
    assert res["groups"] == 64 * 256 // 16
    shares = [v for k, v in res.items() if k != "groups"]
    assert all(0.0 <= v <= 1.0 for v in shares)
    assert res["near_tie_2^-16"] <= res["near_tie_2^-7"]
