"""v43: static SASS opcode counts of one quantize variant over an address range (CPU only).

    python sass_hot.py --dump DIR [--dtype bfloat16 --block 1x16 --err mae --bound 256 --row]
                       [--grouped] [--range 0980 aa30 --skip 1c80-31e0 42e0-5840 ...]

Compiles the variant for sm_90a with the cubin kept (``CUTE_DSL_KEEP``), disassembles it with
``cuobjdump`` (PATH, or the ``nvidia-cuda-cuobjdump`` wheel), writes ``DIR/kernel.sass`` and
prints the opcode counts of the instructions in ``--range`` (hex addresses, end excluded) that
are not in a ``--skip`` range. Without ``--range``: the backward branches (loops) and the
forward conditional branches over 64 or more instructions (rare branches), to choose them.
``--grouped``: the persistent grouped kernel (``grouped_persistent``, int64 offsets), its main
kernel's function (not the setup's). v43 read the bf16 mae per-tensor unit of 4 groups with
``--range 0980 aa30 --skip 1c80-31e0 42e0-5840 6cb0-8210 92d0-a830`` and the grouped one's
with ``--grouped --range 0440 a7f0 --skip 1900-2e80 4050-5600 6850-7dd0 9070-a5f0``.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
from pathlib import Path

INSTR = re.compile(r"\s+/\*([0-9a-f]{4,5})\*/\s+(.*?)\s*;")
BRANCH = re.compile(r"^(@!?U?P\w+\s+)?BRA\S*\s+(?:!?U?P\w+,\s*)?(0x[0-9a-f]+)")


def cuobjdump() -> str:
    found = shutil.which("cuobjdump")
    if found:
        return found
    import nvidia  # the nvidia-cuda-cuobjdump wheel

    for root in nvidia.__path__:
        for path in Path(root).glob("*/bin/cuobjdump"):
            return str(path)
    raise SystemExit("no cuobjdump: pip install nvidia-cuda-cuobjdump")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dump", type=Path, required=True)
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--block", default="1x16")
    p.add_argument("--err", default="mae")
    p.add_argument("--bound", type=int, default=256)
    p.add_argument("--row", action="store_true")
    p.add_argument("--grouped", action="store_true")
    p.add_argument("--range", nargs=2)
    p.add_argument("--skip", nargs="*", default=[])
    args = p.parse_args()
    args.dump.mkdir(parents=True, exist_ok=True)
    os.environ.update(CUTE_DSL_KEEP="ptx,cubin", CUTE_DSL_DUMP_DIR=str(args.dump))
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
    if args.grouped:
        from fos_cutedsl.grouped import GroupedQuantizeKey, compile_grouped_quantize

        key = GroupedQuantizeKey(args.dtype, "1x16", args.err, args.bound, "int64", "sm_90a", True)
        compile_grouped_quantize(key)
    else:
        from fos_cutedsl.compile import compile_quantize

        compile_quantize(args.dtype, args.block, args.err, args.bound, args.row, "sm_90a")
    cubin = max(args.dump.glob("*.cubin"), key=lambda f: f.stat().st_mtime)
    sass = subprocess.run(
        [cuobjdump(), "--dump-sass", str(cubin)], capture_output=True, text=True, check=True
    ).stdout
    functions = sass.split("Function : ")[1:]
    sass = next((f for f in functions if f.startswith("kernel_cutlass_kernel")), sass)
    (args.dump / "kernel.sass").write_text(sass)
    code = [(int(m[1], 16), m[2]) for m in map(INSTR.match, sass.splitlines()) if m]
    print(f"{cubin.name}: {len(code)} instructions")
    if not args.range:
        for addr, text in code:
            b = BRANCH.match(text)
            if b and (int(b[2], 16) <= addr or (b[1] and int(b[2], 16) - addr >= 64 * 16)):
                print(f"  {addr:05x} {text}  ({(int(b[2], 16) - addr) // 16:+d} instructions)")
        return
    lo, hi = (int(a, 16) for a in args.range)
    skips = [tuple(int(a, 16) for a in s.split("-")) for s in args.skip]
    kept = [t for a, t in code if lo <= a < hi and not any(s <= a < e for s, e in skips)]
    ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0] for t in kept)
    print(f"{len(kept)} instructions in range")
    for op, n in ops.most_common():
        print(f"{n:6d} {op}")


if __name__ == "__main__":
    main()
