"""Optimizers and schedulers against PyTorch: 50 training steps of the same MLP, state, state_dict, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal((32, 6)).astype(np.float32)
Y = RNG.integers(0, 3, 32)

OPTIMIZERS = {
    "SGD": lambda optim, params: optim.SGD(params, lr=0.1),
    "SGD momentum": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.9),
    "SGD nesterov": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True),
    "SGD weight_decay": lambda optim, params: optim.SGD(params, lr=0.1, weight_decay=0.01),
    "SGD dampening weight_decay": lambda optim, params: optim.SGD(
        params, lr=0.05, momentum=0.8, dampening=0.3, weight_decay=1e-3
    ),
    "SGD maximize": lambda optim, params: optim.SGD(params, lr=0.01, momentum=0.5, maximize=True),
    "Adam": lambda optim, params: optim.Adam(params, lr=0.01),
    "Adam amsgrad weight_decay": lambda optim, params: optim.Adam(
        params, lr=0.01, betas=(0.8, 0.99), weight_decay=0.01, amsgrad=True
    ),
    "AdamW": lambda optim, params: optim.AdamW(params, lr=0.01),
    "AdamW amsgrad maximize": lambda optim, params: optim.AdamW(params, lr=0.01, amsgrad=True, maximize=True),
    "RMSprop": lambda optim, params: optim.RMSprop(params, lr=0.01),
    "RMSprop centered momentum": lambda optim, params: optim.RMSprop(
        params, lr=0.005, momentum=0.9, centered=True, weight_decay=0.01
    ),
    "Adagrad": lambda optim, params: optim.Adagrad(params, lr=0.05),
    "Adagrad lr_decay weight_decay initial_accumulator_value": lambda optim, params: optim.Adagrad(
        params, lr=0.1, lr_decay=0.01, weight_decay=0.01, initial_accumulator_value=0.1, eps=1e-8
    ),
    "Adagrad maximize": lambda optim, params: optim.Adagrad(params, lr=0.01, maximize=True),
    "parameter groups": lambda optim, params: optim.SGD(
        [{"params": params[:2], "lr": 0.2}, {"params": params[2:]}], lr=0.05, momentum=0.9
    ),
}


def initial_weights():
    torch.manual_seed(0)
    return [p.detach().numpy().copy() for p in mlp(torch).parameters()]


def mlp(lib, weights=None):
    model = lib.nn.Sequential(
        lib.nn.Linear(6, 16), lib.nn.Tanh(), lib.nn.Linear(16, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3)
    )
    if weights is not None:
        with lib.no_grad():
            for p, w in zip(model.parameters(), weights):
                p.copy_(lib.from_numpy(w.copy()))
    return model


def train(lib, make_optimizer, weights, steps=50):
    model = mlp(lib, weights)
    opt = make_optimizer(lib.optim, list(model.parameters()))
    x, y = lib.from_numpy(X), lib.from_numpy(Y)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses), [p.detach().numpy().copy() for p in model.parameters()], opt


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_fifty_steps_match_pytorch(name):
    """The same MLP, weights copied from PyTorch, trained 50 steps: same losses and parameters (float32)."""
    weights = initial_weights()
    ours_losses, ours_params, ours = train(minigrad, OPTIMIZERS[name], weights)
    theirs_losses, theirs_params, theirs = train(torch, OPTIMIZERS[name], weights)
    np.testing.assert_allclose(ours_losses, theirs_losses, rtol=1e-4, atol=1e-5)
    for a, b in zip(ours_params, theirs_params):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    assert ours_losses[-1] < ours_losses[0] if "maximize" not in name else ours_losses[-1] > ours_losses[0]
    for p_ours, p_theirs in zip(ours.param_groups[0]["params"], theirs.param_groups[0]["params"]):
        state_ours, state_theirs = ours.state[p_ours], theirs.state[p_theirs]
        assert list(state_ours) == list(state_theirs)
        for key in state_theirs:
            expected = state_theirs[key].numpy()
            assert str(state_ours[key].dtype) == str(state_theirs[key].dtype)
            scale = float(np.abs(expected).max())           # buffers mix large and tiny entries
            np.testing.assert_allclose(state_ours[key].numpy(), expected, rtol=1e-3, atol=1e-4 * scale)
    assert repr(ours) == repr(theirs)


def test_adam_first_step_reference_example():
    w = nn.Parameter(minigrad.tensor([5.0, -3.0]))
    opt = minigrad.optim.Adam([w], lr=0.1)
    w.grad = minigrad.tensor([100.0, -0.001])
    opt.step()
    assert repr(w.data) == "tensor([ 4.9000, -2.9000])"
    assert sorted(opt.state[w]) == ["exp_avg", "exp_avg_sq", "step"]
    step = opt.state[w]["step"]
    assert repr(step) == "tensor(1.)"
    assert step.dtype is minigrad.float32
    assert step.ndim == 0


def test_sgd_dampening_reference_example():
    w = nn.Parameter(minigrad.tensor([1.0], dtype=minigrad.float64))
    opt = minigrad.optim.SGD([w], lr=1.0, momentum=0.9, dampening=0.5)
    w.grad = minigrad.tensor([1.0], dtype=minigrad.float64)
    opt.step()
    assert (w.item(), opt.state[w]["momentum_buffer"].item()) == (0.0, 1.0)
    opt.step()
    assert (w.item(), opt.state[w]["momentum_buffer"].item()) == pytest.approx((-1.4, 1.4))
    assert dict(minigrad.optim.SGD([w], lr=0.1).state) == {}


def test_updates_are_in_place_versioned_and_skip_missing_grads():
    a, b = nn.Parameter(minigrad.ones(2)), nn.Parameter(minigrad.ones(2))
    opt = minigrad.optim.SGD([a, b], lr=0.5)
    (a * 3).sum().backward()
    data, version = a.data_ptr(), a._version
    opt.step()
    assert a.data_ptr() == data
    assert a._version == version + 1
    assert a.is_leaf
    assert a.grad_fn is None
    assert a.tolist() == [-0.5, -0.5]
    assert b.tolist() == [1.0, 1.0]
    assert b._version == 0
    assert len(opt.state) == 0


def test_step_between_forward_and_backward_is_caught():
    """Like PyTorch's param.add_(): a graph that saved the parameter refuses to backward after step()."""
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    opt = minigrad.optim.SGD([w], lr=0.1)
    w.grad = minigrad.ones(2)
    loss = (w * w).sum()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_frozen_parameters_are_left_alone():
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    model[0].requires_grad_(False)
    before = model[0].weight.detach().clone()
    opt = minigrad.optim.Adam(model.parameters(), lr=0.1)
    model(minigrad.ones(3, 2)).sum().backward()
    opt.step()
    assert model[0].weight.grad is None
    assert minigrad.equal(model[0].weight, before)
    assert len(opt.state) == 2


def test_zero_grad():
    w = nn.Parameter(minigrad.ones(2))
    opt = minigrad.optim.SGD([w], lr=0.1)
    (w * 3).sum().backward()
    opt.zero_grad()
    assert w.grad is None
    (w * 3).sum().backward()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad
    assert w.grad.tolist() == [0.0, 0.0]


def test_param_groups_defaults_and_add_param_group_match_pytorch():
    def groups(lib):
        a, b, c = (lib.nn.Parameter(lib.ones(1)) for _ in range(3))
        opt = lib.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
        opt.add_param_group({"params": [c], "extra": 1})
        return [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups], opt.defaults

    assert groups(minigrad) == groups(torch)
    for make in (
        lambda lib, p: lib.optim.Adam(p),
        lambda lib, p: lib.optim.AdamW(p),
        lambda lib, p: lib.optim.RMSprop(p),
    ):
        ours = make(minigrad, [nn.Parameter(minigrad.ones(1))])
        theirs = make(torch, [torch.nn.Parameter(torch.ones(1))])
        assert ours.param_groups[0].keys() == theirs.param_groups[0].keys()
        assert ours.defaults == theirs.defaults


def test_state_dict_round_trip_matches_pytorch():
    weights = initial_weights()
    dicts = []
    for lib in (minigrad, torch):
        _, _, opt = train(lib, OPTIMIZERS["Adam"], weights, steps=3)
        state = opt.state_dict()
        dicts.append(state)
        fresh = lib.optim.Adam(list(mlp(lib, weights).parameters()), lr=0.5)
        fresh.load_state_dict(state)
        assert fresh.param_groups[0]["lr"] == 0.01
        first = fresh.param_groups[0]["params"][0]
        assert sorted(fresh.state[first]) == ["exp_avg", "exp_avg_sq", "step"]
        assert fresh.state[first]["exp_avg"] is state["state"][0]["exp_avg"]  # taken over, not copied
    ours, theirs = dicts
    assert ours["param_groups"] == theirs["param_groups"]
    assert list(ours["state"]) == list(theirs["state"])
    for i in theirs["state"]:
        assert list(ours["state"][i]) == list(theirs["state"][i])
        for key, value in theirs["state"][i].items():
            np.testing.assert_allclose(ours["state"][i][key].numpy(), value.numpy(), rtol=1e-4, atol=1e-6)


def error_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception as error:
            return type(error).__name__, str(error)
    return [(w.category.__name__, str(w.message)) for w in caught]


ERRORS = {
    "empty parameter list": lambda lib: lib.optim.SGD([], lr=0.1),
    "exhausted generator": lambda lib: lib.optim.SGD((p for p in []), lr=0.1),
    "non-leaf": lambda lib: lib.optim.SGD([lib.ones(2, requires_grad=True) * 2], lr=0.1),
    "a tensor, not a list": lambda lib: lib.optim.SGD(lib.nn.Parameter(lib.ones(1)), lr=0.1),
    "not a tensor": lambda lib: lib.optim.SGD([1.0], lr=0.1),
    "duplicate parameter": lambda lib: lib.optim.SGD([p := lib.nn.Parameter(lib.ones(1)), p], lr=0.1),
    "parameter in two groups": lambda lib: lib.optim.SGD(
        [{"params": [q := lib.nn.Parameter(lib.ones(1))]}, {"params": [q]}], lr=0.1
    ),
    "nesterov without momentum": lambda lib: lib.optim.SGD(
        [lib.nn.Parameter(lib.ones(1))], lr=0.1, nesterov=True
    ),
    "negative lr": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=-1),
    "negative momentum": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], momentum=-1),
    "negative weight decay": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], weight_decay=-1),
    "beta 1": lambda lib: lib.optim.Adam([lib.nn.Parameter(lib.ones(1))], betas=(1.0, 0.9)),
    "beta 2": lambda lib: lib.optim.AdamW([lib.nn.Parameter(lib.ones(1))], betas=(0.9, 1.5)),
    "epsilon": lambda lib: lib.optim.Adam([lib.nn.Parameter(lib.ones(1))], eps=-1),
    "RMSprop alpha": lambda lib: lib.optim.RMSprop([lib.nn.Parameter(lib.ones(1))], alpha=-1),
    "RMSprop momentum": lambda lib: lib.optim.RMSprop([lib.nn.Parameter(lib.ones(1))], momentum=-1),
    "Adagrad lr_decay": lambda lib: lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))], lr_decay=-1),
    "Adagrad initial_accumulator_value": lambda lib: lib.optim.Adagrad(
        [lib.nn.Parameter(lib.ones(1))], initial_accumulator_value=-0.5
    ),
    "Adagrad epsilon": lambda lib: lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))], eps=-1e-3),
    "load: group count": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]).load_state_dict(
        {"state": {}, "param_groups": []}
    ),
    "load: group size": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]).load_state_dict(
        {"state": {}, "param_groups": [{"params": [0, 1]}]}
    ),
    "scheduler before optimizer": lambda lib: lib.optim.lr_scheduler.StepLR(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), 2
    ).step(),
    "scheduler without optimizer": lambda lib: lib.optim.lr_scheduler.ExponentialLR(None, 0.5),
    "LinearLR start_factor 0": lambda lib: lib.optim.lr_scheduler.LinearLR(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), start_factor=0),
    "ConstantLR factor 2": lambda lib: lib.optim.lr_scheduler.ConstantLR(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), factor=2),
    "ReduceLROnPlateau factor 1": lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), factor=1.0),
    "ReduceLROnPlateau mode": lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), mode="lowest"),
    "OneCycleLR without steps": lambda lib: lib.optim.lr_scheduler.OneCycleLR(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], momentum=0.9), max_lr=0.1),
    "OneCycleLR past the end": lambda lib: [lib.optim.lr_scheduler.OneCycleLR(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], momentum=0.9), max_lr=0.1, total_steps=1).step()
        for _ in range(2)],
    "CyclicLR without momentum": lambda lib: lib.optim.lr_scheduler.CyclicLR(
        lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), 0.01, 0.1),
    "CosineAnnealingWarmRestarts T_0": lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), T_0=0),
    "SequentialLR milestones": lambda lib: lib.optim.lr_scheduler.SequentialLR(
        opt := lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), [lib.optim.lr_scheduler.StepLR(opt, 2)],
        milestones=[3]),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_pytorch(case):
    assert error_of(lambda: ERRORS[case](minigrad)) == error_of(lambda: ERRORS[case](torch))


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5),
        lambda lib, opt: lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
        lambda lib, opt: lib.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (epoch + 1)),
        lambda lib, opt: lib.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 9], gamma=0.5),
        lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4),
        lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=3, eta_min=0.01),
        lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.9 + 0.01 * epoch),
        lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=4),
        lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, end_factor=0.9, total_iters=6),
        lambda lib, opt: lib.optim.lr_scheduler.PolynomialLR(opt, total_iters=8, power=2.0),
        lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001),
        lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
            opt, [lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3),
                  lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8)], milestones=[4]),
        lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler(
            [lib.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=3),
             lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)]),
        lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=3,
                                                         mode="triangular2"),
        lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=2, step_size_down=4,
                                                         mode="exp_range", gamma=0.9),
        lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12),
        lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.5, 1.0], epochs=3, steps_per_epoch=4,
                                                           anneal_strategy="linear", three_phase=True),
    ],
    ids=["StepLR", "ExponentialLR", "LambdaLR", "MultiStepLR", "CosineAnnealingLR", "CosineAnnealingLR eta_min",
         "MultiplicativeLR", "ConstantLR", "LinearLR", "PolynomialLR", "CosineAnnealingWarmRestarts", "SequentialLR",
         "ChainedScheduler", "CyclicLR triangular2", "CyclicLR exp_range", "OneCycleLR", "OneCycleLR three-phase"],
)
def test_schedulers_match_pytorch(make):
    def schedule(lib):
        a, b = lib.nn.Parameter(lib.ones(1)), lib.nn.Parameter(lib.ones(1))
        opt = lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1)
        scheduler = make(lib, opt)
        lrs = [scheduler.get_last_lr()]
        for _ in range(12):
            opt.step()
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
        momenta = [g["momentum"] for g in opt.param_groups]
        groups = [g["lr"] for g in opt.param_groups]
        return lrs, groups, getattr(scheduler, "last_epoch", None), momenta, sorted(opt.param_groups[0])

    ours, theirs = schedule(minigrad), schedule(torch)
    assert ours == theirs                                   # the same floats, bit for bit


def test_momentum_cycles_with_adam_betas_like_pytorch():
    def schedule(lib, make):
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.Adam([w], lr=0.1, betas=(0.9, 0.99))
        scheduler = make(lib, opt)
        seen = []
        for _ in range(10):
            w.grad = lib.ones(2)
            opt.step()
            scheduler.step()
            seen.append((scheduler.get_last_lr(), opt.param_groups[0]["betas"]))
        return seen, w.tolist()

    for make in (lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.3, total_steps=10),
                 lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=3)):
        (ours, w_ours), (theirs, w_theirs) = schedule(minigrad, make), schedule(torch, make)
        assert ours == theirs                               # rates and betas: the same floats
        np.testing.assert_allclose(w_ours, w_theirs, rtol=1e-6)   # float32 Adam steps: the last bit may differ


def test_reduce_lr_on_plateau_matches_pytorch():
    metrics = [1.0, 0.9, 0.9, 0.91, 0.95, 0.89, 0.9, 0.9, 0.9, 0.9, 0.5, 0.6, 0.6, 0.6, 0.6]

    def schedule(lib, **kwargs):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
        seen = []
        for m in metrics:
            opt.step()
            scheduler.step(lib.tensor(m) if lib is torch else minigrad.tensor(m))
            seen.append((scheduler.get_last_lr(), scheduler.num_bad_epochs, scheduler.best, scheduler.last_epoch))
        return seen, isinstance(scheduler, lib.optim.lr_scheduler.LRScheduler)

    for kwargs in ({"patience": 2}, {"mode": "max", "factor": 0.5, "patience": 1, "threshold_mode": "abs"},
                   {"patience": 1, "cooldown": 2, "min_lr": 0.05}):
        assert schedule(minigrad, **kwargs) == schedule(torch, **kwargs)


def test_adagrad_state_exists_before_the_first_step_like_pytorch():
    def fresh(lib):
        opt = lib.optim.Adagrad([lib.nn.Parameter(lib.ones(2))], initial_accumulator_value=0.25)
        state = opt.state_dict()["state"]
        return {i: {k: (str(v.dtype), v.tolist()) for k, v in s.items()} for i, s in state.items()}

    expected = {0: {"step": ("torch.float32", 0.0), "sum": ("torch.float32", [0.25] * 2)}}
    assert fresh(minigrad) == fresh(torch) == expected


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5),
        lambda lib, opt: lib.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5], gamma=0.5),
        lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.01),
    ],
    ids=["StepLR", "MultiStepLR", "CosineAnnealingLR"],
)
def test_schedulers_closed_form_with_epoch_match_pytorch(make):
    """``step(epoch)`` (deprecated, with PyTorch's warning) jumps to the closed-form rate."""

    def schedule(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        scheduler = make(lib, opt)
        opt.step()
        lrs = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in (3, 7, 1, 6):
                scheduler.step(epoch)
                lrs.append(scheduler.get_last_lr()[0])
        return lrs

    np.testing.assert_allclose(schedule(minigrad), schedule(torch), rtol=1e-12)


def test_scheduler_state_dict_keys_match_pytorch():
    def keys(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        return list(lib.optim.lr_scheduler.StepLR(opt, 3).state_dict())

    assert keys(minigrad) == keys(torch)


def test_closure_is_evaluated_with_grad():
    w = nn.Parameter(minigrad.tensor([2.0]))
    opt = minigrad.optim.SGD([w], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with minigrad.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 4.0
    assert w.item() == 1.0
