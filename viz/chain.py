"""The chain rule of one backward step, written out with the learner's names and numbers.

At ``L = d * f`` the stepper says ``∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2``: the gradient
arriving at the node (``∂L/∂L``), times the node's local derivative from minigrad's
rule table (``g · other``), with the learner's names put in, then the numbers the node
saved when it ran, then what it really sent on (the recorded gradient, never recomputed).

Everything here works on plain data: the :class:`~viz.model.GraphSnapshot`, the steps'
arrays and the saved values the capture read before backward freed them.  The formulas
come from ``minigrad.autograd.derivative_formula`` (through :func:`viz.capture.derivative_formula`,
keyed by class name, so PyTorch's nodes get them too): viz keeps no copy of the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .model import GraphSnapshot, Step

__all__ = ["Formula", "formula_for", "Names", "chain_rule_lines", "number_text", "FULL_VALUES"]

#: Tensors with at most this many elements are written out in full; larger ones by shape.
FULL_VALUES = 9


@dataclass(frozen=True)
class Formula:
    """A node's derivative rule, in the shape of ``minigrad.autograd.derivative_formula``.

    ``grads[i]`` is what the node sends to input ``i`` (``g`` is the incoming gradient),
    None where no gradient flows.
    """

    node_name: str
    inputs: tuple[str, ...]
    grads: tuple[str | None, ...]
    saved: tuple[str, ...]
    words: str


_CACHE: dict[str, Formula | None] = {}


def formula_for(name: str, lookup: Callable[[str], Any] | None = None) -> Formula | None:
    """The derivative rule of a node class (``minigrad.autograd.derivative_formula``), or None.

    Examples
    --------
    >>> formula_for("MulBackward0").grads
    ('g · other', 'g · self')
    """
    if lookup is None:
        if name not in _CACHE:
            from .capture import derivative_formula

            _CACHE[name] = formula_for(name, derivative_formula)
        return _CACHE[name]
    found = lookup(name) if name != "AccumulateGrad" else None
    if found is None:
        return None
    return Formula(str(found.node_name), tuple(found.inputs), tuple(found.grads), tuple(found.saved),
                   str(found.words))


# --------------------------------------------------------------------------
# numbers
# --------------------------------------------------------------------------


def _scalar(value: float) -> str:
    text = f"{value:.4g}"
    if text in ("nan", "inf", "-inf"):
        return {"nan": "nan", "inf": "∞", "-inf": "−∞"}[text]
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}·10^{int(exponent)}"
    return text.replace("-", "−")


def number_text(value: Any) -> str | None:
    """A value as the chain-rule line writes it: ``−2``, ``[1, −2]``, ``a 4×5 tensor``; None if unknown.

    Examples
    --------
    >>> number_text(np.array(-2.0)), number_text(np.array([[1.0, 2.5], [3.0, 4.0]]))
    ('−2', '[[1, 2.5], [3, 4]]')
    >>> number_text(np.zeros((4, 5)))
    'a 4×5 tensor'
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return _scalar(float(value))
    if isinstance(value, tuple | list) and all(isinstance(v, int | float) for v in value):
        return "(" + ", ".join(_scalar(float(v)) for v in value) + ("," if len(value) == 1 else "") + ")"
    array = np.asarray(value)
    if array.dtype.kind not in "biufc":
        return None
    if array.dtype.kind == "c":
        array = array.real
    if array.size == 1:
        return _scalar(float(array.reshape(-1)[0]))
    if array.size > FULL_VALUES:
        return f"a {'×'.join(str(d) for d in array.shape)} tensor"

    def rows(a: np.ndarray) -> str:
        if a.ndim == 1:
            return "[" + ", ".join(_scalar(float(v)) for v in a) + "]"
        return "[" + ", ".join(rows(r) for r in a) + "]"

    return rows(array)


def _atomic(text: str) -> bool:
    """True when ``text`` reads as one term: a name, a call, a bracketed value, ``∂L/∂x``."""
    if text.startswith("∂"):
        return True
    if text.startswith(("−", "-")):
        return False
    depth = 0
    for char in text:
        depth += (char in "([" and 1) or (char in ")]" and -1) or 0
        if depth == 0 and char in " +−-*/·@":
            return False
    return True


def _wrap(text: str) -> str:
    """Parenthesise a name or number that is more than one term (``−2``, ``a + b``)."""
    return text if _atomic(text) else f"({text})"


# --------------------------------------------------------------------------
# names
# --------------------------------------------------------------------------

_SUFFIX = re.compile(r"Backward\d*$")
_INFIX = {"Add": " + ", "Sub": " - ", "Mul": "*", "Div": "/", "Mm": " @ ", "Matmul": " @ ", "Bmm": " @ ",
          "Mv": " @ ", "Dot": " @ "}


class Names:
    """The learner's name for every tensor of a snapshot.

    Named tensors (``params=``/``names=``, module paths) keep their names; an unnamed
    intermediate is named by the expression that produced it (``a*b``, ``tanh(h)``),
    shortened with ``…`` when it is deep.

    Parameters
    ----------
    snapshot : GraphSnapshot
    saved : mapping, optional
        Node id -> saved ``(name, value)`` pairs (constants such as the ``3`` in ``x * 3``).
    """

    #: Longer operand names are written ``…`` inside an expression name.
    MAX_OPERAND = 24

    def __init__(self, snapshot: GraphSnapshot, saved: Mapping[str, Iterable[tuple[str, Any]]] | None = None) -> None:
        self.snapshot = snapshot
        self.saved = {k: dict(v) for k, v in (saved or {}).items()}
        self.nodes = {n.id: n for n in snapshot.nodes}
        self.inputs: dict[str, list[str | None]] = {}
        self.output_name: dict[str, str] = {}   # fn node id -> name of the tensor it made
        self.producer: dict[str, str] = {}      # unnamed tensor node id -> the fn node that made it
        self.constants: dict[tuple[str, int], str] = {}   # (fn node id, slot) -> a constant's node id
        for edge in snapshot.edges:
            if edge.kind == "next" and edge.slot is not None:
                slots = self.inputs.setdefault(edge.target, [])
                slots.extend([None] * (edge.slot + 1 - len(slots)))
                slots[edge.slot] = edge.source
            elif edge.kind == "input" and edge.slot is not None:
                self.constants[(edge.target, edge.slot)] = edge.source
            elif edge.kind == "output":
                tensor = self.nodes[edge.target].tensor
                if tensor is not None and tensor.name:
                    self.output_name.setdefault(edge.source, tensor.name)
                else:
                    self.producer.setdefault(edge.target, edge.source)
        for node in snapshot.nodes:
            if node.kind == "fn" and node.tensor is not None and node.tensor.name:
                self.output_name.setdefault(node.id, node.tensor.name)
        #: unnamed leaves are numbered in the order they are drawn: leaf₁, leaf₂, ...
        unnamed = [n.id for n in snapshot.nodes if n.kind == "acc" and not (n.tensor and n.tensor.name)]
        digits = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
        self.unnamed = {node_id: "leaf" + (str(i + 1).translate(digits) if len(unnamed) > 1 else "")
                        for i, node_id in enumerate(unnamed)}
        self._memo: dict[str, str] = {}

    def root(self, node_id: str | None) -> str:
        """The name of what is differentiated: the learner's own, else ``L`` (``∂L/∂a`` reads
        better than ``∂sin(a*b + a)/∂a``)."""
        node = self.nodes.get(node_id or "")
        named = node is not None and node.tensor is not None and node.tensor.name
        if named or node_id in self.output_name:
            return self.of(node_id)
        self.output_name[self.producer.get(node_id or "", node_id or "")] = "L"
        self._memo.clear()
        return "L"

    def of(self, node_id: str | None) -> str:
        """The name of the tensor a node stands for (its output, or a leaf's variable)."""
        if node_id is None or node_id not in self.nodes:
            return "c"
        # name the inputs first, without recursion (graphs can be thousands of nodes deep)
        stack = [node_id]
        while stack:
            current = stack[-1]
            if current in self._memo and self._memo[current] != "…":
                stack.pop()
                continue
            if current not in self._memo:
                self._memo[current] = "…"       # in progress (also a cycle guard)
                todo = [d for d in self._needs(current) if d not in self._memo]
                if todo:
                    stack.extend(todo)
                    continue
            stack.pop()
            self._memo[current] = self._name(current)
        return self._memo[node_id]

    def _needs(self, node_id: str) -> list[str]:
        """The nodes whose names the name of ``node_id`` is made of."""
        node = self.nodes[node_id]
        if node_id in self.output_name or (node.tensor is not None and node.tensor.name):
            return []
        if node_id in self.producer:
            return [self.producer[node_id]]
        return [d for d in self.inputs.get(node_id, []) if d is not None and d in self.nodes]

    def _name(self, node_id: str) -> str:
        node = self.nodes[node_id]
        if node_id in self.output_name:
            return self.output_name[node_id]
        if node.tensor is not None and node.tensor.name:
            return node.tensor.name
        if node_id in self.producer:
            return self.of(self.producer[node_id])
        if node.kind in ("acc", "tensor"):
            return self.unnamed.get(node_id, "tensor")
        op = _SUFFIX.sub("", node.name)
        formula = formula_for(node.name)
        count = max(len(self.inputs.get(node_id, [])), len(formula.inputs) if formula else 0, 1)
        args = [self.operand(node_id, slot) for slot in range(count)]
        args = [a if len(a) <= self.MAX_OPERAND else "…" for a in args]
        if op in _INFIX and len(args) == 2:
            if op in ("Mul", "Div"):
                args = [_wrap(a) for a in args]
            elif not _atomic(args[1]):
                args[1] = f"({args[1]})"
            return _INFIX[op].join(args)
        if op == "Neg":
            return f"-{_wrap(args[0])}"
        if op == "Pow" and "exponent" in self.saved.get(node_id, {}):
            exponent = number_text(self.saved[node_id]["exponent"]) or "n"
            return f"{_wrap(args[0])}**{exponent.replace('−', '-')}"
        return f"{op.lower()}({', '.join(args)})"

    def operand(self, node_id: str, slot: int) -> str:
        """The name of input ``slot`` of a node; a constant input is named by its value."""
        slots = self.inputs.get(node_id, [])
        source = slots[slot] if slot < len(slots) else None
        if source is not None:
            return self.of(source)
        node = self.nodes.get(node_id)
        formula = formula_for(node.name) if node is not None else None
        saved = self.saved.get(node_id, {})
        if formula is not None and slot < len(formula.inputs) and formula.inputs[slot] in saved:
            value = saved[formula.inputs[slot]]
            text = number_text(value) if np.size(value) <= 3 else None
            if text is not None:
                return text.replace("−", "-")
        constant = self.nodes.get(self.constants.get((node_id, slot), ""))
        if constant is not None and constant.tensor is not None and constant.tensor.name:
            return constant.tensor.name
        if constant is not None and constant.tensor is not None and "," not in constant.tensor.values \
                and "\n" not in constant.tensor.values:
            return constant.tensor.values           # a scalar constant: its value
        return "const"


# --------------------------------------------------------------------------
# the lines
# --------------------------------------------------------------------------

#: Names in a formula: ASCII identifiers (``result²`` is ``result`` then ``²``).
_TOKEN = re.compile(r"(?<![A-Za-z0-9_∂/])([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])")


def _substitute(formula: str, table: Mapping[str, str | None]) -> str | None:
    """Replace each token of ``table`` in ``formula`` (on word boundaries); None if one has no value."""
    missing = False

    def put(match: re.Match[str]) -> str:
        nonlocal missing
        token = match.group(1)
        if token not in table:
            return token
        value = table[token]
        if value is None:
            missing = True
            return token
        before = formula[match.start() - 1] if match.start() else "("
        after = formula[match.end()] if match.end() < len(formula) else ")"
        alone = before in "([," and after in ")],"     # an argument already bracketed, or the whole formula
        return value if alone else _wrap(value)

    text = _TOKEN.sub(put, formula)
    return None if missing else text


def _drop_ones(text: str, saved: Mapping[str, Any], formula: Formula) -> str:
    """Leave out factors of a scalar attribute equal to 1 (``g · alpha`` with alpha = 1 is ``g``)."""
    for key, value in saved.items():
        if key in formula.inputs or not isinstance(value, int | float) or isinstance(value, bool) or value != 1:
            continue
        text = re.sub(rf"\s*·\s*{key}(?![A-Za-z0-9_])", "", text)
        text = re.sub(rf"(?<![A-Za-z0-9_]){key}\s*·\s*", "", text)
    return text


def _d(root: str, of: str) -> str:
    """``∂L/∂d``, with an expression in parentheses: ``∂L/∂(a*b)``."""
    simple = re.fullmatch(r"[\w.]+", of) is not None
    return f"∂{root}/∂{of}" if simple else f"∂{root}/∂({of})"


def chain_rule_lines(step: Step, names: Names, root: str, saved: Mapping[str, Any] | None = None,
                     lookup: Callable[[str], Any] | None = None) -> tuple[str | None, ...]:
    """One line per gradient the step sends: ``∂L/∂d = ∂L/∂L · f = 1 · (−2) = −2`` (None: nothing sent).

    Parameters
    ----------
    step : Step
        The executed node, with its recorded gradients.
    names : Names
        The learner's names for the snapshot the step refers to.
    root : str
        The name of what is differentiated (``L``).
    saved : mapping, optional
        The node's saved values (name -> value), read before backward freed them.
    lookup : callable, optional
        Formula lookup by class name (default: minigrad's rule table).

    Returns
    -------
    tuple of (str or None)
        Empty for ``AccumulateGrad`` (it sends nothing on; it adds to ``.grad``).
    """
    if step.name == "AccumulateGrad" or step.node_id is None:
        return ()
    saved = dict(saved or {})
    formula = formula_for(step.name, lookup)
    out_name = names.of(step.node_id)
    g = step.grad_outputs[0] if step.grad_outputs else None
    symbols: dict[str, str | None] = {"g": _d(root, out_name)}
    numbers: dict[str, str | None] = {"g": number_text(g)}
    if formula is not None:
        for slot, input_name in enumerate(formula.inputs):
            symbols[input_name] = names.operand(step.node_id, slot)
            numbers[input_name] = number_text(saved[input_name]) if input_name in saved else None
        for key, value in saved.items():
            if key in symbols:
                continue
            text = number_text(value)
            symbols[key] = out_name if key == "result" else text if text is not None else key
            numbers[key] = text
    lines: list[str | None] = []
    sources = names.inputs.get(step.node_id, [])
    for slot, grad in enumerate(step.grad_inputs or ()):
        if grad is None or slot >= len(sources) or sources[slot] is None:
            lines.append(None)                  # nothing sent on: no input there needs a gradient
            continue
        target = names.operand(step.node_id, slot)
        result = number_text(grad) or "?"
        parts = [_d(root, target)]
        text = formula.grads[slot] if formula is not None and slot < len(formula.grads) else None
        if text and formula is not None:  # (a text comes from a formula)
            text = _drop_ones(text, saved, formula)
            symbolic = _substitute(text, symbols) or text
            parts.append(symbolic)
            numeric = _substitute(text, numbers)
            if numeric is not None and " tensor" in numeric:
                numeric = None                  # big tensors: the panel shows them as heatmaps
            if numeric is not None and g is not None and np.size(grad) < np.size(g):
                numeric = f"sum({numeric})" if np.size(grad) == 1 else \
                    f"{numeric} summed to shape ({', '.join(map(str, np.shape(grad)))})"
            if numeric is not None and numeric not in (symbolic, result):
                parts.append(numeric)
        parts.append(result)
        lines.append(" = ".join(parts))
    return tuple(lines)
