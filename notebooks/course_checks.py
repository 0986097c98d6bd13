"""Self-checks for the course notebooks: ``check_<exercise>(answer)`` says whether an exercise is solved.

Every check either prints a short confirmation or raises an
``AssertionError`` whose message says what is wrong and gives a hint -- never the answer
itself.  The answers are in ``ANSWERS.md`` (for teachers).

Checks take plain Python values, numpy arrays or tensors from minigrad *or* PyTorch:
a tensor is read through ``.tolist()``, so the same notebook works with ``import torch``.
Checks that must build tensors of their own take the library as an argument
(``check_leaves_function(leaves, torch)``).

>>> check_accumulated_grad(11.0)
✔ Correct. Two backward calls, two contributions: 2·x = 6 from x**2, plus 5 from 5*x.
"""

from __future__ import annotations

import dis
import functools
import math
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = [
    # 01 tensors and requires_grad
    "check_requires_grad_table", "check_next_functions", "check_accumulate_grad",
    # 02 chain rule
    "check_hand_gradients", "check_edge_gradients", "check_leaves_function", "check_mul_rule",
    # 03 vector outputs and Jacobians
    "check_vjp", "check_jacobian_function", "check_mm_fix",
    # 04 accumulation, hooks, autograd.grad
    "check_accumulated_grad", "check_norm_clip_hook", "check_autograd_grad_paths",
    # 05 turning tracking off
    "check_tracking_quiz", "check_frozen_model",
    # 06 in-place operations
    "check_inplace_quiz", "check_inplace_repair",
    # 07 higher-order derivatives
    "check_penalty_gradient", "check_newton_minimum",
    # 08 dynamic graphs
    "check_doubling_loop", "check_branch_grads",
    # 09 training
    "check_bce_bias_grad", "check_train_step", "check_accumulation_step", "check_gradient_reaches_input",
    # 10 custom Function and gradcheck
    "check_softplus_function", "check_fixed_function",
    # 11 forward and reverse mode
    "check_pass_counts", "check_jvp_column",
    # 12 what the articles got wrong
    "check_trap_optimizer", "check_trap_eval", "check_trap_kinks", "check_trap_broadcast",
]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


class CheckFailed(AssertionError):
    """A self-check's verdict on a wrong answer: what is wrong, and a hint.

    In a notebook it shows as one line (no traceback); it is an ``AssertionError``, so plain Python
    and tests see an ordinary failed assertion.
    """


def _fail(message: str) -> None:
    raise CheckFailed(message)


def _is_stub_function(function: types.FunctionType) -> bool:
    """A body of only ``...`` / ``pass`` (and a docstring): the function does nothing, returns None."""
    for instruction in dis.get_instructions(function):
        if instruction.opname in ("RESUME", "NOP", "CACHE", "RETURN_VALUE"):
            continue
        if instruction.opname in ("LOAD_CONST", "RETURN_CONST") and instruction.argval is None:
            continue
        return False
    return True


def is_open(value: Any) -> bool:
    """True for an exercise the learner has not filled in yet.

    That is: ``...``; a function whose body is only ``...`` (or ``pass``); a class whose methods
    are such stubs; a dict or sequence still holding a ``...``.
    """
    if value is Ellipsis:
        return True
    if isinstance(value, types.FunctionType):
        return _is_stub_function(value)
    if isinstance(value, type):
        methods = [getattr(m, "__func__", m) for m in vars(value).values()]
        return any(isinstance(m, types.FunctionType) and is_open(m) for m in methods)
    if isinstance(value, Mapping):
        return any(v is Ellipsis for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(v is Ellipsis for v in value)
    return False


#: Checks that have passed in this session (a kernel): cells that build on an exercise ask for it.
_PASSED: set[str] = set()


def _answer_required(check: Callable[..., None]) -> Callable[..., None]:
    """An exercise still open (``answer = ...``, a stub function) gets one line, never a traceback.

    The line is printed, not raised, so that "Run All" goes on: the cells after an open exercise
    still run (those that need its answer say so, see :func:`solved`). A filled-in answer is
    checked; when it passes, the check is remembered for :func:`solved`.
    """

    @functools.wraps(check)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        if any(is_open(arg) for arg in (*args, *kwargs.values())):
            print(f"✎ Still open ({check.__name__}): replace the `...` in this cell with your answer, "
                  "then run it again.")
            return
        check(*args, **kwargs)
        _PASSED.add(check.__name__)

    return wrapper


def solved(check: str | Callable[..., Any], exercise: str) -> bool:
    """Whether the exercise behind ``check`` has passed; if not, say in one line what to finish first.

    The learner edition guards the cells that use an exercise's answer with
    ``if solved("check_train_step", "Exercise 2"):`` (the teacher edition marks them
    ``# NEEDS: check_train_step (Exercise 2)``).
    """
    name = check if isinstance(check, str) else check.__name__
    if name in _PASSED:
        return True
    print(f"⏸ This cell needs {exercise} ({name}) solved first: finish it, then run this cell again.")
    return False


def _show_check_failed(shell: Any, etype: type, value: BaseException, tb: Any,
                       tb_offset: int | None = None) -> list[str]:
    """IPython's display of a :class:`CheckFailed`: one red line with the hint, no traceback.

    IPython does not show what a custom handler returns, so the handler shows it: in a kernel
    ``_showtraceback`` sends the error (ename ``CheckFailed``, a one-line traceback) to the front end.
    """
    stb = [f"\x1b[31m✘ Not yet: {value}\x1b[0m"]
    shell._showtraceback(etype, value, stb)
    return stb


def _install_notebook_display() -> None:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "set_custom_exc"):
        shell.set_custom_exc((CheckFailed,), _show_check_failed)


def _ok(message: str) -> None:
    print(f"✔ Correct. {message}")


def _values(answer: Any, what: str) -> np.ndarray:
    """A float array from a number, a list, a numpy array or a tensor of any library."""
    if answer is None:
        _fail(f"{what} is None. Did you forget to fill it in (or is it the .grad of a non-leaf tensor?)")
    if isinstance(answer, type(Ellipsis)):
        _fail(f"{what} is still `...`: replace it with your answer.")
    value = answer.tolist() if hasattr(answer, "tolist") else answer
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        _fail(f"{what} should be a number, a list of numbers or a tensor, not {type(answer).__name__}.")
        raise  # unreachable, for type checkers


def _close(answer: Any, expected: Any, what: str, hint: str = "", atol: float = 1e-4) -> None:
    got = _values(answer, what)
    want = np.asarray(expected, dtype=np.float64)
    if got.size != want.size:
        _fail(f"{what} should have {want.size} value(s) (shape {tuple(want.shape)}), "
              f"but yours has {got.size} (shape {tuple(got.shape)}). {hint}".rstrip())
    if not np.allclose(got.reshape(want.shape), want, atol=atol, rtol=1e-4):
        _fail(f"{what} is not right yet: you have {_fmt(got)}. {hint}".rstrip())


def _fmt(array: np.ndarray) -> str:
    if array.size == 1:
        return f"{float(array.reshape(-1)[0]):g}"
    return np.array2string(array, precision=4, separator=", ")


def _mapping(answer: Any, keys: list[str], what: str) -> Mapping[str, Any]:
    if not isinstance(answer, Mapping):
        _fail(f"{what} should be a dict with the keys {keys}.")
    missing = [k for k in keys if k not in answer]
    if missing:
        _fail(f"{what} is missing the key(s) {missing}.")
    unfilled = [k for k in keys if answer[k] is Ellipsis]
    if unfilled:
        _fail(f"fill in {unfilled}: they are still `...`.")
    return answer


def _name(node: Any) -> str | None:
    return None if node is None else type(node).__name__


def _grad(tensor: Any) -> Any:
    return None if tensor is None else tensor.grad


# --------------------------------------------------------------------------
# 01 tensors and requires_grad
# --------------------------------------------------------------------------

#: x = tensor([1., 2.], requires_grad=True); w = tensor([3., 4.]);
#: a = x + w; b = w * 2; c = a.detach(); d = c + b; e = d * x
_TABLE = {"a": (True, False), "b": (False, True), "c": (False, True), "d": (False, True), "e": (True, False)}


@_answer_required
def check_requires_grad_table(answer: Mapping[str, tuple[bool, bool]]) -> None:
    """Notebook 01: ``{name: (requires_grad, is_leaf)}`` for a, b, c, d, e."""
    answer = _mapping(answer, list(_TABLE), "answer")
    for name, (want_rg, want_leaf) in _TABLE.items():
        pair = answer[name]
        if not (isinstance(pair, tuple) and len(pair) == 2):
            _fail(f"answer[{name!r}] should be a pair (requires_grad, is_leaf), like (True, False).")
        rg, leaf = pair
        if bool(rg) != want_rg:
            _fail(f"requires_grad of {name} is wrong. A result requires grad when at least one input "
                  "requires grad -- and detach() cuts the link to every input.")
        if bool(leaf) != want_leaf:
            _fail(f"is_leaf of {name} is wrong. Every tensor that does not require grad is a leaf; "
                  "one that requires grad is a leaf only if it has no grad_fn.")
    return _ok("requires_grad flows forward from any input that requires it; detach() stops it, "
               "and a tensor without requires_grad is always a leaf.")


#: x requires grad, w does not; t = (x * w + w.exp()).sum()
_NEXT_FUNCTIONS = {"t": ["AddBackward0"], "add": ["MulBackward0", None], "mul": ["AccumulateGrad", None]}


@_answer_required
def check_next_functions(answer: Mapping[str, list[str | None]]) -> None:
    """Notebook 01: the entries of next_functions of t's SumBackward0, its AddBackward0 and MulBackward0."""
    answer = _mapping(answer, list(_NEXT_FUNCTIONS), "answer")
    for node, want in _NEXT_FUNCTIONS.items():
        got = answer[node]
        if isinstance(got, tuple):
            got = list(got)
        if not isinstance(got, list):
            _fail(f"answer[{node!r}] should be a list of class names (strings) or None, one per input.")
        got = [g if g is None else str(g).strip() for g in got]
        if got == want:
            continue
        if len(got) != len(want):
            _fail(f"answer[{node!r}] has {len(got)} entries: next_functions holds one entry per input of "
                  f"the operation, even for an input that needs no gradient (that entry is (None, 0)).")
        if node == "add" and got[1] == "ExpBackward0":
            _fail("w.exp(): w does not require grad, so autograd recorded no node for exp -- "
                  "its entry in next_functions is (None, 0).")
        if node == "mul" and got[1] == "AccumulateGrad":
            _fail("x * w: only x requires grad. w gets no AccumulateGrad node (no gradient is ever sent "
                  "to it), so its entry is (None, 0).")
        if sorted(map(str, got)) == sorted(map(str, want)):
            _fail(f"answer[{node!r}] has the right entries in the wrong order: next_functions follows "
                  "the order of the operation's arguments.")
        if node == "t" and got != want:
            _fail("t = (...).sum(): the sum's only input is the result of the addition.")
        _fail(f"answer[{node!r}] is not right yet. An input computed by a recorded operation points to that "
              "operation's node, a leaf that requires grad to its AccumulateGrad, anything else is None.")
    return _ok("next_functions has one entry per input; inputs that need no gradient are (None, 0), "
               "and a leaf that requires grad enters through its AccumulateGrad.")


@_answer_required
def check_accumulate_grad(node: Any, leaf: Any) -> None:
    """Notebook 01: ``node`` is the AccumulateGrad node of ``leaf``, found through next_functions."""
    if node is None or node is Ellipsis:
        _fail("answer is empty: start from loss.grad_fn and follow .next_functions (pairs of (node, index)).")
    if isinstance(node, tuple):
        _fail("that is a (node, input_nr) pair from next_functions; take its first element.")
    if _name(node) != "AccumulateGrad":
        _fail(f"that is a {_name(node)}, not the AccumulateGrad node. Keep following next_functions "
              "toward the inputs.")
    if getattr(node, "variable", None) is not leaf:
        _fail("that AccumulateGrad belongs to another leaf: look at its .variable.")
    return _ok("a leaf that requires grad enters the graph through its AccumulateGrad node; "
               "node.variable is the leaf itself.")


# --------------------------------------------------------------------------
# 02 chain rule
# --------------------------------------------------------------------------


@_answer_required
def check_hand_gradients(answer: Mapping[str, float]) -> None:
    """Notebook 02: ds/dx, ds/dy, ds/dz for q = x*y, r = q + z, s = r*r at x=3, y=-2, z=4."""
    answer = _mapping(answer, ["x", "y", "z"], "answer")
    r = 3 * -2 + 4
    ds_dr = 2 * r  # r is used twice in r * r: both contributions add up
    if _values(answer["z"], "answer['z']").item() == r:
        _fail("ds/dz: s = r*r uses r twice, so ds/dr = r + r, not r.")
    _close(answer["z"], ds_dr * 1, "answer['z']",
           "Start with ds/dr (r appears twice in r*r), then dr/dz = 1.")
    _close(answer["x"], ds_dr * -2, "answer['x']", "ds/dx = ds/dr · dr/dq · dq/dx, and dq/dx = y.")
    _close(answer["y"], ds_dr * 3, "answer['y']", "ds/dy = ds/dr · dr/dq · dq/dy, and dq/dy = x.")
    return _ok("the chain rule multiplies local derivatives along the path, and r*r sends r two "
               "contributions that add up.")


#: s = r * r, r = q + z, q = x * y at x = 3, y = -2, z = 4: the gradient on each edge of the graph.
_EDGES = {"s → r (1st)": -2.0, "s → r (2nd)": -2.0, "r → q": -4.0, "r → z": -4.0, "q → x": 8.0,
          "q → y": -12.0}


@_answer_required
def check_edge_gradients(answer: Mapping[str, float]) -> None:
    """Notebook 02: the gradient travelling along each edge of s = r*r, r = q + z, q = x*y (x=3, y=-2, z=4)."""
    answer = _mapping(answer, list(_EDGES), "answer")
    got = {k: float(_values(answer[k], f"answer[{k!r}]")) for k in _EDGES}
    if math.isclose(got["s → r (1st)"], -4.0) or math.isclose(got["s → r (2nd)"], -4.0):
        _fail("s → r: -4 is the *sum* that arrives at r. Each edge carries one factor's share: for "
              "s = r·r the edge of the first factor carries grad · (the other factor) = 1 · r.")
    for key in ("s → r (1st)", "s → r (2nd)"):
        if not math.isclose(got[key], -2.0):
            _fail(f"{key}: a product sends the incoming gradient (ds/ds = 1) times the other factor, "
                  "and the other factor of r·r is r = -2.")
    if math.isclose(got["r → q"], -2.0) or math.isclose(got["r → z"], -2.0):
        _fail("r → q / r → z: the addition receives the sum of both edges into r (-2 + -2), then passes "
              "it on unchanged to each input.")
    for key in ("r → q", "r → z"):
        if not math.isclose(got[key], -4.0):
            _fail(f"{key}: an addition passes the gradient that arrived at r on unchanged, to each input.")
    if math.isclose(got["q → x"], -12.0) and math.isclose(got["q → y"], 8.0):
        _fail("q → x and q → y are swapped: the gradient to x is the incoming one times y (the other factor).")
    if not math.isclose(got["q → x"], 8.0):
        _fail("q → x: q = x·y, so it sends (gradient arriving at q) · y.")
    if not math.isclose(got["q → y"], -12.0):
        _fail("q → y: q = x·y, so it sends (gradient arriving at q) · x.")
    return _ok("each edge carries its own share; the shares meet and add up at the node they enter.")


@_answer_required
def check_leaves_function(leaves: Callable[[Any], list[Any]], torch: Any) -> None:
    """Notebook 02: ``leaves(t)`` returns the leaf tensors reachable from ``t.grad_fn`` (each once)."""
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = torch.tensor(4.0)
    t = (a * b + a) * c + b.exp()  # a and b are used twice; c does not require grad
    got = leaves(t)
    if got is None:
        _fail("leaves(t) returned None: return a list.")
    got = list(got)
    if any(g is None for g in got):
        _fail("your list contains None: skip the (None, 0) entries of next_functions.")
    if any(_name(g) == "AccumulateGrad" for g in got):
        _fail("return the tensors (node.variable), not the AccumulateGrad nodes.")
    ids = [id(g) for g in got]
    if len(ids) != len(set(ids)):
        _fail("a leaf appears more than once: keep a set of the nodes you have already seen.")
    if any(g is c for g in got):
        _fail("c does not require grad, so it is not in the graph at all -- how did it get in your list?")
    if set(ids) != {id(a), id(b)}:
        _fail(f"expected the 2 leaves that require grad, got {len(got)} tensor(s). Walk every entry "
              "of every node's next_functions, not only the first one.")
    return _ok("walking next_functions reaches every AccumulateGrad, and .variable is its leaf.")


@_answer_required
def check_mul_rule(mul_rule: Callable[[Any, float], tuple[float, float]], torch: Any) -> None:
    """Notebook 02: ``mul_rule(node, grad)`` returns the gradients a MulBackward0 node sends to its inputs."""
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(-5.0, requires_grad=True)
    node = (a * b).grad_fn
    got = mul_rule(node, 2.0)
    if not isinstance(got, tuple) or len(got) != 2:
        _fail("return a pair: (gradient for the first input, gradient for the second input).")
    ga, gb = (float(_values(g, "gradient")) for g in got)
    if math.isclose(ga, -5.0) and math.isclose(gb, 3.0):
        _fail("close: you forgot to multiply by the incoming gradient (the chain rule).")
    if math.isclose(ga, 6.0) and math.isclose(gb, -10.0):
        _fail("the two gradients are swapped: d(a·b)/da is b.")
    if not (math.isclose(ga, -10.0) and math.isclose(gb, 6.0)):
        _fail("not yet: for out = a·b the gradient to a is grad · b (node._saved_other), "
              "to b it is grad · a (node._saved_self).")
    return _ok("a MulBackward0 node multiplies the incoming gradient by the *other* factor, "
               "which it saved at forward time.")


# --------------------------------------------------------------------------
# 03 vector outputs and Jacobians
# --------------------------------------------------------------------------


@_answer_required
def check_vjp(answer: Any) -> None:
    """Notebook 03: x.grad for f(x) = [x0*x1, x1 + x2**2] at x = [1, 2, 3] with v = [1, 10]."""
    jac = np.array([[2.0, 1.0, 0.0], [0.0, 1.0, 6.0]])
    v = np.array([1.0, 10.0])
    got = _values(answer, "answer")
    if got.size == 2:
        _fail("x has 3 entries, so x.grad has 3: the result is vᵀJ, a row of length 3.")
    if got.size == 3 and np.allclose(got, jac.sum(axis=0)):
        _fail("that is the gradient for v = [1, 1] (i.e. f(x).sum()); weight the rows of J by v.")
    if got.size == 3 and np.allclose(got, jac[0]):
        _fail("you used only the first row of J; v weights both rows.")
    _close(answer, v @ jac, "answer", "Write J (2×3) first, then multiply: vᵀJ = 1·row₀ + 10·row₁.")
    return _ok("backward(v) computes vᵀJ without ever building J.")


def _jacobian_cases(torch: Any) -> list[tuple[str, Callable[[Any], Any], list[float], np.ndarray]]:
    """(description, f, x, its Jacobian) for the check of ``jacobian_rows``: m != n on purpose."""
    def h(x: Any) -> Any:                                  # R³ -> R²
        return torch.stack([x[0] * x[1], x[1] + x[2] ** 2])

    def k(x: Any) -> Any:                                  # R² -> R³
        return torch.stack([x[0] * x[0], x[0] * x[1], x[1].sin()])

    return [
        ("h(x) = (x0·x1, x1 + x2²) at (1, 2, 3)", h, [1.0, 2.0, 3.0],
         np.array([[2.0, 1.0, 0.0], [0.0, 1.0, 6.0]])),
        ("k(x) = (x0², x0·x1, sin x1) at (2, -1)", k, [2.0, -1.0],
         np.array([[4.0, 0.0], [-1.0, 2.0], [0.0, math.cos(-1.0)]])),
    ]


@_answer_required
def check_jacobian_function(jacobian_rows: Callable[[Callable[[Any], Any], Any], Any], torch: Any) -> None:
    """Notebook 03: ``jacobian_rows(f, x)`` returns the m×n Jacobian of f at x, for any m and n."""
    for what, f, point, want in _jacobian_cases(torch):
        x = torch.tensor(point)                            # on purpose: x does not require grad
        try:
            got = jacobian_rows(f, x)
        except RuntimeError as error:
            if "does not require grad" in str(error):
                _fail(f"for {what}: {error}. The x you get need not require grad: make your own leaf "
                      "that does, e.g. x = x.detach().requires_grad_().")
            if "a second time" in str(error):
                _fail(f"for {what}: the second backward found the graph freed. Pass retain_graph=True "
                      "to every backward but the last (or to all).")
            _fail(f"for {what} your function raised RuntimeError: {error}")
        except (IndexError, ValueError) as error:
            _fail(f"for {what} your function raised {type(error).__name__}: {error}. Does it assume as "
                  "many outputs as inputs? Take m from f(x), n from x.")
        if got is None:
            _fail("jacobian_rows returned None: return the stacked rows, e.g. torch.stack(rows).")
        values = _values(got, "the Jacobian")
        m, n = want.shape
        if values.shape == (n, m) and np.allclose(values, want.T, atol=1e-5):
            _fail(f"for {what} you returned the transpose ({n}×{m}): row i must be the gradient of output i.")
        if values.size != want.size:
            _fail(f"for {what} the Jacobian should be {m}×{n}; yours has shape {tuple(values.shape)}. "
                  "One row per output, one column per input.")
        values = values.reshape(want.shape)
        if np.allclose(values, np.cumsum(want, axis=0), atol=1e-5):
            _fail(f"for {what} row i holds rows 0..i added up: .grad accumulates, so reset x.grad "
                  "(x.grad = None) before each backward.")
        if m > 1 and np.allclose(values, np.broadcast_to(values[-1], values.shape)) \
                and not np.allclose(want, np.broadcast_to(want[-1], want.shape)):
            _fail(f"for {what} every row equals the last one: the rows share one tensor (x.grad.zero_() "
                  "reuses it). Store x.grad.clone(), or set x.grad = None before each backward.")
        if not np.allclose(values, want, atol=1e-5):
            _fail(f"for {what} the Jacobian is not right yet: you have {_fmt(values)}. Row i is x.grad "
                  "after f(x).backward(e_i), with e_i the one-hot seed for output i.")
    return _ok("one backward per output, with a one-hot seed: m backward passes give the m×n Jacobian.")


@_answer_required
def check_mm_fix(x: Any, y: Any) -> None:
    """Notebook 03: after the fix, x is a leaf of shape (1, 2) with the gradient of z.backward([[1, 0]])."""
    if x is None or x is Ellipsis:
        _fail("define x again so that it is a leaf of shape (1, 2).")
    if not x.is_leaf:
        _fail(f"x is still not a leaf (its grad_fn is {_name(x.grad_fn)}). Create it with the final "
              "shape and requires_grad=True, or call requires_grad_() after view().")
    if tuple(x.shape) != (1, 2):
        _fail(f"x has shape {tuple(x.shape)}; torch.mm needs (1, 2).")
    if x.grad is None:
        _fail("x is a leaf now, but x.grad is None: did you run z = torch.mm(x, y) and "
              "z.backward(torch.tensor([[1., 0.]])) with this x?")
    _close(x.grad, [[1.0, 3.0]], "x.grad", "Did you call backward more than once? Gradients accumulate; "
           "set x.grad = None and run it once.")
    _close(_grad(y), [[2.0, 0.0], [1.0, 0.0]], "y.grad",
           "y.grad accumulates too: recreate y or set y.grad = None.")
    return _ok("a tensor made by view() is not a leaf; make the leaf with its final shape "
               "and its .grad fills in.")


# --------------------------------------------------------------------------
# 04 accumulation, hooks, autograd.grad
# --------------------------------------------------------------------------


@_answer_required
def check_accumulated_grad(answer: Any) -> None:
    """Notebook 04: x = 3; (x**2).backward(); (5*x).backward(); x.grad = ?"""
    got = _values(answer, "answer")
    if np.allclose(got, 5.0):
        _fail("5 is only the second call's gradient: backward adds into .grad, it does not overwrite it.")
    if np.allclose(got, 6.0):
        _fail("6 is only the first call's gradient: the second backward adds its own.")
    _close(answer, 11.0, "answer", "Add the two calls' gradients: d(x²)/dx at 3, plus d(5x)/dx.")
    return _ok("Two backward calls, two contributions: 2·x = 6 from x**2, plus 5 from 5*x.")


def _run_hook(hook: Callable[[Any], Any], torch: Any, arriving: list[float]) -> tuple[np.ndarray, bool, Any]:
    """Backward through y = x * 2 with ``arriving`` as the gradient at y, ``hook`` registered on y.

    Returns the gradient that went on (x.grad / 2), whether the hook changed its argument in place,
    and what the hook returned.
    """
    x = torch.tensor([1.0] * len(arriving), requires_grad=True)
    y = x * 2
    seen: dict[str, Any] = {}

    def spy(grad: Any) -> Any:
        before = _values(grad, "grad").copy()
        out = hook(grad)
        seen["inplace"] = not np.array_equal(_values(grad, "grad"), before)
        seen["returned"] = out
        return out

    y.register_hook(spy)
    (y * torch.tensor(arriving)).sum().backward()
    return _values(x.grad, "x.grad") / 2, seen.get("inplace", False), seen.get("returned")


@_answer_required
def check_norm_clip_hook(hook: Callable[[Any], Any], torch: Any) -> None:
    """Notebook 04: a tensor hook that rescales the gradient to norm 1 when its norm is above 1."""
    cases = [([3.0, 4.0, 0.0], [0.6, 0.8, 0.0]), ([0.3, -0.4, 0.0], [0.3, -0.4, 0.0]),
             ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]), ([-6.0, 0.0, 8.0], [-0.6, 0.0, 0.8])]
    for arriving, want in cases:
        sent, inplace, returned = _run_hook(hook, torch, arriving)
        if inplace:
            _fail("your hook changed grad in place (clamp_, div_, mul_, ... or grad[...] = ...). A hook must "
                  "not modify its argument: compute a new tensor and return it.")
        if returned is None and not np.allclose(sent, want):
            _fail("your hook returned None, so the gradient went on unchanged: return the new gradient.")
        if np.isnan(sent).any():
            _fail(f"a gradient of {arriving} came out as nan: for a zero (or short) gradient there is "
                  "nothing to rescale -- divide only when the norm is above 1.")
        if arriving == [3.0, 4.0, 0.0] and np.allclose(sent, [1.0, 1.0, 0.0]):
            _fail("you clipped each entry to [-1, 1]: that changes the gradient's direction. Clipping "
                  "by norm divides the whole vector by its length.")
        if arriving == [0.3, -0.4, 0.0] and np.allclose(sent, [0.6, -0.8, 0.0]):
            _fail("a gradient already shorter than 1 (norm 0.5) was stretched to length 1: leave short "
                  "gradients as they are.")
        if not np.allclose(sent, want, atol=1e-5):
            _fail(f"for a gradient {arriving} (norm {np.linalg.norm(arriving):g}) your hook sent on "
                  f"{_fmt(sent)}. Above norm 1: grad / grad.norm(); otherwise grad itself.")
    return _ok("a hook sees the gradient arriving at the tensor and returns a replacement: here the "
               "same direction, at most length 1.")


@_answer_required
def check_autograd_grad_paths(prediction: Any, answer: Any, a: Any) -> None:
    """Notebook 04: loss = (a*b)**2 + a at a=3, b=4: dloss/da by hand, then (dloss/dh, dloss/da, dloss/db)."""
    guess = float(_values(prediction, "prediction"))
    if math.isclose(guess, 96.0):
        _fail("prediction: 96 is only the path through h (2h · b). loss = h² + a also uses a directly, "
              "and the two paths add up.")
    if math.isclose(guess, 1.0):
        _fail("prediction: 1 is only the direct path (the '+ a'); a also reaches loss through h = a·b.")
    if not math.isclose(guess, 97.0):
        _fail("prediction: follow both paths from loss to a -- through h (2h times dh/da = b) and "
              "directly -- and add them.")
    if not isinstance(answer, (tuple, list)) or len(answer) != 3:
        _fail("answer: one torch.autograd.grad call with the inputs [h, a, b] returns a tuple of three "
              "gradients.")
    if a.grad is not None:
        _fail("a.grad is not None: autograd.grad does not touch .grad, so something called backward(). "
              "Run the cells again from the top, using only torch.autograd.grad.")
    dh, da, db = (float(_values(g, name)) for g, name in zip(answer, ("dloss/dh", "dloss/da", "dloss/db")))
    if math.isclose(da, 1.0):
        _fail("dloss/da came out as 1: only the direct path. Did you detach h, or build h outside the graph?")
    if not math.isclose(dh, 24.0):
        _fail(f"dloss/dh = {dh:g}: for loss = h² + a it is 2h. Is h the same tensor that loss was computed from?")
    _close(da, 97.0, "dloss/da", "Compute loss from a and b in the same cell, then grad w.r.t. [h, a, b].")
    _close(db, 72.0, "dloss/db", "dloss/db = 2h · a.")
    return _ok("autograd.grad accepts non-leaf inputs; asking for h's gradient does not stop the flow to a, "
               "and a's two paths add up: 2h·b + 1 = 97.")


# --------------------------------------------------------------------------
# 05 turning tracking off
# --------------------------------------------------------------------------

_TRACKING = {"a": False, "b": True, "c": True, "d": False, "e": False, "f": True}


@_answer_required
def check_tracking_quiz(answer: Mapping[str, bool]) -> None:
    """Notebook 05: requires_grad of a..f in the quiz cell."""
    answer = _mapping(answer, list(_TRACKING), "answer")
    hints = {
        "a": "a is computed inside no_grad: nothing is recorded there.",
        "b": "a factory with requires_grad=True makes a leaf that requires grad, even under no_grad.",
        "c": "enable_grad() switches recording back on inside a no_grad block.",
        "d": "detach() returns a tensor outside the graph.",
        "e": "set_grad_enabled(False), called as a function, switches recording off until switched on again.",
        "f": "requires_grad_() turns on tracking for a leaf.",
    }
    for name, want in _TRACKING.items():
        if bool(answer[name]) != want:
            _fail(f"{name} is wrong. Hint: {hints[name]}")
    return _ok("grad mode decides whether operations are recorded; detach() and requires_grad_() "
               "change single tensors.")


@_answer_required
def check_frozen_model(model: Any, n_classes: int = 3) -> None:
    """Notebook 05: every layer frozen except a new last layer with ``n_classes`` outputs."""
    layers = list(model.children()) if hasattr(model, "children") else None
    if not layers:
        _fail("pass the nn.Sequential model.")
    last = layers[-1]
    if getattr(last, "out_features", None) != n_classes:
        _fail(f"the last layer should be a new nn.Linear with {n_classes} outputs "
              f"(it has {getattr(last, 'out_features', '?')}). Replace it: model[-1] = nn.Linear(...).")
    for name, p in last.named_parameters():
        if not p.requires_grad:
            _fail(f"the new last layer's {name} does not require grad: it is the part we want to train.")
    for layer in layers[:-1]:
        for name, p in layer.named_parameters():
            if p.requires_grad:
                _fail(f"a parameter of {type(layer).__name__} ({name}) still requires grad: "
                      "freeze every layer but the last.")
    return _ok("only the new head trains; the frozen layers' parameters stay out of the graph.")


# --------------------------------------------------------------------------
# 06 in-place operations
# --------------------------------------------------------------------------

_INPLACE = {"A": "error", "B": "ok", "C": "error", "D": "ok", "E": "error"}


@_answer_required
def check_inplace_quiz(answer: Mapping[str, str]) -> None:
    """Notebook 06: "ok" or "error" for the snippets A..E."""
    answer = _mapping(answer, list(_INPLACE), "answer")
    hints = {
        "A": "x is a leaf that requires grad.",
        "B": "what does an addition need to save for its backward?",
        "C": "exp() saves its *output* for backward (d eˣ/dx = eˣ).",
        "D": "this runs under no_grad, on a leaf: the classic SGD update.",
        "E": "multiplication saves its inputs, and h is an input of h * h.",
    }
    for key, want in _INPLACE.items():
        got = str(answer[key]).strip().lower()
        if got not in ("ok", "error"):
            _fail(f"answer[{key!r}] should be 'ok' or 'error'.")
        if got != want:
            _fail(f"snippet {key} is wrong. Hint: {hints[key]}")
    return _ok("in-place is a problem only where a value saved for backward is overwritten "
               "(or on a leaf that requires grad).")


@_answer_required
def check_inplace_repair(culprit: str, x_grad: Any) -> None:
    """Notebook 06: the line that breaks backward (h *= 2 on tanh's saved output), and x.grad once repaired."""
    line = " ".join(str(culprit).split())
    if line not in ("y += 1", "h *= 2"):
        _fail("culprit should be one of the two in-place lines, written as in the code: \"y += 1\" or \"h *= 2\".")
    if line == "y += 1":
        _fail("culprit: y is the output of h * 3, and MulBackward0 saves a factor only when the *other* "
              "factor needs a gradient -- 3 does not, so nothing saved y or h there. Which node saved "
              "its output?")
    x = np.array([0.5, -1.0, 2.0])
    t = np.tanh(x)
    got = _values(x_grad, "x_grad")
    if got.size == 3:
        if np.allclose(got, 4 * (1 - t**2), atol=1e-5):
            _fail("x_grad: that is the gradient of 3·tanh x + 1 + tanh x -- the doubling of h is gone. "
                  "Keep it, out of place: h = h * 2.")
        if np.allclose(got, 3 * (1 - t**2), atol=1e-5):
            _fail("x_grad: the gradient through h was cut (detach()?). h * 2 must stay in the graph.")
        if np.allclose(got, 4 * (1 - 4 * t**2), atol=1e-5):
            _fail("x_grad: .data hid the change from autograd, so TanhBackward0 used the overwritten "
                  "output 2·tanh x: no error, but a wrong gradient. Repair it out of place: h = h * 2.")
    _close(x_grad, 5 * (1 - t**2), "x_grad", "loss = Σ(3·tanh x + 1 + 2·tanh x), so d loss/dx = 5·(1 − tanh²x). "
           "Did you run backward twice? Rebuild x and run once.")
    return _ok("only the in-place change of a *saved* value breaks backward; an out-of-place h = h * 2 "
               "keeps the saved output intact.")


# --------------------------------------------------------------------------
# 07 higher-order derivatives
# --------------------------------------------------------------------------


_W = np.array([0.5, -1.0, 2.0])
_X = np.array([1.0, 0.5, -0.3])


def _penalty(w: np.ndarray, x: np.ndarray, squared: bool = True) -> float:
    """P = ||df/dx||² for f = sum(tanh(w·x)): df/dx_i = w_i (1 − tanh²(w_i x_i))."""
    g = w * (1 - np.tanh(w * x) ** 2)
    return float((g**2).sum() if squared else np.sqrt((g**2).sum()))


def _numeric_grad(fn: Callable[[np.ndarray], float], at: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(at)
    for i in range(at.size):
        step = np.zeros_like(at)
        step[i] = eps
        out[i] = (fn(at + step) - fn(at - step)) / (2 * eps)
    return out


@_answer_required
def check_penalty_gradient(answer: Any) -> None:
    """Notebook 07: dP/dw for P = ||df/dx||², f(x) = sum(tanh(w·x)), w = [0.5, -1, 2], x = [1, 0.5, -0.3]."""
    got = _values(answer, "answer")
    want = _numeric_grad(lambda w: _penalty(w, _X), _W)
    if got.size == 3:
        if np.allclose(got, _numeric_grad(lambda x: _penalty(_W, x), _X), atol=1e-4):
            _fail("that is dP/dx, the gradient with respect to the input. The penalty trains the weights: "
                  "differentiate P with respect to w.")
        if np.allclose(got, _numeric_grad(lambda w: _penalty(w, _X, squared=False), _W), atol=1e-4):
            _fail("that is the gradient of the norm ||df/dx||, not of its square: P = (df_dx**2).sum().")
        g = _W * (1 - np.tanh(_W * _X) ** 2)
        if np.allclose(got, g, atol=1e-4) or np.allclose(got, g**2, atol=1e-4):
            _fail("that is df/dx (or its square), the inside of the penalty. Build P from it, then take "
                  "a second gradient, of P with respect to w.")
        slope = 1 - np.tanh(_W * _X) ** 2
        if np.allclose(got, slope, atol=1e-4) or np.allclose(got, _X * slope, atol=1e-4):
            _fail("that is a first derivative of f. P is the squared length of df/dx: compute df/dx with "
                  "create_graph=True, then P, then grad(P, w).")
    _close(answer, want, "answer", "df_dx = grad(f, x, create_graph=True); P = (df_dx**2).sum(); then grad(P, w).")
    return _ok("the penalty is a function of a gradient: create_graph=True made that gradient a graph in w, "
               "and the second backward walked it.")


@_answer_required
def check_newton_minimum(answer: Any) -> None:
    """Notebook 07: a local minimum of f(x) = x**4 - 3*x**2 + x found by Newton's method from x = 2."""
    x = float(_values(answer, "answer"))
    d1 = 4 * x**3 - 6 * x + 1
    d2 = 12 * x**2 - 6
    if abs(d1) > 1e-3:
        _fail(f"f'(x) = {d1:.4g} at your x: not a stationary point yet. Run more Newton steps "
              "x ← x - f'(x)/f''(x), and update x under no_grad.")
    if d2 <= 0:
        _fail("f'(x) = 0 there, but f''(x) < 0: that is a maximum.")
    if x < 0:
        _fail("that is a minimum, but not the one Newton's method reaches from x = 2.")
    return _ok("Newton's method needs f'' too -- a second backward through the derivative's graph.")


# --------------------------------------------------------------------------
# 08 dynamic graphs
# --------------------------------------------------------------------------


@_answer_required
def check_doubling_loop(n_mul: Any, x_grad: Any) -> None:
    """Notebook 08: the doubling loop on x = [1, 2, 2]: number of MulBackward0 nodes, and x.grad."""
    n = int(_values(n_mul, "n_mul"))
    if n == 8:
        _fail("you missed one: the first y = x * 2 before the loop is a multiplication too.")
    if n != 9:
        _fail(f"{n} multiplications is not right. ‖x‖ = 3; count how many doublings it takes "
              "until the norm reaches 1000 (and count the one before the loop).")
    _close(x_grad, [2.0**9] * 3, "x_grad", "Each multiplication by 2 multiplies the gradient by 2.")
    return _ok("the loop ran as many times as the data required, and the graph recorded every step.")


@_answer_required
def check_branch_grads(answer: Mapping[float, float]) -> None:
    """Notebook 08: f(x) = x**2 if x > 0 else -3*x; df/dx at x = -2, 1.5 and 0."""
    want = {-2.0: -3.0, 1.5: 3.0, 0.0: -3.0}
    if not isinstance(answer, Mapping):
        _fail("answer should be a dict {x: df/dx}.")
    for x, g in want.items():
        if x not in answer or answer[x] is Ellipsis:
            _fail(f"give df/dx at x = {x}.")
        if not math.isclose(float(_values(answer[x], f"answer[{x}]")), g, abs_tol=1e-6):
            _fail(f"df/dx at x = {x} is wrong: which branch does Python take for that x? "
                  "Autograd differentiates only the branch that ran.")
    return _ok("only the branch that ran is in the graph, and 0 > 0 is False.")


# --------------------------------------------------------------------------
# 09 training
# --------------------------------------------------------------------------


@_answer_required
def check_bce_bias_grad(answer: Any, z: Any, y: Any) -> None:
    """Notebook 09: the gradient of mean BCE-with-logits w.r.t. the bias, by formula: (σ(z) − y) / n."""
    zs = _values(z, "z")
    ys = _values(y, "y")
    want = (1 / (1 + np.exp(-zs)) - ys) / zs.size
    got = _values(answer, "answer")
    if got.shape == want.shape and np.allclose(got, want * zs.size, atol=1e-5):
        _fail("almost: the loss is a *mean* over the outputs, so divide by their number.")
    _close(answer, want, "answer", "dloss/dz = (sigmoid(z) - y) / n, and dz/db = 1.")
    return _ok("for BCE with logits the gradient is simply (σ(z) − y)/n -- that is why this loss is popular.")


class _OptimizerSpy:
    """Records, on a model and its optimizer, when backward and step run and what step saw."""

    def __init__(self, model: Any, optimizer: Any) -> None:
        self.events: list[str] = []
        self.params = list(model.parameters())
        for p in self.params:
            p.register_hook(self._backward)
        original = optimizer.step

        def step(*args: Any, **kwargs: Any) -> Any:
            grads = [p.grad for p in self.params]
            cleared = all(g is None or not np.any(_values(g, "p.grad")) for g in grads)
            self.events.append("step on cleared gradients" if cleared else "step")
            return original(*args, **kwargs)

        optimizer.step = step

    def _backward(self, grad: Any) -> None:
        if not self.events or self.events[-1] != "backward":
            self.events.append("backward")

    @property
    def steps(self) -> list[str]:
        return [e for e in self.events if e.startswith("step")]


def _fresh_linear(torch: Any, lr: float) -> tuple[Any, Any]:
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    return model, torch.optim.SGD(model.parameters(), lr=lr)


def _diagnose_steps(spy: _OptimizerSpy, expected_steps: int = 1) -> None:
    steps = spy.steps
    if not steps:
        _fail("optimizer.step() was never called, so the parameters did not change: call it after "
              "loss.backward().")
    first_step = next(i for i, event in enumerate(spy.events) if event.startswith("step"))
    if "backward" not in spy.events[:first_step]:
        _fail("optimizer.step() ran before loss.backward(): the step used the gradients of an earlier "
              "batch (or none). Order: zero_grad, forward, loss, backward, step.")
    if "step on cleared gradients" in steps:
        _fail("optimizer.step() ran while every gradient was None or zero: zero_grad() ran between "
              "backward() and step() and wiped the gradients the step needs. Clear them at the start, "
              "before the forward pass.")
    if len(steps) > expected_steps:
        _fail(f"optimizer.step() ran {len(steps)} times in one call: take a single step, after all the "
              "backward calls.")


@_answer_required
def check_train_step(train_step: Callable[..., Any], torch: Any) -> None:
    """Notebook 09: ``train_step(model, optimizer, xb, yb) -> loss`` zeroes, backpropagates and steps."""
    xb = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    yb = torch.tensor([1, 0])

    model, optimizer = _fresh_linear(torch, 0.1)
    spy = _OptimizerSpy(model, optimizer)
    loss = train_step(model, optimizer, xb, yb)
    if loss is None:
        _fail("train_step should return the loss.")
    if "backward" not in spy.events:
        _fail("no gradient reached the parameters: call loss.backward() on the batch's loss.")
    _diagnose_steps(spy)

    # With lr = 0 the parameters stay put, so two steps must see the very same gradient.
    model, optimizer = _fresh_linear(torch, 0.0)
    train_step(model, optimizer, xb, yb)
    first = [_values(p.grad, "p.grad").copy() for p in model.parameters()]
    train_step(model, optimizer, xb, yb)
    second = [_values(p.grad, "p.grad") for p in model.parameters()]
    if all(np.allclose(s, 2 * f) for s, f in zip(second, first)):
        _fail("the second step's gradient is twice the first: gradients accumulated. "
              "Call optimizer.zero_grad() before loss.backward().")
    reference, _ = _fresh_linear(torch, 0.0)
    torch.nn.functional.cross_entropy(reference(xb), yb).backward()
    want = [_values(p.grad, "p.grad") for p in reference.parameters()]
    if not all(np.allclose(s, w, atol=1e-5) for s, w in zip(second, want)):
        _fail("the gradients are not those of the batch's loss: compute "
              "loss = F.cross_entropy(model(xb), yb) and call loss.backward().")
    return _ok("zero_grad → forward → loss → backward → step: each step uses this batch's gradient only.")


def _micro_batches(torch: Any) -> list[tuple[Any, Any]]:
    xs = [[1.0, 2.0, 3.0], [0.0, -1.0, 1.0], [2.0, 0.5, -1.0], [-1.0, 1.0, 0.0], [0.5, 0.5, 0.5], [3.0, -2.0, 1.0]]
    ys = [1, 0, 1, 1, 0, 0]
    return [(torch.tensor(xs[i:i + 2]), torch.tensor(ys[i:i + 2])) for i in range(0, 6, 2)]


@_answer_required
def check_accumulation_step(accumulated_step: Callable[..., Any], torch: Any) -> None:
    """Notebook 09: one SGD step with the gradient of the mean loss over all equal-sized micro-batches."""
    batches = _micro_batches(torch)
    model, optimizer = _fresh_linear(torch, 1.0)
    before = [_values(p, "parameter").copy() for p in model.parameters()]
    for p in model.parameters():                       # left over from an earlier step
        p.grad = torch.ones_like(p) * 5
    spy = _OptimizerSpy(model, optimizer)
    returned = accumulated_step(model, optimizer, batches)
    _diagnose_steps(spy, expected_steps=1)
    moved = [b - _values(p, "parameter") for p, b in zip(model.parameters(), before)]   # = lr · gradient

    def expected(parts: list[tuple[Any, Any]], scale: float) -> list[np.ndarray]:
        ref, _ = _fresh_linear(torch, 1.0)
        for xb, yb in parts:
            (torch.nn.functional.cross_entropy(ref(xb), yb) * scale).backward()
        return [_values(p.grad, "p.grad") for p in ref.parameters()]

    def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
        return all(np.allclose(x, y, atol=1e-5) for x, y in zip(a, b))

    want = expected(batches, 1 / len(batches))
    if same(moved, want):
        xs = torch.cat([xb for xb, _ in batches])
        ys = torch.cat([yb for _, yb in batches])
        with torch.no_grad():
            ref, _ = _fresh_linear(torch, 1.0)
            mean_loss = float(torch.nn.functional.cross_entropy(ref(xs), ys).item())
        if returned is None or not math.isclose(float(_values(returned, "the returned loss")), mean_loss,
                                                rel_tol=1e-4):
            _fail(f"the step is right, but return the mean loss over all micro-batches ({mean_loss:.4f} "
                  "here) as a float: add up each scaled loss.item().")
        return _ok("backward adds into .grad, so k backward calls of loss/k and one step give the big "
                   "batch's gradient; the optimizer only reads .grad.")
    if same(moved, [w + 5 for w in want]):
        _fail("the step also used gradients left over from before the call: start with optimizer.zero_grad().")
    if same(moved, expected(batches, 1.0)):
        _fail(f"the step is {len(batches)} times too big: each micro-batch's loss is a mean over its own "
              f"examples, so the sum of {len(batches)} of them is {len(batches)}× the big batch's mean. "
              f"Divide each loss by the number of micro-batches.")
    if same(moved, expected(batches[-1:], 1 / len(batches))) or same(moved, expected(batches[-1:], 1.0)):
        _fail("only the last micro-batch's gradient was used: zero_grad() inside the loop wipes the "
              "earlier ones. Clear once, before the loop.")
    _fail("the step does not match one step with the whole batch's gradient. Per micro-batch: forward, "
          "loss / number of micro-batches, backward. Then a single step.")


@_answer_required
def check_gradient_reaches_input(net: Any, inputs: Any, targets: Any, ratio: float = 0.25) -> None:
    """Notebook 09: a 6-hidden-layer net whose first weight's mean |grad| is >= ``ratio`` × the last one's."""
    layers = list(net.modules()) if hasattr(net, "modules") else []
    linears = [m for m in layers if type(m).__name__ == "Linear"]
    if len(linears) != 7:
        _fail(f"fixed_net has {len(linears)} Linear layers; keep the depth: 6 hidden layers and the output "
              "layer, 7 in all (deep_net(..., depth=6)). A shallower network would dodge the question.")
    net.zero_grad()
    import importlib
    functional = importlib.import_module(type(net).__module__.split(".")[0] + ".nn.functional")
    functional.cross_entropy(net(inputs), targets).backward()
    first, last = (float(np.abs(_values(m.weight.grad, "weight.grad")).mean()) for m in (linears[0], linears[-1]))
    measured = first / last
    net.zero_grad()
    if measured >= ratio:
        return _ok(f"the first layer gets {measured:.2f} × the last layer's gradient: it can learn.")
    kinds = {type(m).__name__ for m in layers}
    if "Sigmoid" in kinds:
        _fail(f"the first layer gets only {measured:.1e} × the last layer's gradient: each sigmoid "
              "multiplies it by at most 1/4 on the way back. Change the activation.")
    if "Tanh" in kinds:
        _fail(f"{measured:.2f} × the last layer's gradient: tanh' is at most 1, but below 1 almost "
              "everywhere, so the gradient still shrinks layer by layer. Try ReLU.")
    _fail(f"{measured:.2f} × the last layer's gradient: better, but the default initialisation of "
          "nn.Linear still shrinks it layer by layer. Initialise the weights for ReLU "
          "(nn.init.kaiming_normal_(layer.weight, nonlinearity='relu')).")


# --------------------------------------------------------------------------
# 10 custom Function and gradcheck
# --------------------------------------------------------------------------


def _function_error(error: RuntimeError) -> None:
    """A custom Function's backward broke the engine's contract: say which rule, in the learner's terms."""
    text = str(error)
    if "incorrect number of gradients" in text:
        _fail("backward must return one gradient per input of forward, in order -- here two: the gradient "
              "for x, and None for the number k (it needs no gradient). " f"(The engine said: {text})")
    if "shape" in text or "size" in text:
        _fail(f"a gradient returned by backward has the wrong shape: each must have its input's shape. ({text})")
    _fail(f"backward raised RuntimeError: {text}")


def _softplus_reference(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.log1p(np.exp(values)), 1 / (1 + np.exp(-values))


@_answer_required
def check_softplus_function(function: Any, torch: Any) -> None:
    """Notebook 10: an autograd.Function computing softplus(x) = log(1 + exp(x)), verified by gradcheck."""
    xs = np.array([-2.0, -0.5, 0.0, 0.7, 3.0])
    x = torch.tensor(xs.tolist(), dtype=torch.float64, requires_grad=True)
    if not hasattr(function, "apply"):
        _fail("pass the Function class itself (with forward and backward as @staticmethods).")
    y = function.apply(x)
    value, slope = _softplus_reference(xs)
    _close(y, value, "forward(x)", "softplus(x) = log(1 + exp(x)).")
    if y.grad_fn is None:
        _fail("the output has no grad_fn: call the Function through .apply(x), not forward().")
    y.backward(torch.tensor([1.0, 2.0, 3.0, -1.0, 0.5], dtype=torch.float64))
    got = _values(x.grad, "x.grad")
    if np.allclose(got, slope):
        _fail("backward must multiply by the incoming gradient (grad_output).")
    _close(x.grad, slope * np.array([1.0, 2.0, 3.0, -1.0, 0.5]), "x.grad",
           "d softplus/dx = sigmoid(x); return grad_output * sigmoid(x).")
    x2 = torch.tensor(xs.tolist(), dtype=torch.float64, requires_grad=True)
    if not torch.autograd.gradcheck(function.apply, (x2,), raise_exception=False):
        _fail("gradcheck failed: the analytical and numerical Jacobians differ.")
    return _ok("forward and backward agree with finite differences (gradcheck passed).")


@_answer_required
def check_fixed_function(function: Any, torch: Any) -> None:
    """Notebook 10: the repaired ``ScaledSquare`` (out = k · x²) passes gradcheck for several k."""
    for k in (1.0, 3.0, -0.5):
        x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
        out = function.apply(x, k)
        _close(out, k * np.array([0.3, -1.2, 2.0]) ** 2, f"forward with k={k}",
               "the forward was right to begin with: did you change it?")
        try:
            out.sum().backward()
            passed = torch.autograd.gradcheck(lambda t, k=k: function.apply(t, k), (x,), raise_exception=False)
        except RuntimeError as error:
            _function_error(error)
            raise
        if not passed:
            _fail(f"gradcheck still fails for k = {k}. d(k·x²)/dx = 2·k·x, times grad_output; "
                  "and the non-tensor argument k gets None.")
    return _ok("gradcheck passes for every k: the backward now matches the forward.")



# --------------------------------------------------------------------------
# 11 forward and reverse mode
# --------------------------------------------------------------------------

_PASSES = {"loss": (1_000_000, 1), "layer": (512, 512), "curve": (1, 1000)}


@_answer_required
def check_pass_counts(answer: Mapping[str, Any]) -> None:
    """Notebook 11: the fewest forward / reverse passes for a full Jacobian, and the mode for a loss."""
    answer = _mapping(answer, [*_PASSES, "gradient"], "answer")
    for name, (n_in, n_out) in _PASSES.items():
        entry = answer[name]
        if not isinstance(entry, Mapping) or set(entry) != {"forward", "reverse"}:
            _fail(f"answer[{name!r}] should be a dict {{'forward': passes, 'reverse': passes}}.")
        if is_open(entry):
            _fail(f"fill in answer[{name!r}]: it still holds `...`.")
        forward, reverse = int(_values(entry["forward"], "passes")), int(_values(entry["reverse"], "passes"))
        if (forward, reverse) == (n_out, n_in) and n_in != n_out:
            _fail(f"{name}: the two modes are swapped. Forward mode gets one *column* (one input) per pass, "
                  "reverse mode one *row* (one output) per pass.")
        if forward != n_in:
            _fail(f"{name}: forward mode needs one pass per input (a column of J each): how many inputs?")
        if reverse != n_out:
            _fail(f"{name}: reverse mode needs one pass per output (a row of J each): how many outputs?")
    mode = str(answer["gradient"]).strip().lower()
    if mode not in ("forward", "reverse"):
        _fail("answer['gradient'] should be 'forward' or 'reverse'.")
    if mode == "forward":
        _fail("answer['gradient']: a loss has one output and many inputs; which mode needs one pass per output?")
    return _ok("a full Jacobian costs n forward passes or m backward passes; a loss (m = 1) needs one backward.")


@_answer_required
def check_jvp_column(answer: Any) -> None:
    """Notebook 11: column 2 of the Jacobian of f(x) = (x0·x1, sin x1 + x2) at (1, 2, 3), from one product."""
    if isinstance(answer, tuple):
        _fail("jvp and vjp return a pair (f(x), product): take the second element.")
    got = _values(answer, "answer")
    J = np.array([[2.0, 1.0, 0.0], [0.0, math.cos(2.0), 1.0]])
    if got.size == 3:
        if np.allclose(got, J[1]) or np.allclose(got, J[0]):
            _fail("that is a row of J (a vjp: vᵀJ has one entry per input). Column 2 has one entry per "
                  "output: how both outputs move when x2 moves -- a jvp, J·u.")
        _fail("a column of J has one entry per output (2 here), not one per input.")
    if got.size == 2 and np.allclose(got, J[:, 1]):
        _fail("that is column 1 (the columns count from 0): the direction u must nudge x2 only, "
              "u = [0, 0, 1].")
    _close(answer, J[:, 2], "answer", "jvp(f, x0, u) with u = e₂ = [0, 0, 1] gives J·e₂, the column for x2.")
    return _ok("one jvp with u = e_j gives column j; one vjp with v = e_i gives row i.")


# --------------------------------------------------------------------------
# 12 what the articles got wrong
# --------------------------------------------------------------------------


@_answer_required
def check_trap_optimizer(answer: Mapping[str, float]) -> None:
    """Notebook 12: w.grad after two backward calls of 3w, after optimizer.step() (lr 0.1), and w then."""
    answer = _mapping(answer, ["a", "b", "c"], "answer")
    a, b, c = (float(_values(answer[k], f"answer[{k!r}]")) for k in "abc")
    if math.isclose(a, 3.0):
        _fail("(a): backward adds into .grad even without any optimizer -- two calls, 3 + 3.")
    _close(a, 6.0, "answer['a']", "Each (3 * w).backward() adds d(3w)/dw = 3 into w.grad.")
    if math.isclose(b, 0.0) or math.isclose(b, 12.0):
        _fail("(b): step() only reads .grad; it neither clears it (zero_grad does) nor adds to it.")
    _close(b, 6.0, "answer['b']", "What does step() do with .grad besides reading it?")
    if math.isclose(c, 0.7):
        _fail("(c): the step uses the accumulated .grad, 6, not the gradient of one call.")
    _close(c, 0.4, "answer['c']", "SGD: w ← w − lr · w.grad.")
    return _ok("backward accumulates; the optimizer reads .grad in step() and only zero_grad() clears it.")


@_answer_required
def check_trap_eval(answer: Mapping[str, bool]) -> None:
    """Notebook 12: requires_grad after eval() / in no_grad(); does dropout drop after eval() / in no_grad()."""
    answer = _mapping(answer, ["a", "b", "c", "d"], "answer")
    hints = {
        "a": "eval() switches layers to inference behaviour; does it tell autograd anything?",
        "b": "no_grad() stops recording, whatever the layers do.",
        "c": "in eval mode Dropout passes everything through.",
        "d": "no_grad() does not touch module.training: the model is still in training mode.",
    }
    for key, want in {"a": True, "b": False, "c": False, "d": True}.items():
        if not isinstance(answer[key], (bool, np.bool_)):
            _fail(f"answer[{key!r}] should be True or False.")
        if bool(answer[key]) != want:
            _fail(f"({key}) is wrong. {hints[key]}")
    return _ok("eval() changes layers, no_grad() stops recording: two switches, and inference wants both.")


@_answer_required
def check_trap_kinks(answer: Mapping[str, Any]) -> None:
    """Notebook 12: autograd's values at kinks: relu'(0), |x|'(0), sqrt'(0), the gradient of max([2, 2, 1])."""
    answer = _mapping(answer, ["relu", "abs", "sqrt", "max"], "answer")
    for name in ("relu", "abs"):
        got = float(_values(answer[name], f"answer[{name!r}]"))
        if math.isnan(got):
            _fail(f"{name}: autograd never answers 'undefined' -- each op's rule picks a number at its kink.")
        if not math.isclose(got, 0.0, abs_tol=1e-9):
            _fail(f"{name}: the left slope is {-1 if name == 'abs' else 0}, the right one 1; PyTorch's rule "
                  "takes the subgradient 0 at exactly 0.")
    sqrt = float(_values(answer["sqrt"], "answer['sqrt']"))
    if not math.isinf(sqrt):
        _fail("sqrt: the rule is grad / (2·sqrt(x)), evaluated as it stands -- at 0 that is 1 / 0.")
    got = _values(answer["max"], "answer['max']")
    if got.size == 3 and (np.allclose(got, [1, 0, 0]) or np.allclose(got, [0, 1, 0])):
        _fail("max: that is what max(dim=...) does (it returns an index). A full t.max() has no index: "
              "its gradient is shared evenly among the tied maxima.")
    if got.size == 3 and np.allclose(got, [1, 1, 0]):
        _fail("max: each tied entry cannot get the whole gradient (the total would be 2): it is split.")
    _close(got, [0.5, 0.5, 0.0], "answer['max']", "The two tied maxima share the gradient 1.")
    return _ok("at a kink every op's rule picks a value: 0 for relu and abs, inf for sqrt, an even split "
               "for a full max.")


@_answer_required
def check_trap_broadcast(answer: Any) -> None:
    """Notebook 12: b.grad for (ones(5, 3) @ ones(3, 2) + b).sum(), b of shape (2,)."""
    got = _values(answer, "answer")
    if got.size == 10:
        _fail("b.grad has b's shape, 2 -- not out's shape, 5 × 2.")
    if got.size == 2 and np.allclose(got, 1.0):
        _fail("1 per entry would be right for one row. b was added to each of the 5 rows: every use "
              "sends a gradient, and they add up.")
    if got.size == 2 and np.allclose(got, 3.0):
        _fail("3 is what W's entries see from each row; b gets 1 from each row it was added to.")
    _close(answer, [5.0, 5.0], "answer", "Sum the gradient at out (all ones) over the batch axis.")
    return _ok("a broadcast tensor's gradient is summed over the axes it was broadcast along.")


_install_notebook_display()
