"""Fail when too little of a package's public API has known types (pyright --verifytypes).

    python .ci/verifytypes.py [--min 90] minigrad viz

For each package: runs ``pyright --verifytypes PKG --ignoreexternal --outputjson`` on the copy in the
current directory, prints the score and the symbols of unknown type (first few), and exits 1 when a
score is below ``--min`` percent.  ``--ignoreexternal``: numpy's, matplotlib's and graphviz's own gaps
are not ours.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def score(package: str, root: Path) -> tuple[float, dict[str, int], list[str]]:
    pyright = shutil.which("pyright") or str(Path(sys.executable).with_name("pyright"))
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([pyright, "--verifytypes", package, "--ignoreexternal", "--outputjson"],
                          capture_output=True, text=True, cwd=root, env=env, check=False)
    try:
        report = json.loads(proc.stdout)["typeCompleteness"]
    except (ValueError, KeyError):
        raise SystemExit("pyright --verifytypes %s gave no report:\n%s%s"
                         % (package, proc.stdout, proc.stderr)) from None
    where = Path(report["packageRootDirectory"]).resolve()
    if where != (root / package).resolve():
        raise SystemExit("pyright checked %s, not this checkout's %s" % (where, root / package))
    unknown = [s["name"] for s in report["symbols"] if s["isExported"] and not s["isTypeKnown"]]
    return 100 * report["completenessScore"], report["exportedSymbolCounts"], unknown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="+")
    parser.add_argument("--min", type=float, default=90.0, help="lowest acceptable score, in percent")
    args = parser.parse_args(argv)
    root = Path.cwd()
    failed = False
    for package in args.packages:
        percent, counts, unknown = score(package, root)
        ok = percent >= args.min
        failed |= not ok
        print("%s: %.1f %% of %d public symbols have known types (at least %.0f %% needed) %s"
              % (package, percent, sum(counts.values()), args.min, "ok" if ok else "FAILED"))
        for name in unknown[:15]:
            print("    unknown: %s" % name)
        if len(unknown) > 15:
            print("    ... and %d more (pyright --verifytypes %s --ignoreexternal)" % (len(unknown) - 15, package))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
