"""nn.Module and nn.Parameter: registration, traversal order, modes, state_dict, hooks, repr and errors.

The PyTorch comparisons build the same model with both libraries (``make_net(lib)``) and
compare names, texts and error messages exactly.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import minigrad
from minigrad import nn

torch = pytest.importorskip("torch")


def make_net(lib):
    """The model of reference §8.3, plus a non-persistent buffer."""

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = lib.nn.Linear(3, 4)
            self.head = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
            self.scale = lib.nn.Parameter(lib.ones(1))
            self.register_buffer("running", lib.zeros(1))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)
            self.plain = lib.ones(1)

        def forward(self, x):
            return self.head(self.fc1(x)) * self.scale

    return Net()


def make_zoo(lib):
    """A module using every layer, for repr and state_dict comparisons."""
    n = lib.nn

    class Zoo(n.Module):
        def __init__(self):
            super().__init__()
            self.fc = n.Linear(3, 2)
            self.head = n.Sequential(n.Linear(2, 4), n.ReLU(), n.Dropout(0.2), n.Linear(4, 1), n.Sigmoid())
            self.register_buffer("running", lib.zeros(1))
            self.register_buffer("nothing", None)
            self.emb = n.Embedding(10, 3, padding_idx=0)
            self.acts = n.ModuleList(
                [
                    n.Tanh(),
                    n.LeakyReLU(0.2),
                    n.GELU(),
                    n.GELU("tanh"),
                    n.ReLU(inplace=True),
                    n.Hardtanh(),
                    n.LogSigmoid(),
                ]
            )
            self.heads = n.ModuleDict({"a": n.Softmax(dim=1), "b": n.LogSoftmax(dim=-1), "c": n.Identity()})
            self.flat = n.Sequential(n.Flatten(), n.Flatten(0, -1), n.Unflatten(1, (2, 2)))
            self.empty = n.ModuleList()
            self.no_bias = n.Linear(3, 4, bias=False)
            self.bilinear = n.Bilinear(2, 3, 4)
            self.losses = n.ModuleList(
                [
                    n.MSELoss(),
                    n.L1Loss(reduction="sum"),
                    n.CrossEntropyLoss(),
                    n.CrossEntropyLoss(),
                    n.NLLLoss(),
                    n.BCELoss(),
                    n.BCEWithLogitsLoss(pos_weight=lib.ones(2)),
                ]
            )
            self.nothing_here = None

    return Zoo()


def names(pairs):
    return [name for name, _ in pairs]


# -- registration and traversal ------------------------------------------------------------------


def test_parameter_names_and_order_match_pytorch():
    ours, theirs = make_net(minigrad), make_net(torch)
    assert (
        names(ours.named_parameters())
        == names(theirs.named_parameters())
        == ["scale", "fc1.weight", "fc1.bias", "head.0.weight", "head.0.bias", "head.2.weight", "head.2.bias"]
    )
    assert type(ours.parameters()).__name__ == "generator"
    assert [p.shape for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]


@pytest.mark.parametrize("method", ["named_modules", "named_children", "named_buffers"])
def test_traversals_match_pytorch(method):
    assert names(getattr(make_zoo(minigrad), method)()) == names(getattr(make_zoo(torch), method)())


def test_named_parameters_options_match_pytorch():
    def shared_model(lib):
        shared = lib.nn.Linear(1, 1)
        return lib.nn.Sequential(shared, shared, lib.nn.Linear(1, 1))

    mine, theirs = shared_model(minigrad), shared_model(torch)
    for kwargs in ({}, {"prefix": "m"}, {"recurse": False}, {"remove_duplicate": False}):
        assert names(mine.named_parameters(**kwargs)) == names(theirs.named_parameters(**kwargs))
    assert names(mine.named_modules()) == names(theirs.named_modules()) == ["", "0", "2"]
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert len(list(mine.parameters())) == 4


def test_plain_tensor_attributes_are_not_registered():
    net = make_net(minigrad)
    assert "plain" not in dict(net.named_parameters())
    assert "plain" not in net.state_dict()
    assert names(net.named_buffers()) == ["running", "scratch"]


def test_reassigning_and_deleting_registered_names():
    lin = nn.Linear(2, 1)
    lin.bias = None
    assert names(lin.named_parameters()) == ["weight"]
    assert lin.bias is None
    assert repr(lin) == "Linear(in_features=2, out_features=1, bias=False)"
    del lin.weight
    assert list(lin.parameters()) == []
    assert not hasattr(lin, "weight")
    seq = nn.Sequential(nn.ReLU())
    seq.extra = nn.Tanh()
    assert names(seq.named_children()) == ["0", "extra"]
    seq.extra = None
    assert names(seq.named_children()) == ["0"]


def test_children_modules_and_apply_order():
    inner = nn.Sequential(nn.ReLU())
    model = nn.Sequential(nn.Linear(1, 1), inner)
    assert list(model.children())[1] is inner
    assert [type(m).__name__ for m in model.modules()] == ["Sequential", "Linear", "Sequential", "ReLU"]
    visited = []
    assert model.apply(lambda m: visited.append(type(m).__name__)) is model
    assert visited == ["Linear", "ReLU", "Sequential", "Sequential"]  # children first, as in PyTorch


def test_get_submodule_and_get_parameter():
    net = make_net(minigrad)
    assert net.get_submodule("head.2") is net.head[2]
    assert net.get_parameter("head.0.bias") is net.head[0].bias
    with pytest.raises(AttributeError, match="has no attribute `nope`"):
        net.get_submodule("head.nope")


# -- modes, gradients, dtype -------------------------------------------------------------------------


def test_train_eval_recursive_and_returns_self():
    net = make_net(minigrad)
    assert net.training
    assert net.eval() is net
    assert not net.training
    assert not net.head[0].training
    assert net.train() is net
    assert net.head[2].training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_requires_grad_and_zero_grad():
    net = make_net(minigrad)
    net(minigrad.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    assert net.fc1.requires_grad_(False) is net.fc1
    assert [p.requires_grad for p in net.parameters()] == [True, False, False, True, True, True, True]


def test_double_float_keep_parameter_identity():
    lin = nn.Linear(2, 1)
    weight = lin.weight
    lin(minigrad.ones(1, 2)).sum().backward()
    assert lin.double() is lin
    assert lin.weight is weight
    assert lin.weight.dtype is minigrad.float64
    assert lin.weight.grad.dtype is minigrad.float64
    assert type(lin.weight) is nn.Parameter
    assert lin.weight.requires_grad
    assert lin(minigrad.ones(1, 2, dtype=minigrad.float64)).dtype is minigrad.float64
    assert lin.to(minigrad.float32) is lin
    assert lin.weight.dtype is minigrad.float32
    assert lin.float() is lin
    assert lin.to(minigrad.ones(1)) is lin
    with pytest.raises(TypeError, match=r"nn\.Module\.to only accepts floating point"):
        lin.to(minigrad.int64)


def test_buffers_follow_dtype_conversion():
    net = make_net(minigrad)
    net.double()
    assert net.running.dtype is minigrad.float64
    assert net.scratch.dtype is minigrad.float64


# -- state_dict ---------------------------------------------------------------------------------------


def test_state_dict_keys_values_and_sharing():
    ours, theirs = make_zoo(minigrad), make_zoo(torch)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    net = make_net(minigrad)
    state = net.state_dict()
    assert type(state).__name__ == "OrderedDict"
    assert not state["scale"].requires_grad
    assert type(state["scale"]) is minigrad.Tensor
    assert state["fc1.weight"].data_ptr() == net.fc1.weight.data_ptr()  # detached, same memory
    assert type(net.state_dict(keep_vars=True)["scale"]) is nn.Parameter
    assert list(nn.Linear(1, 1).state_dict(prefix="a.")) == ["a.weight", "a.bias"]


def test_load_state_dict_copies_in_place():
    source, target = make_net(minigrad), make_net(minigrad)
    weight = target.fc1.weight
    version = weight._version
    assert repr(target.load_state_dict(source.state_dict())) == "<All keys matched successfully>"
    assert target.fc1.weight is weight
    assert weight._version == version + 1
    assert np.array_equal(weight.detach().numpy(), source.fc1.weight.detach().numpy())
    target.load_state_dict({k: v.double() for k, v in source.state_dict().items()})
    assert target.fc1.weight.dtype is minigrad.float32  # copied into the float32 param


def load_error(lib, state_changes, strict=True):
    net = make_net(lib)
    state = dict(net.state_dict())
    for key, value in state_changes.items():
        if value is None:
            del state[key]
        else:
            state[key] = value(lib)
    try:
        result = net.load_state_dict(state, strict=strict)
    except RuntimeError as error:
        return str(error)
    return repr(result), result.missing_keys, result.unexpected_keys


@pytest.mark.parametrize(
    "changes",
    [
        {"fc1.bias": None},
        {"extra": lambda lib: lib.ones(1), "head.9.weight": lambda lib: lib.ones(1)},
        {"fc1.bias": None, "head.0.bias": None, "extra": lambda lib: lib.ones(1)},
        {"fc1.weight": lambda lib: lib.ones(5, 5)},
        {"fc1.weight": lambda lib: lib.ones(5, 5), "running": None, "fc1.extra": lambda lib: lib.ones(1)},
    ],
    ids=["missing", "unexpected", "both", "size mismatch", "all three"],
)
@pytest.mark.parametrize("strict", [True, False])
def test_load_state_dict_errors_match_pytorch(changes, strict):
    ours, theirs = load_error(minigrad, changes, strict), load_error(torch, changes, strict)
    assert ours == theirs


def test_load_state_dict_error_text():
    net = make_net(minigrad)
    state = dict(net.state_dict())
    del state["fc1.bias"]
    state["extra"] = minigrad.ones(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(state)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc1.bias". '
        '\n\tUnexpected key(s) in state_dict: "extra". '
    )
    with pytest.raises(TypeError, match=r"Expected state_dict to be dict-like, got <class 'int'>\."):
        net.load_state_dict(5)


def test_load_state_dict_assign():
    lin = nn.Linear(2, 1)
    new = {"weight": minigrad.ones(1, 2), "bias": minigrad.zeros(1)}
    lin.load_state_dict(new, assign=True)
    assert type(lin.weight) is nn.Parameter
    assert lin.weight.requires_grad
    assert lin.weight.data_ptr() == new["weight"].data_ptr()


# -- hooks --------------------------------------------------------------------------------------------


def test_forward_hooks_run_only_through_call():
    lin = nn.Linear(2, 2)
    calls = []
    lin.register_forward_pre_hook(lambda m, args: calls.append(("pre", type(args).__name__, len(args))))
    lin.register_forward_hook(lambda m, args, out: calls.append(("fwd", m is lin, out.shape)))
    lin(minigrad.ones(1, 2))
    lin.forward(minigrad.ones(1, 2))
    assert calls == [("pre", "tuple", 1), ("fwd", True, (1, 2))]


def test_hooks_replace_inputs_and_outputs_and_remove():
    relu = nn.ReLU()
    x = minigrad.tensor([-1.0, 2.0])
    pre = relu.register_forward_pre_hook(lambda m, args: -args[0])  # a non-tuple becomes (value,)
    post = relu.register_forward_hook(lambda m, args, out: out + 100)
    assert relu(x).tolist() == [101.0, 100.0]
    pre.remove()
    pre.remove()  # idempotent
    assert relu(x).tolist() == [100.0, 102.0]
    with post:
        pass
    assert relu(x).tolist() == [0.0, 2.0]


def test_hooks_with_kwargs_and_prepend():
    lin = nn.Identity()
    seen = []
    lin.register_forward_pre_hook(lambda m, args, kwargs: seen.append(("pre", kwargs)), with_kwargs=True)
    lin.register_forward_hook(
        lambda m, args, kwargs, out: seen.append(("fwd", args, kwargs)), with_kwargs=True
    )
    lin.register_forward_hook(lambda m, args, out: seen.append("first"), prepend=True)
    lin(input=1)
    assert seen == [("pre", {"input": 1}), "first", ("fwd", (), {"input": 1})]


def test_global_module_hooks():
    seen = []
    with nn.register_module_forward_hook(lambda m, args, out: seen.append(type(m).__name__)):
        nn.Sequential(nn.ReLU(), nn.Tanh())(minigrad.ones(1))
    nn.ReLU()(minigrad.ones(1))
    assert seen == ["ReLU", "Tanh", "Sequential"]


def _grads(gs):
    return tuple(None if g is None else np.round(g.detach().numpy(), 4).tolist() for g in gs)


def _linear(lib, scale=1.0):
    lin = lib.nn.Linear(2, 1)
    with lib.no_grad():
        lin.weight.fill_(scale)
        lin.bias.fill_(0.0)
    return lin


def _two_inputs(lib):
    class Two(lib.nn.Module):
        def forward(self, x, y, scale=2.0):
            return x * y * scale, (x + y).sum()

    return Two()


def backward_hook_story(lib):
    """What full backward hooks see, in order, for the cases PyTorch documents; one log per library."""
    log = []
    x = lib.tensor([[1.0, 2.0]], requires_grad=True)

    lin = _linear(lib)
    lin.register_full_backward_pre_hook(lambda m, go: log.append(("pre", _grads(go))))
    handle = lin.register_full_backward_hook(lambda m, gi, go: log.append(("hook", _grads(gi), _grads(go))))
    out = lin(x)
    log.append(out.grad_fn.name())
    (out * 3).sum().backward()
    log.append(("x.grad", _grads([x.grad, lin.weight.grad])))
    handle.remove()
    log.append(lin(x).grad_fn.name())                      # the pre-hook is still there

    # replacing grad_output (pre-hook) and grad_input (hook)
    x.grad = None
    lin = _linear(lib, 2.0)
    lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
    lin.register_full_backward_pre_hook(lambda m, go: (go[0] + 1,))
    (lin(x) * 3).sum().backward()
    log.append(("replaced", _grads([x.grad, lin.weight.grad])))

    # several inputs (one not requiring grad: zeros, as in PyTorch), a non-tensor one, two outputs
    two = _two_inputs(lib)
    two.register_full_backward_pre_hook(lambda m, go: log.append(("two pre", _grads(go))))
    two.register_full_backward_hook(lambda m, gi, go: log.append(("two", _grads(gi), _grads(go))))
    a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0])
    o1, o2 = two(a, b, 3.0)
    log.append((o1.grad_fn.name(), o2.grad_fn.name()))
    (o1.sum() * 2).backward()
    o1, o2 = two(b, a)
    (o1.sum() + o2 * 5).backward()
    two(a, a)[1].backward()
    log.append(("a.grad", _grads([a.grad])))

    # hooks on each layer of a model, and prepend
    seq = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
    for name, layer in seq.named_children():
        layer.register_full_backward_hook(
            lambda m, gi, go, name=name: log.append((name, [tuple(g.shape) for g in gi], [tuple(g.shape) for g in go]))
        )
    seq[0].register_full_backward_hook(lambda m, gi, go: log.append("first"), prepend=True)
    seq(x).sum().backward()
    with lib.no_grad():
        log.append(seq(x).grad_fn is None)
    return log


def test_full_backward_hooks_match_pytorch():
    assert backward_hook_story(minigrad) == backward_hook_story(torch)


@pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])
def test_full_backward_hook_without_input_grad_fires_from_the_output_with_a_warning(lib):
    firing = "Full backward hook is firing when gradients are computed with respect to module outputs"
    seen = []
    lin = _linear(lib)
    lin.register_full_backward_hook(lambda m, gi, go: seen.append((gi, _grads(go))))
    with pytest.warns(UserWarning, match=firing):
        lin(lib.ones(1, 2)).sum().backward()
    assert seen == [((None,), ([[1.0]],))]
    lin.register_full_backward_hook(lambda m, gi, go: (lib.ones(1, 2),))
    with pytest.warns(UserWarning, match=firing), pytest.raises(RuntimeError, match="where no input requires gradient"):
        lin(lib.ones(1, 2)).sum().backward()


@pytest.mark.parametrize(
    "register",
    [
        lambda m: m.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0])),
        lambda m: m.register_full_backward_pre_hook(lambda m, go: ()),
    ],
    ids=["hook", "pre-hook"],
)
def test_backward_hook_returning_the_wrong_count_errors_like_pytorch(register):
    def error(lib):
        lin = _linear(lib)
        register(lin)
        with pytest.raises(RuntimeError) as info:
            lin(lib.ones(1, 2, requires_grad=True)).sum().backward()
        return str(info.value)

    assert error(minigrad) == error(torch)


# -- repr ------------------------------------------------------------------------------------------------


def test_module_tree_repr_matches_pytorch():
    assert repr(make_zoo(minigrad)) == repr(make_zoo(torch))


def test_extra_repr_multiline_matches_pytorch():
    reprs = []
    for lib in (minigrad, torch):

        class WithExtra(lib.nn.Module):
            def __init__(self, child, lib=lib):
                super().__init__()
                if child:
                    self.fc = lib.nn.Linear(2, 1)

            def extra_repr(self):
                return "a\nb"

        reprs.append(
            (
                repr(WithExtra(True)),
                repr(WithExtra(False)),
                repr(lib.nn.Sequential()),
                repr(lib.nn.Softmax()),
                repr(lib.nn.Embedding(5, 3, max_norm=1.0)),
            )
        )
    assert reprs[0] == reprs[1]


# -- errors --------------------------------------------------------------------------------------------


def error_of(fn):
    try:
        fn()
    except Exception as error:
        return type(error).__name__, str(error)
    return None


ERROR_CASES = {
    "missing attribute": lambda lib: lib.nn.Linear(1, 1).foo,
    "tensor as parameter": lambda lib: setattr(lib.nn.Linear(1, 2), "weight", lib.ones(2, 1)),
    "tensor as module": lambda lib: setattr(lib.nn.Sequential(lib.nn.ReLU()), "0", lib.ones(1)),
    "buffer name taken": lambda lib: lib.nn.Linear(1, 1).register_buffer("weight", lib.ones(1)),
    "buffer name with dot": lambda lib: lib.nn.Linear(1, 1).register_buffer("a.b", lib.ones(1)),
    "buffer not a tensor": lambda lib: lib.nn.Linear(1, 1).register_buffer("q", 5),
    "parameter not a Parameter": lambda lib: lib.nn.Linear(1, 1).register_parameter("q", lib.ones(1)),
    "module name with dot": lambda lib: lib.nn.Linear(1, 1).add_module("a.b", lib.nn.ReLU()),
    "module not a Module": lambda lib: lib.nn.Linear(1, 1).add_module("y", 5),
    "no forward": lambda lib: lib.nn.Module()(1),
    "int Parameter": lambda lib: lib.nn.Parameter(lib.tensor([1, 2])),
    "sequential index": lambda lib: lib.nn.Sequential(lib.nn.ReLU())[3],
    "sequential negative index": lambda lib: lib.nn.Sequential(lib.nn.ReLU())[-3],
    "module list index": lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[1],
}


@pytest.mark.parametrize("case", ERROR_CASES)
def test_errors_match_pytorch(case):
    assert error_of(lambda: ERROR_CASES[case](minigrad)) == error_of(lambda: ERROR_CASES[case](torch))


def test_assignment_before_init_errors_match_pytorch():
    for kind in ("module", "parameters"):
        results = []
        for lib in (minigrad, torch):

            class Early(lib.nn.Module):
                def __init__(self, kind=kind, lib=lib):
                    if kind == "module":
                        self.fc = lib.nn.Linear(1, 1)
                    else:
                        self.p = lib.nn.Parameter(lib.ones(1))

            results.append(error_of(Early))
        assert results[0] == results[1]


# -- Parameter ---------------------------------------------------------------------------------------------


def test_parameter_repr_matches_pytorch():
    for make in (
        lambda lib: lib.nn.Parameter(lib.tensor([1.0, 2.5])),
        lambda lib: lib.nn.Parameter(lib.tensor([1, 2]), requires_grad=False),
        lambda lib: lib.nn.Parameter(),
        lambda lib: lib.nn.Parameter(lib.ones(2, 2)) * 2,
    ):
        assert repr(make(minigrad)) == repr(make(torch))


def test_parameter_is_a_leaf_sharing_memory_and_ops_give_tensors():
    data = minigrad.ones(2)
    p = nn.Parameter(data)
    assert p.is_leaf
    assert p.requires_grad
    assert p.grad_fn is None
    assert isinstance(p, minigrad.Tensor)
    data[0] = 5.0
    assert p.tolist() == [5.0, 1.0]
    assert p._version == data._version
    for result in (p * 2, p.detach(), p.data, p.clone(), p > 0, p.sum()):
        assert type(result) is minigrad.Tensor
    assert type(copy.deepcopy(p)) is nn.Parameter
    restored = pickle.loads(pickle.dumps(p))
    assert type(restored) is nn.Parameter
    assert restored.tolist() == [5.0, 1.0]
    assert restored.requires_grad
