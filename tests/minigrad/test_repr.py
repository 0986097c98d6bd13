"""``repr``/``print`` of tensors, exactly as PyTorch prints them (reference §1.2, §13)."""

from __future__ import annotations

import pytest

CASES = [
    ("torch.ones(2, requires_grad=True)", "tensor([1., 1.], requires_grad=True)"),
    ("torch.ones(2, requires_grad=True).sum() * 5", "tensor(10., grad_fn=<MulBackward0>)"),
    ("(torch.ones(2, requires_grad=True) * 2).sum()", "tensor(4., grad_fn=<SumBackward0>)"),
    ("torch.ones(2, requires_grad=True).detach()", "tensor([1., 1.])"),
    ("torch.tensor(5.)", "tensor(5.)"),
    ("torch.tensor(5)", "tensor(5)"),
    ("torch.tensor(5., requires_grad=True)", "tensor(5., requires_grad=True)"),
    ("torch.tensor([True, False])", "tensor([ True, False])"),
    (
        "torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 2",
        "tensor([2., 4.], dtype=torch.float64, grad_fn=<MulBackward0>)",
    ),
    ("torch.tensor([1, 2], dtype=torch.int32)", "tensor([1, 2], dtype=torch.int32)"),
    ("torch.tensor([1.5, 2.])", "tensor([1.5000, 2.0000])"),
    ("torch.tensor([-1., 2.])", "tensor([-1.,  2.])"),
    ("torch.tensor([1/3])", "tensor([0.3333])"),
    ("torch.tensor([1.00001, 2.])", "tensor([1.0000, 2.0000])"),
    ("torch.tensor([1., 1000.])", "tensor([   1., 1000.])"),
    ("torch.tensor([1., 1001.])", "tensor([1.0000e+00, 1.0010e+03])"),
    ("torch.tensor([0., 1e9])", "tensor([0.0000e+00, 1.0000e+09])"),
    ("torch.tensor([1e-5, 1.])", "tensor([1.0000e-05, 1.0000e+00])"),
    ("torch.tensor([1.5, float('inf')])", "tensor([1.5000,    inf])"),
    ("torch.tensor([])", "tensor([])"),
    ("torch.ones(2, 0)", "tensor([], size=(2, 0))"),
    (
        "torch.arange(6.).reshape(2, 3).requires_grad_() * 2",
        "tensor([[ 0.,  2.,  4.],\n        [ 6.,  8., 10.]], grad_fn=<MulBackward0>)",
    ),
    ("torch.arange(1001.)", "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])"),
    (
        "torch.ones(1001, requires_grad=True) * 1",
        "tensor([1., 1., 1.,  ..., 1., 1., 1.], grad_fn=<MulBackward0>)",
    ),
    (
        "torch.arange(12.).reshape(2, 3, 2)",
        "tensor([[[ 0.,  1.],\n         [ 2.,  3.],\n         [ 4.,  5.]],\n\n"
        "        [[ 6.,  7.],\n         [ 8.,  9.],\n         [10., 11.]]])",
    ),
    (
        "torch.tensor([[1., 2.], [3., 4.]], requires_grad=True) @ torch.ones(2, 1)",
        "tensor([[3.],\n        [7.]], grad_fn=<MmBackward0>)",
    ),
    ("torch.tensor([2., 1.], requires_grad=True).view(1, 2)", "tensor([[2., 1.]], grad_fn=<ViewBackward0>)"),
    (
        "torch.arange(40.) / 7",
        "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
        "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
        "        2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857, 3.4286, 3.5714, 3.7143,\n"
        "        3.8571, 4.0000, 4.1429, 4.2857, 4.4286, 4.5714, 4.7143, 4.8571, 5.0000,\n"
        "        5.1429, 5.2857, 5.4286, 5.5714])",
    ),
    (
        "torch.arange(2002.).reshape(2, 1001)",
        "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9800e+02, 9.9900e+02,\n"
        "         1.0000e+03],\n"
        "        [1.0010e+03, 1.0020e+03, 1.0030e+03,  ..., 1.9990e+03, 2.0000e+03,\n"
        "         2.0010e+03]])",
    ),
    ("torch.tensor([1, -22, 333])", "tensor([  1, -22, 333])"),
    ("torch.tensor([0.1, -0.0001])", "tensor([ 1.0000e-01, -1.0000e-04])"),
    ("torch.tensor(float('nan'))", "tensor(nan)"),
    ("torch.tensor([1., 2.], dtype=torch.float64)", "tensor([1., 2.], dtype=torch.float64)"),
]


@pytest.mark.parametrize(("code", "expected"), CASES, ids=[c for c, _ in CASES])
def test_repr(lib, code, expected):
    t = eval(code, {"torch": lib})
    assert repr(t) == expected
    assert str(t) == expected


def test_format_and_max_repr(lib):
    assert f"{lib.tensor(2.0, requires_grad=True)}" == "2.0"
    assert f"{lib.tensor(3)}" == "3"
    assert f"{lib.tensor(2.0):.3f}" == "2.000"
    assert f"{lib.tensor([1.0, 2.0])}" == "tensor([1., 2.])"
    with pytest.raises(TypeError, match=r"unsupported format string passed to Tensor.__format__"):
        f"{lib.tensor([1.0, 2.0]):.3f}"
    m = lib.tensor([1.0, 2.0], requires_grad=True).max(dim=0)
    assert repr(m) == (
        "torch.return_types.max(\nvalues=tensor(2., grad_fn=<MaxBackward0>),\nindices=tensor(1))"
    )


def test_grad_fn_and_node_reprs(lib):
    x = lib.tensor([1.0], requires_grad=True)
    y = x * 2
    assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")
    assert repr(y.grad_fn.next_functions[0][0]).startswith("<AccumulateGrad object at 0x")
    assert repr(lib.Size([2, 3])) == "torch.Size([2, 3])"
    assert repr(lib.float32) == "torch.float32"


def test_node_repr_of_a_custom_function_names_its_python_module(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, grad):
            return grad

    y = Square.apply(lib.ones(2, requires_grad=True))
    assert repr(y.grad_fn).startswith("<torch.autograd.function.SquareBackward object at 0x")
    assert y.grad_fn.name() == "SquareBackward"
