"""``repeat_interleave`` (d2l's masked softmax, attention heads): PyTorch's values, gradients, nodes and errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def _chain(t) -> list[str]:
    names, node = [], t.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


CALLS = [
    ("x.repeat_interleave(2)", lambda lib, x: x.repeat_interleave(2)),
    ("x.repeat_interleave(3, dim=1)", lambda lib, x: x.repeat_interleave(3, dim=1)),
    ("x.repeat_interleave(2, -2)", lambda lib, x: x.repeat_interleave(2, -2)),
    ("x.repeat_interleave(0, dim=0)", lambda lib, x: x.repeat_interleave(0, dim=0)),
    ("x.repeat_interleave(tensor([1, 2]), dim=0)", lambda lib, x: x.repeat_interleave(lib.tensor([1, 2]), dim=0)),
    ("x.repeat_interleave(tensor([0, 2, 1]), dim=1)", lambda lib, x: x.repeat_interleave(lib.tensor([0, 2, 1]), dim=1)),
    ("x.repeat_interleave(tensor(2))", lambda lib, x: x.repeat_interleave(lib.tensor(2))),
    ("x.repeat_interleave(tensor([3]), dim=1)", lambda lib, x: x.repeat_interleave(lib.tensor([3]), dim=1)),
    ("torch.repeat_interleave(x, 2, 1, output_size=6)", lambda lib, x: lib.repeat_interleave(x, 2, 1, output_size=6)),
    ("x.t().repeat_interleave(2, dim=0)", lambda lib, x: x.t().repeat_interleave(2, dim=0)),
]


@pytest.mark.parametrize(("text", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_values_gradients_and_nodes(text, call):
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        y = call(lib, x)
        weights = lib.tensor(np.linspace(-1, 2, y.numel()).reshape(tuple(y.shape)))
        (y * weights).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy(), _chain(y), y.is_contiguous()))
    (yt, gt, ct, kt), (ym, gm, cm, km) = results
    np.testing.assert_array_equal(ym, yt)
    np.testing.assert_allclose(gm, gt, rtol=1e-12)
    assert (cm, km) == (ct, kt)


def test_index_form():
    for counts in ([1, 2, 0, 3], [], [0, 0]):
        t = torch.repeat_interleave(torch.tensor(counts, dtype=torch.long))
        m = minigrad.repeat_interleave(minigrad.tensor(counts, dtype=minigrad.long))
        assert m.dtype == minigrad.int64
        assert m.tolist() == t.tolist()


ERRORS = [
    lambda lib, x: x.repeat_interleave(lib.tensor([1, 2, 3]), dim=0),
    lambda lib, x: x.repeat_interleave(-1),
    lambda lib, x: x.repeat_interleave(lib.tensor([1.0, 2.0]), dim=0),
    lambda lib, x: x.repeat_interleave(lib.tensor([1, -2]), dim=0),
    lambda lib, x: x.repeat_interleave(lib.tensor([[1, 2]]), dim=0),
    lambda lib, x: x.repeat_interleave(2, dim=2),
    lambda lib, x: x.repeat_interleave(2.5),
    lambda lib, x: lib.repeat_interleave(lib.tensor([[1]])),
    lambda lib, x: lib.repeat_interleave(lib.tensor(3)),
    lambda lib, x: lib.tensor(5.0).repeat_interleave(3, dim=0),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors_in_pytorch_words(k):
    caught = []
    for lib in (torch, minigrad):
        try:
            ERRORS[k](lib, lib.ones(2, 3))
        except (RuntimeError, TypeError, IndexError, NotImplementedError) as e:
            caught.append((type(e).__name__, str(e).splitlines()[0]))
        else:
            caught.append(("no error", ""))
    assert caught[1] == caught[0]
