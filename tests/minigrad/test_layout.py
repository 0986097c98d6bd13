"""Memory layouts as PyTorch's kernels leave them (ops/_layout.py): which results are row-major, column-major,
or laid out as their input -- it decides ``reshape``'s node (ViewBackward0 / UnsafeViewBackward0) and whether
``view`` works.  Strides are PyTorch 2.13's (the ``torch`` run of each test checks them)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("code", "strides"), [
    # LAPACK's results: each matrix column-major
    ("s.inverse()", (1, 2)), ("lib.linalg.inv(b)", (4, 1, 2)), ("lib.linalg.solve(s, s)", (1, 2)),
    ("lib.linalg.solve(b, b[0, :, 0])", (1, 2)), ("lib.linalg.svd(s)[0]", (1, 2)),
    # fresh row-major results, whatever the input's layout
    ("xt.index_select(1, lib.tensor([0, 1]))", (2, 1)), ("x.index_select(1, lib.tensor([0, 1]))", (2, 1)),
    ("xt.softmax(0)", (3, 1)), ("xt.log_softmax(1)", (3, 1)), ("xt.cumsum(0)", (3, 1)), ("xt.cumprod(1)", (3, 1)),
    ("xt.masked_fill(xt > 2, 0.0)", (3, 1)), ("lib.cat([xt, xt])", (3, 1)), ("lib.stack([xt, xt])", (12, 3, 1)),
    ("xt.roll(1, 0)", (3, 1)), ("F.pad(xt, (1, 1))", (5, 1)), ("xt.tril()", (3, 1)), ("xt.repeat(1, 2)", (6, 1)),
    ("xt.contiguous()", (3, 1)), ("2.0 ** xt", (3, 1)), ("F.rrelu(xt)", (3, 1)),
    # reductions: a row-major result (numpy's keeps the input's order)
    ("p.sum(1)", (2, 1)), ("p.mean(1, keepdim=True)", (2, 2, 1)), ("p.amax(1)", (2, 1)), ("p.amin((0, 1))", (1,)),
    ("p.logsumexp(1)", (2, 1)), ("p.prod(1)", (2, 1)), ("p.norm(dim=1)", (2, 1)), ("p.topk(2, 1)[0]", (4, 2, 1)),
    ("p.topk(2, 1)[1]", (4, 2, 1)), ("(p > 3).any(1)", (2, 1)), ("(p > 3).all(1)", (2, 1)),
    # laid out as the input (MemoryFormat::Preserve)
    ("xt.clone()", (1, 4)), ("xt.flip(0)", (1, 4)), ("xt.sort(0)[0]", (1, 4)), ("lib.zeros_like(xt)", (1, 4)),
    ("F.pad(xt, (-1, 0))", (1, 4)), ("e.clone()", (3, 1)),
    # elementwise: TensorIterator's layout (the first operand that orders two dims decides)
    ("xt + c", (1, 4)), ("c + xt", (3, 1)), ("xt.erf()", (1, 4)), ("e.erf()", (3, 1)), ("xt * 2", (1, 4)),
    ("xt ** 2", (1, 4)), ("lib.atan2(xt, c)", (1, 4)), ("xt + x[0, :3]", (1, 4)), ("lib.relu(xt)", (1, 4)),
])
def test_result_layout_is_pytorchs(lib, code, strides):
    F = lib.nn.functional  # noqa: F841 - used by eval
    x = lib.arange(12.0).reshape(3, 4)
    xt, c = x.t(), x.t().contiguous()  # noqa: F841
    s, b = lib.tensor([[2.0, 1.0], [1.0, 3.0]]), lib.tensor([[[2.0, 1.0], [1.0, 3.0]]] * 2)  # noqa: F841
    e = lib.ones(1, 3).expand(2, 3)  # noqa: F841
    p = lib.arange(24.0).reshape(2, 3, 4).permute(2, 1, 0)  # noqa: F841
    assert tuple(eval(code).stride()) == strides


@pytest.mark.parametrize(("code", "name"), [
    ("s.inverse().asin().reshape(4)", "UnsafeViewBackward0"),
    ("xt.index_select(1, lib.tensor([0, 1])).reshape(-1)", "ViewBackward0"),
    ("(xt - c).flatten()", "UnsafeViewBackward0"), ("(c - xt).flatten()", "ViewBackward0"),
    ("(xt + c).reshape(2, 6)", "UnsafeViewBackward0"), ("xt.softmax(0).reshape(-1)", "ViewBackward0"),
    ("xt.clone().reshape(-1)", "UnsafeViewBackward0"), ("xt.clone().reshape(4, 1, 3)", "ReshapeAliasBackward0"),
])
def test_reshape_records_what_the_layout_allows(lib, code, name):
    x = lib.arange(12.0, requires_grad=True).reshape(3, 4)
    xt, c = x.t(), x.t().contiguous()  # noqa: F841 - used by eval
    s = lib.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)  # noqa: F841
    assert type(eval(code).grad_fn).__name__ == name


def test_view_of_a_row_major_result_works(lib):
    xt = lib.arange(6.0).reshape(2, 3).t()
    assert lib.nn.functional.pad(xt, (2, 0)).view(-1).shape == (12,)
    assert xt.masked_fill(xt > 1, 0.0).view(6).tolist() == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        xt.clone().view(6)
