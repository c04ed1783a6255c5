"""Sessions per layer of the stack. Run ``nox -l`` to list them.

PyTorch comes from ``FOS_TORCH_SPEC`` (default ``torch``). On our CPU build
machines set ``FOS_TORCH_SPEC=torch==2.13.0``: that wheel is a CPU build on
local disk, while an unpinned ``torch`` downloads a multi-GB CUDA build.
"""

from __future__ import annotations

import os

import nox

nox.options.sessions = [
    "lint",
    "tests-reference",
    "tests-cutedsl",
    "tests-op",
    "compile-check",
]
nox.options.reuse_venv = "yes"

TORCH = os.environ.get("FOS_TORCH_SPEC", "torch")
RUFF = "ruff==0.17.6"
REFERENCE = "./packages/fos-reference"
CUTEDSL = "./packages/fos-cutedsl"
OP = "./packages/fos-op"


def _install(session: nox.Session, *packages: str) -> None:
    """Install torch first (from FOS_TORCH_SPEC), then in-tree packages by path."""
    session.install(TORCH, "numpy", "pytest")
    session.install(*packages)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff lint and format check over the whole repository."""
    session.install(RUFF)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(name="tests-reference")
def tests_reference(session: nox.Session) -> None:
    """The reference's CPU test suite (exhaustive encoders, oracle parity)."""
    _install(session, REFERENCE)
    session.run("pytest", "tests/reference", "-q", *session.posargs)


@nox.session(name="tests-cutedsl")
def tests_cutedsl(session: nox.Session) -> None:
    """The kernel's tests: bitwise parity on a GPU; they skip, with the reason, without one."""
    _install(session, REFERENCE, CUTEDSL)
    session.run("pytest", "tests/cutedsl", "-q", *session.posargs)


@nox.session(name="tests-op")
def tests_op(session: nox.Session) -> None:
    """The torch.library op layer: parity, opcheck, torch.compile, validation."""
    _install(session, REFERENCE, OP)
    session.run("pytest", "tests/op", "-q", *session.posargs)


@nox.session(name="compile-check")
def compile_check(session: nox.Session) -> None:
    """Compile every kernel variant for sm_90a and sm_100a (no GPU) and audit the PTX."""
    _install(session, REFERENCE, CUTEDSL)
    for arch in ("sm_90a", "sm_100a"):
        session.run("python", "-m", "fos_cutedsl.check", "--arch", arch)


@nox.session
def demo(session: nox.Session) -> None:
    """Quantize a tensor on the CPU; print SQNR and the map-to-4 share per mode."""
    session.install(TORCH)
    session.install(REFERENCE)
    session.run("python", "-m", "fos_reference.demo", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """The roofline benchmark (bench/bench.py); on a machine without a GPU, CPU reference rows."""
    _install(session, REFERENCE, OP, "tqdm", "matplotlib")
    session.run("python", "bench/bench.py", *session.posargs)
