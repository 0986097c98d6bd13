"""In-place operations: version counters, PyTorch's errors (reference §7), re-based grad_fn, .data."""

from __future__ import annotations

import re

import pytest

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def test_in_place_on_a_leaf_that_requires_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    for op in (lambda: x.add_(1), lambda: x.mul_(2), lambda: x.zero_(), lambda: x.clamp_(0, 1)):
        with pytest.raises(RuntimeError) as info:
            op()
        assert str(info.value) == LEAF
    with pytest.raises(RuntimeError) as info:
        x += 1
    assert str(info.value) == LEAF
    with pytest.raises(RuntimeError) as info:
        x[0] = 5.0
    assert str(info.value) == VIEW_OF_LEAF
    with pytest.raises(RuntimeError) as info:
        x[0].mul_(2)
    assert str(info.value) == VIEW_OF_LEAF
    assert x._version == 0
    assert x.tolist() == [1.0, 2.0]


def test_manual_sgd_under_no_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    with lib.no_grad():
        x -= 0.1 * x.grad
    assert [round(v, 4) for v in x.tolist()] == [0.8, 1.6]
    assert (x._version, x.is_leaf, x.grad_fn) == (1, True, None)
    x2 = x - 0.1 * x.grad
    assert not x2.is_leaf
    assert x2.grad_fn.name() == "SubBackward0"


def test_version_counter(lib):
    x = lib.tensor([1.0, 2.0])
    x.add_(1)
    x += 1
    x[0] = 0.0
    assert x._version == 3
    x.view(2).mul_(2)
    x.detach().add_(1)
    assert x._version == 5
    x.data.add_(1)
    x.data = lib.zeros(2)
    assert x._version == 5


def _inplace_message(lib, code):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    ns = {"x": x, "w": w, "torch": lib}
    exec(code, ns)
    try:
        ns["y"].sum().backward()
    except RuntimeError as e:
        return str(e)
    return "OK %s" % x.grad.tolist()


def test_modified_saved_tensor_messages(lib):
    """The op that last wrote the tensor and the versions, as PyTorch 2.13 prints them (reference §7.3)."""
    full = _inplace_message(lib, "y = x.sigmoid(); y.mul_(2)")
    assert full == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to "
        "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )
    got = {
        code: re.search(r"\[torch.*?instead|OK.*", _inplace_message(lib, code)).group()
        for code in (
            "y = x.sigmoid(); y.mul_(2)",
            "y = x.exp(); y += 1",
            "h = x * 1; y = h * h; h.add_(1)",
            "y = x * w\nwith torch.no_grad(): w.add_(1)",
            "y = x + 1; y.mul_(2)",
        )
    }
    ver = "is at version 1; expected version 0 instead"
    assert got == {
        "y = x.sigmoid(); y.mul_(2)": "[torch.FloatTensor [2]], which is output 0 of Sigmoid, " + ver,
        "y = x.exp(); y += 1": "[torch.FloatTensor [2]], which is output 0 of Exp, " + ver,
        "h = x * 1; y = h * h; h.add_(1)": "[torch.FloatTensor [2]], which is output 0 of Add, " + ver,
        "y = x * w\nwith torch.no_grad(): w.add_(1)": "[torch.FloatTensor [2]] " + ver,
        "y = x + 1; y.mul_(2)": "OK [2.0, 2.0]",
    }


def test_detach_shares_the_version_counter_so_backward_catches_writes(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    x.detach().mul_(2)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.sum().backward()


def test_data_bypasses_tracking(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.data.mul_(0)
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]  # silently wrong, as in PyTorch
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    x.data = lib.tensor([5.0, 5.0])
    y.sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]
    x.data = lib.tensor([7.0, 8.0, 9.0])
    assert repr(x) == "tensor([7., 8., 9.], requires_grad=True)"
    d = x.data
    assert (d.requires_grad, d.is_leaf) == (False, True)


def test_in_place_on_a_non_leaf_rebases_grad_fn(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    before = id(y)
    y += 1
    assert id(y) == before
    assert y.grad_fn.name() == "AddBackward0"
    y.mul_(3)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    names = {}
    for op, code in [
        ("zero_", "y.zero_()"),
        ("fill_", "y.fill_(2.)"),
        ("copy_", "y.copy_(x)"),
        ("relu_", "y.relu_()"),
        ("setitem", "y[0] = 5."),
    ]:
        y = x * 1
        exec(code, {"y": y, "x": x})
        names[op] = y.grad_fn.name()
    assert names == {
        "zero_": "ZeroBackward0",
        "fill_": "FillBackward2",
        "copy_": "torch::autograd::CopyBackwards",
        "relu_": "ReluBackward0",
        "setitem": "torch::autograd::CopySlices",
    }


def test_in_place_through_a_view_of_a_non_leaf(lib):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    row = y[0]
    row.mul_(10)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert row.grad_fn.name() == "AsStridedBackward0"
    assert y.tolist() == [[10.0, 20.0], [3.0, 4.0]]
    assert y._version == row._version == 1
    (y * y).sum().backward()
    assert x.grad.tolist() == [[200.0, 400.0], [6.0, 8.0]]


def test_setitem_with_a_tensor_value_routes_its_gradient(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = lib.tensor(5.0, requires_grad=True)
    y = x * 2
    y[1] = v * 3
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 2.0]
    assert v.grad.item() == 3.0


def test_int_tensor_cannot_take_a_float_in_place(lib):
    t = lib.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        t += 1.5


def test_inplace_twin_records_when_only_the_other_operand_requires_grad(lib):
    """``x.atan2_(y)`` / ``x.pow_(y)`` with only ``y`` requiring grad: recorded (Atan2Backward0, PowBackward1)."""
    y = lib.tensor([0.5, 1.0], requires_grad=True)
    x = lib.tensor([1.0, 2.0])
    x.atan2_(y)
    assert type(x.grad_fn).__name__ == "Atan2Backward0"
    assert x.requires_grad
    x.sum().backward()
    assert [round(v, 4) for v in y.grad.tolist()] == [-0.8, -0.4]
    z = lib.tensor([1.0, 2.0])
    z.pow_(y)
    assert type(z.grad_fn).__name__ == "PowBackward1"
