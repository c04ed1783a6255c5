"""Fill the compiled-kernel disk cache ahead of a job.

    python -m fos_cutedsl.precompile [--arch sm_90a] [--sms 132] [--family quantize]
        [--dtype bfloat16 ...] [--block 1x16] [--err-mode mse] [--bound 448] [--row-scaled true]

Every option but ``--arch`` and ``--sms`` may repeat and keeps the variants
whose field has one of the given values (``--row-scaled true``). The cache
directory is ``FOS_CACHE_DIR`` (see ``fos_cutedsl.disk_cache``). Exits 1 when
a variant could not be stored.
"""

from __future__ import annotations

import argparse
import sys

from ..disk_cache import cache_root, enabled, package_fingerprint
from . import FAMILIES, Result, default_arch, default_sms, every_variant, precompile

_FIXED = ("arch", "sms")  # chosen by --arch and --sms, not filtered


def _fields() -> list[str]:
    names: list[str] = []
    for key_type in FAMILIES:
        names += [f for f in key_type._fields if f not in _FIXED and f not in names]
    return names


def _keep(key: tuple, family: str, wanted: dict[str, list[str]]) -> bool:
    if wanted.get("family") and family not in wanted["family"]:
        return False
    return all(
        str(getattr(key, field)).lower() in {v.lower() for v in values}
        for field, values in wanted.items()
        if field != "family" and values and field in key._fields
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fos_cutedsl.precompile", description=__doc__)
    parser.add_argument(
        "--arch", help="CuTe DSL arch, e.g. sm_90a (default: CUTE_DSL_ARCH or the GPU's)"
    )
    parser.add_argument("--sms", type=int, help="the target GPU's SM count (default: this GPU's)")
    parser.add_argument("--family", action="append", help="kernel family, e.g. quantize")
    for field in _fields():
        parser.add_argument(f"--{field.replace('_', '-')}", dest=field, action="append")
    args = parser.parse_args(argv)
    wanted = {f: getattr(args, f) for f in ["family", *_fields()]}

    if not enabled():
        print("FOS_DISK_CACHE=0: the disk cache is off, nothing would be stored", file=sys.stderr)
        return 1
    arch = args.arch or default_arch()
    sms = args.sms if args.sms is not None else default_sms()
    families = {
        t: f.cache.disk.family if f.cache is not None and f.cache.disk else ""
        for t, f in FAMILIES.items()
    }
    keys = [k for k in every_variant(arch, sms) if _keep(k, families[type(k)], wanted)]
    print(f"{len(keys)} variants for {arch} into {cache_root() / package_fingerprint()}")

    def report(r: Result) -> None:
        fields = " ".join(f"{n}={v}" for n, v in zip(r.key._fields, r.key, strict=True))
        print(f"{r.status:>10} {r.seconds:6.2f} s  {families[type(r.key)]} {fields}", flush=True)

    results = precompile(keys, report=report)
    missing = sum(r.status == "not stored" for r in results)
    print(f"{len(results) - missing} of {len(results)} variants stored")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
