"""torch.distributions' Normal, Uniform, Bernoulli, Categorical against PyTorch 2.13: the same samples from the
same seed, log_prob/entropy/cdf values and gradients (through the parameters and rsample), reprs, shapes, errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

MAKERS = {
    "Normal": lambda lib, p: lib.distributions.Normal(p[0], p[1].exp()),
    "Uniform": lambda lib, p: lib.distributions.Uniform(p[0], p[0] + p[1].exp()),
    "Bernoulli": lambda lib, p: lib.distributions.Bernoulli(p[0].sigmoid()),
    "Bernoulli logits": lambda lib, p: lib.distributions.Bernoulli(logits=p[0]),
    "Categorical": lambda lib, p: lib.distributions.Categorical(p[1].exp()),
    "Categorical logits": lambda lib, p: lib.distributions.Categorical(logits=p[1]),
}
PARAMS = [np.array([0.3, -1.2, 2.0]), np.array([0.1, -0.5, 0.7])]
VALUES = {"Normal": np.array([0.5, -1.0, 2.2]), "Uniform": np.array([0.9, -0.8, 2.5]),
          "Bernoulli": np.array([1.0, 0.0, 1.0]), "Bernoulli logits": np.array([0.0, 0.0, 1.0]),
          "Categorical": np.array([2, 0, 1, 1]), "Categorical logits": np.array([0, 2])}


def run(lib, name, dtype):
    params = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in PARAMS]
    d = MAKERS[name](lib, params)
    lib.manual_seed(7)
    out = {"repr": repr(d), "batch_shape": tuple(d.batch_shape), "event_shape": tuple(d.event_shape),
           "sample": d.sample(), "sample (5, 2)": d.sample((5, 2))}
    value = lib.tensor(VALUES[name], dtype=lib.long if "Categorical" in name else getattr(lib, dtype))
    loss = d.log_prob(value).sum() + d.entropy().sum()
    out["log_prob"], out["entropy"] = d.log_prob(value), d.entropy()
    if d.has_rsample:
        r = d.rsample((4,))
        out["rsample"] = r
        loss = loss + (r * r).sum()
        out["cdf"] = d.cdf(value)
    if name in ("Normal", "Uniform", "Bernoulli", "Bernoulli logits"):
        out["mean"], out["variance"], out["stddev"] = d.mean, d.variance, d.stddev
    out["grads"] = lib.autograd.grad(loss, params, allow_unused=True)
    return out


def as_array(x):
    if isinstance(x, (tuple, list)):
        return [as_array(v) for v in x]
    return x if not hasattr(x, "detach") else x.detach().numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", MAKERS)
def test_matches_pytorch(name, dtype):
    ours, theirs = run(minigrad, name, dtype), run(torch, name, dtype)
    assert ours.keys() == theirs.keys()
    for key in theirs:
        a, b = as_array(ours[key]), as_array(theirs[key])
        if key == "grads":
            for x, y in zip(a, b):
                assert (x is None) == (y is None)
                if y is not None:
                    np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
        elif isinstance(b, np.ndarray):
            assert a.dtype == b.dtype, key
            assert a.shape == b.shape, key
            if key.startswith("sample") or key == "rsample":
                np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)     # the same random stream
            else:
                np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
        else:
            assert a == b, key


def test_sample_n_warns_like_pytorch():
    for lib in (minigrad, torch):
        with pytest.warns(FutureWarning, match=r"`sample_n\(n\)` will be deprecated"):
            assert tuple(lib.distributions.Normal(0.0, 1.0).sample_n(3).shape) == (3,)


def test_scalar_parameters_and_reprs():
    for lib in (minigrad, torch):
        lib.manual_seed(0)
    ours, theirs = minigrad.distributions.Normal(0.0, 1.0), torch.distributions.Normal(0.0, 1.0)
    assert repr(ours) == repr(theirs) == "Normal(loc: 0.0, scale: 1.0)"
    assert tuple(ours.batch_shape) == ()
    np.testing.assert_array_equal(ours.sample((3,)).numpy(), theirs.sample((3,)).numpy())
    np.testing.assert_allclose(ours.icdf(minigrad.tensor([0.1, 0.5, 0.975])).numpy(),
                               theirs.icdf(torch.tensor([0.1, 0.5, 0.975])).numpy(), rtol=1e-6)


def error_of(fn):
    try:
        fn()
    except Exception as error:
        return type(error).__name__, str(error)
    return None


ERRORS = {
    "Normal negative scale": lambda lib: lib.distributions.Normal(lib.zeros(2), lib.tensor([1.0, -1.0])),
    "Bernoulli probs > 1": lambda lib: lib.distributions.Bernoulli(lib.tensor([0.5, 1.5])),
    "Bernoulli both": lambda lib: lib.distributions.Bernoulli(probs=lib.tensor(0.5), logits=lib.tensor(0.0)),
    "Bernoulli value outside support": lambda lib: lib.distributions.Bernoulli(lib.tensor([0.5])).log_prob(
        lib.tensor([0.5])),
    "Categorical 0-d": lambda lib: lib.distributions.Categorical(lib.tensor(1.0)),
    "Categorical value": lambda lib: lib.distributions.Categorical(lib.tensor([0.5, 0.5])).log_prob(lib.tensor(3)),
    "Uniform low >= high": lambda lib: lib.distributions.Uniform(lib.tensor([1.0]), lib.tensor([0.0])),
    "Normal value shape": lambda lib: lib.distributions.Normal(lib.zeros(3), lib.ones(3)).log_prob(lib.zeros(2)),
    "log_prob of a list": lambda lib: lib.distributions.Normal(lib.zeros(3), lib.ones(3)).log_prob([0.0]),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch(case):
    ours = error_of(lambda: ERRORS[case](minigrad))
    assert ours is not None
    assert ours == error_of(lambda: ERRORS[case](torch))
