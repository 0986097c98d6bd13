"""The derivative of every backward node, in human form: ``derivative_formula("MulBackward0")``.

Each rule of the derivative table (``minigrad/ops/_rules.py`` and the ops modules) carries its
formula; node classes with real logic (views, in-place, indexing, conv, losses) register one
here too, so that every node minigrad can record has one.  The names are PyTorch's
(``self``, ``other``, ``result``, ``dim``...), ``g`` is the gradient arriving at the node.

>>> from minigrad.autograd import derivative_formula
>>> f = derivative_formula("MulBackward0")
>>> f.inputs, f.grads
(('self', 'other'), ('g · other', 'g · self'))
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Formula", "derivative_formula", "register_formula", "formulas", "table_markdown"]


class Formula(NamedTuple):
    """What one backward node sends to each of its inputs.

    ``inputs``: one name per ``next_functions`` entry, in order.  ``grads``: the gradient for each
    input as Unicode math (``None`` where no gradient flows).  ``saved``: what the node keeps,
    readable as ``node._saved_<name>``.  ``words``: one sentence for a learner.
    """

    node_name: str
    inputs: tuple[str, ...]
    grads: tuple[str | None, ...]
    saved: tuple[str, ...]
    words: str


_FORMULAS: dict[str, Formula] = {}


def register_formula(node_name: str, inputs: Any, grads: Any, saved: Any = (), words: str = '') -> Formula:
    """Add (or replace) the formula of ``node_name``; returns it."""
    inputs, grads = tuple(inputs), tuple(grads)
    if len(inputs) != len(grads):
        raise ValueError("%s: %d inputs but %d gradient formulas" % (node_name, len(inputs), len(grads)))
    if not words:
        raise ValueError("%s: a formula needs its sentence of words" % node_name)
    formula = Formula(node_name, inputs, grads, tuple(saved), words)
    _FORMULAS[node_name] = formula
    return formula


def derivative_formula(node: Any) -> Formula | None:
    """The :class:`Formula` of a node, a node class or a class name (PyTorch's nodes too); None if unknown.

    A custom ``Function``'s node (``<Name>Backward``) gets the formula of "its own backward".
    """
    if isinstance(node, str):
        name = node
    elif isinstance(node, type):
        name = node.__name__
    else:
        name = type(node).__name__
    name = name.rsplit("::", 1)[-1]
    formula = _FORMULAS.get(name)
    if formula is not None:
        return formula
    forward_cls = getattr(node, "_forward_cls", None) if not isinstance(node, str) else None
    if forward_cls is not None and not forward_cls.__module__.startswith("minigrad."):
        n = getattr(node, "next_functions", None)
        count = len(n) if isinstance(n, tuple) else 1
        inputs = tuple("input%d" % i for i in range(count)) if count != 1 else ("input",)
        return Formula(name, inputs, tuple("backward(ctx, g)[%d]" % i for i in range(count)), (),
                       "A custom autograd.Function: its own backward(ctx, g) computes what each input gets.")
    return None


def formulas() -> dict[Any, Any]:
    """Every registered formula, by node class name (a copy)."""
    return dict(_FORMULAS)


def table_markdown() -> str:
    """The whole table as Markdown (``docs/derivatives.md`` is this text: ``python -m minigrad.autograd.formulas``)."""
    lines = ["# The derivative table", "",
             "Generated from the rules (`python -m minigrad.autograd.formulas > docs/derivatives.md`); `g` is the",
             "gradient arriving at the node, the names are PyTorch's (`self`, `other`, `result`, ...).", "",
             "| node | gradient sent to each input | saved | in words |", "| --- | --- | --- | --- |"]
    for name in sorted(_FORMULAS):
        f = _FORMULAS[name]
        grads = "<br>".join("%s: %s" % (i, g if g is not None else "—") for i, g in zip(f.inputs, f.grads))
        cells = (name, grads, ", ".join(f.saved), f.words)
        lines.append("| %s |" % " | ".join(c.replace("|", "\\|") for c in cells))
    return "\n".join(lines) + "\n"


register_formula(
    "AccumulateGrad", ("variable",), ("variable.grad + g",), (),
    "A leaf: the arriving gradient is added into its .grad (stored as it is the first time).")


if __name__ == "__main__":  # pragma: no cover
    import minigrad.autograd.formulas as table  # the registered module, not this __main__ copy

    print(table.table_markdown(), end="")
