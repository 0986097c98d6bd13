"""Indexing and shape ops at their edges, as PyTorch (issue 11): node names of slices and aliases,
gather without broadcasting, 0-d tensors, and PyTorch's errors instead of numpy's."""

from __future__ import annotations

import warnings

import pytest


@pytest.mark.parametrize(("index", "name"), [
    ("x[:]", "SliceBackward0"), ("x[::1]", "SliceBackward0"), ("x[0:2]", "SliceBackward0"),
    ("x[0:5]", "SliceBackward0"), ("x[-1:]", "SliceBackward0"), ("x[...]", "AliasBackward0"),
    ("x[:, :]", "AliasBackward0"), ("x[:, 0:3]", "AliasBackward0"), ("x[..., ...]", "AliasBackward0"),
    ("x.narrow(0, 0, 2)", "SliceBackward0"), ("x[0:2, 0]", "SelectBackward0"), ("x[None]", "UnsqueezeBackward0"),
    ("z[...]", "AliasBackward0"), ("z.flip(-1)", "FlipBackward0"), ("z.flip(0)", "FlipBackward0"),
    ("x.movedim(0, 1)", "PermuteBackward0"),
])
def test_node_names_of_basic_indexing(lib, index, name):
    x = lib.ones(2, 3, requires_grad=True)  # noqa: F841 - used by eval
    z = lib.tensor(2.0, requires_grad=True)  # noqa: F841
    assert type(eval(index).grad_fn).__name__ == name


def test_gather_does_not_broadcast_its_index(lib):
    x = lib.arange(6.0).reshape(2, 3).requires_grad_()
    assert x.gather(1, lib.tensor([[2]])).tolist() == [[2.0]]
    assert x.gather(0, lib.tensor([[0], [1], [1]])).tolist() == [[0.0], [3.0], [3.0]]
    g = x.gather(1, lib.tensor([[2], [0]]))
    g.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    assert lib.tensor(3.0).gather(0, lib.tensor(0)).tolist() == 3.0


@pytest.mark.parametrize(("code", "error", "message"), [
    ("x.gather(0, lib.tensor([[5]]))", RuntimeError, "index 5 is out of bounds for dimension 0 with size 2"),
    ("x.gather(0, lib.tensor([5]))", RuntimeError,
     "Index tensor must have the same number of dimensions as input tensor"),
    ("x.gather(0, lib.tensor([[0, 0, 0, 0]]))", RuntimeError,
     "Size does not match at dimension 1 expected index [1, 4] to be no larger than self [2, 3] "
     "apart from dimension 0"),
    ("x.gather(1, lib.tensor([[0.]]))", RuntimeError, "gather(): Expected dtype int32/int64 for index"),
    ("x.index_select(0, lib.tensor([5]))", IndexError, "index out of range in self"),
    ("x.narrow(0, 3, 1)", IndexError, "start out of range (expected to be in range of [-2, 2], but got 3)"),
    ("x.narrow(0, 0, -1)", RuntimeError, "narrow(): length must be non-negative."),
    ("x.narrow(0, 1, 5)", RuntimeError, "start (1) + length (5) exceeds dimension size (2)."),
    ("x.split(-1)", RuntimeError, "split expects split_size be non-negative, but got split_size=-1"),
    ("x.split(0)", RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of 2"),
    ("x.chunk(0)", RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
    ("z.unbind(0)", IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    ("x.select(0, 5)", IndexError, "select(): index 5 out of range for tensor of size [2, 3] at dimension 0"),
    ("z.select(0, 0)", IndexError, "select() cannot be applied to a 0-dim tensor."),
    ("x.flip(0, 0)", RuntimeError, "dim 0 appears multiple times in the list of dims"),
    ("x.permute(0, 0)", RuntimeError, "permute(): duplicate dims are not allowed."),
    ("x.flatten(1, 0)", RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim"),
    ("x.unflatten(1, (2, 2))", RuntimeError,
     "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor"),
    ("x.reshape(-2, 3)", RuntimeError, "invalid shape dimension -2 at index 0 of shape [-2, 3]"),
    ("x[[0, 5]]", IndexError, "index 5 is out of bounds for dimension 0 with size 2"),
    ("x[lib.tensor([5])]", IndexError, "index 5 is out of bounds for dimension 0 with size 2"),
    ("x[lib.tensor([True, False, True])]", IndexError,
     "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0"),
    ("x[::0]", ValueError, "slice step cannot be zero"),
    ("x[::-1]", ValueError, "step must be greater than zero"),
    ("x.detach().__setitem__(5, 1.)", IndexError, "index 5 is out of bounds for dimension 0 with size 2"),
    ("x.detach().__setitem__(lib.tensor([5]), 1.)", IndexError, "index 5 is out of bounds for dimension 0 with size 2"),
    ("x.detach().__setitem__(0, lib.ones(4))", RuntimeError,
     "The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 0.  "
     "Target sizes: [3].  Tensor sizes: [4]"),
])
def test_misuse_gives_pytorchs_error(lib, code, error, message):
    x = lib.arange(6.0).reshape(2, 3).requires_grad_()  # noqa: F841 - used by eval
    z = lib.tensor(2.0)  # noqa: F841
    with pytest.raises(error) as info:
        eval(code)
    assert str(info.value) == message


def test_add_and_sub_with_alpha_keep_the_dtype(lib):
    assert lib.tensor(0.0).add(lib.tensor(0.0), alpha=-3).dtype == lib.float32      # numpy 1.x made float64
    assert lib.tensor(0.0).sub(lib.tensor(1.0), alpha=2).dtype == lib.float32


def test_empty_and_0d_shapes(lib):
    e = lib.zeros(0, 3, requires_grad=True)
    pieces = e.chunk(2)
    assert [tuple(p.shape) for p in pieces] == [(0, 3), (0, 3)]
    assert type(pieces[0].grad_fn).__name__ == "SplitWithSizesBackward0"
    assert lib.cat([lib.zeros(0), lib.ones(2, 3)]).shape == (2, 3)      # PyTorch's legacy rule: 1-D empty skipped
    z = lib.tensor(2.0, requires_grad=True)
    assert z.roll(1).tolist() == 2.0
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        z.roll(1, 0)
    with pytest.raises(TypeError, match='permute\\(\\) missing 1 required positional arguments: "dims"'):
        z.permute()
    f = z.flip(0)
    f.backward()
    assert z.grad.tolist() == 1.0


def test_overwritten_values_get_an_exact_zero_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y[0].copy_(lib.tensor(float("nan")))
    (y * lib.tensor([float("inf"), 1.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]                     # not inf * 0 = nan
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y[1:] = float("inf")
    (y * lib.tensor([1.0, float("inf")])).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0]



def _first_chain(fn, depth=3):
    """The names of ``fn``, its first parent, that one's first parent... (``depth`` of them)."""
    names = []
    while fn is not None and len(names) < depth:
        names.append(type(fn).__name__.replace("torch::autograd::", ""))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


@pytest.mark.parametrize(("code", "shape", "chain"), [
    # PyTorch applies the basic items first (views), then indexes the view with the index tensors
    ("t[0, :, i]", (3, 2), "Index Select Mul"), ("t[1:, i]", (1, 2, 4), "Index Slice Mul"),
    ("t[-2:, i]", (2, 2, 4), "Index Slice Mul"), ("t[0:9, i]", (2, 2, 4), "Index Mul AccumulateGrad"),
    ("t[None, i]", (1, 2, 3, 4), "Index Unsqueeze Mul"), ("t[i, :, 2]", (2, 3), "Index Select Mul"),
    ("s[s > 0]", (1,), "Index Unsqueeze Mul"),
])
def test_mixed_indexing_records_the_basic_views_first(lib, code, shape, chain):
    x = lib.ones(2, 3, 4, requires_grad=True)
    t, s, i = x * 1, x.sum() * 1, lib.tensor([0, 1])  # noqa: F841 - used by eval
    r = eval(code)
    assert tuple(r.shape) == shape
    assert _first_chain(r.grad_fn) == [n if n == "AccumulateGrad" else n + "Backward0" for n in chain.split()]


@pytest.mark.parametrize(("code", "name"), [
    ("t[t > 0] = 0.0", "IndexPutBackward0"), ("t[:, t[0] > 0] = 0.0", "IndexPutBackward0"),
    ("t[i] = 0.0", "IndexPutBackward0"), ("s[s > 0] = 0.0", "CopySlices"), ("s[s > 9] = 0.0", "CopySlices"),
    ("t[0, i] = 0.0", "CopySlices"), ("t[1:, i] = 0.0", "CopySlices"), ("t[None, i] = 0.0", "CopySlices"),
    ("e[1:] = 0.5", "CopySlices"), ("e[0:] = 0.5", "FillBackward3"), ("t[-2:] = 0.5", "CopySlices"),
])
def test_setitem_with_index_tensors_writes_through_the_basic_view(lib, code, name):
    """``t[key] = v``: ``index_put_`` on ``t`` itself (IndexPutBackward0), or on the view the basic items make
    (ints, slices that are not the whole dim as written, None, a 0-d mask): CopySlices on ``t``."""
    x = lib.ones(2, 3, requires_grad=True)
    t, s, i, e = x * 1, x.sum() * 1, lib.tensor([0, 1]), lib.zeros(0, requires_grad=True) * 1  # noqa: F841
    exec(code)
    target = eval(code.split("[")[0])
    assert _first_chain(target.grad_fn, 1) == [name]


@pytest.mark.parametrize("write", ["masked_fill_", "setitem_mask", "setitem_index"])
def test_an_expanded_view_of_a_leaf_raises_before_the_kernel_warns(lib, write):
    """PyTorch's autograd check (a view of a leaf) runs before the kernel that warns about an expand."""
    e = lib.zeros(1, 3, requires_grad=True).expand(2, 3)
    m = lib.ones(2, 3) > 0
    writes = {"masked_fill_": lambda: e.masked_fill_(m, 0.0), "setitem_mask": lambda: e.__setitem__(m, 0.0),
              "setitem_index": lambda: e.__setitem__(lib.tensor([0]), 1.0)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
            writes[write]()


def test_masked_write_of_one_value_into_an_expand_warns_as_masked_fill_too(lib):
    t = (lib.tensor([1.0, -1.0, 2.0], requires_grad=True) * 1).expand(2, 3)
    with pytest.warns(UserWarning, match="on expanded tensors is deprecated") as record:
        t[t > 0] = 0.0
    assert [str(w.message)[:22] for w in record] == ["Use of index_put_ on e", "Use of masked_fill_ on"]
    assert {w.filename for w in record} == {__file__}           # the warning points at the caller's line
    assert t.tolist() == [[0.0, -1.0, 0.0], [0.0, -1.0, 0.0]]
    e = lib.zeros(2, 2, 0) / lib.ones(1, 1, 0)       # broadcast, but empty: no element shares memory
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e[lib.tensor([0, 0])] = 0.0
