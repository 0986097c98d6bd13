"""The losses beyond the classic ones (kl_div, margin ranking, hinge/cosine embedding, multilabel soft margin,
Poisson and Gaussian NLL) against PyTorch: values, gradients, grad_fn chains, second derivatives, modules."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import minigrad

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_activations_extra import compare  # the same torch-vs-minigrad comparison

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

R = np.random.RandomState(0)
X, T = R.randn(4, 5), R.randn(4, 5)


def F(lib):
    return lib.nn.functional


def _y(lib):
    return lib.tensor([1.0, -1, 1, -1], dtype=lib.float64)


def _signs(lib, b):
    return (b.detach() > 0).double() * 2 - 1


CASES = {
    "kl_div": lambda L, a, b, r: F(L).kl_div(a.log_softmax(1), b.softmax(1), reduction=r),
    "kl_div_log_target": lambda L, a, b, r: F(L).kl_div(a.log_softmax(1), b.log_softmax(1), reduction=r,
                                                         log_target=True),
    "margin_ranking": lambda L, a, b, r: F(L).margin_ranking_loss(a[:, 0], b[:, 0], _y(L), 0.3, reduction=r),
    "hinge_embedding": lambda L, a, b, r: F(L).hinge_embedding_loss(a, _signs(L, b), reduction=r),
    "hinge_embedding_margin": lambda L, a, b, r: F(L).hinge_embedding_loss(a, _signs(L, b), 0.4, reduction=r),
    "cosine_embedding": lambda L, a, b, r: F(L).cosine_embedding_loss(a, b, _y(L), 0.1, reduction=r),
    "multilabel_soft_margin": lambda L, a, b, r: F(L).multilabel_soft_margin_loss(a, (b.detach() > 0).double(),
                                                                                   reduction=r),
    "multilabel_soft_margin_weight": lambda L, a, b, r: F(L).multilabel_soft_margin_loss(
        a, (b.detach() > 0).double(), weight=L.arange(5, dtype=a.dtype), reduction=r),
    "poisson_nll_full": lambda L, a, b, r: F(L).poisson_nll_loss(a.abs(), b.detach().abs() * 3, log_input=False,
                                                                 full=True, reduction=r),
    "gaussian_nll": lambda L, a, b, r: F(L).gaussian_nll_loss(a, b, b.abs() + 0.1, reduction=r),
    "gaussian_nll_homoscedastic": lambda L, a, b, r: F(L).gaussian_nll_loss(a, b, b[:, 0].abs(), full=True,
                                                                            reduction=r),
    "kl_div_module": lambda L, a, b, r: L.nn.KLDivLoss(reduction=r)(a.log_softmax(1), b.softmax(1)),
    "margin_ranking_module": lambda L, a, b, r: L.nn.MarginRankingLoss(0.2, reduction=r)(a[:, 1], b[:, 1], _y(L)),
    "cosine_embedding_module": lambda L, a, b, r: L.nn.CosineEmbeddingLoss(reduction=r)(a, b, _y(L)),
    "poisson_nll_module": lambda L, a, b, r: L.nn.PoissonNLLLoss(reduction=r)(a, b.detach().abs()),
    "gaussian_nll_module": lambda L, a, b, r: L.nn.GaussianNLLLoss(reduction=r)(a, b, b.abs()),
    "multilabel_soft_margin_module": lambda L, a, b, r: L.nn.MultiLabelSoftMarginLoss(reduction=r)(
        a, (b.detach() > 0).double()),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_torch(name, reduction, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # kl_div's 'mean' warning (checked below)
        compare(lambda L, a, b: CASES[name](L, a, b, reduction), (X, T), dtype=dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_more_loss_forms(dtype):
    compare(lambda L, a, b: F(L).kl_div(a.log_softmax(1), b.softmax(1), reduction="batchmean"), (X, T), dtype)
    compare(lambda L, a, b: F(L).gaussian_nll_loss(a, b, 0.5), (X, T), dtype)
    compare(lambda L, a, b: F(L).poisson_nll_loss(a, b.detach().abs()), (X, T), dtype)
    # a 1-D pair with a 0-D target (the graph of a[0] under create_graph is the core's select)
    compare(lambda L, a, b: F(L).cosine_embedding_loss(a[0], b[0], L.tensor(-1.0, dtype=a.dtype)), (X, T), dtype,
            graph=False)


def test_kl_div_mean_warns_as_torch():
    for lib in (torch, minigrad):
        with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
            F(lib).kl_div(lib.zeros(2, 3), lib.ones(2, 3) / 3)


ERRORS = [
    lambda L: F(L).margin_ranking_loss(L.randn(3), L.randn(3, 1), L.ones(3)),
    lambda L: F(L).cosine_embedding_loss(L.randn(3, 2), L.randn(3, 2), L.ones(3, 1)),
    lambda L: F(L).cosine_embedding_loss(L.randn(3), L.randn(3), L.ones(3)),
    lambda L: F(L).cosine_embedding_loss(L.randn(3, 2), L.randn(3, 2), L.tensor(1.0)),
    lambda L: F(L).gaussian_nll_loss(L.randn(3, 2), L.randn(3, 2), -L.ones(3, 2)),
    lambda L: F(L).gaussian_nll_loss(L.randn(3, 2), L.randn(3, 2), L.ones(2, 3)),
    lambda L: F(L).gaussian_nll_loss(L.randn(3, 2), L.randn(3, 2), L.ones(3, 2), reduction="bad"),
    lambda L: F(L).poisson_nll_loss(L.randn(3, 2), L.randn(3, 2), reduction="bad"),
    lambda L: F(L).multilabel_soft_margin_loss(L.randn(3, 2), L.randn(3, 2), reduction="bad"),
    lambda L: F(L).kl_div(L.randn(3, 2), L.randn(3, 2), reduction="bad"),
    lambda L: F(L).hinge_embedding_loss(L.randn(3, 2), L.randn(3, 2), reduction="bad"),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_loss_errors_in_pytorch_words(k):
    with pytest.raises(Exception) as expected:  # noqa: PT011 - whatever PyTorch raises, minigrad must too
        ERRORS[k](torch)
    with pytest.raises(type(expected.value)) as got:
        ERRORS[k](minigrad)
    assert str(got.value) == str(expected.value).split("\n")[0]


@pytest.mark.parametrize("name", ["KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
                                  "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss"])
def test_loss_module_repr_and_options(name):
    ours, theirs = getattr(minigrad.nn, name)(), getattr(torch.nn, name)()
    assert repr(ours) == repr(theirs)
    public = lambda m: {k: v for k, v in vars(m).items() if not k.startswith("_") and k != "training"}  # noqa: E731
    assert public(ours) == public(theirs)
