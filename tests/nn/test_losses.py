"""Losses against PyTorch: values, gradients (input and target), grad_fn graphs, warnings and errors.

One case table drives everything: each case is a lambda run on both libraries with the
same numpy inputs, for each reduction.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)
LOGITS = RNG.standard_normal((5, 4)).astype(np.float32)
PROBS = RNG.uniform(0.05, 0.95, (5, 4)).astype(np.float32)
BINARY = (RNG.uniform(size=(5, 4)) > 0.5).astype(np.float32)
SOFT = RNG.dirichlet(np.ones(4), 5).astype(np.float32)
CLASSES = np.array([0, 3, 1, 1, 2])
CLASSES_IGNORED = np.array([0, -100, 1, 2, -100])
WEIGHT = np.array([1.0, 2.0, 0.5, 3.0], dtype=np.float32)
IMAGES = RNG.standard_normal((2, 4, 3, 2)).astype(np.float32)
IMAGE_CLASSES = RNG.integers(0, 4, (2, 3, 2))
SEQUENCE = RNG.standard_normal((2, 4, 3)).astype(np.float32)
SEQUENCE_CLASSES = RNG.integers(0, 4, (2, 3))
KINKS = np.array([[-2.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 1.5]], dtype=np.float32)  # |x - 0| at beta=1, 0.5
ZEROS = np.zeros((2, 4), dtype=np.float32)


class LossCase(NamedTuple):
    name: str
    fn: Callable  # fn(F, x, t, lib, reduction) -> loss
    x: np.ndarray
    t: np.ndarray
    target_grad: bool = False


def w(lib):
    return lib.from_numpy(WEIGHT.copy())


CASES = [
    LossCase("mse", lambda F, x, t, lib, r: F.mse_loss(x, t, reduction=r), LOGITS, PROBS, True),
    LossCase("l1", lambda F, x, t, lib, r: F.l1_loss(x, t, reduction=r), LOGITS, PROBS, True),
    LossCase("smooth_l1", lambda F, x, t, lib, r: F.smooth_l1_loss(x, t, reduction=r), LOGITS, PROBS, True),
    LossCase(
        "smooth_l1 beta", lambda F, x, t, lib, r: F.smooth_l1_loss(x, t, reduction=r, beta=0.3), LOGITS, PROBS, True
    ),
    LossCase("smooth_l1 kinks", lambda F, x, t, lib, r: F.smooth_l1_loss(x, t, reduction=r), KINKS, ZEROS, True),
    LossCase(
        "smooth_l1 beta=0 is l1",
        lambda F, x, t, lib, r: F.smooth_l1_loss(x, t, reduction=r, beta=0.0),
        KINKS,
        ZEROS,
        True,
    ),
    LossCase("huber", lambda F, x, t, lib, r: F.huber_loss(x, t, reduction=r), LOGITS, PROBS, True),
    LossCase(
        "huber delta kinks",
        lambda F, x, t, lib, r: F.huber_loss(x, t, reduction=r, delta=0.5),
        KINKS,
        ZEROS,
        True,
    ),
    LossCase(
        "huber weight",
        lambda F, x, t, lib, r: F.huber_loss(x, t, reduction=r, delta=2.0, weight=lib.from_numpy(PROBS.copy())),
        LOGITS,
        PROBS,
        True,
    ),
    LossCase("cross_entropy", lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r), LOGITS, CLASSES),
    LossCase(
        "cross_entropy weight",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, weight=w(lib), reduction=r),
        LOGITS,
        CLASSES,
    ),
    LossCase(
        "cross_entropy ignore_index",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r),
        LOGITS,
        CLASSES_IGNORED,
    ),
    LossCase(
        "cross_entropy label_smoothing",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1),
        LOGITS,
        CLASSES_IGNORED,
    ),
    LossCase(
        "cross_entropy label_smoothing weight",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, weight=w(lib), reduction=r, label_smoothing=0.2),
        LOGITS,
        CLASSES_IGNORED,
    ),
    LossCase(
        "cross_entropy probabilities",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r),
        LOGITS,
        SOFT,
        True,
    ),
    LossCase(
        "cross_entropy probabilities smoothing weight",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, weight=w(lib), reduction=r, label_smoothing=0.3),
        LOGITS,
        SOFT,
        True,
    ),
    LossCase(
        "cross_entropy one sample",
        lambda F, x, t, lib, r: F.cross_entropy(x[0], t[1], reduction=r),
        LOGITS,
        CLASSES,
    ),
    LossCase(
        "cross_entropy images",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r),
        IMAGES,
        IMAGE_CLASSES,
    ),
    LossCase(
        "cross_entropy sequence",
        lambda F, x, t, lib, r: F.cross_entropy(x, t, reduction=r),
        SEQUENCE,
        SEQUENCE_CLASSES,
    ),
    LossCase(
        "nll", lambda F, x, t, lib, r: F.nll_loss(F.log_softmax(x, dim=1), t, reduction=r), LOGITS, CLASSES
    ),
    LossCase(
        "nll weight ignore_index",
        lambda F, x, t, lib, r: F.nll_loss(x, t, weight=w(lib), ignore_index=1, reduction=r),
        LOGITS,
        CLASSES,
    ),
    LossCase(
        "binary_cross_entropy",
        lambda F, x, t, lib, r: F.binary_cross_entropy(x, t, reduction=r),
        PROBS,
        BINARY,
        True,
    ),
    LossCase(
        "binary_cross_entropy weight",
        lambda F, x, t, lib, r: F.binary_cross_entropy(x, t, weight=w(lib), reduction=r),
        PROBS,
        SOFT,
        True,
    ),
    LossCase(
        "binary_cross_entropy of sigmoid",
        lambda F, x, t, lib, r: F.binary_cross_entropy(x.sigmoid(), t, reduction=r),
        LOGITS,
        BINARY,
    ),
    LossCase(
        "bce_with_logits",
        lambda F, x, t, lib, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
        LOGITS,
        PROBS,
        True,
    ),
    LossCase(
        "bce_with_logits pos_weight weight",
        lambda F, x, t, lib, r: F.binary_cross_entropy_with_logits(
            x, t, weight=w(lib) / 2, reduction=r, pos_weight=w(lib)
        ),
        LOGITS,
        PROBS,
        True,
    ),
    LossCase(
        "bce_with_logits large logits",
        lambda F, x, t, lib, r: F.binary_cross_entropy_with_logits(x * 100, t, reduction=r),
        LOGITS,
        BINARY,
    ),
]

MODULE_CASES = [
    ("MSELoss", lambda nn, lib: nn.MSELoss(), LOGITS, PROBS),
    ("L1Loss", lambda nn, lib: nn.L1Loss(reduction="sum"), LOGITS, PROBS),
    ("SmoothL1Loss", lambda nn, lib: nn.SmoothL1Loss(beta=0.5), LOGITS, PROBS),
    ("HuberLoss", lambda nn, lib: nn.HuberLoss(reduction="sum", delta=0.7), LOGITS, PROBS),
    (
        "CrossEntropyLoss",
        lambda nn, lib: nn.CrossEntropyLoss(weight=w(lib), label_smoothing=0.1),
        LOGITS,
        CLASSES,
    ),
    ("NLLLoss", lambda nn, lib: nn.NLLLoss(reduction="none", ignore_index=3), LOGITS, CLASSES),
    ("BCELoss", lambda nn, lib: nn.BCELoss(weight=w(lib)), PROBS, BINARY),
    ("BCEWithLogitsLoss", lambda nn, lib: nn.BCEWithLogitsLoss(pos_weight=w(lib)), LOGITS, BINARY),
]


def graph(tensor) -> list:
    """The grad_fn graph as nested ``[name, [inputs...]]`` (None for an input not needing grad)."""

    def walk(node):
        if node is None:
            return None
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]

    return walk(tensor.grad_fn)


def run(lib, fn, x_np, t_np, target_grad, reduction="mean"):
    x = lib.tensor(x_np, requires_grad=True)
    t = lib.tensor(t_np, requires_grad=target_grad and t_np.dtype.kind == "f")
    loss = fn(lib.nn.functional, x, t, lib, reduction)
    loss.backward(lib.ones_like(loss))
    return {
        "loss": loss.detach().numpy().copy(),
        "dtype": str(loss.dtype),
        "graph": graph(loss),
        "x.grad": x.grad.numpy().copy(),
        "t.grad": None if t.grad is None else t.grad.numpy().copy(),
    }


def assert_same(ours: dict, theirs: dict, rtol=1e-5, atol=1e-6):
    assert ours.keys() == theirs.keys()
    for key in ours:
        if isinstance(ours[key], np.ndarray):
            assert ours[key].shape == theirs[key].shape, key
            np.testing.assert_allclose(ours[key], theirs[key], rtol=rtol, atol=atol, err_msg=key)
        else:
            assert ours[key] == theirs[key], key


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_loss_matches_pytorch(case, reduction):
    ours = run(minigrad, case.fn, case.x, case.t, case.target_grad, reduction)
    theirs = run(torch, case.fn, case.x, case.t, case.target_grad, reduction)
    assert_same(ours, theirs)


@pytest.mark.parametrize(("name", "make", "x", "t"), MODULE_CASES, ids=[c[0] for c in MODULE_CASES])
def test_loss_modules_match_pytorch(name, make, x, t):
    def module_fn(F, x, t, lib, reduction):
        return make(lib.nn, lib)(x, t)

    ours, theirs = run(minigrad, module_fn, x, t, False), run(torch, module_fn, x, t, False)
    assert_same(ours, theirs)
    assert repr(make(minigrad.nn, minigrad)) == repr(make(torch.nn, torch))


def test_cross_entropy_is_nll_over_log_softmax():
    logits = minigrad.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
    loss = minigrad.nn.functional.cross_entropy(logits, minigrad.tensor([2, 0]))
    assert repr(loss) == "tensor(0.7531, grad_fn=<NllLossBackward0>)"
    assert [type(f).__name__ for f, _ in loss.grad_fn.next_functions] == ["LogSoftmaxBackward0"]
    loss.backward()
    expected = (logits.detach().softmax(1) - minigrad.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])) / 2
    assert np.allclose(logits.grad.numpy(), expected.numpy(), atol=1e-6)


def test_saved_attributes_like_pytorch():
    x = minigrad.tensor([0.5, -1.0], requires_grad=True)
    loss = minigrad.nn.functional.mse_loss(x, minigrad.zeros(2))
    assert [n for n in dir(loss.grad_fn) if n.startswith("_saved")] == [
        "_saved_reduction",
        "_saved_self",
        "_saved_target",
    ]
    assert loss.grad_fn._saved_reduction == 1
    assert loss.grad_fn._saved_self is x
    nll = minigrad.nn.functional.nll_loss(x.view(1, 2), minigrad.tensor([1]), reduction="sum")
    assert nll.grad_fn._saved_reduction == 2
    assert nll.grad_fn._saved_ignore_index == -100
    assert nll.grad_fn._saved_total_weight.item() == 1.0


# -- warnings and errors ------------------------------------------------------------------------


def outcome(fn):
    """``(error type, message)`` or the list of ``(warning category, message)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as error:
            return type(error).__name__, str(error)
    return [(w.category.__name__, str(w.message)) for w in caught]


def ints(lib, values, dtype="int64"):
    return lib.tensor(values, dtype=getattr(lib, dtype))


BAD_INPUTS = {
    "ce target out of range": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), ints(lib, [0, 4, 1])),
    "ce negative target": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), ints(lib, [0, -1, 1])),
    "ce batch size": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), ints(lib, [0, 1])),
    "ce float target of another shape": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), lib.zeros(3)),
    "ce float 2-D target of another shape": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), lib.zeros(3, 2)),
    "ce int32 target": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), ints(lib, [0, 1, 1], "int32")),
    "ce bool target": lambda F, lib: F.cross_entropy(lib.zeros(2, 4), lib.tensor([True, False])),
    "ce 2-D class target": lambda F, lib: F.cross_entropy(lib.zeros(3, 4), ints(lib, [[0, 1, 1]])),
    "ce int probabilities": lambda F, lib: F.cross_entropy(lib.zeros(2), ints(lib, [0, 1])),
    "ce probabilities with ignore_index": lambda F, lib: F.cross_entropy(
        lib.zeros(2, 3), lib.zeros(2, 3), ignore_index=1
    ),
    "ce label_smoothing > 1": lambda F, lib: F.cross_entropy(
        lib.zeros(2, 3), ints(lib, [0, 1]), label_smoothing=1.5
    ),
    "ce weight size": lambda F, lib: F.cross_entropy(lib.zeros(2, 3), ints(lib, [0, 1]), weight=lib.ones(2)),
    "ce bad reduction": lambda F, lib: F.cross_entropy(lib.zeros(2, 3), ints(lib, [0, 1]), reduction="avg"),
    "ce 0-d input": lambda F, lib: F.nll_loss(lib.tensor(1.0), ints(lib, 0)),
    "nll float target": lambda F, lib: F.nll_loss(lib.zeros(2, 3), lib.zeros(2)),
    "nll 1-D input, 2 targets": lambda F, lib: F.nll_loss(lib.zeros(3), ints(lib, [0, 1])),
    "nll images target dims": lambda F, lib: F.nll_loss(
        lib.zeros(2, 3, 4, 5), lib.zeros(2, 4, dtype=lib.long)
    ),
    "nll sequence target size": lambda F, lib: F.nll_loss(
        lib.zeros(2, 3, 4), lib.zeros(2, 5, dtype=lib.long)
    ),
    "mse size warning": lambda F, lib: F.mse_loss(lib.zeros(3, 1), lib.ones(3)),
    "mse not broadcastable": lambda F, lib: F.mse_loss(lib.zeros(3, 2), lib.ones(3)),
    "mse long": lambda F, lib: F.mse_loss(lib.ones(2, dtype=lib.long), lib.zeros(2, dtype=lib.long)),
    "mse legacy size_average": lambda F, lib: F.mse_loss(lib.zeros(3), lib.ones(3), size_average=False),
    "mse elementwise_mean": lambda F, lib: F.mse_loss(
        lib.zeros(3), lib.ones(3), reduction="elementwise_mean"
    ),
    "l1 size warning": lambda F, lib: F.l1_loss(lib.zeros(3, 1), lib.ones(3)),
    "smooth_l1 size warning": lambda F, lib: F.smooth_l1_loss(lib.zeros(3, 1), lib.ones(3)),
    "smooth_l1 negative beta": lambda F, lib: F.smooth_l1_loss(lib.zeros(3), lib.ones(3), beta=-1.0),
    "smooth_l1 long": lambda F, lib: F.smooth_l1_loss(lib.ones(2, dtype=lib.long), lib.zeros(2, dtype=lib.long)),
    "smooth_l1 legacy reduce": lambda F, lib: F.smooth_l1_loss(lib.zeros(3), lib.ones(3), reduce=False),
    "huber size warning": lambda F, lib: F.huber_loss(lib.zeros(3, 1), lib.ones(3)),
    "huber zero delta": lambda F, lib: F.huber_loss(lib.zeros(3), lib.ones(3), delta=0.0),
    "huber long": lambda F, lib: F.huber_loss(lib.ones(2, dtype=lib.long), lib.zeros(2, dtype=lib.long)),
    "huber weight size": lambda F, lib: F.huber_loss(lib.zeros(3), lib.ones(3), weight=lib.ones(2)),
    "huber bad reduction": lambda F, lib: F.huber_loss(lib.zeros(3), lib.ones(3), reduction="avg"),
    "bce target size": lambda F, lib: F.binary_cross_entropy(lib.full((3, 1), 0.5), lib.ones(3)),
    "bce input range": lambda F, lib: F.binary_cross_entropy(lib.tensor([1.5]), lib.ones(1)),
    "bce long target": lambda F, lib: F.binary_cross_entropy(
        lib.full((3,), 0.5), lib.ones(3, dtype=lib.long)
    ),
    "bce double target": lambda F, lib: F.binary_cross_entropy(
        lib.full((3,), 0.5), lib.ones(3, dtype=lib.double)
    ),
    "bce weight size": lambda F, lib: F.binary_cross_entropy(
        lib.full((3,), 0.5), lib.ones(3), weight=lib.ones(2)
    ),
    "bce weight requires grad": lambda F, lib: F.binary_cross_entropy(
        lib.full((3,), 0.5), lib.ones(3), weight=lib.ones(3, requires_grad=True)
    ),
    "bce logits target size": lambda F, lib: F.binary_cross_entropy_with_logits(lib.zeros(3, 1), lib.ones(3)),
    "bce logits long target": lambda F, lib: F.binary_cross_entropy_with_logits(
        lib.zeros(3), lib.ones(3, dtype=lib.long)
    ),
    "bce logits pos_weight size": lambda F, lib: F.binary_cross_entropy_with_logits(
        lib.zeros(3), lib.ones(3), pos_weight=lib.ones(2)
    ),
    "module legacy reduce": lambda F, lib: lib.nn.MSELoss(reduce=False),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_inputs_match_pytorch(case):
    fn = BAD_INPUTS[case]
    assert outcome(lambda: fn(minigrad.nn.functional, minigrad)) == outcome(
        lambda: fn(torch.nn.functional, torch)
    )


def test_mse_size_warning_text():
    with pytest.warns(UserWarning, match="Using a target size") as record:
        minigrad.nn.functional.mse_loss(minigrad.zeros(3, 1), minigrad.ones(3))
    assert str(record[0].message) == (
        "Using a target size (torch.Size([3])) that is different to the input size (torch.Size([3, 1])). "
        "This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."
    )


def test_special_values_match_pytorch():
    """Clamped logs in BCE, all-ignored targets (nan for mean), empty batches."""
    cases = [
        lambda F, lib: F.binary_cross_entropy(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.0])),
        lambda F, lib: F.nll_loss(lib.zeros(2, 3), ints(lib, [-100, -100])),
        lambda F, lib: F.nll_loss(lib.zeros(2, 3), ints(lib, [-100, -100]), reduction="sum"),
        lambda F, lib: F.cross_entropy(lib.zeros(2, 3), ints(lib, [-100, -100]), label_smoothing=0.1),
        lambda F, lib: F.mse_loss(lib.ones(0), lib.ones(0)),
        lambda F, lib: F.binary_cross_entropy_with_logits(
            lib.tensor([-200.0, 200.0]), lib.tensor([1.0, 0.0])
        ),
    ]
    for fn in cases:
        ours = fn(minigrad.nn.functional, minigrad).numpy()
        theirs = fn(torch.nn.functional, torch).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


# -- gradcheck in float64 ---------------------------------------------------------------------------

F64 = minigrad.float64


def _float64(values, requires_grad=True):
    return minigrad.tensor(np.asarray(values, dtype=np.float64), requires_grad=requires_grad)


GRADCHECK = {
    "mse": (lambda x, t: minigrad.nn.functional.mse_loss(x, t), "real", "real"),
    "bce": (lambda p, t: minigrad.nn.functional.binary_cross_entropy(p, t), "prob", "prob"),
    "bce_with_logits pos_weight": (
        lambda x, t: minigrad.nn.functional.binary_cross_entropy_with_logits(
            x, t, pos_weight=_float64([1.0, 2.0, 3.0], False)
        ),
        "real",
        "prob",
    ),
    "cross_entropy smoothing": (
        lambda x: minigrad.nn.functional.cross_entropy(
            x, minigrad.tensor([0, 2]), label_smoothing=0.2, weight=_float64([1.0, 2.0, 0.5], False)
        ),
        "real",
        None,
    ),
    "cross_entropy probabilities": (lambda x, t: minigrad.nn.functional.cross_entropy(x, t), "real", "prob"),
    "smooth_l1": (lambda x, t: minigrad.nn.functional.smooth_l1_loss(x, t, beta=0.8), "real", "real"),
    "huber": (lambda x, t: minigrad.nn.functional.huber_loss(x, t, delta=0.6, reduction="sum"), "real", "real"),
}


@pytest.mark.parametrize("name", GRADCHECK)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_gradcheck_float64(name, seed):
    fn, x_kind, t_kind = GRADCHECK[name]
    rng = np.random.default_rng(seed)

    def draw(kind):
        return _float64(rng.uniform(0.05, 0.95, (2, 3)) if kind == "prob" else rng.normal(size=(2, 3)))

    inputs = tuple(draw(kind) for kind in (x_kind, t_kind) if kind is not None)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
def test_all_targets_ignored_gives_nan_loss_and_zero_grad_like_pytorch(label_smoothing):
    results = []
    for lib in (minigrad, torch):
        x = lib.zeros(2, 3, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, ints(lib, [-100, -100]), label_smoothing=label_smoothing)
        loss.backward()
        results.append((np.isnan(loss.item()), x.grad.tolist()))
    assert results[0] == results[1] == (True, [[0.0] * 3] * 2)
