"""Sessions per layer of the stack. Run ``nox -l`` to list them.

PyTorch comes from ``FOS_TORCH_SPEC`` (default ``torch``). On our CPU build
machines set ``FOS_TORCH_SPEC=torch==2.13.0``: that wheel is a CPU build on
local disk, while an unpinned ``torch`` downloads a multi-GB CUDA build.

``FOS_PRUNE_VENVS=1`` (set by ``.ci/run``) deletes each session's virtualenv
when the session ends, so a full run holds one torch install on disk at a time
(about 1.4 GB) instead of one per session.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable

import nox

nox.options.sessions = [
    "lint",
    "tests-reference",
    "tests-cutedsl",
    "tests-op",
    "tests-bench",
    "compile-check",
    "install-check",
]
nox.options.reuse_venv = "yes"

TORCH = os.environ.get("FOS_TORCH_SPEC", "torch")
PRUNE_VENVS = os.environ.get("FOS_PRUNE_VENVS") == "1"
RUFF = "ruff==0.17.6"
REFERENCE = "./packages/fos-reference"
CUTEDSL = "./packages/fos-cutedsl"
OP = "./packages/fos-op"


def _pruned(run: Callable[[nox.Session], None]) -> Callable[[nox.Session], None]:
    """Delete the session's virtualenv when it ends, pass or fail, under FOS_PRUNE_VENVS=1."""

    @functools.wraps(run)
    def session_then_prune(session: nox.Session) -> None:
        try:
            run(session)
        finally:
            location = getattr(session.virtualenv, "location", None)
            if PRUNE_VENVS and location:
                shutil.rmtree(location, ignore_errors=True)

    return session_then_prune


def _install(session: nox.Session, *packages: str) -> None:
    """Install torch first (from FOS_TORCH_SPEC), then in-tree packages by path."""
    session.install(TORCH, "numpy", "pytest")
    session.install(*packages)


@nox.session
@_pruned
def lint(session: nox.Session) -> None:
    """ruff lint and format check over the whole repository."""
    session.install(RUFF)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(name="tests-reference")
@_pruned
def tests_reference(session: nox.Session) -> None:
    """The reference's CPU test suite (exhaustive encoders, oracle parity)."""
    _install(session, REFERENCE)
    session.run("pytest", "tests/reference", "-q", *session.posargs)


@nox.session(name="tests-cutedsl")
@_pruned
def tests_cutedsl(session: nox.Session) -> None:
    """The kernel's tests: bitwise parity on a GPU; they skip, with the reason, without one."""
    _install(session, REFERENCE, CUTEDSL)
    session.run("pytest", "tests/cutedsl", "-q", *session.posargs)


@nox.session(name="tests-op")
@_pruned
def tests_op(session: nox.Session) -> None:
    """The torch.library op layer: parity, opcheck, torch.compile, validation."""
    _install(session, REFERENCE, OP)
    session.run("pytest", "tests/op", "-q", *session.posargs)


@nox.session(name="tests-bench")
@_pruned
def tests_bench(session: nox.Session) -> None:
    """The benchmark scripts on the CPU: a quick run's records, the committed results plot."""
    _install(session, REFERENCE, OP, "matplotlib")
    session.run("pytest", "tests/bench", "-q", *session.posargs)


@nox.session(name="compile-check")
@_pruned
def compile_check(session: nox.Session) -> None:
    """Compile every kernel variant for sm_90a and sm_100a (no GPU) and audit the PTX."""
    _install(session, REFERENCE, CUTEDSL)
    for arch in ("sm_90a", "sm_100a"):
        session.run("python", "-m", "fos_cutedsl.check", "--arch", arch)


@nox.session
@_pruned
def demo(session: nox.Session) -> None:
    """The main job through fos_op (kernel on a GPU, reference on a CPU): 4/6 vs NVFP4 per mode."""
    session.install(TORCH)
    session.install(REFERENCE, OP)
    session.run("python", "-W", "error", "-m", "fos_op.demo", *session.posargs)


# Each README's install line, exactly as written (run from the repository root).
README_INSTALLS = {
    "packages/fos-reference/README.md": ("./packages/fos-reference",),
    "packages/fos-op/README.md": ("./packages/fos-reference", "./packages/fos-op"),
}


@nox.session(name="install-check", venv_backend="none")
def install_check(session: nox.Session) -> None:
    """Each README install line in a fresh venv (with torch), then the imports under -W error."""
    import tempfile

    for readme, paths in README_INSTALLS.items():
        line = "pip install " + " ".join(paths)
        with open(readme, encoding="utf-8") as f:
            text = f.read()
        if line not in text:
            session.error(f"{readme} no longer says {line!r}: update README_INSTALLS")
        with tempfile.TemporaryDirectory() as tmp:
            session.run("python", "-m", "venv", tmp, external=True)
            python = os.path.join(tmp, "bin", "python")
            session.run(python, "-m", "pip", "install", "-q", TORCH, external=True)
            session.run(python, "-m", "pip", "install", "-q", *paths, external=True)
            modules = ["fos_reference"] + (["fos_op"] if "./packages/fos-op" in paths else [])
            imports = "; ".join(f"import {m}" for m in modules)
            session.run(python, "-W", "error", "-c", imports, external=True)


@nox.session
@_pruned
def bench(session: nox.Session) -> None:
    """The roofline benchmark (bench/bench.py); on a machine without a GPU, CPU reference rows."""
    _install(session, REFERENCE, OP, "tqdm", "matplotlib")
    session.run("python", "bench/bench.py", *session.posargs)
