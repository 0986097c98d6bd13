"""Differential check: run many short PyTorch-style snippets under torch and minigrad, compare what they print.

Usage (from the project root)::

    .venv/bin/python tests/parity/differential.py            # run both, list differences
    .venv/bin/python tests/parity/differential.py -k relu -v # only snippets whose name contains 'relu'

Each snippet (in ``differential_snippets.py``) runs in a fresh namespace with ``torch``, ``nn``, ``F``,
``optim`` and ``np`` bound; ``import torch.nn as nn`` etc. work too (``torch`` is aliased to minigrad in
the minigrad run).  Compared per snippet: the printed output, the exception (type and first sentence of
its message) and the warnings (category and first line).  minigrad reproduces PyTorch's CPU generator,
so random values are compared too (the ``rng_*`` snippets digest whole tensors bit for bit).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _first_sentence(message: str) -> str:
    line = message.strip().split("\n")[0]
    m = re.search(r"\.(\s|$)", line)
    return (line[:m.start()] if m else line).strip()


def _alias_torch_to_minigrad() -> None:
    import importlib

    for module in ("minigrad", "minigrad.nn.functional", "minigrad.autograd.functional", "minigrad.utils.data"):
        importlib.import_module(module)
    for name in list(sys.modules):
        if name == "minigrad" or name.startswith("minigrad."):
            sys.modules["torch" + name[len("minigrad"):]] = sys.modules[name]


def run_snippets(backend: str, names: list[str] | None) -> dict:
    """Execute the snippets in this process with ``backend`` as ``torch``; return {name: observed}."""
    if backend == "minigrad":
        _alias_torch_to_minigrad()
    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    import torch.optim as optim
    from differential_snippets import SNIPPETS

    assert torch.__name__ == backend, "`torch` is %s, not %s" % (torch.__name__, backend)
    results = {}
    for name, code in SNIPPETS:
        if names is not None and name not in names:
            continue
        torch.manual_seed(0)
        ns = {"torch": torch, "nn": nn, "F": F, "optim": optim, "np": np, "__name__": "__snippet__"}
        out = io.StringIO()
        error = None
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            try:
                exec(compile(code, "<%s>" % name, "exec"), ns)
            except BaseException as e:
                error = [type(e).__name__, str(e)]
        torch.set_grad_enabled(True)
        torch.set_default_dtype(torch.float32)
        results[name] = {
            "stdout": out.getvalue(),
            "error": error,
            "warnings": [[w.category.__name__, str(w.message)] for w in caught],
        }
    return results


def _normalize(text: str) -> str:
    """Object addresses vary, and long floats differ in the last float32 digits (summation order)."""
    text = re.sub(r"at 0x[0-9a-f]+", "at 0x...", text)
    return re.sub(r"-?\d+\.\d{6,}(e[-+]\d+)?", lambda m: "%.5g" % float(m.group(0)), text)


def compare(name: str, t: dict, m: dict) -> list[str]:
    problems = []
    if _normalize(t["stdout"]) != _normalize(m["stdout"]):
        problems.append("stdout differs:\n--- torch\n%s--- minigrad\n%s" % (t["stdout"], m["stdout"]))
    te, me = t["error"], m["error"]
    if (te is None) != (me is None):
        problems.append("error: torch %r, minigrad %r" % (te, me))
    elif te is not None and (te[0] != me[0] or _first_sentence(te[1]) not in me[1]):
        problems.append("error differs:\n  torch    %s: %s\n  minigrad %s: %s" % (te[0], te[1], me[0], me[1]))
    tw = [(c, m_.split("\n")[0]) for c, m_ in t["warnings"]]
    mw = [(c, m_.split("\n")[0]) for c, m_ in m["warnings"]]
    if [c for c, _ in tw] != [c for c, _ in mw] or any(_first_sentence(a) not in b for (_, a), (_, b) in zip(tw, mw)):
        problems.append("warnings differ:\n  torch    %s\n  minigrad %s" % (tw, mw))
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", help="internal: run one backend and print JSON")
    ap.add_argument("-k", action="append", default=[], help="only snippets whose name contains this")
    ap.add_argument("-v", action="store_true", help="also list passing snippets")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    if args.run:
        sys.path.insert(0, str(ROOT))
        names = json.loads(os.environ["DIFF_NAMES"]) if os.environ.get("DIFF_NAMES") else None
        json.dump(run_snippets(args.run, names), sys.__stdout__)
        return 0
    from differential_snippets import SNIPPETS

    names = [n for n, _ in SNIPPETS if not args.k or any(k in n for k in args.k)]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        print("duplicate snippet names:", sorted(dup))
    env = dict(os.environ, DIFF_NAMES=json.dumps(names), PYTHONPATH=str(ROOT))
    results = {}
    for backend in ("torch", "minigrad"):
        proc = subprocess.run([sys.executable, __file__, "--run", backend], capture_output=True, text=True,
                              env=env, cwd=str(ROOT))
        if proc.returncode:
            print(proc.stderr)
            return 2
        results[backend] = json.loads(proc.stdout)
    failed = 0
    for name in names:
        problems = compare(name, results["torch"][name], results["minigrad"][name])
        if problems:
            failed += 1
            print("DIFF %s\n  %s" % (name, "\n  ".join(p.replace("\n", "\n  ") for p in problems)))
        elif args.v:
            print("ok   %s" % name)
    print("%d same, %d different" % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
