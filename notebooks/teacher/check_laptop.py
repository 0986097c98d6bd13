"""Is this laptop ready for the course? One command, about half a minute:

    bash dev setup && .venv/bin/python notebooks/teacher/check_laptop.py

Each line says ✔ or ✘ and what to do. It checks the Python version, the packages, a backward pass,
a graph drawn without system Graphviz, the stepper (and its offline HTML export), and runs one
learner notebook end to end in a Jupyter kernel. Exit status 0 means ready. When something fails,
the fallback for that laptop is the offline course: the site (``make site`` on the teacher's
machine, then copy ``site/``) and ``chain_rule_stepper.html`` from the teacher pack, which open in
any browser without Python.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FALLBACK = ("fallback: give this laptop the offline course (site/ from `make site`, and "
            "notebooks/teacher/build/chain_rule_stepper.html); both open in any browser")


def check(what: str, action: Callable[[], str | None], fix: str) -> bool:
    start = time.monotonic()
    try:
        detail = action()
    except Exception as error:          # every failure is reported, none stops the others
        print(f"✘ {what}: {type(error).__name__}: {error}")
        print(f"    fix: {fix}")
        if os.environ.get("CHECK_LAPTOP_DEBUG"):
            traceback.print_exc()
        return False
    seconds = time.monotonic() - start
    print(f"✔ {what}{f' ({detail})' if detail else ''}  [{seconds:.1f} s]")
    return True


def python_version() -> str:
    major, minor = sys.version_info[:2]
    if (major, minor) < (3, 10):
        raise RuntimeError(f"Python {sys.version.split()[0]} is too old")
    return sys.version.split()[0]


def packages() -> str:
    names = ["numpy", "minigrad", "viz", "matplotlib", "anywidget", "jupyterlab", "ipykernel", "jupytext",
             "nbclient", "sklearn"]
    missing = [n for n in names if importlib.util.find_spec(n) is None]
    if missing:
        raise ImportError(f"missing: {', '.join(missing)}")
    return f"{len(names)} packages"


def backward() -> str:
    import minigrad as torch

    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(-3.0, requires_grad=True)
    ((a * b + 10) * -2).backward()
    if (a.grad.item(), b.grad.item()) != (6.0, -4.0):
        raise AssertionError(f"wrong gradients {a.grad.item()}, {b.grad.item()}")
    return "a.grad = 6, b.grad = -4"


def graph() -> str:
    import minigrad as torch
    import viz

    x = torch.tensor(1.0, requires_grad=True)
    svg = viz.draw((x * 2).exp(), params={"x": x}).svg()
    if "<svg" not in svg:
        raise AssertionError("no SVG came out")
    from viz.render import choose_backend

    return f"laid out by {choose_backend()} Graphviz"


def stepper() -> str:
    import minigrad as torch
    import viz

    x = torch.tensor(1.0, requires_grad=True)
    s = viz.step_backward((x * 3).sin(), params={"x": x})
    with tempfile.TemporaryDirectory() as folder:
        page = s.save_html(Path(folder) / "stepper.html").read_text(encoding="utf-8")
    if "mg-state" not in page:
        raise AssertionError("the offline page has no steps")
    return f"{len(s.steps)} steps, offline HTML export works"


def notebook() -> str:
    import nbclient
    import nbformat

    spec = importlib.util.spec_from_file_location("course_learner_tool", ROOT / "notebooks" / "tools" / "learner.py")
    learner = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = learner
    spec.loader.exec_module(learner)
    with tempfile.TemporaryDirectory() as folder:
        learner.build(ROOT / "notebooks", Path(folder), quiet=True)
        path = Path(folder) / "02_chain_rule.ipynb"
        nb = nbformat.read(path, as_version=4)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": folder}}).execute(env=env)
    return "notebook 2 (learner edition) ran in a Jupyter kernel"


def main() -> int:
    print(f"checking this laptop for the course ({ROOT})")
    results = [
        check("Python 3.10 or newer", python_version, "install Python 3.10+ and run `bash dev setup` again"),
        check("packages", packages, "run `bash dev setup` (it installs the viz and notebooks extras into .venv)"),
        check("a backward pass", backward, "run `bash dev setup`; if it persists, report the error"),
        check("a graph", graph, "run `bash dev setup` (viz brings a WebAssembly Graphviz; no system Graphviz needed)"),
        check("the stepper", stepper, "run `bash dev setup`"),
        check("a notebook in a kernel", notebook, "run `bash dev setup`; then `make notebooks` should open JupyterLab"),
    ]
    if all(results):
        print("ready: `make notebooks` opens the course (learner edition)")
        return 0
    print(FALLBACK)
    return 1


if __name__ == "__main__":
    sys.exit(main())
