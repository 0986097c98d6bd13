"""Views and in-place writes as PyTorch does them (issue 11): element views, regenerated grad_fn,
retain_grad moving to the new version, saved results version-protected, and the views that may not
be modified in place.  Each test runs on minigrad and on PyTorch (``lib``)."""

from __future__ import annotations

import pytest

MULTI = ("This view is the output of a function that returns multiple views. Such functions do not allow the output "
         "views to be modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD = ("Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
           "moving both the view and the inplace either both inside the no_grad block (if you don't want the "
           "inplace to be tracked) or both outside (if you want the inplace to be tracked).")


def test_an_integer_indexed_element_is_a_view(lib):
    x = lib.zeros(3)
    x[1].add_(5)
    assert x.tolist() == [0.0, 5.0, 0.0]
    assert x._version == 1
    m = lib.zeros(2, 2)
    m[1, 0].fill_(3)
    assert m.tolist() == [[0.0, 0.0], [3.0, 0.0]]


def test_in_place_on_an_element_of_a_non_leaf_goes_through_copyslices(lib):
    x = lib.zeros(3, requires_grad=True)
    y = x * 1
    y[1].add_(5)
    y[1].mul_(2)
    assert type(y.grad_fn).__name__ == "CopySlices"
    y.sum().backward()
    assert y.tolist() == [0.0, 10.0, 0.0]
    assert x.grad.tolist() == [1.0, 2.0, 1.0]

    x = lib.zeros(3, requires_grad=True)
    y = x * 1
    y[1].mul_(x[0] + 3)                      # the other operand's gradient flows through CopySlices too
    (y * lib.arange(3.0)).sum().backward()
    assert x.grad.tolist() == [0.0, 3.0, 2.0]


def test_a_view_regenerates_its_grad_fn_after_the_base_changed(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    v = y[:2]
    assert type(v.grad_fn).__name__ == "SliceBackward0"
    y.mul_(10)
    assert v._version == 1
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0] is y.grad_fn
    v.sum().backward()
    assert x.grad.tolist() == [10.0, 10.0, 0.0]


def test_views_of_views_and_other_views_see_the_write(lib):
    x = lib.ones(2, 3, requires_grad=True)
    y = x * 1
    w = y.t()[0]                    # a view of a view
    y.mul_(2)
    assert type(w.grad_fn).__name__ == "AsStridedBackward0"
    w.sum().backward()
    assert x.grad.tolist() == [[2.0, 0.0, 0.0], [2.0, 0.0, 0.0]]

    x = lib.ones(3, requires_grad=True)
    y = x * 1
    a, b = y[:2], y[1:]
    a.mul_(3)                       # written through a: b (another view of y) changes too
    b.sum().backward()
    assert x.grad.tolist() == [0.0, 3.0, 1.0]


def test_a_view_of_a_base_that_starts_requiring_grad(lib):
    y = lib.zeros(3)
    v = y[:2]
    w = lib.ones(3, requires_grad=True)
    y.add_(w)
    assert v.requires_grad
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert type(v.grad_fn.next_functions[0][0]).__name__ == "AddBackward0"


@pytest.mark.parametrize("how", ["requires_grad_", "no_grad_view"])
def test_a_view_that_requires_grad_only_through_its_base_has_no_edge(lib, how):
    """PyTorch: the view's requires_grad reads its base, but its grad accumulator reads its own flag, so an op on
    it records a node whose edge to it is (None, 0); backward reaches neither the view nor the base."""
    if how == "requires_grad_":
        x = lib.zeros(2, 2)
        v = x.t()
        x.requires_grad_()
    else:
        x = lib.zeros(2, 2, requires_grad=True)
        with lib.no_grad():
            v = x.t()
    assert v.requires_grad
    assert v.is_leaf
    assert v.grad_fn is None
    y = v * lib.ones(2, 2)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert [f for f, _ in y.grad_fn.next_functions] == [None, None]
    y.sum().backward()
    assert x.grad is None
    assert v.grad is None
    # an mm saving that view (F.linear's weight.t()) gives a gradient that requires grad under create_graph
    a = lib.ones(3, 2, requires_grad=True)
    (g,) = lib.autograd.grad(a.mm(v).sum(), a, create_graph=True)
    assert g.requires_grad


def test_retain_grad_moves_to_the_new_version(lib):
    x = lib.ones(2, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.mul_(5)
    assert y.retains_grad
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == [15.0, 15.0]

    x = lib.ones(3, requires_grad=True)
    y = x * 1
    v = y[:2]
    v.retain_grad()
    y.mul_(5)                        # v's grad_fn is regenerated: its retain_grad moves along
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == [15.0, 15.0, 0.0]


def test_tensor_hooks_stay_on_the_old_version(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    v = y[:2]
    v.register_hook(lambda g: g * 100)
    y.mul_(5)
    (v * 3).sum().backward()
    assert x.grad.tolist() == [15.0, 15.0, 0.0]


@pytest.mark.parametrize("op", ["exp_", "sigmoid_", "tanh_", "sqrt_", "relu_"])
def test_in_place_ops_that_save_their_result_are_version_protected(lib, op):
    x = lib.ones(3, requires_grad=True)
    y = x + 0
    getattr(y, op)()
    y.mul_(2)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: .*is at version 2; expected version 1"):
        y.sum().backward()


def test_saved_result_of_an_in_place_op_on_a_view(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    v = y[:2]
    v.exp_()
    v.mul_(2)
    with pytest.raises(RuntimeError, match="which is output 0 of Exp, is at version 2; expected version 1"):
        y.sum().backward()
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    y[:2].exp_()
    y.sum().backward()                # nothing modified after: the saved result is good
    assert [round(g, 4) for g in x.grad.tolist()] == [2.7183, 2.7183, 1.0]


def test_in_place_ops_that_save_their_input_keep_working(lib):
    x = lib.ones(3, requires_grad=True)
    y = x + 0
    y.pow_(2)
    y.add_(1)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("make", ["split", "chunk", "unbind"])
def test_outputs_of_multi_output_views_may_not_be_modified_in_place(lib, make):
    x = lib.ones(4, requires_grad=True)
    y = x * 1
    a = {"split": lambda: y.split(2), "chunk": lambda: y.chunk(2), "unbind": lambda: y.unbind(0)}[make]()[0]
    name = "Unbind" if make == "unbind" else "Split"
    with pytest.raises(RuntimeError) as info:
        a.mul_(2)
    assert str(info.value) == "Output 0 of %s is a view and is being modified inplace. %s" % (name, MULTI)
    y.mul_(2)                         # the base may change ... but then the view is unusable
    with pytest.raises(RuntimeError) as info:
        _ = a.grad_fn
    assert str(info.value) == ("Output 0 of %s is a view and its base or another view of its base has been "
                               "modified inplace. %s" % (name, MULTI))
    assert repr(a).endswith("grad_fn=<Invalid>)")
    b = lib.ones(4).split(2)[0]      # nothing requires grad: nothing to forbid
    b.mul_(2)


def test_views_of_multi_output_views_inherit_the_rule(lib):
    x = lib.ones(4, requires_grad=True)
    y = x * 1
    v = y.split(2)[0][:1]
    with pytest.raises(RuntimeError) as info:
        v.mul_(2)
    assert str(info.value) == "Output 0 of Slice is a view and is being modified inplace. %s" % MULTI


def test_views_made_under_no_grad_may_not_be_modified_with_grad_mode_on(lib):
    x = lib.ones(4, requires_grad=True)
    y = x * 1
    with lib.no_grad():
        v = y[:2]
    assert v.requires_grad
    assert v.grad_fn is None
    with pytest.raises(RuntimeError) as info:
        v.mul_(2)
    assert str(info.value) == "A view was created in no_grad mode and is being modified inplace with grad mode " \
                              "enabled. " + NO_GRAD
    with lib.no_grad():
        a = x[:2]                     # a view of a leaf, made under no_grad
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode and is being modified"):
        a.mul_(2)
    with lib.no_grad():
        w = y[2:]
    y.mul_(3)
    with pytest.raises(RuntimeError) as info:
        _ = w.grad_fn
    assert str(info.value) == ("A view was created in no_grad mode and its base or another view of its base has "
                               "been modified inplace with grad mode enabled. " + NO_GRAD)


def test_long_view_chains_keep_one_link_per_op():
    import minigrad as torch
    from minigrad.autograd.views import view_chain_length

    x = torch.ones(4, requires_grad=True)
    y = x * 1
    v = y
    for _ in range(2000):
        v = v.reshape(2, 2).reshape(4)
    assert view_chain_length(v._view_fn) == 4000
    assert v._base is y
    v.mul_(2)                          # the write replays the whole chain once
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0, 2.0]


def test_in_place_on_a_tensor_without_grad_saves_its_old_value(lib):
    x1 = lib.tensor(2.0, requires_grad=True)
    x2 = lib.tensor(3.0)
    x2.mul_(x1)                       # MulBackward0 needs x2's old value for x1's gradient
    (g,) = lib.autograd.grad(x2, [x1], create_graph=True)
    assert g.tolist() == 3.0
    assert x2.tolist() == 6.0


def test_a_single_piece_of_chunk_is_still_a_multi_output_view(lib):
    x = lib.tensor([[0.5, 1.0, 2.0]], requires_grad=True)
    piece = x.log().chunk(2)[0]       # one row: chunk returns one piece, still "the output of a function that
    with pytest.raises(RuntimeError) as info:                                        # returns multiple views"
        piece.zero_()
    assert str(info.value) == "Output 0 of Split is a view and is being modified inplace. %s" % MULTI


def test_the_base_of_an_expanded_view_changes(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    e = y.expand(3, 2)
    y.mul_(2)
    e.sum().backward()                # the regenerated view's backward adds up the repeated rows
    assert x.grad.tolist() == [6.0, 6.0]
    x = lib.tensor([1.0, 1.0, 1.0, -1.0], requires_grad=True)
    c = x.cumprod(dim=-1)
    e = c.expand(2, 4)
    c.add_(1.0)
    with pytest.raises(RuntimeError, match="which is output 0 of Cumprod, is at version 1; expected version 0"):
        e.exp().sum().backward()


def test_requires_grad_of_a_view_that_may_not_be_rebased(lib):
    x = lib.ones(2, 3, requires_grad=True)
    t = (x * 1).t()
    piece = t.chunk(2)[0]
    t.exp_()
    assert piece.requires_grad                  # read from the base: no error (grad_fn raises)
    with pytest.raises(RuntimeError, match="Output 0 of Split is a view and its base"):
        _ = piece.grad_fn


def test_unbind_of_a_vector_gives_views_an_inplace_op_writes_through(lib):
    base = lib.tensor([0.1622, -0.6734])
    first, _ = base.unbind(0)
    first.log_()                                      # PyTorch: base[0] is log(0.1622) too
    assert base[0].item() == pytest.approx(-1.818925, rel=1e-5)
    assert base._version == first._version == 1
