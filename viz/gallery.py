"""The example gallery: small classic programs drawn with viz (``python -m viz gallery``).

Each example is a function of the library module, written as PyTorch code;
``python -m viz gallery`` runs them with ``import minigrad as torch``.  Passing real ``torch``
runs the very same program in PyTorch, which the tests use to check that both
libraries give the same graph.
"""

from __future__ import annotations

import html
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .diagram import Diagram, draw

__all__ = ["Example", "EXAMPLES", "build", "render_gallery"]


@dataclass
class Example:
    """What one gallery program returns: the roots to draw and how."""

    roots: tuple[Any, ...]
    params: Any = None
    title: str = ""
    options: dict[str, Any] = field(default_factory=dict)


def add(torch: ModuleType) -> Example:
    """``z = x + 2``: one operation on a leaf, before backward."""
    x = torch.ones(2, 2, requires_grad=True)
    z = x + 2
    return Example((z,), {"x": x, "z": z}, "z = x + 2 (before backward: no grads yet)")


def mm_grad_tensors(torch: ModuleType) -> Example:
    """Matrix product with a non-scalar root, backward with ``grad_tensors``."""
    x = torch.tensor([2., 1.], requires_grad=True).view(1, 2)
    y = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    z = torch.mm(x, y)
    z.backward(torch.tensor([[1., 0.]]))
    return Example((z,), {"x": x, "y": y, "z": z},
                   "z = mm(x, y); z.backward([[1, 0]]) (after backward: grads in, buffers freed)")


def single_layer_bce(torch: ModuleType, view: str = "autograd") -> Example:
    """The one-layer network of the PyTorch autograd tutorial, with BCE-with-logits loss."""
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9],
                      [1.0, -1.1, 1.2], [0.3, 0.2, -0.1]], requires_grad=True)
    b = torch.tensor([0.5, -0.5, 0.25], requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    return Example((loss,), {"w": w, "b": b, "z": z, "loss": loss},
                   f"single layer, BCE-with-logits loss ({view} view)", {"view": view})


def single_layer_bce_dataflow(torch: ModuleType) -> Example:
    """The same network in the dataflow view (tensors and operations, forward)."""
    return single_layer_bce(torch, view="dataflow")


def frozen_layer(torch: ModuleType) -> Example:
    """A two-layer model whose first layer is frozen: its parameters stay outside the graph."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    for p in model[0].parameters():
        p.requires_grad_(False)
    x = torch.ones(1, 4)
    loss = model(x).pow(2).sum()
    return Example((loss,), [("", model), ("loss", loss)], "frozen first layer (requires_grad=False)",
                   {"theme": "compact"})


def second_derivative(torch: ModuleType) -> Example:
    """``y = x**3`` and ``dy/dx = 3x**2`` built with ``create_graph=True``."""
    x = torch.tensor(2., requires_grad=True)
    y = x ** 3
    (dydx,) = torch.autograd.grad(y, x, create_graph=True)
    return Example((y, dydx), {"x": x, "y": y, "dy/dx": dydx},
                   "y = x**3 and dy/dx = 3x**2 (create_graph=True)")


#: Gallery name -> program, in display order.
EXAMPLES: dict[str, Callable[[ModuleType], Example]] = {
    "add": add,
    "mm_grad_tensors": mm_grad_tensors,
    "single_layer_bce": single_layer_bce,
    "single_layer_bce_dataflow": single_layer_bce_dataflow,
    "frozen_layer": frozen_layer,
    "second_derivative": second_derivative,
}


def build(name: str, torch: ModuleType) -> Diagram:
    """Run one gallery program and draw it.

    Parameters
    ----------
    name : str
        A key of :data:`EXAMPLES`.
    torch : module
        The autograd library: ``minigrad`` (or ``torch``, to compare).

    Returns
    -------
    Diagram
    """
    example = EXAMPLES[name](torch)
    return draw(*example.roots, params=example.params, title=example.title, **example.options)


def _source(name: str) -> str:
    source = inspect.getsource(EXAMPLES[name])
    body = source.split('"""', 2)[-1] if '"""' in source else source
    return textwrap.dedent(body).strip("\n")


def render_gallery(out_dir: str | Path, torch: ModuleType, backend: str | None = None) -> list[Path]:
    """Write every example as ``<name>.svg`` plus an ``index.html`` into ``out_dir``.

    Parameters
    ----------
    out_dir : str or Path
    torch : module
        The autograd library: ``minigrad`` (or ``torch``).
    backend : {"native", "wasm", "auto"}, optional

    Returns
    -------
    list of Path
        The written files, index last.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written, sections = [], []
    for name in EXAMPLES:
        diagram = build(name, torch)
        diagram.backend = backend
        path = diagram.save(out / f"{name}.svg")
        written.append(path)
        doc = (inspect.getdoc(EXAMPLES[name]) or "").replace("``", "")
        sections.append(
            f'<section id="{html.escape(name)}"><h2>{html.escape(name)}</h2>'
            f"<p>{html.escape(doc)}</p><pre><code>{html.escape(_source(name))}</code></pre>"
            f'<img src="{html.escape(path.name)}" alt="{html.escape(name)} graph"></section>')
    index = out / "index.html"
    index.write_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>minigrad viz gallery</title><style>body{font-family:sans-serif;max-width:60em;"
        "margin:auto}img{max-width:100%}pre{background:#f4f4f4;padding:.5em}</style></head>"
        "<body><h1>minigrad viz gallery</h1>\n" + "\n".join(sections) + "\n</body></html>\n",
        encoding="utf-8")
    written.append(index)
    return written
