"""Bad input gets PyTorch's exception type and message; dtype defaults and promotion.

Reference §1, §3, §11 and §13.
"""

from __future__ import annotations

import pytest


def raises(exc, message):
    """``pytest.raises`` on the exact message (not a regex)."""
    import re

    return pytest.raises(exc, match="^" + re.escape(message) + "$")


# -- errors ------------------------------------------------------------------------------------------------


def test_non_scalar_implicit_gradient(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    x.sum().reshape(1, 1).backward()  # one element of any shape is fine
    assert x.grad.tolist() == [1.0, 1.0, 1.0]
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        lib.autograd.grad(x * 3, x)


def test_gradient_of_the_wrong_shape_or_type(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with raises(
        RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a "
        "shape of torch.Size([3]).",
    ):
        y.backward(lib.ones(2), retain_graph=True)
    y.backward(lib.ones(3, dtype=lib.int64), retain_graph=True)
    assert str(x.grad.dtype) == "torch.float32"
    with raises(TypeError, "gradients can be either Tensors or None, but got float"):
        y.backward([1.0, 1.0, 1.0])
    with raises(TypeError, "'float' object is not iterable"):
        y.backward(1.0)


def test_backward_on_a_tensor_without_grad(lib):
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"):
        (lib.tensor([1.0, 2.0]) * 2).sum().backward()
    x = lib.tensor([1.0], requires_grad=True)
    with lib.no_grad():
        y = x * 2
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"):
        y.backward()
    with raises(RuntimeError, "element 1 of tensors does not require grad and does not have a grad_fn"):
        lib.autograd.backward([x * 2, y])


def test_integer_tensors_cannot_require_grad(lib):
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"):
        lib.tensor([1, 2], requires_grad=True)
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        lib.tensor([1, 2]).requires_grad_()
    t = lib.tensor([1, 2])
    with raises(RuntimeError, "only Tensors of floating point and complex dtype can require gradients"):
        t.requires_grad = True
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"):
        lib.arange(3, requires_grad=True)


def test_shape_mismatches_name_both_shapes(lib):
    with raises(
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    ):
        lib.ones(2, 3) + lib.ones(4)
    with raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"):
        lib.ones(2, 3) @ lib.ones(2, 3)
    with raises(
        RuntimeError,
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.",
    ):
        lib.ones(2, 3).t().view(6)
    with raises(RuntimeError, "shape '[4, 2]' is invalid for input of size 6"):
        lib.ones(2, 3).reshape(4, 2)
    with raises(RuntimeError, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                              "dimension 0"):
        lib.ones(3).expand(-1, 3)
    assert lib.ones(2, 1).expand(-1, 3).shape == (2, 3)


def test_grad_assignment_checks(lib):
    x = lib.randn(2, 3, requires_grad=True)
    with raises(
        RuntimeError,
        "attempting to assign a gradient of size '[3]' to a tensor of size '[2, 3]'. Please "
        "ensure that the gradient and the tensor are the same size",
    ):
        x.grad = lib.ones(3)
    with pytest.raises(
        RuntimeError,
        match="attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'",
    ):
        x.grad = lib.ones(2, 3, dtype=lib.float64)


def test_conversions(lib):
    x = lib.tensor([3.5], requires_grad=True)
    assert x.item() == 3.5
    assert type(x.item()) is float
    assert lib.tensor(2).item() == 2
    assert lib.tensor(0.1).item() == pytest.approx(0.10000000149011612, abs=0)
    with raises(RuntimeError, "a Tensor with 2 elements cannot be converted to Scalar"):
        lib.tensor([1.0, 2.0]).item()
    m = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert m.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with raises(
        RuntimeError, "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    ):
        (m * 2).numpy()
    with raises(RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"):
        bool(lib.tensor([1.0, 2.0]) > 0)
    with raises(TypeError, "len() of a 0-d tensor"):
        len(lib.tensor(1.0))


def test_negative_sizes(lib):
    with raises(RuntimeError, "zeros: Dimension size must be non-negative."):
        lib.zeros(-1)
    with raises(RuntimeError, "zeros: Dimension size must be non-negative."):
        lib.zeros((2, -3))
    for make in (lambda: lib.ones(2, -3), lambda: lib.empty((2, -3)), lambda: lib.randn(2, -3),
                 lambda: lib.full((2, -3), 1.0), lambda: lib.ones(1).new_zeros(2, -3)):
        with raises(RuntimeError, "Trying to create tensor with negative dimension -3: [2, -3]"):
            make()


@pytest.mark.parametrize(("code", "message"), [
    ("x + [1, 2]", "unsupported operand type(s) for +: 'Tensor' and 'list'"),
    ("x + 'a'", "unsupported operand type(s) for +: 'Tensor' and 'str'"),
    ("x - None", "unsupported operand type(s) for -: 'Tensor' and 'NoneType'"),
    ("[1] - x", "unsupported operand type(s) for -: 'list' and 'Tensor'"),
    ("x / [1]", "unsupported operand type(s) for /: 'Tensor' and 'list'"),
    ("'a' / x", "unsupported operand type(s) for /: 'str' and 'Tensor'"),
    ("x // [1]", "unsupported operand type(s) for //: 'Tensor' and 'list'"),
    ("x ** 'a'", "unsupported operand type(s) for ** or pow(): 'Tensor' and 'str'"),
    ("x @ [1, 2]", "unsupported operand type(s) for @: 'Tensor' and 'list'"),
    ("x < 'a'", "'<' not supported between instances of 'Tensor' and 'str'"),
    ("x * 'a'", "only integer tensors of a single element can be converted to an index"),
])
def test_operands_of_other_types(lib, code, message):
    x = lib.tensor([1.0, 2.0])
    with raises(TypeError, message):
        eval(code)
    assert (x == "a") is False
    assert (x != [1, 2]) is True
    assert [10, 20, 30][lib.tensor(2)] == 30


def test_new_ops_errors(lib):
    x = lib.ones(3, 4)
    with raises(RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"):
        lib.diag(lib.ones(2, 2, 2))
    with raises(RuntimeError, "diagonal dimensions cannot be identical 1, -1"):
        lib.ones(2, 2).diagonal(0, 1, -1)
    with raises(RuntimeError, "trace: expected a matrix, but got tensor with dim 3"):
        lib.ones(2, 2, 2).trace()
    with raises(RuntimeError, "`shifts` required"):
        x.roll(())
    with raises(RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1"):
        x.roll((1, 2), 0)
    with raises(RuntimeError, "dim 1 appears multiple times in the list of dims"):
        lib.ones(2, 1).squeeze((1, -1))
    with raises(RuntimeError, "scatter(): Expected dtype int32/int64 for index"):
        x.scatter(1, lib.tensor([[0.0]]), 1.0)
    with raises(RuntimeError, "Index tensor must have the same number of dimensions as self tensor"):
        x.scatter(1, lib.tensor([0]), 1.0)
    with raises(RuntimeError, "index 4 is out of bounds for dimension 1 with size 4"):
        x.scatter_(1, lib.tensor([[4]]), 1.0)
    with raises(RuntimeError, "Expected index [2, 2] to be no larger than self [3, 4] apart from dimension 1 and to "
                              "be no larger size than src [1, 1]"):
        x.scatter_add(1, lib.zeros(2, 2, dtype=lib.int64), lib.ones(1, 1))
    with raises(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype"):
        x.scatter(1, lib.tensor([[0]]), lib.ones(1, 1, dtype=lib.float64))
    with raises(IndexError, "index_select(): Index is supposed to be a vector"):
        x.index_select(0, lib.tensor([[0]]))
    with raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index"):
        x.index_select(0, lib.tensor([0.0]))
    with raises(RuntimeError, "masked_select: expected BoolTensor for mask"):
        x.masked_select(x)
    with raises(TypeError, "sum() got an unexpected keyword argument 'axis'"):
        x.sum(dim=0, axis=0)


@pytest.mark.parametrize(("args", "message"), [
    (("ij,jk->ik", (2, 3)), "einsum(): fewer operands were provided than specified in the equation"),
    (("i", (2,), (2,)), "einsum(): more operands were provided than specified in the equation"),
    (("ij->ik", (2, 3)), "einsum(): output subscript k does not appear in the equation for any input operand"),
    (("ij->jj", (2, 2)), "einsum(): output subscript j appears more than once in the output"),
    (("ij->i", (2, 3, 4)), "einsum(): the number of subscripts in the equation (2) does not match the number of "
                           "dimensions (3) for operand 0 and no ellipsis was given"),
    (("i,i", (2,), (3,)), "einsum(): subscript i has size 3 for operand 1 which does not broadcast with previously "
                          "seen size 2"),
])
def test_einsum_errors(lib, args, message):
    equation, *shapes = args
    with raises(RuntimeError, message):
        lib.einsum(equation, *[lib.ones(s) for s in shapes])
    with raises(RuntimeError, "expected scalar type Float but found Double"):
        lib.einsum("i,i->", lib.ones(2), lib.ones(2, dtype=lib.float64))


# -- dtypes --------------------------------------------------------------------------------------------------


def test_default_dtypes(lib):
    assert [
        str(t.dtype) for t in (lib.tensor([1.0, 2.0]), lib.tensor([1, 2]), lib.arange(3), lib.Tensor([1, 2]))
    ] == ["torch.float32", "torch.int64", "torch.int64", "torch.float32"]


@pytest.mark.parametrize(
    ("code", "dtype"),
    [
        ("f32 + 1.5", "float32"),
        ("f32 + f64", "float64"),
        ("f32 + torch.tensor(1., dtype=torch.float64)", "float32"),
        ("torch.tensor(1.) + f64", "float64"),
        ("i64 + 1.5", "float32"),
        ("i64 / 2", "float32"),
        ("i64 // 2", "int64"),
        ("i64 * f32", "float32"),
        ("torch.tensor([True]) + 1", "int64"),
        ("i64 * 2", "int64"),
        ("torch.tensor([True]) * 2.5", "float32"),
        ("f64 * 0.1", "float64"),
        ("2 ** f32", "float32"),
        ("f32 ** 2", "float32"),
        ("i64 ** 2", "int64"),
        ("torch.where(f32 > 1, f32, 0.5)", "float32"),
        ("torch.where(f32 > 1, f64, 0)", "float64"),
        ("i64.sum()", "int64"),
        ("f32.exp()", "float32"),
        ("i64.exp()", "float32"),
        ("i64 > 1.5", "bool"),
    ],
)
def test_promotion(lib, code, dtype):
    ns = {
        "torch": lib,
        "f32": lib.tensor([1.0, 2.0]),
        "f64": lib.tensor([1.0, 2.0], dtype=lib.float64),
        "i64": lib.tensor([1, 2]),
    }
    assert str(eval(code, ns).dtype) == "torch." + dtype


def test_python_floats_keep_double_precision_with_float64(lib):
    x = lib.tensor([1.0], dtype=lib.float64)
    assert (x * 0.1).item() == 0.1
    assert (x + 0.1).item() == 1.1
    assert (x / 0.1).item() == 10.0
    assert (lib.tensor([1.0]) * 0.1).item() == pytest.approx(0.10000000149011612, abs=0)


def test_grads_keep_each_operands_dtype_and_errors(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    (x * w).sum().backward()
    assert (str(x.grad.dtype), str(w.grad.dtype)) == ("torch.float32", "torch.float64")
    t = lib.tensor([1, 2])
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        t += 1.5
    with raises(
        RuntimeError,
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: Long",
    ):
        lib.tensor([1, 2]).mean()
    with raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: double != float"):
        lib.ones(1, 2, dtype=lib.float64) @ lib.ones(2, 1)
    with raises(RuntimeError, "mat1 and mat2 must have the same dtype, but got Double and Float"):
        lib.addmm(lib.ones(1), lib.ones(1, 2, dtype=lib.float64), lib.ones(2, 1))
    with raises(RuntimeError, "self and mat2 must have the same dtype, but got Double and Float"):
        lib.addmm(lib.ones(1, dtype=lib.float64), lib.ones(1, 2, dtype=lib.float64), lib.ones(2, 1))
    with raises(RuntimeError, "dot : expected both vectors to have same dtype, but found Double and Float"):
        lib.ones(2, dtype=lib.float64) @ lib.ones(2)


@pytest.mark.parametrize(
    ("dtype", "cpp"),
    [("uint8", "unsigned char"), ("int8", "signed char"), ("int16", "short int"), ("int32", "int"),
     ("int64", "long int"), ("float16", "c10::Half"), ("float64", "double")],
)
def test_messages_spell_dtypes_as_cpp_types(lib, dtype, cpp):
    x = lib.ones(2, 2)
    other = lib.ones(2, 2, dtype=getattr(lib, dtype))
    with raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: %s != float" % cpp):
        lib.mm(other, x)
    with raises(RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype %s" % cpp):
        x.masked_fill(other, 0.0)
