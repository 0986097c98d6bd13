"""nn.init: gains, fans, distributions, no_grad on leaves, errors; against PyTorch where deterministic."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


@pytest.mark.parametrize(
    ("nonlinearity", "param"),
    [
        ("linear", None),
        ("conv2d", None),
        ("sigmoid", None),
        ("tanh", None),
        ("relu", None),
        ("leaky_relu", None),
        ("leaky_relu", 0.2),
        ("leaky_relu", math.sqrt(5)),
        ("selu", None),
    ],
)
def test_calculate_gain_matches_pytorch(nonlinearity, param):
    assert nn.init.calculate_gain(nonlinearity, param) == torch.nn.init.calculate_gain(nonlinearity, param)


def test_fans_match_pytorch():
    for shape in [(3, 4), (3, 4, 5, 6), (7, 2, 3)]:
        ours = nn.init._calculate_fan_in_and_fan_out(minigrad.ones(*shape))
        assert ours == torch.nn.init._calculate_fan_in_and_fan_out(torch.ones(*shape))


@pytest.mark.parametrize(
    ("init", "expected_std"),
    [
        (lambda t: nn.init.uniform_(t, -2.0, 2.0), 4 / math.sqrt(12)),
        (lambda t: nn.init.normal_(t, 1.0, 0.5), 0.5),
        (lambda t: nn.init.xavier_uniform_(t), math.sqrt(2 / (300 + 400))),
        (lambda t: nn.init.xavier_normal_(t, gain=2.0), 2 * math.sqrt(2 / (300 + 400))),
        (lambda t: nn.init.kaiming_uniform_(t, nonlinearity="relu"), math.sqrt(2 / 400)),
        (lambda t: nn.init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"), math.sqrt(2 / 300)),
        (lambda t: nn.init.kaiming_uniform_(t, a=math.sqrt(5)), 1 / math.sqrt(3 * 400)),
    ],
)
def test_distributions(init, expected_std):
    minigrad.manual_seed(0)
    w = nn.Parameter(minigrad.empty(300, 400))
    assert init(w) is w  # in place on a leaf that requires grad
    assert w.is_leaf
    assert w.requires_grad
    assert w._version == 1
    assert abs(w.detach().numpy().std() - expected_std) < 0.02 * expected_std


def test_fills_and_eye_match_pytorch():
    for init in (
        lambda lib, t: lib.nn.init.constant_(t, 0.5),
        lambda lib, t: lib.nn.init.zeros_(t),
        lambda lib, t: lib.nn.init.ones_(t),
        lambda lib, t: lib.nn.init.eye_(t),
    ):
        ours = init(minigrad, minigrad.ones(2, 3, requires_grad=True))
        theirs = init(torch, torch.ones(2, 3, requires_grad=True))
        assert repr(ours) == repr(theirs)
        assert ours._version == theirs._version


def test_generator_makes_init_reproducible():
    a = nn.init.normal_(minigrad.empty(5), generator=minigrad.Generator().manual_seed(1))
    b = nn.init.normal_(minigrad.empty(5), generator=minigrad.Generator().manual_seed(1))
    assert np.array_equal(a.numpy(), b.numpy())


def outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as error:
            return type(error).__name__, str(error)
    return [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.init.calculate_gain("foo"),
        lambda lib: lib.nn.init.calculate_gain("leaky_relu", "x"),
        lambda lib: lib.nn.init.xavier_uniform_(lib.ones(3)),
        lambda lib: lib.nn.init.kaiming_uniform_(lib.ones(3, 2), mode="fan_x"),
        lambda lib: lib.nn.init.kaiming_normal_(lib.ones(0, 2)),
        lambda lib: lib.nn.init.eye_(lib.ones(2, 2, 2)),
    ],
)
def test_errors_and_warnings_match_pytorch(make):
    assert outcome(lambda: make(minigrad)) == outcome(lambda: make(torch))
