"""Cold start of a new process: first quantize and each further variant, disk cache cold and warm.

Each run is a fresh Python process. On a GPU it times ``import torch``, the
CUDA context (a 128x256 bfloat16 input made on the device), then from
``import fos_op`` to the first ``fos_op.quantize`` result (synchronized), and
each further variant's first call (mse, bound 448, row-scaled, 16x16). Cold:
an empty ``FOS_CACHE_DIR``; warm: the directory the cold run filled.

With ``--cpu`` (no GPU needed) it times ``import fos_cutedsl`` and, per
variant, ``CACHE.get`` for sm_90a: the compile (cold) or the load (warm).

    python bench/cold_start.py [--warm-runs 3] [--out bench/results/h200-cold-start.json]
    python bench/cold_start.py --cpu
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap

# name -> fos_op.quantize keywords and whether the amax is a row vector; the first is the baseline.
VARIANTS = {
    "1x16 mae 256": ({}, False),
    "mse": ({"err_mode": "mse"}, False),
    "bound 448": ({"e4m3_scale_bound": 448}, False),
    "row-scaled": ({}, True),
    "16x16": ({"block": "16x16"}, False),
}

_GPU_CHILD = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    import torch
    t_torch = time.perf_counter()
    x = torch.randn(128, 256, device="cuda", dtype=torch.bfloat16)
    amax = x.abs().amax().float().reshape(1)
    rows = x.abs().amax(dim=1).float()
    torch.cuda.synchronize()
    t_cuda = time.perf_counter()
    import fos_op
    t_import = time.perf_counter()
    out = {"torch_s": t_torch - t0, "cuda_init_s": t_cuda - t_torch,
           "import_fos_op_s": t_import - t_cuda, "variants_s": {}}
    start = t_cuda
    for name, (kwargs, row_scaled) in json.loads(sys.argv[1]).items():
        codes, scales = fos_op.quantize(x, rows if row_scaled else amax, strict=True, **kwargs)
        torch.cuda.synchronize()
        now = time.perf_counter()
        out["variants_s"][name] = now - start
        start = now
    print(json.dumps(out))
    """
)

_CPU_CHILD = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    import torch
    t_torch = time.perf_counter()
    import fos_cutedsl
    from fos_cutedsl import CACHE, VariantKey
    t_import = time.perf_counter()
    out = {"torch_s": t_torch - t0, "import_fos_cutedsl_s": t_import - t_torch, "variants_s": {}}
    for name, (kwargs, row_scaled) in json.loads(sys.argv[1]).items():
        key = VariantKey("bfloat16", kwargs.get("block", "1x16"), kwargs.get("err_mode", "mae"),
                         kwargs.get("e4m3_scale_bound", 256), row_scaled, "sm_90a")
        start = time.perf_counter()
        CACHE.get(key)
        out["variants_s"][name] = time.perf_counter() - start
    out["disk"] = {"hits": CACHE.disk.hits, "stores": CACHE.disk.stores}
    print(json.dumps(out))
    """
)


def run_child(script: str, cache_dir: str) -> dict:
    env = {**os.environ, "FOS_CACHE_DIR": cache_dir, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("FOS_DISK_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(VARIANTS)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"child process failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(runs: dict[str, list[dict]]) -> str:
    first = runs["cold"][0]
    fixed = [k for k in first if k.endswith("_s") and k != "variants_s"]
    lines = [f"{'':32}" + "".join(f"{mode:>12}" for mode in runs)]
    for k in fixed:
        cells = "".join(f"{min(r[k] for r in rs):11.3f}s" for rs in runs.values())
        lines.append(f"{k:32}" + cells)
    for i, name in enumerate(first["variants_s"]):
        label = ("first result: " if i == 0 else "further: ") + name
        cells = "".join(f"{min(r['variants_s'][name] for r in rs):11.3f}s" for rs in runs.values())
        lines.append(f"{label:32}" + cells)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", action="store_true", help="no GPU: time imports and CACHE.get")
    parser.add_argument("--warm-runs", type=int, default=3, help="warm processes (best is shown)")
    parser.add_argument("--out", help="write the runs as JSON here")
    args = parser.parse_args()
    if args.cpu:
        os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
    script = _CPU_CHILD if args.cpu else _GPU_CHILD
    with tempfile.TemporaryDirectory(prefix="fos-cold-start-") as cache_dir:
        runs = {"cold": [run_child(script, cache_dir)]}
        runs["warm"] = [run_child(script, cache_dir) for _ in range(args.warm_runs)]
    print(table(runs))
    if not args.cpu:
        warm = runs["warm"]
        first = min(next(iter(r["variants_s"].values())) for r in warm)
        further = max(min(r["variants_s"][n] for r in warm) for n in list(VARIANTS)[1:])
        print(f"warm: first result {first:.3f} s (target <= 1 s), slowest further variant "
              f"{further * 1e3:.1f} ms (target <= 50 ms)")  # fmt: skip
    if args.out:
        result = {"mode": "cpu" if args.cpu else "gpu", "python": sys.version.split()[0], **runs}
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
