"""Compiled kernel variants on disk, so that a new process loads instead of recompiling.

A variant is one ``.o`` written by the compiled function's ``export_to_c`` and
read back with ``cute.runtime.load_module(path, enable_tvm_ffi=True)``, which
gives a ``tvm_ffi.Function`` called positionally like the compiled one.

Layout: ``<root>/<fingerprint>/<family>-<key digest>.{o,json,lock}``.

- ``root``: ``$FOS_CACHE_DIR``, else ``$XDG_CACHE_HOME/fos``, else
  ``~/.cache/fos``; ``FOS_DISK_CACHE=0`` turns the disk off. Both are read at
  each in-memory miss, not at import.
- ``fingerprint``: sha256 over every ``.py`` file of this package (relative
  path and bytes), the versions of the CuTe DSL distributions and of
  apache-tvm-ffi, and the Python major.minor.
- ``key digest``: sha256 over the family name and the key's field names and
  values in order (a NamedTuple of str, int and bool; the arch and every
  tuning knob are fields).

Integrity: the ``.o`` goes to a temporary file in the same directory and is
renamed over the entry, then the ``.json`` manifest (family, key, fingerprint,
size and sha256 of the ``.o``) likewise. A reader checks the manifest against
the key and the bytes against the manifest before loading; any mismatch,
missing file or load error is a miss: the variant is recompiled and
overwritten. Compile-and-store holds an exclusive ``flock`` on the entry's
lock file and reading a shared one, so a reader never sees half of a
replacement. A directory that cannot be written gives one warning; the
variants then live in memory only.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.metadata
import json
import os
import re
import secrets
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

FORMAT = 1  # bump when the layout or the manifest changes
#: Distributions whose versions change the binary (the DSL compiler and runtime, TVM-FFI).
DISTRIBUTIONS = (
    "nvidia-cutlass-dsl",
    "nvidia-cutlass-dsl-libs-base",
    "nvidia-cutlass-dsl-libs-core",
    "nvidia-cutlass-dsl-libs-cu12",
    "nvidia-cutlass-dsl-libs-cu13",
    "apache-tvm-ffi",
)
_FAMILY = re.compile(r"[a-z][a-z0-9_]*")
_FIELD_TYPES = (str, int, bool)


def enabled() -> bool:
    """False when ``FOS_DISK_CACHE=0``."""
    return os.environ.get("FOS_DISK_CACHE", "1") != "0"


def cache_root() -> Path:
    """``$FOS_CACHE_DIR``, else ``$XDG_CACHE_HOME/fos``, else ``~/.cache/fos``."""
    explicit = os.environ.get("FOS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "fos"


def _feed(h: Any, data: bytes | str) -> None:
    """Length-prefixed, so that no two input sequences hash alike."""
    if isinstance(data, str):
        data = data.encode()
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)


def fingerprint_of(
    sources: Iterable[tuple[str, bytes]], versions: Mapping[str, str], python: str
) -> str:
    """The fingerprint of sources ``(relative path, bytes)``, distribution versions and Python."""
    h = hashlib.sha256()
    _feed(h, f"format={FORMAT} python={python}")
    for name, version in sorted(versions.items()):
        _feed(h, f"{name}={version}")
    for path, data in sorted(sources):
        _feed(h, path)
        _feed(h, data)
    return h.hexdigest()[:32]


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def fingerprint_inputs() -> tuple[list[tuple[str, bytes]], dict[str, str], str]:
    """This package's ``.py`` files, the ``DISTRIBUTIONS``' versions and this Python."""
    root = Path(__file__).resolve().parent
    sources = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*.py")]
    versions = {name: _version(name) for name in DISTRIBUTIONS}
    return sources, versions, f"{sys.version_info[0]}.{sys.version_info[1]}"


@functools.cache
def package_fingerprint() -> str:
    """``fingerprint_of(*fingerprint_inputs())``, once per process."""
    return fingerprint_of(*fingerprint_inputs())


def key_fields(key: tuple) -> list[list]:
    """``[[field name, value], ...]`` of a NamedTuple key of str, int and bool fields."""
    names = getattr(type(key), "_fields", None)
    if not isinstance(key, tuple) or names is None:
        raise TypeError(f"a disk-cache key must be a NamedTuple, got {type(key).__name__}")
    fields = []
    for name, value in zip(names, key, strict=True):
        if type(value) not in _FIELD_TYPES:
            raise TypeError(
                f"key field {name!r} must be str, int or bool, got {type(value).__name__}"
            )
        fields.append([name, value])
    return fields


def entry_name(family: str, key: tuple) -> str:
    """``<family>-<sha256 over the family and the key's fields>`` (JSON keeps True apart from 1)."""
    payload = json.dumps([family, key_fields(key)], separators=(",", ":"))
    return f"{family}-{hashlib.sha256(payload.encode()).hexdigest()[:32]}"


def load_object(path: str, function_name: str) -> Any:
    """The ``tvm_ffi.Function`` ``function_name`` of the ``.o`` at ``path``."""
    import cutlass.cute as cute  # optional here: only a stored variant needs the DSL

    return cute.runtime.load_module(path, enable_tvm_ffi=True)[function_name]


class Entry(NamedTuple):
    """The files of one variant."""

    directory: Path
    obj: Path
    manifest: Path
    lock: Path


@contextlib.contextmanager
def _flock(path: Path, exclusive: bool) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write_atomic(path: Path, write: Callable[[str], None]) -> bytes:
    """``write(temp path)`` in ``path``'s directory, then rename it over ``path``; its bytes."""
    tmp = str(path.with_name(f".{path.stem}.{secrets.token_hex(8)}{path.suffix}"))
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # honours the umask
    try:
        write(tmp)
        data = Path(tmp).read_bytes()
        if not data:
            raise OSError(f"nothing was written to {tmp}")
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return data


class DiskCache:
    """One kernel family's variants on disk (see the module docstring).

    ``loader(path, function_name)`` loads a stored ``.o`` (``load_object``);
    ``fingerprint()`` names the directory of the current sources
    (``package_fingerprint``). ``hits`` and ``stores`` count this process's
    loads from and writes to disk.
    """

    def __init__(
        self,
        family: str,
        *,
        loader: Callable[[str, str], Any] = load_object,
        fingerprint: Callable[[], str] = package_fingerprint,
    ):
        if not _FAMILY.fullmatch(family):
            raise ValueError(f"family must match {_FAMILY.pattern}, got {family!r}")
        self.family = family
        self.function_name = f"fos_{family}"
        self._loader = loader
        self._fingerprint = fingerprint
        self._unwritable: set[Path] = set()  # roots that failed once: warned, not retried
        self.hits = 0
        self.stores = 0

    def entry(self, key: tuple) -> Entry | None:
        """Where ``key`` lives on disk now, or None when the disk cache is off."""
        root = cache_root()
        if not enabled() or root in self._unwritable:
            return None
        directory = root / self._fingerprint()
        name = entry_name(self.family, key)
        return Entry(
            directory,
            directory / f"{name}.o",
            directory / f"{name}.json",
            directory / f"{name}.lock",
        )

    def load(self, key: tuple) -> Any | None:
        """The stored variant, loaded; None when it is missing, stale, corrupt or not loadable."""
        entry = self.entry(key)
        if entry is None or not entry.manifest.exists():
            return None
        with contextlib.ExitStack() as stack:
            # A read-only directory has no lock file, and no writer can replace the files.
            with contextlib.suppress(OSError):
                stack.enter_context(_flock(entry.lock, exclusive=False))
            return self._load(entry, key)

    def get(self, key: tuple, compile_fn: Callable[..., Any]) -> Any:
        """The stored variant, else ``compile_fn(*key)``, stored and returned."""
        fn = self.load(key)
        if fn is not None:
            return fn
        entry = self.entry(key)
        if entry is None:
            return compile_fn(*key)
        with contextlib.ExitStack() as stack:
            try:
                entry.directory.mkdir(parents=True, exist_ok=True)
                stack.enter_context(_flock(entry.lock, exclusive=True))
            except OSError as exc:
                self._give_up(entry, exc)
                return compile_fn(*key)
            fn = self._load(entry, key)  # another process may have stored it while we waited
            if fn is not None:
                return fn
            compiled = compile_fn(*key)
            self._store(entry, key, compiled)
            return compiled

    def _expected(self, key: tuple) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "family": self.family,
            "key": key_fields(key),
            "fingerprint": self._fingerprint(),
            "function_name": self.function_name,
        }

    def _load(self, entry: Entry, key: tuple) -> Any | None:
        """``_verified`` then load, under the caller's lock; any failure is a miss."""
        if not self._verified(entry, key):
            return None
        try:
            fn = self._loader(str(entry.obj), self.function_name)
        except Exception:  # a file the loader rejects is recompiled and overwritten, never used
            return None
        self.hits += 1
        return fn

    def _verified(self, entry: Entry, key: tuple) -> bool:
        """Whether the manifest matches ``key`` and the ``.o`` matches the manifest."""
        try:
            manifest = json.loads(entry.manifest.read_bytes())
            data = entry.obj.read_bytes()
        except (OSError, ValueError):
            return False
        if not isinstance(manifest, dict):
            return False
        if any(manifest.get(k) != v for k, v in self._expected(key).items()):
            return False
        return (
            manifest.get("size") == len(data)
            and manifest.get("sha256") == hashlib.sha256(data).hexdigest()
        )

    def _store(self, entry: Entry, key: tuple, compiled: Any) -> None:
        """Export ``compiled`` and write its manifest, under the caller's exclusive lock."""

        def export(tmp: str) -> None:
            compiled.export_to_c(tmp, function_name=self.function_name)

        try:
            data = _write_atomic(entry.obj, export)
            manifest = self._expected(key)
            manifest["size"] = len(data)
            manifest["sha256"] = hashlib.sha256(data).hexdigest()
            text = json.dumps(manifest) + "\n"
            _write_atomic(entry.manifest, lambda tmp: Path(tmp).write_text(text))
        except OSError as exc:
            self._give_up(entry, exc)
            return
        except Exception as exc:  # the compiled variant still serves this process
            warnings.warn(
                f"fos: could not store {entry.obj}: {exc!r}", RuntimeWarning, stacklevel=3
            )
            return
        self.stores += 1

    def _give_up(self, entry: Entry, exc: OSError) -> None:
        root = entry.directory.parent
        self._unwritable.add(root)
        warnings.warn(
            f"fos: compiled kernels are not cached on disk ({root} is not writable: {exc}); "
            "set FOS_CACHE_DIR to a writable directory or FOS_DISK_CACHE=0",
            RuntimeWarning,
            stacklevel=3,
        )
