"""Compare the generated PTX of every kernel variant at two git revisions.

    python tests/cutedsl/compare_ptx.py REV_A REV_B [--arch sm_90a --arch sm_100a] [--keep DIR]

Each revision is checked out with ``git worktree add`` into a temporary
directory and its own ``python -m fos_cutedsl.check --arch ARCH --dump-dir D``
runs there as a subprocess, under that tree's ``PYTHONPATH`` (so an old
revision's module layout works). The variants' PTX files are compared after
kernel symbol names are normalized: a renamed module or class renames the
mangled entry point, nothing else. Exits 1 on any difference (or a missing
variant), 0 when every variant is byte-identical. ``--keep DIR`` keeps the
dumps under ``DIR/<commit>/<arch>`` and reuses them on the next run.
No GPU is needed.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGES = ("fos-reference", "fos-cutedsl", "fos-op")
# A mangled kernel name as the DSL emits it (``kernel_cutlass_kernel_fos_cutedsl<module>
# <Class>_object_at_...``, cut to a fixed length), without its ``_param_N`` suffix.
_SYMBOL = re.compile(r"\bkernel_cutlass_\w+?(?=_param_\d+\b|\b)")
# The variants ``check`` writes (``bfloat16-1x16-mae-256-row.sm_90a.ptx``), not the DSL's dumps.
_VARIANT = re.compile(r"^(bfloat16|float16|float32)-[0-9x]+-(mae|mse)-\d+(-row)?\.")


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def normalize(ptx: str) -> str:
    """``ptx`` with each distinct kernel symbol replaced by ``KERNEL<n>`` (first use order)."""
    names: dict[str, str] = {}

    def token(match: re.Match) -> str:
        return names.setdefault(match.group(0), f"KERNEL{len(names)}")

    return _SYMBOL.sub(token, ptx)


def dump(repo: Path, commit: str, arch: str, out: Path) -> None:
    """Run ``fos_cutedsl.check`` of ``commit`` for ``arch``, its PTX into ``out``."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        _git("worktree", "add", "--detach", str(tree), commit, cwd=repo)
        try:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(
                str(tree / "packages" / p / "src") for p in PACKAGES
            )
            raw = Path(tmp) / "raw"
            cmd = [
                sys.executable,
                "-m",
                "fos_cutedsl.check",
                "--arch",
                arch,
                "--dump-dir",
                str(raw),
            ]
            run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
            print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
            if run.returncode != 0:
                sys.stderr.write(run.stdout + run.stderr)
                raise SystemExit(f"check failed at {commit} for {arch}")
            out.mkdir(parents=True, exist_ok=True)
            for ptx in _variants(raw, arch):
                (out / ptx).write_text((raw / ptx).read_text())
        finally:
            _git("worktree", "remove", "--force", str(tree), cwd=repo)


def _variants(folder: Path, arch: str) -> set[str]:
    return {p.name for p in folder.glob(f"*.{arch}.ptx") if _VARIANT.match(p.name)}


def compare(a: Path, b: Path, arch: str) -> int:
    """Differences between the normalized variant PTX in ``a`` and ``b`` (printed)."""
    names_a, names_b = _variants(a, arch), _variants(b, arch)
    bad = 0
    for name in sorted(names_a ^ names_b):
        print(f"  {name}: only in {'A' if name in names_a else 'B'}")
        bad += 1
    common = sorted(names_a & names_b)
    for name in common:
        pa, pb = normalize((a / name).read_text()), normalize((b / name).read_text())
        if pa != pb:
            bad += 1
            diff = difflib.unified_diff(
                pa.splitlines(), pb.splitlines(), "A/" + name, "B/" + name, lineterm="", n=1
            )
            print("\n".join(list(diff)[:40]))
    same = len(common) - (bad - len(names_a ^ names_b))
    print(f"{arch}: {same}/{len(names_a | names_b)} variants identical after normalization")
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("--arch", action="append", help="default: sm_90a and sm_100a")
    parser.add_argument("--keep", help="keep (and reuse) the dumps under this directory")
    args = parser.parse_args(argv)
    repo = Path(__file__).resolve().parent
    repo = Path(_git("rev-parse", "--show-toplevel", cwd=repo))
    arches = args.arch or ["sm_90a", "sm_100a"]
    commits = [
        _git("rev-parse", "--verify", f"{r}^{{commit}}", cwd=repo) for r in (args.rev_a, args.rev_b)
    ]
    print(f"A = {args.rev_a} ({commits[0][:12]}), B = {args.rev_b} ({commits[1][:12]})")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        bad = 0
        for arch in arches:
            dirs = []
            for commit in commits:
                out = root / commit / arch
                if not _variants(out, arch):
                    print(f"dumping {commit[:12]} {arch}: ", end="", flush=True)
                    dump(repo, commit, arch, out)
                dirs.append(out)
            bad += compare(dirs[0], dirs[1], arch)
    print("IDENTICAL" if bad == 0 else f"DIFFERENT: {bad} variant(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
