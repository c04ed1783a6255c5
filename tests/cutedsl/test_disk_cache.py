"""Contract: compiled variants persist on disk, and only a verified, current one is ever used.

- The entry's location changes with every fingerprinted input: each source
  file's path and bytes, each DSL/TVM-FFI version, the Python version, the
  family and each key field (arch and tuning knobs included).
- A truncated or altered ``.o``, a bad, stale or missing manifest and a
  ``.o`` the loader rejects are misses: recompiled and overwritten.
- ``FOS_DISK_CACHE=0`` writes nothing; ``FOS_CACHE_DIR`` and
  ``XDG_CACHE_HOME`` place the directory; an unwritable one warns once and
  the variants still compile in memory.
- Two processes compiling one variant at once both succeed and leave one
  valid entry (a real compile for sm_90a: no GPU needed, nor for loading).
- GPU: a fresh process loads the stored variant and writes the bits of the
  in-process compile.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path
from typing import NamedTuple

import pytest
import torch

from fos_cutedsl import CompileCache, VariantKey
from fos_cutedsl.disk_cache import (
    DiskCache,
    cache_root,
    entry_name,
    fingerprint_inputs,
    fingerprint_of,
    package_fingerprint,
)

KEY = VariantKey("bfloat16", "1x16", "mae", 256, False, "sm_90a", 132)
ENV = {**os.environ, "CUTE_DSL_ARCH": "sm_90a", "PYTHONPATH": os.pathsep.join(sys.path)}


class FakeCompiled:
    """Stands for a compiled function: ``export_to_c`` writes known bytes."""

    def __init__(self, key: tuple):
        self.payload = repr(tuple(key)).encode() * 50

    def export_to_c(self, path: str, function_name: str) -> None:
        Path(path).write_bytes(self.payload + function_name.encode())


def fake_loader(path: str, function_name: str) -> tuple[str, bytes]:
    return ("loaded", Path(path).read_bytes())


class Recorder:
    """A compile function that counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *key):
        self.calls += 1
        return FakeCompiled(key)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("FOS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FOS_DISK_CACHE", raising=False)
    return tmp_path / "cache"


def fake_disk(loader=fake_loader) -> DiskCache:
    return DiskCache("quantize", loader=loader, fingerprint=lambda: "f" * 32)


# --- what the entry's location depends on ---------------------------------------


def test_fingerprint_changes_with_every_input():
    sources = [("kernel.py", b"a = 1\n"), ("tile.py", b"b = 2\n")]
    versions = {"nvidia-cutlass-dsl": "4.8.1", "apache-tvm-ffi": "0.1.15"}
    base = fingerprint_of(sources, versions, "3.11")
    variants = [
        fingerprint_of([("kernel.py", b"a = 2\n"), sources[1]], versions, "3.11"),
        fingerprint_of([("kernel2.py", b"a = 1\n"), sources[1]], versions, "3.11"),
        fingerprint_of([*sources, ("new.py", b"")], versions, "3.11"),
        fingerprint_of(sources[:1], versions, "3.11"),
        fingerprint_of(sources, {**versions, "nvidia-cutlass-dsl": "4.8.2"}, "3.11"),
        fingerprint_of(sources, {**versions, "apache-tvm-ffi": "0.1.16"}, "3.11"),
        fingerprint_of(sources, versions, "3.12"),
    ]
    assert len({base, *variants}) == len(variants) + 1
    assert fingerprint_of(reversed(sources), versions, "3.11") == base  # order-free


def test_package_fingerprint_covers_every_source():
    sources, versions, python = fingerprint_inputs()
    names = {name for name, _ in sources}
    assert {"compile.py", "ieee.py", "cache.py", "precompile/__init__.py"} <= names
    assert versions["nvidia-cutlass-dsl"] != "absent" and versions["apache-tvm-ffi"] != "absent"
    assert python == f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert package_fingerprint() == fingerprint_of(sources, versions, python)


def test_entry_name_changes_with_family_and_every_field():
    base = entry_name("quantize", KEY)
    changed = {
        "dtype": "float16",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 448,
        "row_scaled": True,
        "arch": "sm_100a",
        "sms": 114,
    }
    names = {entry_name("quantize", KEY._replace(**{f: v})) for f, v in changed.items()}
    assert base not in names and len(names) == len(changed)
    assert entry_name("amax", KEY) != base

    class Renamed(NamedTuple):  # same values, other field names
        dtype: str
        block: str
        err: str
        bound: int
        row_scaled: bool
        arch: str
        sms: int

    class Flag(NamedTuple):
        x: bool

    class Count(NamedTuple):
        x: int

    assert entry_name("quantize", Renamed(*KEY)) != base
    assert entry_name("f", Flag(True)) != entry_name("f", Count(1))  # True is not 1


def test_keys_must_be_namedtuples_of_plain_fields():
    class Bad(NamedTuple):
        scale: float

    with pytest.raises(TypeError, match="NamedTuple"):
        entry_name("quantize", ("bfloat16", "1x16"))
    with pytest.raises(TypeError, match="'scale' must be str, int or bool"):
        entry_name("quantize", Bad(1.0))
    with pytest.raises(ValueError, match="family"):
        DiskCache("Quantize-1")


# --- round trip and rejection -------------------------------------------------


def test_store_then_load_in_a_new_cache(cache_dir):
    compile_fn = Recorder()
    first = fake_disk().get(KEY, compile_fn)
    assert isinstance(first, FakeCompiled) and compile_fn.calls == 1
    files = sorted(p.name for p in cache_dir.rglob("*"))
    name = entry_name("quantize", KEY)
    assert files == ["f" * 32, f"{name}.json", f"{name}.lock", f"{name}.o"]
    manifest = json.loads(next(cache_dir.rglob("*.json")).read_text())
    assert manifest["key"] == [[f, getattr(KEY, f)] for f in KEY._fields]
    assert manifest["size"] == len(next(cache_dir.rglob("*.o")).read_bytes())

    again = fake_disk()
    loaded = again.get(KEY, compile_fn)
    assert compile_fn.calls == 1 and again.hits == 1 and again.stores == 0
    assert loaded == ("loaded", first.payload + b"fos_quantize")


def _corrupt_obj_truncated(entry):
    entry.obj.write_bytes(entry.obj.read_bytes()[:-7])


def _corrupt_obj_flipped(entry):
    data = bytearray(entry.obj.read_bytes())
    data[len(data) // 2] ^= 0x01
    entry.obj.write_bytes(bytes(data))


def _corrupt_obj_missing(entry):
    entry.obj.unlink()


def _corrupt_manifest_garbage(entry):
    entry.manifest.write_bytes(b"\x00{not json")


def _corrupt_manifest_truncated(entry):
    entry.manifest.write_bytes(entry.manifest.read_bytes()[:40])


def _corrupt_manifest_other_key(entry):
    manifest = json.loads(entry.manifest.read_text())
    manifest["key"][0][1] = "float16"
    entry.manifest.write_text(json.dumps(manifest))


def _corrupt_manifest_stale(entry):
    manifest = json.loads(entry.manifest.read_text())
    manifest["fingerprint"] = "0" * 32
    entry.manifest.write_text(json.dumps(manifest))


def _corrupt_manifest_not_a_dict(entry):
    entry.manifest.write_text("[1, 2]")


@pytest.mark.parametrize(
    "corrupt",
    [
        _corrupt_obj_truncated,
        _corrupt_obj_flipped,
        _corrupt_obj_missing,
        _corrupt_manifest_garbage,
        _corrupt_manifest_truncated,
        _corrupt_manifest_other_key,
        _corrupt_manifest_stale,
        _corrupt_manifest_not_a_dict,
    ],
)
def test_corrupt_entry_is_recompiled_and_overwritten(cache_dir, corrupt):
    compile_fn = Recorder()
    fake_disk().get(KEY, compile_fn)
    disk = fake_disk()
    corrupt(disk.entry(KEY))
    assert disk.load(KEY) is None
    assert isinstance(disk.get(KEY, compile_fn), FakeCompiled)  # compiled, not loaded
    assert compile_fn.calls == 2 and disk.stores == 1
    assert fake_disk().load(KEY) == ("loaded", FakeCompiled(KEY).payload + b"fos_quantize")
    assert not [p for p in cache_dir.rglob(".*") if p.is_file()]  # no temporary left


def test_loader_error_is_a_miss(cache_dir):
    compile_fn = Recorder()
    fake_disk().get(KEY, compile_fn)

    def broken(path, name):
        raise RuntimeError("bad object")

    disk = fake_disk(loader=broken)
    assert isinstance(disk.get(KEY, compile_fn), FakeCompiled)
    assert compile_fn.calls == 2 and disk.stores == 1 and disk.hits == 0


def test_failed_export_leaves_no_entry(cache_dir):
    class NoExport:
        def export_to_c(self, path, function_name):
            raise RuntimeError("export failed")

    disk = fake_disk()
    with pytest.warns(RuntimeWarning, match="could not store"):
        fn = disk.get(KEY, lambda *key: NoExport())
    assert isinstance(fn, NoExport) and disk.stores == 0
    assert not list(cache_dir.rglob("*.o")) and not list(cache_dir.rglob("*.json"))


# --- environment ----------------------------------------------------------------


def test_disk_cache_off_writes_nothing(cache_dir, monkeypatch):
    monkeypatch.setenv("FOS_DISK_CACHE", "0")
    compile_fn = Recorder()
    cache = CompileCache(compile_fn, name="quantize")
    cache.get(KEY)
    assert compile_fn.calls == 1 and not cache_dir.exists()


def test_cache_dir_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("FOS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "fos"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_root() == Path.home() / ".cache" / "fos"
    monkeypatch.setenv("FOS_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    fake_disk().get(KEY, Recorder())
    assert len(list((tmp_path / "mine").rglob("*.o"))) == 1


def test_unwritable_directory_warns_once(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("FOS_CACHE_DIR", str(blocker / "cache"))  # under a file: even root fails
    compile_fn = Recorder()
    cache = CompileCache(compile_fn, name="quantize")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cache.get(KEY)
        cache.get(KEY._replace(err_mode="mse"))
    assert compile_fn.calls == 2 and len(cache) == 2
    assert [str(w.message) for w in caught if "not writable" in str(w.message)] == [
        str(caught[0].message)
    ]


def test_compile_cache_api_with_disk(cache_dir):
    compile_fn = Recorder()
    cache = CompileCache(compile_fn, name="quantize")
    cache.disk = fake_disk()
    first = cache.get(KEY)
    assert cache.get(KEY) is first and KEY in cache and len(cache) == 1
    cache.clear()
    assert len(cache) == 0 and KEY not in cache
    assert cache.get(KEY)[0] == "loaded" and compile_fn.calls == 1


# --- real compiles in fresh processes (CPU: sm_90a) -----------------------------

_CHILD = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from fos_cutedsl import CACHE, VariantKey
    key = VariantKey("float32", "16x16", "mse", 448, False, "sm_90a")
    ready, go = Path(sys.argv[1]), Path(sys.argv[2])
    ready.touch()
    while not go.exists():
        time.sleep(0.01)
    fn = CACHE.get(key)
    print(json.dumps({"hits": CACHE.disk.hits, "stores": CACHE.disk.stores}))
    """
)


def test_two_processes_compile_one_variant(tmp_path, monkeypatch):
    """Both succeed; one compiles and stores, the other waits on the lock and loads it."""
    env = {**ENV, "FOS_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FOS_DISK_CACHE", None)
    go = tmp_path / "go"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(tmp_path / f"ready{i}"), str(go)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"ready{i}").exists() for i in range(2)):
        assert time.monotonic() < deadline and all(c.poll() is None for c in children)
        time.sleep(0.01)
    go.touch()
    reports = []
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted((r["hits"], r["stores"]) for r in reports) == [(0, 1), (1, 0)]
    files = sorted(p.suffix for p in (tmp_path / "cache").rglob("*") if p.is_file())
    assert files == [".json", ".lock", ".o"]  # one entry, no temporary left
    monkeypatch.setenv("FOS_CACHE_DIR", str(tmp_path / "cache"))
    key = VariantKey("float32", "16x16", "mse", 448, False, "sm_90a")
    assert DiskCache("quantize").load(key) is not None  # verified and loadable without a GPU


def test_precompile_cli_then_hit(tmp_path):
    env = {**ENV, "FOS_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FOS_DISK_CACHE", None)
    args = [sys.executable, "-m", "fos_cutedsl.precompile", "--arch", "sm_90a", "--sms", "132"]
    args += [
        "--family",
        "quantize",
        "--dtype",
        "float16",
        "--block",
        "16x16",
        "--err-mode",
        "mae",
        "--bound",
        "256",
    ]
    first = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "compiled" in first.stdout and "1 of 1 variants stored" in first.stdout
    assert "RuntimeWarning" not in first.stderr
    second = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0 and "on disk" in second.stdout, second.stderr
    off = subprocess.run(
        args, env={**env, "FOS_DISK_CACHE": "0"}, capture_output=True, text=True, timeout=300
    )
    assert off.returncode == 1 and "off" in off.stderr


# --- GPU: a fresh process gives the same bits -----------------------------------

_GPU_CHILD = textwrap.dedent(
    """
    import json, sys, torch
    import fos_cutedsl
    torch.manual_seed(0)
    x = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
    amax = x.abs().amax().float().reshape(1)
    codes, scales = fos_cutedsl.quantize(x, amax, err_mode="mse")
    torch.save({"codes": codes.cpu(), "scales": scales.view(torch.uint8).cpu()}, sys.argv[1])
    d = fos_cutedsl.CACHE.disk
    print(json.dumps({"hits": d.hits, "stores": d.stores}))
    """
)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device: loading runs a kernel")
def test_fresh_process_loads_the_same_bits(tmp_path):
    import fos_cutedsl

    torch.manual_seed(0)
    x = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
    amax = x.abs().amax().float().reshape(1)
    codes, scales = fos_cutedsl.quantize(x, amax, err_mode="mse")
    env = {**ENV, "FOS_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CUTE_DSL_ARCH")
    env.pop("FOS_DISK_CACHE", None)
    reports = []
    for run in ("cold", "warm"):
        out = subprocess.run(
            [sys.executable, "-c", _GPU_CHILD, str(tmp_path / f"{run}.pt")],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr
        reports.append(json.loads(out.stdout.strip().splitlines()[-1]))
        got = torch.load(tmp_path / f"{run}.pt")
        assert torch.equal(got["codes"], codes.cpu()), run
        assert torch.equal(got["scales"], scales.view(torch.uint8).cpu()), run
    assert reports == [{"hits": 0, "stores": 1}, {"hits": 1, "stores": 0}]
