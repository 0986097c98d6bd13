"""Adamax, ASGD, Rprop and LBFGS against PyTorch 2.13.

Adamax, ASGD and Rprop are fed the same gradients as torch's and must give the same parameters and state BIT
FOR BIT (float32 and float64, 30 steps, parameter groups with their own hyperparameters). LBFGS runs the same
closure; its iterates agree to float64 rounding (torch's dot and sum are MKL's, whose summation order minigrad's
reductions do not copy) and it takes the same branches (the same func_evals and n_iter).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

SHAPES = [(7, 5), (5,), (3, 7), (19,)]

BITWISE = {
    "Adamax": lambda optim, p: optim.Adamax(p),
    "Adamax betas weight_decay maximize": lambda optim, p: optim.Adamax(
        p, lr=0.01, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1, maximize=True),
    "ASGD": lambda optim, p: optim.ASGD(p, lr=0.05),
    "ASGD t0 lambd alpha weight_decay": lambda optim, p: optim.ASGD(
        p, lr=0.05, lambd=0.01, alpha=0.6, t0=5, weight_decay=0.02),
    "ASGD maximize": lambda optim, p: optim.ASGD(p, lr=0.01, t0=3, maximize=True),
    "Rprop": lambda optim, p: optim.Rprop(p),
    "Rprop etas step_sizes maximize": lambda optim, p: optim.Rprop(
        p, lr=0.03, etas=(0.3, 1.7), step_sizes=(1e-3, 0.2), maximize=True),
    "Adamax groups": lambda optim, p: optim.Adamax(
        [{"params": p[:2], "lr": 0.05, "betas": (0.5, 0.6)}, {"params": p[2:], "weight_decay": 0.3}], lr=0.02),
    "Rprop groups": lambda optim, p: optim.Rprop([{"params": p[:1], "lr": 0.2}, {"params": p[1:]}], lr=0.01),
    "ASGD groups": lambda optim, p: optim.ASGD([{"params": p[:3]}, {"params": p[3:], "t0": 2}], lr=0.1),
}


def gradient_stream(steps, seed=1):
    rng = np.random.default_rng(seed)
    stream = []
    for k in range(steps):
        grads = [rng.standard_normal(s) * (1 if k % 3 else -1) for s in SHAPES]
        if k % 4 == 1:
            grads[1][::2] = 0                           # zeros: Rprop's sign(0) branch
        stream.append(grads)
    return stream


def run(lib, make, dtype, stream, skip=None):
    rng = np.random.default_rng(0)
    params = [lib.nn.Parameter(lib.from_numpy(rng.standard_normal(s).astype(dtype))) for s in SHAPES]
    opt = make(lib.optim, params)
    for k, grads in enumerate(stream):
        for i, (p, g) in enumerate(zip(params, grads)):
            p.grad = None if (skip is not None and k % 5 == skip and i == 2) else lib.from_numpy(g.astype(dtype))
        opt.step()
    return [p.detach().numpy().copy() for p in params], opt


def assert_bits_equal(a, b):
    assert a.dtype == b.dtype
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", BITWISE)
def test_trajectories_bit_for_bit(name, dtype):
    stream = gradient_stream(30)
    ours, ours_opt = run(minigrad, BITWISE[name], dtype, stream, skip=3)
    theirs, theirs_opt = run(torch, BITWISE[name], dtype, stream, skip=3)
    for a, b in zip(ours, theirs):
        assert_bits_equal(a, b)
    for group_ours, group_theirs in zip(ours_opt.param_groups, theirs_opt.param_groups):
        for p_ours, p_theirs in zip(group_ours["params"], group_theirs["params"]):
            state_ours, state_theirs = ours_opt.state[p_ours], theirs_opt.state[p_theirs]
            assert list(state_ours) == list(state_theirs)
            for key, value in state_theirs.items():
                assert str(state_ours[key].dtype) == str(value.dtype)
                assert_bits_equal(state_ours[key].numpy(), value.numpy())
    assert repr(ours_opt) == repr(theirs_opt)


def mlp(lib, seed=0):
    rng = np.random.default_rng(seed)
    model = lib.nn.Sequential(lib.nn.Linear(6, 16), lib.nn.Tanh(), lib.nn.Linear(16, 3))
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
    return model


@pytest.mark.parametrize("name", ["Adamax", "ASGD", "Rprop"])
def test_training_an_mlp_matches_pytorch(name):
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((32, 6)).astype(np.float32), rng.integers(0, 3, 32)
    results = []
    for lib in (minigrad, torch):
        model = mlp(lib)
        opt = getattr(lib.optim, name)(model.parameters(), lr=0.01)
        losses = []
        for _ in range(40):
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(lib.from_numpy(x)), lib.from_numpy(y))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        results.append((np.array(losses), [p.detach().numpy() for p in model.parameters()]))
    (ours_losses, ours_params), (theirs_losses, theirs_params) = results
    np.testing.assert_allclose(ours_losses, theirs_losses, rtol=1e-5)
    assert ours_losses[-1] < ours_losses[0]
    for a, b in zip(ours_params, theirs_params):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["Adamax", "ASGD", "Rprop", "LBFGS"])
def test_defaults_groups_and_repr_match_pytorch(name):
    def build(lib):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
        opt = getattr(lib.optim, name)([a, b])
        if name != "LBFGS":
            opt.add_param_group({"params": [lib.nn.Parameter(lib.ones(1))], "lr": 0.5})
        return opt

    ours, theirs = build(minigrad), build(torch)
    assert ours.defaults == theirs.defaults
    assert [{k: v for k, v in g.items() if k != "params"} for g in ours.param_groups] == [
        {k: v for k, v in g.items() if k != "params"} for g in theirs.param_groups]
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["Adamax", "ASGD", "Rprop"])
def test_state_dict_round_trip_matches_pytorch(name):
    stream = gradient_stream(4)
    dicts = []
    for lib in (minigrad, torch):
        _, opt = run(lib, BITWISE[name], np.float32, stream)
        state = opt.state_dict()
        dicts.append(state)
        _, fresh = run(lib, BITWISE[name], np.float32, [])
        fresh.load_state_dict(state)
        first = fresh.param_groups[0]["params"][0]
        assert list(fresh.state[first]) == list(state["state"][0])
    ours, theirs = dicts
    assert ours["param_groups"] == theirs["param_groups"]
    for i in theirs["state"]:
        assert list(ours["state"][i]) == list(theirs["state"][i])
        for key, value in theirs["state"][i].items():
            assert_bits_equal(ours["state"][i][key].numpy(), value.numpy())


# -- LBFGS ----------------------------------------------------------------------------------------------------


def rosenbrock_run(lib, dtype, steps=5, n=6, **options):
    x = lib.nn.Parameter(lib.from_numpy(np.linspace(-1.2, 1.0, n).astype(dtype)))
    opt = lib.optim.LBFGS([x], **options)

    def closure():
        opt.zero_grad()
        loss = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(steps)]
    return x.detach().numpy(), losses, opt


LBFGS_OPTIONS = {
    "defaults": {},
    "strong_wolfe": {"line_search_fn": "strong_wolfe"},
    "lr history max_iter": {"lr": 0.1, "history_size": 3, "max_iter": 7},
    "strong_wolfe history 2": {"line_search_fn": "strong_wolfe", "history_size": 2},
    "strong_wolfe max_eval tolerance": {"line_search_fn": "strong_wolfe", "max_eval": 9, "tolerance_change": 1e-5},
}


@pytest.mark.parametrize("case", LBFGS_OPTIONS)
def test_lbfgs_rosenbrock_matches_pytorch(case):
    ours_x, ours_losses, ours = rosenbrock_run(minigrad, np.float64, **LBFGS_OPTIONS[case])
    theirs_x, theirs_losses, theirs = rosenbrock_run(torch, np.float64, **LBFGS_OPTIONS[case])
    np.testing.assert_allclose(ours_x, theirs_x, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours_losses, theirs_losses, rtol=1e-6, atol=1e-12)
    state_ours, state_theirs = ours.state[ours._params[0]], theirs.state[theirs._params[0]]
    assert sorted(state_ours) == sorted(state_theirs)
    for key in ("func_evals", "n_iter"):
        assert state_ours[key] == state_theirs[key]
    assert len(state_ours["old_dirs"]) == len(state_theirs["old_dirs"])
    assert repr(ours) == repr(theirs)


def test_lbfgs_float32_and_the_first_step_match_pytorch():
    """One iteration in float32: direction −g, t = min(1, 1/|g|₁) · lr — the same bits as torch's."""
    ours_x, ours_losses, _ = rosenbrock_run(minigrad, np.float32, steps=1, max_iter=1)
    theirs_x, theirs_losses, _ = rosenbrock_run(torch, np.float32, steps=1, max_iter=1)
    np.testing.assert_allclose(ours_x, theirs_x, rtol=1e-6)
    assert ours_losses == theirs_losses
    ours_x, _, _ = rosenbrock_run(minigrad, np.float32, steps=3, line_search_fn="strong_wolfe")
    theirs_x, _, _ = rosenbrock_run(torch, np.float32, steps=3, line_search_fn="strong_wolfe")
    np.testing.assert_allclose(ours_x, theirs_x, rtol=1e-4, atol=1e-5)


def mse_closure(lib, opt, model, x, y):
    def closure():
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(model(lib.from_numpy(x)), lib.from_numpy(y))
        loss.backward()
        return loss

    return closure


def test_lbfgs_trains_a_model_like_pytorch():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((20, 6)), rng.standard_normal((20, 3))
    results = []
    for lib in (minigrad, torch):
        model = mlp(lib).double()
        opt = lib.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, line_search_fn="strong_wolfe")
        closure = mse_closure(lib, opt, model, x, y)
        losses = [opt.step(closure).item() for _ in range(3)]
        results.append((losses, [p.detach().numpy() for p in model.parameters()]))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-8)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-8)


def square_closure(opt, w, calls):
    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = (w ** 2).sum()
        loss.backward()
        return loss

    return closure


def test_lbfgs_stops_at_an_optimum_and_returns_the_first_loss():
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.zeros(3))
        opt = lib.optim.LBFGS([w])
        calls = []
        loss = opt.step(square_closure(opt, w, calls))
        assert loss.item() == 0
        assert len(calls) == 1
        assert opt.state[w]["func_evals"] == 1
        assert opt.state[w]["n_iter"] == 0


def error_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as error:
            return type(error).__name__, str(error)
    return [(w.category.__name__, str(w.message)) for w in caught]


def one(lib):
    return [lib.nn.Parameter(lib.ones(2))]


def lbfgs_bad_line_search(lib):
    w = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.LBFGS([w], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = (w ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)


ERRORS = {
    "Adamax lr": lambda lib: lib.optim.Adamax(one(lib), lr=-1),
    "Adamax eps": lambda lib: lib.optim.Adamax(one(lib), eps=-1e-8),
    "Adamax beta 0": lambda lib: lib.optim.Adamax(one(lib), betas=(1.0, 0.5)),
    "Adamax beta 1": lambda lib: lib.optim.Adamax(one(lib), betas=(0.5, -0.1)),
    "Adamax weight_decay": lambda lib: lib.optim.Adamax(one(lib), weight_decay=-2),
    "ASGD lr": lambda lib: lib.optim.ASGD(one(lib), lr=-0.5),
    "ASGD weight_decay": lambda lib: lib.optim.ASGD(one(lib), weight_decay=-0.5),
    "Rprop lr": lambda lib: lib.optim.Rprop(one(lib), lr=-0.5),
    "Rprop etas": lambda lib: lib.optim.Rprop(one(lib), etas=(1.5, 1.2)),
    "Rprop etas 2": lambda lib: lib.optim.Rprop(one(lib), etas=(0.5, 0.9)),
    "LBFGS lr": lambda lib: lib.optim.LBFGS(one(lib), lr=-1),
    "LBFGS groups": lambda lib: lib.optim.LBFGS([{"params": one(lib)}, {"params": one(lib), "lr": 0.1}]),
    "LBFGS line search": lbfgs_bad_line_search,
    "Adamax empty": lambda lib: lib.optim.Adamax([]),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch(case):
    assert error_of(lambda: ERRORS[case](minigrad)) == error_of(lambda: ERRORS[case](torch))


def test_lbfgs_default_max_eval_and_no_scalar_warning_inside_step():
    w = minigrad.nn.Parameter(minigrad.ones(2))
    assert minigrad.optim.LBFGS([w], max_iter=7).defaults["max_eval"] == 8
    opt = minigrad.optim.LBFGS([w], max_iter=3)

    def closure():
        opt.zero_grad()
        loss = ((w - 2) ** 2).sum()
        loss.backward()
        return loss

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step(closure)
