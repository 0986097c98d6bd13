"""Self-checks for the course notebooks: ``check_<exercise>(answer)`` says whether an exercise is solved.

Every check either prints a short confirmation or raises an
``AssertionError`` whose message says what is wrong and gives a hint -- never the answer
itself.  The answers are in ``ANSWERS.md`` (for teachers).

The feedback is in English or Chinese, from one table (:data:`MESSAGES`): it follows
``viz.set_language("zh")``, or :func:`set_language` for the checks alone.

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


# --------------------------------------------------------------------------
# the language of the feedback
# --------------------------------------------------------------------------

#: The languages of :data:`MESSAGES`, in the order of its pairs.
LANGUAGES = ("en", "zh")

_language: str | None = None   # set_language's choice; None: follow viz


def set_language(language: str | None) -> None:
    """Give the checks' feedback in ``"en"`` or ``"zh"``; ``None`` (the default) follows viz.

    A notebook that calls ``viz.set_language("zh")`` gets Chinese feedback without this; it is the
    course-level switch for a notebook without viz, or to choose a language other than viz's.
    """
    global _language
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES} or None, got {language!r}")
    _language = language


def language() -> str:
    """The feedback's language: :func:`set_language`'s, else viz's (``viz.set_language``), else English."""
    if _language is not None:
        return _language
    i18n = sys.modules.get("viz.i18n")            # never imported here: the checks do not need viz
    current = getattr(i18n, "get_language", lambda: "en")()
    return current if current in LANGUAGES else "en"


def _t(key: str, /, *args: Any, **fields: Any) -> str:
    """The message ``key`` of :data:`MESSAGES` in the current language, placeholders filled."""
    return MESSAGES[key][LANGUAGES.index(language())].format(*args, **fields)


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
            print(_t("still_open", check.__name__))
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
    print(_t("needs_first", exercise=exercise, name=name))
    return False


def _show_check_failed(shell: Any, etype: type, value: BaseException, tb: Any,
                       tb_offset: int | None = None) -> list[str]:
    """IPython's display of a :class:`CheckFailed`: one red line with the hint, no traceback.

    IPython does not show what a custom handler returns, so the handler shows it: in a kernel
    ``_showtraceback`` sends the error (ename ``CheckFailed``, a one-line traceback) to the front end.
    """
    stb = [f"\x1b[31m{_t('not_yet', value=value)}\x1b[0m"]
    shell._showtraceback(etype, value, stb)
    return stb


def _install_notebook_display() -> None:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "set_custom_exc"):
        shell.set_custom_exc((CheckFailed,), _show_check_failed)


def _ok(message: str) -> None:
    print(_t("correct", message=message))


def _values(answer: Any, what: str) -> np.ndarray:
    """A float array from a number, a list, a numpy array or a tensor of any library."""
    if answer is None:
        _fail(_t("_values.1", what=what))
    if isinstance(answer, type(Ellipsis)):
        _fail(_t("_values.2", what=what))
    value = answer.tolist() if hasattr(answer, "tolist") else answer
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        _fail(_t("_values.3", type(answer).__name__, what=what))
        raise  # unreachable, for type checkers


def _close(answer: Any, expected: Any, what: str, hint: str = "", atol: float = 1e-4) -> None:
    got = _values(answer, what)
    want = np.asarray(expected, dtype=np.float64)
    if got.size != want.size:
        _fail(_t("_close.1", want.size, tuple(want.shape), got.size, tuple(got.shape), what=what, hint=hint).rstrip())
    if not np.allclose(got.reshape(want.shape), want, atol=atol, rtol=1e-4):
        _fail(_t("_close.2", _fmt(got), what=what, hint=hint).rstrip())


def _fmt(array: np.ndarray) -> str:
    if array.size == 1:
        return f"{float(array.reshape(-1)[0]):g}"
    return np.array2string(array, precision=4, separator=", ")


def _mapping(answer: Any, keys: list[str], what: str) -> Mapping[str, Any]:
    if not isinstance(answer, Mapping):
        _fail(_t("_mapping.1", what=what, keys=keys))
    missing = [k for k in keys if k not in answer]
    if missing:
        _fail(_t("_mapping.2", what=what, missing=missing))
    unfilled = [k for k in keys if answer[k] is Ellipsis]
    if unfilled:
        _fail(_t("_mapping.3", unfilled=unfilled))
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
            _fail(_t("check_requires_grad_table.1", name=name))
        rg, leaf = pair
        if bool(rg) != want_rg:
            _fail(_t("check_requires_grad_table.2", name=name))
        if bool(leaf) != want_leaf:
            _fail(_t("check_requires_grad_table.3", name=name))
    return _ok(_t("check_requires_grad_table.4"))


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
            _fail(_t("check_next_functions.1", node=node))
        got = [g if g is None else str(g).strip() for g in got]
        if got == want:
            continue
        if len(got) != len(want):
            _fail(_t("check_next_functions.2", len(got), node=node))
        if node == "add" and got[1] == "ExpBackward0":
            _fail(_t("check_next_functions.3"))
        if node == "mul" and got[1] == "AccumulateGrad":
            _fail(_t("check_next_functions.4"))
        if sorted(map(str, got)) == sorted(map(str, want)):
            _fail(_t("check_next_functions.5", node=node))
        if node == "t" and got != want:
            _fail(_t("check_next_functions.6"))
        _fail(_t("check_next_functions.7", node=node))
    return _ok(_t("check_next_functions.8"))


@_answer_required
def check_accumulate_grad(node: Any, leaf: Any) -> None:
    """Notebook 01: ``node`` is the AccumulateGrad node of ``leaf``, found through next_functions."""
    if node is None or node is Ellipsis:
        _fail(_t("check_accumulate_grad.1"))
    if isinstance(node, tuple):
        _fail(_t("check_accumulate_grad.2"))
    if _name(node) != "AccumulateGrad":
        _fail(_t("check_accumulate_grad.3", _name(node)))
    if getattr(node, "variable", None) is not leaf:
        _fail(_t("check_accumulate_grad.4"))
    return _ok(_t("check_accumulate_grad.5"))


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
        _fail(_t("check_hand_gradients.1"))
    _close(answer["z"], ds_dr * 1, "answer['z']",
           _t("check_hand_gradients.2"))
    _close(answer["x"], ds_dr * -2, "answer['x']", _t("check_hand_gradients.3"))
    _close(answer["y"], ds_dr * 3, "answer['y']", _t("check_hand_gradients.4"))
    return _ok(_t("check_hand_gradients.5"))


#: s = r * r, r = q + z, q = x * y at x = 3, y = -2, z = 4: the gradient on each edge of the graph.
_EDGES = {"s → r (1st)": -2.0, "s → r (2nd)": -2.0, "r → q": -4.0, "r → z": -4.0, "q → x": 8.0,
          "q → y": -12.0}


@_answer_required
def check_edge_gradients(answer: Mapping[str, float]) -> None:
    """Notebook 02: the gradient travelling along each edge of s = r*r, r = q + z, q = x*y (x=3, y=-2, z=4)."""
    answer = _mapping(answer, list(_EDGES), "answer")
    got = {k: float(_values(answer[k], f"answer[{k!r}]")) for k in _EDGES}
    if math.isclose(got["s → r (1st)"], -4.0) or math.isclose(got["s → r (2nd)"], -4.0):
        _fail(_t("check_edge_gradients.1"))
    for key in ("s → r (1st)", "s → r (2nd)"):
        if not math.isclose(got[key], -2.0):
            _fail(_t("check_edge_gradients.2", key=key))
    if math.isclose(got["r → q"], -2.0) or math.isclose(got["r → z"], -2.0):
        _fail(_t("check_edge_gradients.3"))
    for key in ("r → q", "r → z"):
        if not math.isclose(got[key], -4.0):
            _fail(_t("check_edge_gradients.4", key=key))
    if math.isclose(got["q → x"], -12.0) and math.isclose(got["q → y"], 8.0):
        _fail(_t("check_edge_gradients.5"))
    if not math.isclose(got["q → x"], 8.0):
        _fail(_t("check_edge_gradients.6"))
    if not math.isclose(got["q → y"], -12.0):
        _fail(_t("check_edge_gradients.7"))
    return _ok(_t("check_edge_gradients.8"))


@_answer_required
def check_leaves_function(leaves: Callable[[Any], list[Any]], torch: Any) -> None:
    """Notebook 02: ``leaves(t)`` returns the leaf tensors reachable from ``t.grad_fn`` (each once)."""
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = torch.tensor(4.0)
    t = (a * b + a) * c + b.exp()  # a and b are used twice; c does not require grad
    got = leaves(t)
    if got is None:
        _fail(_t("check_leaves_function.1"))
    got = list(got)
    if any(g is None for g in got):
        _fail(_t("check_leaves_function.2"))
    if any(_name(g) == "AccumulateGrad" for g in got):
        _fail(_t("check_leaves_function.3"))
    ids = [id(g) for g in got]
    if len(ids) != len(set(ids)):
        _fail(_t("check_leaves_function.4"))
    if any(g is c for g in got):
        _fail(_t("check_leaves_function.5"))
    if set(ids) != {id(a), id(b)}:
        _fail(_t("check_leaves_function.6", len(got)))
    return _ok(_t("check_leaves_function.7"))


@_answer_required
def check_mul_rule(mul_rule: Callable[[Any, float], tuple[float, float]], torch: Any) -> None:
    """Notebook 02: ``mul_rule(node, grad)`` returns the gradients a MulBackward0 node sends to its inputs."""
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(-5.0, requires_grad=True)
    node = (a * b).grad_fn
    got = mul_rule(node, 2.0)
    if not isinstance(got, tuple) or len(got) != 2:
        _fail(_t("check_mul_rule.1"))
    ga, gb = (float(_values(g, _t("label.gradient"))) for g in got)
    if math.isclose(ga, -5.0) and math.isclose(gb, 3.0):
        _fail(_t("check_mul_rule.2"))
    if math.isclose(ga, 6.0) and math.isclose(gb, -10.0):
        _fail(_t("check_mul_rule.3"))
    if not (math.isclose(ga, -10.0) and math.isclose(gb, 6.0)):
        _fail(_t("check_mul_rule.4"))
    return _ok(_t("check_mul_rule.5"))


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
        _fail(_t("check_vjp.1"))
    if got.size == 3 and np.allclose(got, jac.sum(axis=0)):
        _fail(_t("check_vjp.2"))
    if got.size == 3 and np.allclose(got, jac[0]):
        _fail(_t("check_vjp.3"))
    _close(answer, v @ jac, "answer", _t("check_vjp.4"))
    return _ok(_t("check_vjp.5"))


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
                _fail(_t("check_jacobian_function.1", what=what, error=error))
            if "a second time" in str(error):
                _fail(_t("check_jacobian_function.2", what=what))
            _fail(_t("check_jacobian_function.3", what=what, error=error))
        except (IndexError, ValueError) as error:
            _fail(_t("check_jacobian_function.4", type(error).__name__, what=what, error=error))
        if got is None:
            _fail(_t("check_jacobian_function.5"))
        values = _values(got, _t("label.jacobian"))
        m, n = want.shape
        if values.shape == (n, m) and np.allclose(values, want.T, atol=1e-5):
            _fail(_t("check_jacobian_function.6", what=what, n=n, m=m))
        if values.size != want.size:
            _fail(_t("check_jacobian_function.7", tuple(values.shape), what=what, m=m, n=n))
        values = values.reshape(want.shape)
        if np.allclose(values, np.cumsum(want, axis=0), atol=1e-5):
            _fail(_t("check_jacobian_function.8", what=what))
        if m > 1 and np.allclose(values, np.broadcast_to(values[-1], values.shape)) \
                and not np.allclose(want, np.broadcast_to(want[-1], want.shape)):
            _fail(_t("check_jacobian_function.9", what=what))
        if not np.allclose(values, want, atol=1e-5):
            _fail(_t("check_jacobian_function.10", _fmt(values), what=what))
    return _ok(_t("check_jacobian_function.11"))


@_answer_required
def check_mm_fix(x: Any, y: Any) -> None:
    """Notebook 03: after the fix, x is a leaf of shape (1, 2) with the gradient of z.backward([[1, 0]])."""
    if x is None or x is Ellipsis:
        _fail(_t("check_mm_fix.1"))
    if not x.is_leaf:
        _fail(_t("check_mm_fix.2", _name(x.grad_fn)))
    if tuple(x.shape) != (1, 2):
        _fail(_t("check_mm_fix.3", tuple(x.shape)))
    if x.grad is None:
        _fail(_t("check_mm_fix.4"))
    _close(x.grad, [[1.0, 3.0]], "x.grad", _t("check_mm_fix.5"))
    _close(_grad(y), [[2.0, 0.0], [1.0, 0.0]], "y.grad",
           _t("check_mm_fix.6"))
    return _ok(_t("check_mm_fix.7"))


# --------------------------------------------------------------------------
# 04 accumulation, hooks, autograd.grad
# --------------------------------------------------------------------------


@_answer_required
def check_accumulated_grad(answer: Any) -> None:
    """Notebook 04: x = 3; (x**2).backward(); (5*x).backward(); x.grad = ?"""
    got = _values(answer, "answer")
    if np.allclose(got, 5.0):
        _fail(_t("check_accumulated_grad.1"))
    if np.allclose(got, 6.0):
        _fail(_t("check_accumulated_grad.2"))
    _close(answer, 11.0, "answer", _t("check_accumulated_grad.3"))
    return _ok(_t("check_accumulated_grad.4"))


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
            _fail(_t("check_norm_clip_hook.1"))
        if returned is None and not np.allclose(sent, want):
            _fail(_t("check_norm_clip_hook.2"))
        if np.isnan(sent).any():
            _fail(_t("check_norm_clip_hook.3", arriving=arriving))
        if arriving == [3.0, 4.0, 0.0] and np.allclose(sent, [1.0, 1.0, 0.0]):
            _fail(_t("check_norm_clip_hook.4"))
        if arriving == [0.3, -0.4, 0.0] and np.allclose(sent, [0.6, -0.8, 0.0]):
            _fail(_t("check_norm_clip_hook.5"))
        if not np.allclose(sent, want, atol=1e-5):
            _fail(_t("check_norm_clip_hook.6", np.linalg.norm(arriving), _fmt(sent), arriving=arriving))
    return _ok(_t("check_norm_clip_hook.7"))


@_answer_required
def check_autograd_grad_paths(prediction: Any, answer: Any, a: Any) -> None:
    """Notebook 04: loss = (a*b)**2 + a at a=3, b=4: dloss/da by hand, then (dloss/dh, dloss/da, dloss/db)."""
    guess = float(_values(prediction, _t("label.prediction")))
    if math.isclose(guess, 96.0):
        _fail(_t("check_autograd_grad_paths.1"))
    if math.isclose(guess, 1.0):
        _fail(_t("check_autograd_grad_paths.2"))
    if not math.isclose(guess, 97.0):
        _fail(_t("check_autograd_grad_paths.3"))
    if not isinstance(answer, (tuple, list)) or len(answer) != 3:
        _fail(_t("check_autograd_grad_paths.4"))
    if a.grad is not None:
        _fail(_t("check_autograd_grad_paths.5"))
    dh, da, db = (float(_values(g, name)) for g, name in zip(answer, ("dloss/dh", "dloss/da", "dloss/db")))
    if math.isclose(da, 1.0):
        _fail(_t("check_autograd_grad_paths.6"))
    if not math.isclose(dh, 24.0):
        _fail(_t("check_autograd_grad_paths.7", dh=dh))
    _close(da, 97.0, "dloss/da", _t("check_autograd_grad_paths.8"))
    _close(db, 72.0, "dloss/db", _t("check_autograd_grad_paths.9"))
    return _ok(_t("check_autograd_grad_paths.10"))


# --------------------------------------------------------------------------
# 05 turning tracking off
# --------------------------------------------------------------------------

_TRACKING = {"a": False, "b": True, "c": True, "d": False, "e": False, "f": True}


@_answer_required
def check_tracking_quiz(answer: Mapping[str, bool]) -> None:
    """Notebook 05: requires_grad of a..f in the quiz cell."""
    answer = _mapping(answer, list(_TRACKING), "answer")
    hints = {
        "a": _t("check_tracking_quiz.hint_a"),
        "b": _t("check_tracking_quiz.hint_b"),
        "c": _t("check_tracking_quiz.hint_c"),
        "d": _t("check_tracking_quiz.hint_d"),
        "e": _t("check_tracking_quiz.hint_e"),
        "f": _t("check_tracking_quiz.hint_f"),
    }
    for name, want in _TRACKING.items():
        if bool(answer[name]) != want:
            _fail(_t("check_tracking_quiz.1", hints[name], name=name))
    return _ok(_t("check_tracking_quiz.2"))


@_answer_required
def check_frozen_model(model: Any, n_classes: int = 3) -> None:
    """Notebook 05: every layer frozen except a new last layer with ``n_classes`` outputs."""
    layers = list(model.children()) if hasattr(model, "children") else None
    if not layers:
        _fail(_t("check_frozen_model.1"))
    last = layers[-1]
    if getattr(last, "out_features", None) != n_classes:
        _fail(_t("check_frozen_model.2", getattr(last, 'out_features', '?'), n_classes=n_classes))
    for name, p in last.named_parameters():
        if not p.requires_grad:
            _fail(_t("check_frozen_model.3", name=name))
    for layer in layers[:-1]:
        for name, p in layer.named_parameters():
            if p.requires_grad:
                _fail(_t("check_frozen_model.4", type(layer).__name__, name=name))
    return _ok(_t("check_frozen_model.5"))


# --------------------------------------------------------------------------
# 06 in-place operations
# --------------------------------------------------------------------------

_INPLACE = {"A": "error", "B": "ok", "C": "error", "D": "ok", "E": "error"}


@_answer_required
def check_inplace_quiz(answer: Mapping[str, str]) -> None:
    """Notebook 06: "ok" or "error" for the snippets A..E."""
    answer = _mapping(answer, list(_INPLACE), "answer")
    hints = {
        "A": _t("check_inplace_quiz.hint_A"),
        "B": _t("check_inplace_quiz.hint_B"),
        "C": _t("check_inplace_quiz.hint_C"),
        "D": _t("check_inplace_quiz.hint_D"),
        "E": _t("check_inplace_quiz.hint_E"),
    }
    for key, want in _INPLACE.items():
        got = str(answer[key]).strip().lower()
        if got not in ("ok", "error"):
            _fail(_t("check_inplace_quiz.1", key=key))
        if got != want:
            _fail(_t("check_inplace_quiz.2", hints[key], key=key))
    return _ok(_t("check_inplace_quiz.3"))


@_answer_required
def check_inplace_repair(culprit: str, x_grad: Any) -> None:
    """Notebook 06: the line that breaks backward (h *= 2 on tanh's saved output), and x.grad once repaired."""
    line = " ".join(str(culprit).split())
    if line not in ("y += 1", "h *= 2"):
        _fail(_t("check_inplace_repair.1"))
    if line == "y += 1":
        _fail(_t("check_inplace_repair.2"))
    x = np.array([0.5, -1.0, 2.0])
    t = np.tanh(x)
    got = _values(x_grad, "x_grad")
    if got.size == 3:
        if np.allclose(got, 4 * (1 - t**2), atol=1e-5):
            _fail(_t("check_inplace_repair.3"))
        if np.allclose(got, 3 * (1 - t**2), atol=1e-5):
            _fail(_t("check_inplace_repair.4"))
        if np.allclose(got, 4 * (1 - 4 * t**2), atol=1e-5):
            _fail(_t("check_inplace_repair.5"))
    _close(x_grad, 5 * (1 - t**2), "x_grad", _t("check_inplace_repair.6"))
    return _ok(_t("check_inplace_repair.7"))


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
            _fail(_t("check_penalty_gradient.1"))
        if np.allclose(got, _numeric_grad(lambda w: _penalty(w, _X, squared=False), _W), atol=1e-4):
            _fail(_t("check_penalty_gradient.2"))
        g = _W * (1 - np.tanh(_W * _X) ** 2)
        if np.allclose(got, g, atol=1e-4) or np.allclose(got, g**2, atol=1e-4):
            _fail(_t("check_penalty_gradient.3"))
        slope = 1 - np.tanh(_W * _X) ** 2
        if np.allclose(got, slope, atol=1e-4) or np.allclose(got, _X * slope, atol=1e-4):
            _fail(_t("check_penalty_gradient.4"))
    _close(answer, want, "answer", _t("check_penalty_gradient.5"))
    return _ok(_t("check_penalty_gradient.6"))


@_answer_required
def check_newton_minimum(answer: Any) -> None:
    """Notebook 07: a local minimum of f(x) = x**4 - 3*x**2 + x found by Newton's method from x = 2."""
    x = float(_values(answer, "answer"))
    d1 = 4 * x**3 - 6 * x + 1
    d2 = 12 * x**2 - 6
    if abs(d1) > 1e-3:
        _fail(_t("check_newton_minimum.1", d1=d1))
    if d2 <= 0:
        _fail(_t("check_newton_minimum.2"))
    if x < 0:
        _fail(_t("check_newton_minimum.3"))
    return _ok(_t("check_newton_minimum.4"))


# --------------------------------------------------------------------------
# 08 dynamic graphs
# --------------------------------------------------------------------------


@_answer_required
def check_doubling_loop(n_mul: Any, x_grad: Any) -> None:
    """Notebook 08: the doubling loop on x = [1, 2, 2]: number of MulBackward0 nodes, and x.grad."""
    n = int(_values(n_mul, "n_mul"))
    if n == 8:
        _fail(_t("check_doubling_loop.1"))
    if n != 9:
        _fail(_t("check_doubling_loop.2", n=n))
    _close(x_grad, [2.0**9] * 3, "x_grad", _t("check_doubling_loop.3"))
    return _ok(_t("check_doubling_loop.4"))


@_answer_required
def check_branch_grads(answer: Mapping[float, float]) -> None:
    """Notebook 08: f(x) = x**2 if x > 0 else -3*x; df/dx at x = -2, 1.5 and 0."""
    want = {-2.0: -3.0, 1.5: 3.0, 0.0: -3.0}
    if not isinstance(answer, Mapping):
        _fail(_t("check_branch_grads.1"))
    for x, g in want.items():
        if x not in answer or answer[x] is Ellipsis:
            _fail(_t("check_branch_grads.2", x=x))
        if not math.isclose(float(_values(answer[x], f"answer[{x}]")), g, abs_tol=1e-6):
            _fail(_t("check_branch_grads.3", x=x))
    return _ok(_t("check_branch_grads.4"))


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
        _fail(_t("check_bce_bias_grad.1"))
    _close(answer, want, "answer", _t("check_bce_bias_grad.2"))
    return _ok(_t("check_bce_bias_grad.3"))


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
        _fail(_t("_diagnose_steps.1"))
    first_step = next(i for i, event in enumerate(spy.events) if event.startswith("step"))
    if "backward" not in spy.events[:first_step]:
        _fail(_t("_diagnose_steps.2"))
    if "step on cleared gradients" in steps:
        _fail(_t("_diagnose_steps.3"))
    if len(steps) > expected_steps:
        _fail(_t("_diagnose_steps.4", len(steps)))


@_answer_required
def check_train_step(train_step: Callable[..., Any], torch: Any) -> None:
    """Notebook 09: ``train_step(model, optimizer, xb, yb) -> loss`` zeroes, backpropagates and steps."""
    xb = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    yb = torch.tensor([1, 0])

    model, optimizer = _fresh_linear(torch, 0.1)
    spy = _OptimizerSpy(model, optimizer)
    loss = train_step(model, optimizer, xb, yb)
    if loss is None:
        _fail(_t("check_train_step.1"))
    if "backward" not in spy.events:
        _fail(_t("check_train_step.2"))
    _diagnose_steps(spy)

    # With lr = 0 the parameters stay put, so two steps must see the very same gradient.
    model, optimizer = _fresh_linear(torch, 0.0)
    train_step(model, optimizer, xb, yb)
    first = [_values(p.grad, "p.grad").copy() for p in model.parameters()]
    train_step(model, optimizer, xb, yb)
    second = [_values(p.grad, "p.grad") for p in model.parameters()]
    if all(np.allclose(s, 2 * f) for s, f in zip(second, first)):
        _fail(_t("check_train_step.3"))
    reference, _ = _fresh_linear(torch, 0.0)
    torch.nn.functional.cross_entropy(reference(xb), yb).backward()
    want = [_values(p.grad, "p.grad") for p in reference.parameters()]
    if not all(np.allclose(s, w, atol=1e-5) for s, w in zip(second, want)):
        _fail(_t("check_train_step.4"))
    return _ok(_t("check_train_step.5"))


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
        if returned is None or not math.isclose(float(_values(returned, _t("label.returned_loss"))), mean_loss,
                                                rel_tol=1e-4):
            _fail(_t("check_accumulation_step.1", mean_loss=mean_loss))
        return _ok(_t("check_accumulation_step.2"))
    if same(moved, [w + 5 for w in want]):
        _fail(_t("check_accumulation_step.3"))
    if same(moved, expected(batches, 1.0)):
        _fail(_t("check_accumulation_step.4", len(batches), len(batches), len(batches)))
    if same(moved, expected(batches[-1:], 1 / len(batches))) or same(moved, expected(batches[-1:], 1.0)):
        _fail(_t("check_accumulation_step.5"))
    _fail(_t("check_accumulation_step.6"))


@_answer_required
def check_gradient_reaches_input(net: Any, inputs: Any, targets: Any, ratio: float = 0.25) -> None:
    """Notebook 09: a 6-hidden-layer net whose first weight's mean |grad| is >= ``ratio`` × the last one's."""
    layers = list(net.modules()) if hasattr(net, "modules") else []
    linears = [m for m in layers if type(m).__name__ == "Linear"]
    if len(linears) != 7:
        _fail(_t("check_gradient_reaches_input.1", len(linears)))
    net.zero_grad()
    import importlib
    functional = importlib.import_module(type(net).__module__.split(".")[0] + ".nn.functional")
    functional.cross_entropy(net(inputs), targets).backward()
    first, last = (float(np.abs(_values(m.weight.grad, "weight.grad")).mean()) for m in (linears[0], linears[-1]))
    measured = first / last
    net.zero_grad()
    if measured >= ratio:
        return _ok(_t("check_gradient_reaches_input.2", measured=measured))
    kinds = {type(m).__name__ for m in layers}
    if "Sigmoid" in kinds:
        _fail(_t("check_gradient_reaches_input.3", measured=measured))
    if "Tanh" in kinds:
        _fail(_t("check_gradient_reaches_input.4", measured=measured))
    _fail(_t("check_gradient_reaches_input.5", measured=measured))


# --------------------------------------------------------------------------
# 10 custom Function and gradcheck
# --------------------------------------------------------------------------


def _function_error(error: RuntimeError) -> None:
    """A custom Function's backward broke the engine's contract: say which rule, in the learner's terms."""
    text = str(error)
    if "incorrect number of gradients" in text:
        _fail(_t("_function_error.1", text=text))
    if "shape" in text or "size" in text:
        _fail(_t("_function_error.2", text=text))
    _fail(_t("_function_error.3", text=text))


def _softplus_reference(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.log1p(np.exp(values)), 1 / (1 + np.exp(-values))


@_answer_required
def check_softplus_function(function: Any, torch: Any) -> None:
    """Notebook 10: an autograd.Function computing softplus(x) = log(1 + exp(x)), verified by gradcheck."""
    xs = np.array([-2.0, -0.5, 0.0, 0.7, 3.0])
    x = torch.tensor(xs.tolist(), dtype=torch.float64, requires_grad=True)
    if not hasattr(function, "apply"):
        _fail(_t("check_softplus_function.1"))
    y = function.apply(x)
    value, slope = _softplus_reference(xs)
    _close(y, value, "forward(x)", _t("check_softplus_function.2"))
    if y.grad_fn is None:
        _fail(_t("check_softplus_function.3"))
    y.backward(torch.tensor([1.0, 2.0, 3.0, -1.0, 0.5], dtype=torch.float64))
    got = _values(x.grad, "x.grad")
    if np.allclose(got, slope):
        _fail(_t("check_softplus_function.4"))
    _close(x.grad, slope * np.array([1.0, 2.0, 3.0, -1.0, 0.5]), "x.grad",
           _t("check_softplus_function.5"))
    x2 = torch.tensor(xs.tolist(), dtype=torch.float64, requires_grad=True)
    if not torch.autograd.gradcheck(function.apply, (x2,), raise_exception=False):
        _fail(_t("check_softplus_function.6"))
    return _ok(_t("check_softplus_function.7"))


@_answer_required
def check_fixed_function(function: Any, torch: Any) -> None:
    """Notebook 10: the repaired ``ScaledSquare`` (out = k · x²) passes gradcheck for several k."""
    for k in (1.0, 3.0, -0.5):
        x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
        out = function.apply(x, k)
        _close(out, k * np.array([0.3, -1.2, 2.0]) ** 2, f"forward with k={k}",
               _t("check_fixed_function.1"))
        try:
            out.sum().backward()
            passed = torch.autograd.gradcheck(lambda t, k=k: function.apply(t, k), (x,), raise_exception=False)
        except RuntimeError as error:
            _function_error(error)
            raise
        if not passed:
            _fail(_t("check_fixed_function.2", k=k))
    return _ok(_t("check_fixed_function.3"))



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
            _fail(_t("check_pass_counts.1", name=name))
        if is_open(entry):
            _fail(_t("check_pass_counts.2", name=name))
        forward, reverse = (int(_values(entry[mode], _t("label.passes"))) for mode in ("forward", "reverse"))
        if (forward, reverse) == (n_out, n_in) and n_in != n_out:
            _fail(_t("check_pass_counts.3", name=name))
        if forward != n_in:
            _fail(_t("check_pass_counts.4", name=name))
        if reverse != n_out:
            _fail(_t("check_pass_counts.5", name=name))
    mode = str(answer["gradient"]).strip().lower()
    if mode not in ("forward", "reverse"):
        _fail(_t("check_pass_counts.6"))
    if mode == "forward":
        _fail(_t("check_pass_counts.7"))
    return _ok(_t("check_pass_counts.8"))


@_answer_required
def check_jvp_column(answer: Any) -> None:
    """Notebook 11: column 2 of the Jacobian of f(x) = (x0·x1, sin x1 + x2) at (1, 2, 3), from one product."""
    if isinstance(answer, tuple):
        _fail(_t("check_jvp_column.1"))
    got = _values(answer, "answer")
    J = np.array([[2.0, 1.0, 0.0], [0.0, math.cos(2.0), 1.0]])
    if got.size == 3:
        if np.allclose(got, J[1]) or np.allclose(got, J[0]):
            _fail(_t("check_jvp_column.2"))
        _fail(_t("check_jvp_column.3"))
    if got.size == 2 and np.allclose(got, J[:, 1]):
        _fail(_t("check_jvp_column.4"))
    _close(answer, J[:, 2], "answer", _t("check_jvp_column.5"))
    return _ok(_t("check_jvp_column.6"))


# --------------------------------------------------------------------------
# 12 what the articles got wrong
# --------------------------------------------------------------------------


@_answer_required
def check_trap_optimizer(answer: Mapping[str, float]) -> None:
    """Notebook 12: w.grad after two backward calls of 3w, after optimizer.step() (lr 0.1), and w then."""
    answer = _mapping(answer, ["a", "b", "c"], "answer")
    a, b, c = (float(_values(answer[k], f"answer[{k!r}]")) for k in "abc")
    if math.isclose(a, 3.0):
        _fail(_t("check_trap_optimizer.1"))
    _close(a, 6.0, "answer['a']", _t("check_trap_optimizer.2"))
    if math.isclose(b, 0.0) or math.isclose(b, 12.0):
        _fail(_t("check_trap_optimizer.3"))
    _close(b, 6.0, "answer['b']", _t("check_trap_optimizer.4"))
    if math.isclose(c, 0.7):
        _fail(_t("check_trap_optimizer.5"))
    _close(c, 0.4, "answer['c']", _t("check_trap_optimizer.6"))
    return _ok(_t("check_trap_optimizer.7"))


@_answer_required
def check_trap_eval(answer: Mapping[str, bool]) -> None:
    """Notebook 12: requires_grad after eval() / in no_grad(); does dropout drop after eval() / in no_grad()."""
    answer = _mapping(answer, ["a", "b", "c", "d"], "answer")
    hints = {
        "a": _t("check_trap_eval.hint_a"),
        "b": _t("check_trap_eval.hint_b"),
        "c": _t("check_trap_eval.hint_c"),
        "d": _t("check_trap_eval.hint_d"),
    }
    for key, want in {"a": True, "b": False, "c": False, "d": True}.items():
        if not isinstance(answer[key], (bool, np.bool_)):
            _fail(_t("check_trap_eval.1", key=key))
        if bool(answer[key]) != want:
            _fail(_t("check_trap_eval.2", hints[key], key=key))
    return _ok(_t("check_trap_eval.3"))


@_answer_required
def check_trap_kinks(answer: Mapping[str, Any]) -> None:
    """Notebook 12: autograd's values at kinks: relu'(0), |x|'(0), sqrt'(0), the gradient of max([2, 2, 1])."""
    answer = _mapping(answer, ["relu", "abs", "sqrt", "max"], "answer")
    for name in ("relu", "abs"):
        got = float(_values(answer[name], f"answer[{name!r}]"))
        if math.isnan(got):
            _fail(_t("check_trap_kinks.1", name=name))
        if not math.isclose(got, 0.0, abs_tol=1e-9):
            _fail(_t("check_trap_kinks.2", -1 if name == 'abs' else 0, name=name))
    sqrt = float(_values(answer["sqrt"], "answer['sqrt']"))
    if not math.isinf(sqrt):
        _fail(_t("check_trap_kinks.3"))
    got = _values(answer["max"], "answer['max']")
    if got.size == 3 and (np.allclose(got, [1, 0, 0]) or np.allclose(got, [0, 1, 0])):
        _fail(_t("check_trap_kinks.4"))
    if got.size == 3 and np.allclose(got, [1, 1, 0]):
        _fail(_t("check_trap_kinks.5"))
    _close(got, [0.5, 0.5, 0.0], "answer['max']", _t("check_trap_kinks.6"))
    return _ok(_t("check_trap_kinks.7"))


@_answer_required
def check_trap_broadcast(answer: Any) -> None:
    """Notebook 12: b.grad for (ones(5, 3) @ ones(3, 2) + b).sum(), b of shape (2,)."""
    got = _values(answer, "answer")
    if got.size == 10:
        _fail(_t("check_trap_broadcast.1"))
    if got.size == 2 and np.allclose(got, 1.0):
        _fail(_t("check_trap_broadcast.2"))
    if got.size == 2 and np.allclose(got, 3.0):
        _fail(_t("check_trap_broadcast.3"))
    _close(answer, [5.0, 5.0], "answer", _t("check_trap_broadcast.4"))
    return _ok(_t("check_trap_broadcast.5"))


# --------------------------------------------------------------------------
# the checks' messages, English and Chinese
# --------------------------------------------------------------------------

#: Every text a check shows the learner, key -> (English, Chinese). A key is the function that shows
#: it, numbered in order (``check_mm_fix.3``), or ``<check>.hint_<item>`` for a quiz's hints;
#: ``{name}`` / ``{0}`` placeholders are filled by :func:`_t`. Terms follow notebooks/zh/术语表.md.
MESSAGES: dict[str, tuple[str, str]] = {
    # what a message calls the learner's value ({what}), where it is not a name from the code
    "label.gradient": ("gradient", "梯度"),
    "label.prediction": ("prediction", "预测"),
    "label.returned_loss": ("the returned loss", "返回的损失"),
    "label.passes": ("passes", "传播次数"),
    "label.jacobian": ("the Jacobian", "雅可比矩阵"),
    "still_open": (
        "✎ Still open ({0}): replace the `...` in this cell with your answer, then run it again.",
        "✎ 尚未完成（{0}）：把这个单元格里的 `...` 换成你的答案，然后再运行一次。",
    ),
    "needs_first": (
        "⏸ This cell needs {exercise} ({name}) solved first: finish it, then run this cell again.",
        "⏸ 这个单元格需要先完成{exercise}（{name}）：完成它，然后再运行这个单元格。",
    ),
    "not_yet": (
        "✘ Not yet: {value}",
        "✘ 还不对：{value}",
    ),
    "correct": (
        "✔ Correct. {message}",
        "✔ 正确。{message}",
    ),
    "_close.1": (
        "{what} should have {0} value(s) (shape {1}), but yours has {2} (shape {3}). {hint}",
        "{what} 应当有 {0} 个值（形状 {1}），但你的有 {2} 个（形状 {3}）。{hint}",
    ),
    "_close.2": (
        "{what} is not right yet: you have {0}. {hint}",
        "{what} 还不对：你得到的是 {0}。{hint}",
    ),
    "_values.1": (
        "{what} is None. Did you forget to fill it in (or is it the .grad of a non-leaf tensor?)",
        "{what} 是 None。你是不是忘了填写它（或者它是一个非叶子节点的 .grad）？",
    ),
    "_values.2": (
        "{what} is still `...`: replace it with your answer.",
        "{what} 仍然是 `...`：把它换成你的答案。",
    ),
    "_values.3": (
        "{what} should be a number, a list of numbers or a tensor, not {0}.",
        "{what} 应当是一个数、一个数的列表或一个张量，而不是 {0}。",
    ),
    "_mapping.1": (
        "{what} should be a dict with the keys {keys}.",
        "{what} 应当是一个字典，键为 {keys}。",
    ),
    "_mapping.2": (
        "{what} is missing the key(s) {missing}.",
        "{what} 缺少键 {missing}。",
    ),
    "_mapping.3": (
        "fill in {unfilled}: they are still `...`.",
        "请填写 {unfilled}：它们仍然是 `...`。",
    ),
    "check_requires_grad_table.1": (
        "answer[{name!r}] should be a pair (requires_grad, is_leaf), like (True, False).",
        "answer[{name!r}] 应当是一对 (requires_grad, is_leaf)，例如 (True, False)。",
    ),
    "check_requires_grad_table.2": (
        "requires_grad of {name} is wrong. A result requires grad when at least one input requires grad -- and "
        "detach() cuts the link to every input.",
        "{name} 的 requires_grad 不对。只要至少有一个输入要求梯度，结果就要求梯度——而 detach() 切断了与所有输入的联系"
        "。",
    ),
    "check_requires_grad_table.3": (
        "is_leaf of {name} is wrong. Every tensor that does not require grad is a leaf; one that requires grad is a "
        "leaf only if it has no grad_fn.",
        "{name} 的 is_leaf 不对。每个不要求梯度的张量都是叶子节点；要求梯度的张量只有在没有 grad_fn 时才是叶子节点。",
    ),
    "check_requires_grad_table.4": (
        "requires_grad flows forward from any input that requires it; detach() stops it, and a tensor without "
        "requires_grad is always a leaf.",
        "requires_grad 从任何要求梯度的输入向前传递；detach() 阻断它，而不要求梯度的张量总是叶子节点。",
    ),
    "check_next_functions.1": (
        "answer[{node!r}] should be a list of class names (strings) or None, one per input.",
        "answer[{node!r}] 应当是一个类名（字符串）或 None 的列表，每个输入一项。",
    ),
    "check_next_functions.2": (
        "answer[{node!r}] has {0} entries: next_functions holds one entry per input of the operation, even for an "
        "input that needs no gradient (that entry is (None, 0)).",
        "answer[{node!r}] 有 {0} 项：next_functions 为操作的每个输入保存一项，即使该输入不需要梯度（那一项是 (None, 0"
        ")）。",
    ),
    "check_next_functions.3": (
        "w.exp(): w does not require grad, so autograd recorded no node for exp -- its entry in next_functions is "
        "(None, 0).",
        "w.exp()：w 不要求梯度，所以自动求导没有为 exp 记录节点——它在 next_functions 中的那一项是 (None, 0)。",
    ),
    "check_next_functions.4": (
        "x * w: only x requires grad. w gets no AccumulateGrad node (no gradient is ever sent to it), so its entry "
        "is (None, 0).",
        "x * w：只有 x 要求梯度。w 没有 AccumulateGrad 节点（从来没有梯度发给它），所以它的那一项是 (None, 0)。",
    ),
    "check_next_functions.5": (
        "answer[{node!r}] has the right entries in the wrong order: next_functions follows the order of the "
        "operation's arguments.",
        "answer[{node!r}] 的各项对了，但顺序不对：next_functions 按操作参数的顺序排列。",
    ),
    "check_next_functions.6": (
        "t = (...).sum(): the sum's only input is the result of the addition.",
        "t = (...).sum()：求和唯一的输入是加法的结果。",
    ),
    "check_next_functions.7": (
        "answer[{node!r}] is not right yet. An input computed by a recorded operation points to that operation's "
        "node, a leaf that requires grad to its AccumulateGrad, anything else is None.",
        "answer[{node!r}] 还不对。由被记录的操作算出的输入指向那个操作的节点，要求梯度的叶子节点指向它的 AccumulateGr"
        "ad，其余都是 None。",
    ),
    "check_next_functions.8": (
        "next_functions has one entry per input; inputs that need no gradient are (None, 0), and a leaf that "
        "requires grad enters through its AccumulateGrad.",
        "next_functions 每个输入一项；不需要梯度的输入是 (None, 0)，要求梯度的叶子节点经由它的 AccumulateGrad 进入计"
        "算图。",
    ),
    "check_accumulate_grad.1": (
        "answer is empty: start from loss.grad_fn and follow .next_functions (pairs of (node, index)).",
        "答案是空的：从 loss.grad_fn 出发，沿 .next_functions（(节点, 下标) 对）走。",
    ),
    "check_accumulate_grad.2": (
        "that is a (node, input_nr) pair from next_functions; take its first element.",
        "这是 next_functions 里的一个 (node, input_nr) 对；取它的第一个元素。",
    ),
    "check_accumulate_grad.3": (
        "that is a {0}, not the AccumulateGrad node. Keep following next_functions toward the inputs.",
        "这是一个 {0}，不是 AccumulateGrad 节点。继续沿 next_functions 朝输入的方向走。",
    ),
    "check_accumulate_grad.4": (
        "that AccumulateGrad belongs to another leaf: look at its .variable.",
        "这个 AccumulateGrad 属于另一个叶子节点：看看它的 .variable。",
    ),
    "check_accumulate_grad.5": (
        "a leaf that requires grad enters the graph through its AccumulateGrad node; node.variable is the leaf "
        "itself.",
        "要求梯度的叶子节点经由它的 AccumulateGrad 节点进入计算图；node.variable 就是这个叶子节点本身。",
    ),
    "check_hand_gradients.1": (
        "ds/dz: s = r*r uses r twice, so ds/dr = r + r, not r.",
        "ds/dz：s = r*r 用了 r 两次，所以 ds/dr = r + r，而不是 r。",
    ),
    "check_hand_gradients.2": (
        "Start with ds/dr (r appears twice in r*r), then dr/dz = 1.",
        "先求 ds/dr（r 在 r*r 中出现两次），再乘 dr/dz = 1。",
    ),
    "check_hand_gradients.3": (
        "ds/dx = ds/dr · dr/dq · dq/dx, and dq/dx = y.",
        "ds/dx = ds/dr · dr/dq · dq/dx，而 dq/dx = y。",
    ),
    "check_hand_gradients.4": (
        "ds/dy = ds/dr · dr/dq · dq/dy, and dq/dy = x.",
        "ds/dy = ds/dr · dr/dq · dq/dy，而 dq/dy = x。",
    ),
    "check_hand_gradients.5": (
        "the chain rule multiplies local derivatives along the path, and r*r sends r two contributions that add up.",
        "链式法则沿路径把局部导数相乘，而 r*r 给 r 送来两份贡献，它们相加。",
    ),
    "check_edge_gradients.1": (
        "s → r: -4 is the *sum* that arrives at r. Each edge carries one factor's share: for s = r·r the edge of the "
        "first factor carries grad · (the other factor) = 1 · r.",
        "s → r：-4 是到达 r 的*总和*。每条边只携带一个因子的那一份：对 s = r·r，第一个因子的边携带 grad · (另一个因子"
        ") = 1 · r。",
    ),
    "check_edge_gradients.2": (
        "{key}: a product sends the incoming gradient (ds/ds = 1) times the other factor, and the other factor of "
        "r·r is r = -2.",
        "{key}：乘积发出的是传入的梯度（ds/ds = 1）乘以另一个因子，而 r·r 的另一个因子是 r = -2。",
    ),
    "check_edge_gradients.3": (
        "r → q / r → z: the addition receives the sum of both edges into r (-2 + -2), then passes it on unchanged to "
        "each input.",
        "r → q / r → z：加法接收的是进入 r 的两条边之和（-2 + -2），然后原样传给每个输入。",
    ),
    "check_edge_gradients.4": (
        "{key}: an addition passes the gradient that arrived at r on unchanged, to each input.",
        "{key}：加法把到达 r 的梯度原样传给每个输入。",
    ),
    "check_edge_gradients.5": (
        "q → x and q → y are swapped: the gradient to x is the incoming one times y (the other factor).",
        "q → x 和 q → y 弄反了：给 x 的梯度是传入的梯度乘以 y（另一个因子）。",
    ),
    "check_edge_gradients.6": (
        "q → x: q = x·y, so it sends (gradient arriving at q) · y.",
        "q → x：q = x·y，所以它发出 (到达 q 的梯度) · y。",
    ),
    "check_edge_gradients.7": (
        "q → y: q = x·y, so it sends (gradient arriving at q) · x.",
        "q → y：q = x·y，所以它发出 (到达 q 的梯度) · x。",
    ),
    "check_edge_gradients.8": (
        "each edge carries its own share; the shares meet and add up at the node they enter.",
        "每条边携带自己的那一份；这些份额在它们进入的节点处汇合并相加。",
    ),
    "check_leaves_function.1": (
        "leaves(t) returned None: return a list.",
        "leaves(t) 返回了 None：请返回一个列表。",
    ),
    "check_leaves_function.2": (
        "your list contains None: skip the (None, 0) entries of next_functions.",
        "你的列表里有 None：跳过 next_functions 中的 (None, 0) 项。",
    ),
    "check_leaves_function.3": (
        "return the tensors (node.variable), not the AccumulateGrad nodes.",
        "返回张量（node.variable），而不是 AccumulateGrad 节点。",
    ),
    "check_leaves_function.4": (
        "a leaf appears more than once: keep a set of the nodes you have already seen.",
        "有一个叶子节点出现了不止一次：用一个集合记住已经访问过的节点。",
    ),
    "check_leaves_function.5": (
        "c does not require grad, so it is not in the graph at all -- how did it get in your list?",
        "c 不要求梯度，所以它根本不在计算图里——它是怎么进到你的列表里的？",
    ),
    "check_leaves_function.6": (
        "expected the 2 leaves that require grad, got {0} tensor(s). Walk every entry of every node's "
        "next_functions, not only the first one.",
        "应当得到 2 个要求梯度的叶子节点，你得到了 {0} 个张量。遍历每个节点 next_functions 的每一项，而不只是第一项。",
    ),
    "check_leaves_function.7": (
        "walking next_functions reaches every AccumulateGrad, and .variable is its leaf.",
        "遍历 next_functions 能到达每个 AccumulateGrad，而 .variable 就是它的叶子节点。",
    ),
    "check_mul_rule.1": (
        "return a pair: (gradient for the first input, gradient for the second input).",
        "返回一对：(第一个输入的梯度, 第二个输入的梯度)。",
    ),
    "check_mul_rule.2": (
        "close: you forgot to multiply by the incoming gradient (the chain rule).",
        "很接近了：你忘了乘以传入的梯度（链式法则）。",
    ),
    "check_mul_rule.3": (
        "the two gradients are swapped: d(a·b)/da is b.",
        "两个梯度弄反了：d(a·b)/da 是 b。",
    ),
    "check_mul_rule.4": (
        "not yet: for out = a·b the gradient to a is grad · b (node._saved_other), to b it is grad · a "
        "(node._saved_self).",
        "还不对：对 out = a·b，给 a 的梯度是 grad · b（node._saved_other），给 b 的是 grad · a（node._saved_self）。",
    ),
    "check_mul_rule.5": (
        "a MulBackward0 node multiplies the incoming gradient by the *other* factor, which it saved at forward time.",
        "MulBackward0 节点把传入的梯度乘以*另一个*因子，这个因子是它在前向传播时保存的。",
    ),
    "check_vjp.1": (
        "x has 3 entries, so x.grad has 3: the result is vᵀJ, a row of length 3.",
        "x 有 3 个元素，所以 x.grad 也有 3 个：结果是 vᵀJ，一个长度为 3 的行。",
    ),
    "check_vjp.2": (
        "that is the gradient for v = [1, 1] (i.e. f(x).sum()); weight the rows of J by v.",
        "这是 v = [1, 1] 时的梯度（即 f(x).sum()）；要用 v 给 J 的各行加权。",
    ),
    "check_vjp.3": (
        "you used only the first row of J; v weights both rows.",
        "你只用了 J 的第一行；v 给两行都加了权。",
    ),
    "check_vjp.4": (
        "Write J (2×3) first, then multiply: vᵀJ = 1·row₀ + 10·row₁.",
        "先写出 J（2×3），再相乘：vᵀJ = 1·第₀行 + 10·第₁行。",
    ),
    "check_vjp.5": (
        "backward(v) computes vᵀJ without ever building J.",
        "backward(v) 计算 vᵀJ，而从不构建 J。",
    ),
    "check_jacobian_function.1": (
        "for {what}: {error}. The x you get need not require grad: make your own leaf that does, e.g. x = "
        "x.detach().requires_grad_().",
        "对 {what}：{error}。你拿到的 x 不一定要求梯度：自己做一个要求梯度的叶子节点，例如 x = x.detach().requires_gr"
        "ad_()。",
    ),
    "check_jacobian_function.2": (
        "for {what}: the second backward found the graph freed. Pass retain_graph=True to every backward but the "
        "last (or to all).",
        "对 {what}：第二次反向传播发现计算图已被释放。除最后一次外，每次 backward 都传入 retain_graph=True（或者全都"
        "传）。",
    ),
    "check_jacobian_function.3": (
        "for {what} your function raised RuntimeError: {error}",
        "对 {what}，你的函数抛出了 RuntimeError：{error}",
    ),
    "check_jacobian_function.4": (
        "for {what} your function raised {0}: {error}. Does it assume as many outputs as inputs? Take m from f(x), n "
        "from x.",
        "对 {what}，你的函数抛出了 {0}：{error}。它是不是假定输出和输入一样多？m 从 f(x) 取，n 从 x 取。",
    ),
    "check_jacobian_function.5": (
        "jacobian_rows returned None: return the stacked rows, e.g. torch.stack(rows).",
        "jacobian_rows 返回了 None：请返回堆叠起来的各行，例如 torch.stack(rows)。",
    ),
    "check_jacobian_function.6": (
        "for {what} you returned the transpose ({n}×{m}): row i must be the gradient of output i.",
        "对 {what}，你返回的是转置（{n}×{m}）：第 i 行必须是输出 i 的梯度。",
    ),
    "check_jacobian_function.7": (
        "for {what} the Jacobian should be {m}×{n}; yours has shape {0}. One row per output, one column per input.",
        "对 {what}，雅可比矩阵应当是 {m}×{n}；你的形状是 {0}。每个输出一行，每个输入一列。",
    ),
    "check_jacobian_function.8": (
        "for {what} row i holds rows 0..i added up: .grad accumulates, so reset x.grad (x.grad = None) before each "
        "backward.",
        "对 {what}，第 i 行是第 0..i 行的累加：.grad 会累加，所以每次 backward 之前都要重置 x.grad（x.grad = None）。",
    ),
    "check_jacobian_function.9": (
        "for {what} every row equals the last one: the rows share one tensor (x.grad.zero_() reuses it). Store "
        "x.grad.clone(), or set x.grad = None before each backward.",
        "对 {what}，每一行都等于最后一行：这些行共用一个张量（x.grad.zero_() 会复用它）。保存 x.grad.clone()，或者在"
        "每次 backward 之前设 x.grad = None。",
    ),
    "check_jacobian_function.10": (
        "for {what} the Jacobian is not right yet: you have {0}. Row i is x.grad after f(x).backward(e_i), with e_i "
        "the one-hot seed for output i.",
        "对 {what}，雅可比矩阵还不对：你得到的是 {0}。第 i 行是 f(x).backward(e_i) 之后的 x.grad，e_i 是输出 i 的 one"
        "-hot 初始梯度。",
    ),
    "check_jacobian_function.11": (
        "one backward per output, with a one-hot seed: m backward passes give the m×n Jacobian.",
        "每个输出一次反向传播，配一个 one-hot 初始梯度：m 次反向传播给出 m×n 的雅可比矩阵。",
    ),
    "check_mm_fix.1": (
        "define x again so that it is a leaf of shape (1, 2).",
        "重新定义 x，使它成为一个形状为 (1, 2) 的叶子节点。",
    ),
    "check_mm_fix.2": (
        "x is still not a leaf (its grad_fn is {0}). Create it with the final shape and requires_grad=True, or call "
        "requires_grad_() after view().",
        "x 仍然不是叶子节点（它的 grad_fn 是 {0}）。直接以最终形状和 requires_grad=True 创建它，或者在 view() 之后调"
        "用 requires_grad_()。",
    ),
    "check_mm_fix.3": (
        "x has shape {0}; torch.mm needs (1, 2).",
        "x 的形状是 {0}；torch.mm 需要 (1, 2)。",
    ),
    "check_mm_fix.4": (
        "x is a leaf now, but x.grad is None: did you run z = torch.mm(x, y) and z.backward(torch.tensor([[1., "
        "0.]])) with this x?",
        "x 现在是叶子节点了，但 x.grad 是 None：你是否用这个 x 运行了 z = torch.mm(x, y) 和 z.backward(torch.tensor(["
        "[1., 0.]]))？",
    ),
    "check_mm_fix.5": (
        "Did you call backward more than once? Gradients accumulate; set x.grad = None and run it once.",
        "你是不是调用了不止一次 backward？梯度会累加；设 x.grad = None，只运行一次。",
    ),
    "check_mm_fix.6": (
        "y.grad accumulates too: recreate y or set y.grad = None.",
        "y.grad 也会累加：重新创建 y，或设 y.grad = None。",
    ),
    "check_mm_fix.7": (
        "a tensor made by view() is not a leaf; make the leaf with its final shape and its .grad fills in.",
        "view() 得到的张量不是叶子节点；以最终形状创建叶子节点，它的 .grad 就会被填上。",
    ),
    "check_accumulated_grad.1": (
        "5 is only the second call's gradient: backward adds into .grad, it does not overwrite it.",
        "5 只是第二次调用的梯度：backward 会累加到 .grad 上，而不是覆盖它。",
    ),
    "check_accumulated_grad.2": (
        "6 is only the first call's gradient: the second backward adds its own.",
        "6 只是第一次调用的梯度：第二次 backward 会加上它自己的那一份。",
    ),
    "check_accumulated_grad.3": (
        "Add the two calls' gradients: d(x²)/dx at 3, plus d(5x)/dx.",
        "把两次调用的梯度相加：x = 3 处的 d(x²)/dx，加上 d(5x)/dx。",
    ),
    "check_accumulated_grad.4": (
        "Two backward calls, two contributions: 2·x = 6 from x**2, plus 5 from 5*x.",
        "两次 backward 调用，两份贡献：x**2 给出 2·x = 6，5*x 给出 5。",
    ),
    "check_norm_clip_hook.1": (
        "your hook changed grad in place (clamp_, div_, mul_, ... or grad[...] = ...). A hook must not modify its "
        "argument: compute a new tensor and return it.",
        "你的钩子原地修改了 grad（clamp_、div_、mul_……或 grad[...] = ...）。钩子不能修改它的参数：计算一个新张量并返"
        "回它。",
    ),
    "check_norm_clip_hook.2": (
        "your hook returned None, so the gradient went on unchanged: return the new gradient.",
        "你的钩子返回了 None，所以梯度原样传了下去：请返回新的梯度。",
    ),
    "check_norm_clip_hook.3": (
        "a gradient of {arriving} came out as nan: for a zero (or short) gradient there is nothing to rescale -- "
        "divide only when the norm is above 1.",
        "梯度 {arriving} 变成了 nan：零梯度（或较短的梯度）没有什么可缩放的——只在范数大于 1 时才做除法。",
    ),
    "check_norm_clip_hook.4": (
        "you clipped each entry to [-1, 1]: that changes the gradient's direction. Clipping by norm divides the "
        "whole vector by its length.",
        "你把每一项都截断到了 [-1, 1]：这会改变梯度的方向。按范数裁剪是把整个向量除以它的长度。",
    ),
    "check_norm_clip_hook.5": (
        "a gradient already shorter than 1 (norm 0.5) was stretched to length 1: leave short gradients as they are.",
        "一个本来就短于 1 的梯度（范数 0.5）被拉长到了长度 1：短的梯度应保持原样。",
    ),
    "check_norm_clip_hook.6": (
        "for a gradient {arriving} (norm {0:g}) your hook sent on {1}. Above norm 1: grad / grad.norm(); otherwise "
        "grad itself.",
        "对梯度 {arriving}（范数 {0:g}），你的钩子传下去的是 {1}。范数大于 1 时：grad / grad.norm()；否则就是 grad 本"
        "身。",
    ),
    "check_norm_clip_hook.7": (
        "a hook sees the gradient arriving at the tensor and returns a replacement: here the same direction, at most "
        "length 1.",
        "钩子看到到达张量的梯度，并返回一个替代值：这里方向不变，长度至多为 1。",
    ),
    "check_autograd_grad_paths.1": (
        "prediction: 96 is only the path through h (2h · b). loss = h² + a also uses a directly, and the two paths "
        "add up.",
        "预测：96 只是经过 h 的那条路径（2h · b）。loss = h² + a 还直接用到了 a，两条路径相加。",
    ),
    "check_autograd_grad_paths.2": (
        "prediction: 1 is only the direct path (the '+ a'); a also reaches loss through h = a·b.",
        "预测：1 只是直接路径（那个 '+ a'）；a 还经由 h = a·b 到达 loss。",
    ),
    "check_autograd_grad_paths.3": (
        "prediction: follow both paths from loss to a -- through h (2h times dh/da = b) and directly -- and add them.",
        "预测：沿从 loss 到 a 的两条路径走——经过 h（2h 乘以 dh/da = b）和直接的那条——然后相加。",
    ),
    "check_autograd_grad_paths.4": (
        "answer: one torch.autograd.grad call with the inputs [h, a, b] returns a tuple of three gradients.",
        "answer：以 [h, a, b] 为输入调用一次 torch.autograd.grad，返回一个由三个梯度组成的元组。",
    ),
    "check_autograd_grad_paths.5": (
        "a.grad is not None: autograd.grad does not touch .grad, so something called backward(). Run the cells again "
        "from the top, using only torch.autograd.grad.",
        "a.grad 不是 None：autograd.grad 不碰 .grad，所以有什么地方调用了 backward()。从头重新运行这些单元格，只用 to"
        "rch.autograd.grad。",
    ),
    "check_autograd_grad_paths.6": (
        "dloss/da came out as 1: only the direct path. Did you detach h, or build h outside the graph?",
        "dloss/da 得到的是 1：只有直接路径。你是不是 detach 了 h，或者在计算图之外构建了 h？",
    ),
    "check_autograd_grad_paths.7": (
        "dloss/dh = {dh:g}: for loss = h² + a it is 2h. Is h the same tensor that loss was computed from?",
        "dloss/dh = {dh:g}：对 loss = h² + a，它是 2h。h 是计算 loss 所用的那个张量吗？",
    ),
    "check_autograd_grad_paths.8": (
        "Compute loss from a and b in the same cell, then grad w.r.t. [h, a, b].",
        "在同一个单元格里由 a 和 b 计算 loss，然后对 [h, a, b] 求 grad。",
    ),
    "check_autograd_grad_paths.9": (
        "dloss/db = 2h · a.",
        "dloss/db = 2h · a。",
    ),
    "check_autograd_grad_paths.10": (
        "autograd.grad accepts non-leaf inputs; asking for h's gradient does not stop the flow to a, and a's two "
        "paths add up: 2h·b + 1 = 97.",
        "autograd.grad 接受非叶子节点作为输入；求 h 的梯度并不会阻断流向 a 的梯度，a 的两条路径相加：2h·b + 1 = 97。",
    ),
    "check_tracking_quiz.hint_a": (
        "a is computed inside no_grad: nothing is recorded there.",
        "a 是在 no_grad 内计算的：那里什么都不记录。",
    ),
    "check_tracking_quiz.hint_b": (
        "a factory with requires_grad=True makes a leaf that requires grad, even under no_grad.",
        "带 requires_grad=True 的工厂函数创建一个要求梯度的叶子节点，即使在 no_grad 之下也是如此。",
    ),
    "check_tracking_quiz.hint_c": (
        "enable_grad() switches recording back on inside a no_grad block.",
        "enable_grad() 在 no_grad 块内重新打开记录。",
    ),
    "check_tracking_quiz.hint_d": (
        "detach() returns a tensor outside the graph.",
        "detach() 返回一个在计算图之外的张量。",
    ),
    "check_tracking_quiz.hint_e": (
        "set_grad_enabled(False), called as a function, switches recording off until switched on again.",
        "set_grad_enabled(False) 作为函数调用时关闭记录，直到再次打开为止。",
    ),
    "check_tracking_quiz.hint_f": (
        "requires_grad_() turns on tracking for a leaf.",
        "requires_grad_() 为叶子节点打开追踪。",
    ),
    "check_tracking_quiz.1": (
        "{name} is wrong. Hint: {0}",
        "{name} 不对。提示：{0}",
    ),
    "check_tracking_quiz.2": (
        "grad mode decides whether operations are recorded; detach() and requires_grad_() change single tensors.",
        "梯度模式决定操作是否被记录；detach() 和 requires_grad_() 改变的是单个张量。",
    ),
    "check_frozen_model.1": (
        "pass the nn.Sequential model.",
        "请传入 nn.Sequential 模型。",
    ),
    "check_frozen_model.2": (
        "the last layer should be a new nn.Linear with {n_classes} outputs (it has {0}). Replace it: model[-1] = "
        "nn.Linear(...).",
        "最后一层应当是一个有 {n_classes} 个输出的新 nn.Linear（它现在有 {0} 个）。替换它：model[-1] = nn.Linear(...)"
        "。",
    ),
    "check_frozen_model.3": (
        "the new last layer's {name} does not require grad: it is the part we want to train.",
        "新的最后一层的 {name} 不要求梯度：它正是我们要训练的部分。",
    ),
    "check_frozen_model.4": (
        "a parameter of {0} ({name}) still requires grad: freeze every layer but the last.",
        "{0} 的一个参数（{name}）仍然要求梯度：除最后一层外，冻结每一层。",
    ),
    "check_frozen_model.5": (
        "only the new head trains; the frozen layers' parameters stay out of the graph.",
        "只有新的输出层在训练；被冻结的层的参数不进入计算图。",
    ),
    "check_inplace_quiz.hint_A": (
        "x is a leaf that requires grad.",
        "x 是一个要求梯度的叶子节点。",
    ),
    "check_inplace_quiz.hint_B": (
        "what does an addition need to save for its backward?",
        "加法的反向传播需要保存什么？",
    ),
    "check_inplace_quiz.hint_C": (
        "exp() saves its *output* for backward (d eˣ/dx = eˣ).",
        "exp() 为反向传播保存的是它的*输出*（d eˣ/dx = eˣ）。",
    ),
    "check_inplace_quiz.hint_D": (
        "this runs under no_grad, on a leaf: the classic SGD update.",
        "这是在 no_grad 之下对叶子节点运行的：经典的 SGD 更新。",
    ),
    "check_inplace_quiz.hint_E": (
        "multiplication saves its inputs, and h is an input of h * h.",
        "乘法保存它的输入，而 h 是 h * h 的输入。",
    ),
    "check_inplace_quiz.1": (
        "answer[{key!r}] should be 'ok' or 'error'.",
        "answer[{key!r}] 应当是 'ok' 或 'error'。",
    ),
    "check_inplace_quiz.2": (
        "snippet {key} is wrong. Hint: {0}",
        "代码段 {key} 不对。提示：{0}",
    ),
    "check_inplace_quiz.3": (
        "in-place is a problem only where a value saved for backward is overwritten (or on a leaf that requires "
        "grad).",
        "只有当为反向传播保存的值被覆盖时（或者对要求梯度的叶子节点），原地操作才是个问题。",
    ),
    "check_inplace_repair.1": (
        "culprit should be one of the two in-place lines, written as in the code: \"y += 1\" or \"h *= 2\".",
        "culprit 应当是两行原地操作之一，按代码里的写法：\"y += 1\" 或 \"h *= 2\"。",
    ),
    "check_inplace_repair.2": (
        "culprit: y is the output of h * 3, and MulBackward0 saves a factor only when the *other* factor needs a "
        "gradient -- 3 does not, so nothing saved y or h there. Which node saved its output?",
        "culprit：y 是 h * 3 的输出，而 MulBackward0 只在*另一个*因子需要梯度时才保存一个因子——3 不需要，所以那里没有"
        "谁保存 y 或 h。哪个节点保存了它的输出？",
    ),
    "check_inplace_repair.3": (
        "x_grad: that is the gradient of 3·tanh x + 1 + tanh x -- the doubling of h is gone. Keep it, out of place: "
        "h = h * 2.",
        "x_grad：这是 3·tanh x + 1 + tanh x 的梯度——h 的翻倍不见了。保留它，改成非原地：h = h * 2。",
    ),
    "check_inplace_repair.4": (
        "x_grad: the gradient through h was cut (detach()?). h * 2 must stay in the graph.",
        "x_grad：经过 h 的梯度被切断了（detach()？）。h * 2 必须留在计算图里。",
    ),
    "check_inplace_repair.5": (
        "x_grad: .data hid the change from autograd, so TanhBackward0 used the overwritten output 2·tanh x: no "
        "error, but a wrong gradient. Repair it out of place: h = h * 2.",
        "x_grad：.data 把修改藏了起来，不让自动求导看见，于是 TanhBackward0 用了被覆盖的输出 2·tanh x：没有报错，但梯"
        "度错了。用非原地操作修复：h = h * 2。",
    ),
    "check_inplace_repair.6": (
        "loss = Σ(3·tanh x + 1 + 2·tanh x), so d loss/dx = 5·(1 − tanh²x). Did you run backward twice? Rebuild x and "
        "run once.",
        "loss = Σ(3·tanh x + 1 + 2·tanh x)，所以 d loss/dx = 5·(1 − tanh²x)。你是不是运行了两次 backward？重建 x，只"
        "运行一次。",
    ),
    "check_inplace_repair.7": (
        "only the in-place change of a *saved* value breaks backward; an out-of-place h = h * 2 keeps the saved "
        "output intact.",
        "只有对*被保存的*值做原地修改才会破坏反向传播；非原地的 h = h * 2 让保存的输出保持不变。",
    ),
    "check_penalty_gradient.1": (
        "that is dP/dx, the gradient with respect to the input. The penalty trains the weights: differentiate P with "
        "respect to w.",
        "这是 dP/dx，对输入的梯度。惩罚项训练的是权重：对 w 求 P 的导数。",
    ),
    "check_penalty_gradient.2": (
        "that is the gradient of the norm ||df/dx||, not of its square: P = (df_dx**2).sum().",
        "这是范数 ||df/dx|| 的梯度，而不是它的平方的梯度：P = (df_dx**2).sum()。",
    ),
    "check_penalty_gradient.3": (
        "that is df/dx (or its square), the inside of the penalty. Build P from it, then take a second gradient, of "
        "P with respect to w.",
        "这是 df/dx（或它的平方），惩罚项的内部。用它构建 P，然后再求一次梯度：P 对 w 的梯度。",
    ),
    "check_penalty_gradient.4": (
        "that is a first derivative of f. P is the squared length of df/dx: compute df/dx with create_graph=True, "
        "then P, then grad(P, w).",
        "这是 f 的一阶导数。P 是 df/dx 长度的平方：用 create_graph=True 计算 df/dx，然后算 P，再求 grad(P, w)。",
    ),
    "check_penalty_gradient.5": (
        "df_dx = grad(f, x, create_graph=True); P = (df_dx**2).sum(); then grad(P, w).",
        "df_dx = grad(f, x, create_graph=True)；P = (df_dx**2).sum()；然后 grad(P, w)。",
    ),
    "check_penalty_gradient.6": (
        "the penalty is a function of a gradient: create_graph=True made that gradient a graph in w, and the second "
        "backward walked it.",
        "惩罚项是一个梯度的函数：create_graph=True 让这个梯度成为一张关于 w 的计算图，第二次反向传播遍历了它。",
    ),
    "check_newton_minimum.1": (
        "f'(x) = {d1:.4g} at your x: not a stationary point yet. Run more Newton steps x ← x - f'(x)/f''(x), and "
        "update x under no_grad.",
        "在你的 x 处 f'(x) = {d1:.4g}：还不是驻点。再多做几步牛顿迭代 x ← x - f'(x)/f''(x)，并在 no_grad 之下更新 x。",
    ),
    "check_newton_minimum.2": (
        "f'(x) = 0 there, but f''(x) < 0: that is a maximum.",
        "那里 f'(x) = 0，但 f''(x) < 0：那是一个极大值点。",
    ),
    "check_newton_minimum.3": (
        "that is a minimum, but not the one Newton's method reaches from x = 2.",
        "这是一个极小值点，但不是牛顿法从 x = 2 出发到达的那个。",
    ),
    "check_newton_minimum.4": (
        "Newton's method needs f'' too -- a second backward through the derivative's graph.",
        "牛顿法还需要 f''——沿导数的计算图再做一次反向传播。",
    ),
    "check_doubling_loop.1": (
        "you missed one: the first y = x * 2 before the loop is a multiplication too.",
        "你漏了一次：循环之前的第一个 y = x * 2 也是一次乘法。",
    ),
    "check_doubling_loop.2": (
        "{n} multiplications is not right. ‖x‖ = 3; count how many doublings it takes until the norm reaches 1000 "
        "(and count the one before the loop).",
        "{n} 次乘法不对。‖x‖ = 3；数一数要翻倍多少次范数才能达到 1000（别忘了循环之前的那一次）。",
    ),
    "check_doubling_loop.3": (
        "Each multiplication by 2 multiplies the gradient by 2.",
        "每次乘以 2 都让梯度乘以 2。",
    ),
    "check_doubling_loop.4": (
        "the loop ran as many times as the data required, and the graph recorded every step.",
        "循环运行了数据所要求的次数，计算图记录了每一步。",
    ),
    "check_branch_grads.1": (
        "answer should be a dict {{x: df/dx}}.",
        "answer 应当是一个字典 {{x: df/dx}}。",
    ),
    "check_branch_grads.2": (
        "give df/dx at x = {x}.",
        "请给出 x = {x} 处的 df/dx。",
    ),
    "check_branch_grads.3": (
        "df/dx at x = {x} is wrong: which branch does Python take for that x? Autograd differentiates only the "
        "branch that ran.",
        "x = {x} 处的 df/dx 不对：对这个 x，Python 走的是哪个分支？自动求导只对实际运行的分支求导。",
    ),
    "check_branch_grads.4": (
        "only the branch that ran is in the graph, and 0 > 0 is False.",
        "只有实际运行的分支在计算图里，而 0 > 0 是 False。",
    ),
    "check_bce_bias_grad.1": (
        "almost: the loss is a *mean* over the outputs, so divide by their number.",
        "差一点：损失是对各个输出的*平均*，所以要除以输出的个数。",
    ),
    "check_bce_bias_grad.2": (
        "dloss/dz = (sigmoid(z) - y) / n, and dz/db = 1.",
        "dloss/dz = (sigmoid(z) - y) / n，而 dz/db = 1。",
    ),
    "check_bce_bias_grad.3": (
        "for BCE with logits the gradient is simply (σ(z) − y)/n -- that is why this loss is popular.",
        "对 BCE with logits，梯度就是简单的 (σ(z) − y)/n——这正是这个损失受欢迎的原因。",
    ),
    "_diagnose_steps.1": (
        "optimizer.step() was never called, so the parameters did not change: call it after loss.backward().",
        "optimizer.step() 从未被调用，所以参数没有变化：在 loss.backward() 之后调用它。",
    ),
    "_diagnose_steps.2": (
        "optimizer.step() ran before loss.backward(): the step used the gradients of an earlier batch (or none). "
        "Order: zero_grad, forward, loss, backward, step.",
        "optimizer.step() 在 loss.backward() 之前运行了：这一步用的是之前某个批次的梯度（或者没有梯度）。顺序是：zero"
        "_grad、前向传播、损失、backward、step。",
    ),
    "_diagnose_steps.3": (
        "optimizer.step() ran while every gradient was None or zero: zero_grad() ran between backward() and step() "
        "and wiped the gradients the step needs. Clear them at the start, before the forward pass.",
        "optimizer.step() 运行时所有梯度都是 None 或零：zero_grad() 在 backward() 和 step() 之间运行，清掉了这一步需"
        "要的梯度。在开头、前向传播之前清空它们。",
    ),
    "_diagnose_steps.4": (
        "optimizer.step() ran {0} times in one call: take a single step, after all the backward calls.",
        "一次调用里 optimizer.step() 运行了 {0} 次：在所有 backward 调用之后，只走一步。",
    ),
    "check_train_step.1": (
        "train_step should return the loss.",
        "train_step 应当返回损失。",
    ),
    "check_train_step.2": (
        "no gradient reached the parameters: call loss.backward() on the batch's loss.",
        "没有梯度到达参数：对这个批次的损失调用 loss.backward()。",
    ),
    "check_train_step.3": (
        "the second step's gradient is twice the first: gradients accumulated. Call optimizer.zero_grad() before "
        "loss.backward().",
        "第二步的梯度是第一步的两倍：梯度累加了。在 loss.backward() 之前调用 optimizer.zero_grad()。",
    ),
    "check_train_step.4": (
        "the gradients are not those of the batch's loss: compute loss = F.cross_entropy(model(xb), yb) and call "
        "loss.backward().",
        "这些梯度不是这个批次损失的梯度：计算 loss = F.cross_entropy(model(xb), yb)，并调用 loss.backward()。",
    ),
    "check_train_step.5": (
        "zero_grad → forward → loss → backward → step: each step uses this batch's gradient only.",
        "zero_grad → 前向传播 → 损失 → backward → step：每一步只用这个批次的梯度。",
    ),
    "check_accumulation_step.1": (
        "the step is right, but return the mean loss over all micro-batches ({mean_loss:.4f} here) as a float: add "
        "up each scaled loss.item().",
        "这一步是对的，但要把所有微批次上的平均损失（这里是 {mean_loss:.4f}）作为浮点数返回：把每个缩放后的 loss.item"
        "() 加起来。",
    ),
    "check_accumulation_step.2": (
        "backward adds into .grad, so k backward calls of loss/k and one step give the big batch's gradient; the "
        "optimizer only reads .grad.",
        "backward 会累加到 .grad 上，所以 k 次对 loss/k 的 backward 加上一步，就得到大批次的梯度；优化器只读取 .grad"
        "。",
    ),
    "check_accumulation_step.3": (
        "the step also used gradients left over from before the call: start with optimizer.zero_grad().",
        "这一步还用到了调用之前遗留的梯度：以 optimizer.zero_grad() 开始。",
    ),
    "check_accumulation_step.4": (
        "the step is {0} times too big: each micro-batch's loss is a mean over its own examples, so the sum of {1} "
        "of them is {2}× the big batch's mean. Divide each loss by the number of micro-batches.",
        "这一步大了 {0} 倍：每个微批次的损失是它自己样本上的平均，所以 {1} 个这样的损失之和是大批次平均值的 {2} 倍。"
        "把每个损失除以微批次的个数。",
    ),
    "check_accumulation_step.5": (
        "only the last micro-batch's gradient was used: zero_grad() inside the loop wipes the earlier ones. Clear "
        "once, before the loop.",
        "只用到了最后一个微批次的梯度：循环内的 zero_grad() 清掉了前面的梯度。在循环之前清空一次。",
    ),
    "check_accumulation_step.6": (
        "the step does not match one step with the whole batch's gradient. Per micro-batch: forward, loss / number "
        "of micro-batches, backward. Then a single step.",
        "这一步与用整个批次的梯度走一步不符。对每个微批次：前向传播，损失 / 微批次个数，backward。然后只走一步。",
    ),
    "check_gradient_reaches_input.1": (
        "fixed_net has {0} Linear layers; keep the depth: 6 hidden layers and the output layer, 7 in all "
        "(deep_net(..., depth=6)). A shallower network would dodge the question.",
        "fixed_net 有 {0} 个 Linear 层；保持深度：6 个隐藏层加输出层，共 7 个（deep_net(..., depth=6)）。更浅的网络会"
        "回避这个问题。",
    ),
    "check_gradient_reaches_input.2": (
        "the first layer gets {measured:.2f} × the last layer's gradient: it can learn.",
        "第一层得到的梯度是最后一层的 {measured:.2f} 倍：它能学习。",
    ),
    "check_gradient_reaches_input.3": (
        "the first layer gets only {measured:.1e} × the last layer's gradient: each sigmoid multiplies it by at most "
        "1/4 on the way back. Change the activation.",
        "第一层得到的梯度只有最后一层的 {measured:.1e} 倍：反向传播时每个 sigmoid 至多把它乘以 1/4。换一个激活函数。",
    ),
    "check_gradient_reaches_input.4": (
        "{measured:.2f} × the last layer's gradient: tanh' is at most 1, but below 1 almost everywhere, so the "
        "gradient still shrinks layer by layer. Try ReLU.",
        "最后一层梯度的 {measured:.2f} 倍：tanh' 至多为 1，但几乎处处小于 1，所以梯度仍然逐层缩小。试试 ReLU。",
    ),
    "check_gradient_reaches_input.5": (
        "{measured:.2f} × the last layer's gradient: better, but the default initialisation of nn.Linear still "
        "shrinks it layer by layer. Initialise the weights for ReLU (nn.init.kaiming_normal_(layer.weight, "
        "nonlinearity='relu')).",
        "最后一层梯度的 {measured:.2f} 倍：好一些了，但 nn.Linear 的默认初始化仍然让它逐层缩小。为 ReLU 初始化权重（n"
        "n.init.kaiming_normal_(layer.weight, nonlinearity='relu')）。",
    ),
    "_function_error.1": (
        "backward must return one gradient per input of forward, in order -- here two: the gradient for x, and None "
        "for the number k (it needs no gradient). (The engine said: {text})",
        "backward 必须为 forward 的每个输入按顺序返回一个梯度——这里是两个：x 的梯度，以及数 k 的 None（它不需要梯度）"
        "。（引擎的报错：{text}）",
    ),
    "_function_error.2": (
        "a gradient returned by backward has the wrong shape: each must have its input's shape. ({text})",
        "backward 返回的某个梯度形状不对：每个梯度必须与它的输入形状相同。（{text}）",
    ),
    "_function_error.3": (
        "backward raised RuntimeError: {text}",
        "backward 抛出了 RuntimeError：{text}",
    ),
    "check_softplus_function.1": (
        "pass the Function class itself (with forward and backward as @staticmethods).",
        "请传入 Function 类本身（forward 和 backward 都是 @staticmethod）。",
    ),
    "check_softplus_function.2": (
        "softplus(x) = log(1 + exp(x)).",
        "softplus(x) = log(1 + exp(x))。",
    ),
    "check_softplus_function.3": (
        "the output has no grad_fn: call the Function through .apply(x), not forward().",
        "输出没有 grad_fn：通过 .apply(x) 调用 Function，而不是调用 forward()。",
    ),
    "check_softplus_function.4": (
        "backward must multiply by the incoming gradient (grad_output).",
        "backward 必须乘以传入的梯度（grad_output）。",
    ),
    "check_softplus_function.5": (
        "d softplus/dx = sigmoid(x); return grad_output * sigmoid(x).",
        "d softplus/dx = sigmoid(x)；返回 grad_output * sigmoid(x)。",
    ),
    "check_softplus_function.6": (
        "gradcheck failed: the analytical and numerical Jacobians differ.",
        "gradcheck 失败：解析雅可比矩阵与数值雅可比矩阵不一致。",
    ),
    "check_softplus_function.7": (
        "forward and backward agree with finite differences (gradcheck passed).",
        "forward 与 backward 和有限差分一致（gradcheck 通过）。",
    ),
    "check_fixed_function.1": (
        "the forward was right to begin with: did you change it?",
        "forward 一开始就是对的：你改动它了吗？",
    ),
    "check_fixed_function.2": (
        "gradcheck still fails for k = {k}. d(k·x²)/dx = 2·k·x, times grad_output; and the non-tensor argument k "
        "gets None.",
        "k = {k} 时 gradcheck 仍然失败。d(k·x²)/dx = 2·k·x，再乘以 grad_output；非张量参数 k 得到 None。",
    ),
    "check_fixed_function.3": (
        "gradcheck passes for every k: the backward now matches the forward.",
        "对每个 k，gradcheck 都通过了：backward 现在与 forward 一致。",
    ),
    "check_pass_counts.1": (
        "answer[{name!r}] should be a dict {{'forward': passes, 'reverse': passes}}.",
        "answer[{name!r}] 应当是一个字典 {{'forward': 次数, 'reverse': 次数}}。",
    ),
    "check_pass_counts.2": (
        "fill in answer[{name!r}]: it still holds `...`.",
        "请填写 answer[{name!r}]：它里面仍然有 `...`。",
    ),
    "check_pass_counts.3": (
        "{name}: the two modes are swapped. Forward mode gets one *column* (one input) per pass, reverse mode one "
        "*row* (one output) per pass.",
        "{name}：两种模式弄反了。前向模式每次传播得到一*列*（一个输入），反向模式每次传播得到一*行*（一个输出）。",
    ),
    "check_pass_counts.4": (
        "{name}: forward mode needs one pass per input (a column of J each): how many inputs?",
        "{name}：前向模式每个输入需要一次传播（每次得到 J 的一列）：有多少个输入？",
    ),
    "check_pass_counts.5": (
        "{name}: reverse mode needs one pass per output (a row of J each): how many outputs?",
        "{name}：反向模式每个输出需要一次传播（每次得到 J 的一行）：有多少个输出？",
    ),
    "check_pass_counts.6": (
        "answer['gradient'] should be 'forward' or 'reverse'.",
        "answer['gradient'] 应当是 'forward' 或 'reverse'。",
    ),
    "check_pass_counts.7": (
        "answer['gradient']: a loss has one output and many inputs; which mode needs one pass per output?",
        "answer['gradient']：损失只有一个输出、却有很多输入；哪种模式是每个输出一次传播？",
    ),
    "check_pass_counts.8": (
        "a full Jacobian costs n forward passes or m backward passes; a loss (m = 1) needs one backward.",
        "完整的雅可比矩阵需要 n 次前向传播或 m 次反向传播；一个损失（m = 1）只需要一次反向传播。",
    ),
    "check_jvp_column.1": (
        "jvp and vjp return a pair (f(x), product): take the second element.",
        "jvp 和 vjp 返回一对 (f(x), 乘积)：取第二个元素。",
    ),
    "check_jvp_column.2": (
        "that is a row of J (a vjp: vᵀJ has one entry per input). Column 2 has one entry per output: how both "
        "outputs move when x2 moves -- a jvp, J·u.",
        "这是 J 的一行（一个 vjp：vᵀJ 每个输入一项）。第 2 列每个输出一项：只移动 x2 时两个输出怎样变化——这是一个 jvp"
        "，J·u。",
    ),
    "check_jvp_column.3": (
        "a column of J has one entry per output (2 here), not one per input.",
        "J 的一列每个输出一项（这里是 2 项），而不是每个输入一项。",
    ),
    "check_jvp_column.4": (
        "that is column 1 (the columns count from 0): the direction u must nudge x2 only, u = [0, 0, 1].",
        "这是第 1 列（列从 0 开始数）：方向 u 必须只轻推 x2，u = [0, 0, 1]。",
    ),
    "check_jvp_column.5": (
        "jvp(f, x0, u) with u = e₂ = [0, 0, 1] gives J·e₂, the column for x2.",
        "jvp(f, x0, u) 取 u = e₂ = [0, 0, 1]，得到 J·e₂，即 x2 对应的那一列。",
    ),
    "check_jvp_column.6": (
        "one jvp with u = e_j gives column j; one vjp with v = e_i gives row i.",
        "一次取 u = e_j 的 jvp 给出第 j 列；一次取 v = e_i 的 vjp 给出第 i 行。",
    ),
    "check_trap_optimizer.1": (
        "(a): backward adds into .grad even without any optimizer -- two calls, 3 + 3.",
        "(a)：即使没有任何优化器，backward 也会累加到 .grad 上——两次调用，3 + 3。",
    ),
    "check_trap_optimizer.2": (
        "Each (3 * w).backward() adds d(3w)/dw = 3 into w.grad.",
        "每次 (3 * w).backward() 都把 d(3w)/dw = 3 加到 w.grad 上。",
    ),
    "check_trap_optimizer.3": (
        "(b): step() only reads .grad; it neither clears it (zero_grad does) nor adds to it.",
        "(b)：step() 只读取 .grad；它既不清空它（那是 zero_grad 的事），也不往上加。",
    ),
    "check_trap_optimizer.4": (
        "What does step() do with .grad besides reading it?",
        "除了读取，step() 还对 .grad 做了什么？",
    ),
    "check_trap_optimizer.5": (
        "(c): the step uses the accumulated .grad, 6, not the gradient of one call.",
        "(c)：这一步用的是累加后的 .grad，即 6，而不是一次调用的梯度。",
    ),
    "check_trap_optimizer.6": (
        "SGD: w ← w − lr · w.grad.",
        "SGD：w ← w − lr · w.grad。",
    ),
    "check_trap_optimizer.7": (
        "backward accumulates; the optimizer reads .grad in step() and only zero_grad() clears it.",
        "backward 负责累加；优化器在 step() 中读取 .grad，只有 zero_grad() 清空它。",
    ),
    "check_trap_eval.hint_a": (
        "eval() switches layers to inference behaviour; does it tell autograd anything?",
        "eval() 把各层切换到推理时的行为；它告诉自动求导什么了吗？",
    ),
    "check_trap_eval.hint_b": (
        "no_grad() stops recording, whatever the layers do.",
        "no_grad() 停止记录，不管各层做什么。",
    ),
    "check_trap_eval.hint_c": (
        "in eval mode Dropout passes everything through.",
        "在 eval 模式下，Dropout 让所有值通过。",
    ),
    "check_trap_eval.hint_d": (
        "no_grad() does not touch module.training: the model is still in training mode.",
        "no_grad() 不碰 module.training：模型仍处于训练模式。",
    ),
    "check_trap_eval.1": (
        "answer[{key!r}] should be True or False.",
        "answer[{key!r}] 应当是 True 或 False。",
    ),
    "check_trap_eval.2": (
        "({key}) is wrong. {0}",
        "({key}) 不对。{0}",
    ),
    "check_trap_eval.3": (
        "eval() changes layers, no_grad() stops recording: two switches, and inference wants both.",
        "eval() 改变层的行为，no_grad() 停止记录：两个开关，推理时两者都要。",
    ),
    "check_trap_kinks.1": (
        "{name}: autograd never answers 'undefined' -- each op's rule picks a number at its kink.",
        "{name}：自动求导从不回答“未定义”——每个操作的规则都在它的不可导点上选定一个数。",
    ),
    "check_trap_kinks.2": (
        "{name}: the left slope is {0}, the right one 1; PyTorch's rule takes the subgradient 0 at exactly 0.",
        "{name}：左斜率是 {0}，右斜率是 1；PyTorch 的规则在恰好为 0 处取次梯度 0。",
    ),
    "check_trap_kinks.3": (
        "sqrt: the rule is grad / (2·sqrt(x)), evaluated as it stands -- at 0 that is 1 / 0.",
        "sqrt：规则是 grad / (2·sqrt(x))，按原样求值——在 0 处就是 1 / 0。",
    ),
    "check_trap_kinks.4": (
        "max: that is what max(dim=...) does (it returns an index). A full t.max() has no index: its gradient is "
        "shared evenly among the tied maxima.",
        "max：这是 max(dim=...) 的做法（它返回一个下标）。完整的 t.max() 没有下标：它的梯度平均分给并列的最大值。",
    ),
    "check_trap_kinks.5": (
        "max: each tied entry cannot get the whole gradient (the total would be 2): it is split.",
        "max：并列的每一项不能都拿到全部梯度（那样总和就是 2 了）：梯度是被分摊的。",
    ),
    "check_trap_kinks.6": (
        "The two tied maxima share the gradient 1.",
        "两个并列的最大值分摊梯度 1。",
    ),
    "check_trap_kinks.7": (
        "at a kink every op's rule picks a value: 0 for relu and abs, inf for sqrt, an even split for a full max.",
        "在不可导点上，每个操作的规则选定一个值：relu 和 abs 是 0，sqrt 是 inf，完整的 max 平均分配。",
    ),
    "check_trap_broadcast.1": (
        "b.grad has b's shape, 2 -- not out's shape, 5 × 2.",
        "b.grad 的形状是 b 的形状，2——而不是 out 的形状 5 × 2。",
    ),
    "check_trap_broadcast.2": (
        "1 per entry would be right for one row. b was added to each of the 5 rows: every use sends a gradient, and "
        "they add up.",
        "每项为 1 对一行来说是对的。但 b 被加到了 5 行中的每一行上：每次使用都送来一份梯度，它们相加。",
    ),
    "check_trap_broadcast.3": (
        "3 is what W's entries see from each row; b gets 1 from each row it was added to.",
        "3 是 W 的各项从每一行得到的；b 从它被加到的每一行得到 1。",
    ),
    "check_trap_broadcast.4": (
        "Sum the gradient at out (all ones) over the batch axis.",
        "把 out 处的梯度（全是 1）沿批次轴求和。",
    ),
    "check_trap_broadcast.5": (
        "a broadcast tensor's gradient is summed over the axes it was broadcast along.",
        "被广播的张量，其梯度沿它被广播的轴求和。",
    ),
}


_install_notebook_display()
