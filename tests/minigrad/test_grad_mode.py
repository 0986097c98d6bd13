"""Grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode), decorators, detach, requires_grad."""

from __future__ import annotations

import pytest

import minigrad


def test_no_grad_results_are_leaves_without_grad_fn(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.no_grad():
        y = x * 2
        assert not lib.is_grad_enabled()
        assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)
        assert lib.ones(1, requires_grad=True).requires_grad
        with lib.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    assert lib.is_grad_enabled()


def test_view_under_no_grad_still_says_requires_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.no_grad():
        v = x.view(2)
    assert (v.requires_grad, v.is_leaf, v.grad_fn) == (True, True, None)


def test_nested_modes_restore_on_exit_even_after_an_error(lib):
    with lib.no_grad():
        with lib.enable_grad():
            with lib.set_grad_enabled(False):
                assert not lib.is_grad_enabled()
            assert lib.is_grad_enabled()
        with pytest.raises(ValueError, match="inside"), lib.enable_grad():
            raise ValueError("inside")
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled()


def test_decorators_with_and_without_parentheses(lib):
    x = lib.tensor([1.0], requires_grad=True)

    @lib.no_grad
    def f(t):
        return t * 2

    @lib.no_grad()
    def g(t):
        return t * 2

    @lib.enable_grad()
    def h(t):
        return t * 2

    @lib.no_grad()
    def gen(t):
        yield t * 2

    assert not f(x).requires_grad
    assert not g(x).requires_grad
    assert not next(gen(x)).requires_grad
    with lib.no_grad():
        assert h(x).requires_grad
    assert lib.is_grad_enabled()


def test_set_grad_enabled_as_a_function_and_as_a_context(lib):
    x = lib.tensor([1.0], requires_grad=True)
    lib.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        lib.set_grad_enabled(True)
    with lib.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert (x * 2).requires_grad


def test_inference_mode(lib):
    x = lib.tensor([1.0], requires_grad=True)
    with lib.inference_mode():
        y = x * 2
        assert (
            y.requires_grad,
            lib.is_grad_enabled(),
            lib.is_inference_mode_enabled(),
            y.is_inference(),
        ) == (False, False, True, True)
    assert not lib.is_inference_mode_enabled()
    assert not x.is_inference()
    with pytest.raises(RuntimeError) as info:
        y * x
    assert str(info.value).startswith(
        "Inference tensors cannot be saved for backward. Please do not use Tensors "
        "created in inference mode in computation tracked by autograd."
    )
    with pytest.raises(RuntimeError) as info:
        y.add_(1)
    assert str(info.value) == (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
        "a clone to get a normal tensor before doing inplace update.See "
        "https://github.com/pytorch/rfcs/pull/17 for more details."
    )
    z = y.clone() * x  # a clone made outside inference mode is a normal tensor
    assert z.requires_grad

    @lib.inference_mode()
    def f(t):
        return t * 2

    assert f(x).is_inference()


def test_detach_shares_data_and_version(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = x.detach()
    d[0] = 100.0
    assert (d.requires_grad, d.is_leaf, x.tolist(), x._version) == (False, True, [100.0, 2.0, 3.0], 1)
    y = x * 2
    assert y.detach_() is y
    assert (y.requires_grad, y.grad_fn) == (False, None)
    with pytest.raises(RuntimeError, match=r"Can't detach views in-place. Use detach\(\) instead."):
        (x * 2).view(3).detach_()


def test_requires_grad_toggles(lib):
    x = lib.tensor([1.0, 2.0])
    assert x.requires_grad_() is x
    assert x.requires_grad
    y = x * 2
    with pytest.raises(RuntimeError) as info:
        y.requires_grad_(False)
    assert str(info.value) == (
        "you can only change requires_grad flags of leaf variables. If you want to use a "
        "computed variable in a subgraph that doesn't require differentiation use "
        "var_no_grad = var.detach()."
    )
    assert y.requires_grad_(True) is y
    with pytest.raises(RuntimeError) as info:
        y.requires_grad = True
    assert str(info.value) == "you can only change requires_grad flags of leaf variables."


def test_requires_grad_propagation(lib):
    a = lib.rand(3)
    b = lib.rand(3, requires_grad=True)
    c = b * 2
    assert (a.is_leaf, b.is_leaf, c.is_leaf, (a * 2).is_leaf, c.detach().is_leaf, b.view(3).is_leaf) == (
        True,
        True,
        False,
        True,
        True,
        False,
    )
    assert ((b > 2).requires_grad, b.argmax().requires_grad, b.long().requires_grad) == (False, False, False)
    assert (a * 2).grad_fn is None
    assert b.grad_fn is None
    assert (lib.ones(2).requires_grad, (lib.ones(2) * 2).requires_grad, (b * a).requires_grad) == (
        False,
        False,
        True,
    )


def test_volatile(lib):
    x = lib.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning, match=r"volatile was removed \(Variable.volatile is always False\)"):
        assert x.volatile is False
    with pytest.warns(
        UserWarning,
        match="volatile was removed and now has no effect. Use `with torch.no_grad\\(\\):` instead.",
    ):
        x.volatile = True
    with pytest.raises(TypeError, match="tensor\\(\\) got an unexpected keyword argument 'volatile'"):
        lib.tensor([1.0], volatile=True)


def test_variable_is_a_tensor(lib):
    v = lib.autograd.Variable(lib.ones(2), requires_grad=True)
    assert type(v) is lib.Tensor
    assert v.requires_grad
    assert repr(v) == "tensor([1., 1.], requires_grad=True)"


def test_variable_is_a_detached_copy(lib):
    """``Variable(t, requires_grad=True)`` shares t's memory but not its flag or history (MorvanZhou's tutorial
    prints ``t`` after it: no ``requires_grad=True``)."""
    t = lib.ones(2)
    v = lib.autograd.Variable(t, requires_grad=True)
    assert v is not t
    assert (t.requires_grad, v.requires_grad, v.is_leaf) == (False, True, True)
    assert v.data_ptr() == t.data_ptr()
    y = lib.ones(2, requires_grad=True) * 2
    w = lib.autograd.Variable(y)
    assert (w.grad_fn, w.requires_grad, y.requires_grad) == (None, False, True)


def test_minigrad_modes_are_cheap_objects():
    """The modes are plain context managers: entering does not copy or touch tensors."""
    x = minigrad.ones(3, requires_grad=True)
    with minigrad.no_grad(), minigrad.enable_grad(), minigrad.inference_mode(False):
        assert (x * 2).requires_grad
