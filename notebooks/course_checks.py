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

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = [
    # 01 tensors and requires_grad
    "check_requires_grad_table", "check_grad_fn_names", "check_accumulate_grad",
    # 02 chain rule
    "check_hand_gradients", "check_leaves_function", "check_mul_rule",
    # 03 vector outputs and Jacobians
    "check_vjp", "check_jacobian", "check_mm_fix",
    # 04 accumulation, hooks, autograd.grad
    "check_accumulated_grad", "check_clip_hook", "check_autograd_grad",
    # 05 turning tracking off
    "check_tracking_quiz", "check_frozen_model",
    # 06 in-place operations
    "check_inplace_quiz", "check_inplace_fix",
    # 07 higher-order derivatives
    "check_second_derivative", "check_newton_minimum",
    # 08 dynamic graphs
    "check_doubling_loop", "check_branch_grads",
    # 09 training
    "check_bce_bias_grad", "check_train_step", "check_accuracy", "check_vanishing_layer",
    # 10 custom Function and gradcheck
    "check_softplus_function", "check_fixed_function",
]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def _fail(message: str) -> None:
    raise AssertionError(message)


def _answer_required(check: Callable[..., None]) -> Callable[..., None]:
    """A blanked exercise (``answer = ...``) gets "fill it in", never a traceback."""

    @functools.wraps(check)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        if any(arg is Ellipsis for arg in (*args, *kwargs.values())):
            _fail("the answer is still `...`: replace it with your own.")
        check(*args, **kwargs)

    return wrapper


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


_GRAD_FN_NAMES = {"x * w": "MulBackward0", "x.exp()": "ExpBackward0", "x.sum()": "SumBackward0",
                  "x / 2": "DivBackward0", "w * 2": None}


@_answer_required
def check_grad_fn_names(answer: Mapping[str, str | None]) -> None:
    """Notebook 01: the class name of each expression's ``grad_fn`` (None when there is none)."""
    answer = _mapping(answer, list(_GRAD_FN_NAMES), "answer")
    for expr, want in _GRAD_FN_NAMES.items():
        got = answer[expr]
        if want is None and got is not None:
            _fail(f"{expr!r}: does anything in it require grad? If not, autograd records nothing.")
        if want is not None and got != want:
            _fail(f"{expr!r}: {got!r} is not its grad_fn's name. Names are the operation in CamelCase "
                  "plus 'Backward0', e.g. 'AddBackward0'; run type(t.grad_fn).__name__ to see.")
    return _ok("a grad_fn is named after the forward operation it differentiates.")


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


@_answer_required
def check_jacobian(answer: Any) -> None:
    """Notebook 03: the Jacobian of g(x) = [x0*x1, x1*x2, x2*x0] at x = [1, 2, 3]."""
    want = np.array([[2.0, 1.0, 0.0], [0.0, 3.0, 2.0], [3.0, 0.0, 1.0]])
    got = _values(answer, "answer")
    if got.size != 9:
        _fail(f"the Jacobian of a function from R³ to R³ is 3×3; yours has {got.size} entries.")
    if np.allclose(got.reshape(3, 3), want.T):
        _fail("that is the transpose: row i of J is the gradient of output i (what backward(e_i) gives).")
    _close(answer, want, "answer", "Row i is x.grad after g(x).backward(e_i), with x.grad reset in between.")
    return _ok("each backward with a one-hot vector gives one row of the Jacobian.")


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


@_answer_required
def check_clip_hook(hook: Callable[[Any], Any], torch: Any) -> None:
    """Notebook 04: a tensor hook that clamps every gradient entry to [-1, 1]."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * torch.tensor([0.5, -3.0, 2.0])
    y.register_hook(hook)
    (y * torch.tensor([1.0, 1.0, -4.0])).sum().backward()
    # grad arriving at y: [1, 1, -4] -> clipped [1, 1, -1]; x.grad = clipped * [0.5, -3, 2]
    got = _values(x.grad, "x.grad")
    if np.allclose(got, [0.5, -3.0, -8.0]):
        _fail("the gradient was not changed: a hook that modifies must *return* the new gradient "
              "(and should not change its argument in place).")
    _close(x.grad, [0.5, -3.0, -2.0], "x.grad after your hook",
           "Clamp each entry to [-1, 1], e.g. with grad.clamp(-1, 1), and return it.")
    return _ok("a hook sees the gradient arriving at the tensor and may return a replacement.")


@_answer_required
def check_autograd_grad(answer: Any, a: Any) -> None:
    """Notebook 04: (dz/da, dz/db) for z = a**2 * b at a=3, b=4, via autograd.grad; a.grad untouched."""
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        _fail("autograd.grad returns a tuple with one gradient per input: pass both inputs [a, b].")
    _close(answer[0], 24.0, "dz/da", "d(a²b)/da = 2ab.")
    _close(answer[1], 9.0, "dz/db", "d(a²b)/db = a².")
    if a.grad is not None:
        _fail("a.grad is not None: autograd.grad does not touch .grad, so something called backward(). "
              "Run the cells again from the top, using only torch.autograd.grad.")
    return _ok("torch.autograd.grad returns the gradients and leaves every .grad alone.")


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
def check_inplace_fix(x_grad: Any) -> None:
    """Notebook 06: x.grad of the fixed snippet: y = sigmoid(x); z = y * 2; z.sum().backward()."""
    got = _values(x_grad, "x.grad")
    x = np.array([0.0, 1.0, -1.0])
    s = 1 / (1 + np.exp(-x))
    want = 2 * s * (1 - s)
    if got.size == 3 and np.allclose(got, s * (1 - s)):
        _fail("that is the gradient of sigmoid alone: z = 2·sigmoid(x), so there is a factor of 2.")
    _close(x_grad, want, "x.grad", "Replace the in-place y.mul_(2) by an out-of-place z = y * 2 and "
           "backward from z. Reset x.grad = None first if you ran it twice.")
    return _ok("an out-of-place op keeps the saved output intact, so backward can use it.")


# --------------------------------------------------------------------------
# 07 higher-order derivatives
# --------------------------------------------------------------------------


@_answer_required
def check_second_derivative(answer: Any) -> None:
    """Notebook 07: f''(1) for f(x) = sin(x) · x²."""
    want = math.sin(1.0) + 4 * math.cos(1.0)  # 2 sin x + 4x cos x - x² sin x at x = 1
    first = 2 * math.sin(1.0) + math.cos(1.0)
    got = _values(answer, "answer")
    if got.size == 1 and math.isclose(float(got), first, rel_tol=1e-4):
        _fail("that is f'(1). Differentiate again: the first derivative needs create_graph=True.")
    _close(answer, want, "answer", "Use autograd.grad(y, x, create_graph=True), then autograd.grad of that.")
    return _ok("with create_graph=True the derivative is a graph of its own, so it can be differentiated.")


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


@_answer_required
def check_train_step(train_step: Callable[..., Any], torch: Any) -> None:
    """Notebook 09: ``train_step(model, optimizer, xb, yb) -> loss`` zeroes, backpropagates and steps."""
    xb = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    yb = torch.tensor([1, 0])

    def fresh(lr: float) -> tuple[Any, Any]:
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        return model, torch.optim.SGD(model.parameters(), lr=lr)

    model, optimizer = fresh(0.1)
    before = [_values(p, "parameter") for p in model.parameters()]
    loss = train_step(model, optimizer, xb, yb)
    if loss is None:
        _fail("train_step should return the loss.")
    if all(np.allclose(_values(p, "parameter"), b) for p, b in zip(model.parameters(), before)):
        _fail("the parameters did not change: call optimizer.step() after loss.backward().")

    # With lr = 0 the parameters stay put, so two steps must see the very same gradient.
    model, optimizer = fresh(0.0)
    train_step(model, optimizer, xb, yb)
    first = [_values(p.grad, "p.grad").copy() for p in model.parameters()]
    train_step(model, optimizer, xb, yb)
    second = [_values(p.grad, "p.grad") for p in model.parameters()]
    if all(np.allclose(s, 2 * f) for s, f in zip(second, first)):
        _fail("the second step's gradient is twice the first: gradients accumulated. "
              "Call optimizer.zero_grad() before loss.backward().")
    reference, _ = fresh(0.0)
    torch.nn.functional.cross_entropy(reference(xb), yb).backward()
    want = [_values(p.grad, "p.grad") for p in reference.parameters()]
    if not all(np.allclose(s, w, atol=1e-5) for s, w in zip(second, want)):
        _fail("the gradients are not those of the batch's loss: compute "
              "loss = F.cross_entropy(model(xb), yb) and call loss.backward().")
    return _ok("zero_grad → forward → loss → backward → step: each step uses this batch's gradient only.")


@_answer_required
def check_accuracy(answer: Any, target: float = 0.9) -> None:
    """Notebook 09: validation accuracy (a fraction between 0 and 1) of at least ``target``."""
    acc = float(_values(answer, "accuracy"))
    if acc > 1.0:
        _fail("give the accuracy as a fraction between 0 and 1 (e.g. 0.93), not a percentage.")
    if acc < target:
        _fail(f"accuracy {acc:.3f} is below {target}: train for more epochs, or try another "
              "learning rate (0.05–0.2 with momentum 0.9 works well here).")
    return _ok(f"{acc:.1%} of the validation digits are classified correctly.")


@_answer_required
def check_vanishing_layer(answer: str, named_parameters: Any) -> None:
    """Notebook 09: the name of the weight with the smallest mean |grad| (after one backward)."""
    means = {}
    for name, p in named_parameters:
        if name.endswith("weight") and p.grad is not None:
            means[name] = float(np.abs(_values(p.grad, name)).mean())
    if not means:
        _fail("no weight has a gradient yet: run the backward cell of the deep sigmoid network first.")
    want = min(means, key=means.__getitem__)
    if answer not in means:
        _fail(f"{answer!r} is not one of the weights: {sorted(means)}.")
    if answer != want:
        _fail(f"{answer!r} is not the smallest. In a sigmoid network the gradient shrinks on the "
              "way back to the input: look at the layer nearest the input in the gradient-flow plot.")
    return _ok("each sigmoid multiplies the gradient by at most 1/4, so the first layer learns the slowest.")


# --------------------------------------------------------------------------
# 10 custom Function and gradcheck
# --------------------------------------------------------------------------


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
        if not torch.autograd.gradcheck(lambda t, k=k: function.apply(t, k), (x,), raise_exception=False):
            _fail(f"gradcheck still fails for k = {k}. d(k·x²)/dx = 2·k·x, times grad_output; "
                  "and the non-tensor argument k gets None.")
    return _ok("gradcheck passes for every k: the backward now matches the forward.")
