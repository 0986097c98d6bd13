"""layer_norm of empty tensors: no numpy "Mean of empty slice" warning escapes, in backward and under create_graph
(pytest turns warnings into errors). Fuzz seed 1, programs 2565 and 6165."""

from __future__ import annotations

import pytest

import minigrad as torch
import minigrad.nn.functional as F


@pytest.mark.parametrize("create_graph", [False, True])
def test_layer_norm_of_an_empty_row_backward_is_quiet(create_graph):
    x = torch.zeros(3, 0, 1, requires_grad=True)
    w, b = torch.zeros(0, 1, requires_grad=True), torch.zeros(0, 1, requires_grad=True)
    out = F.layer_norm(x, (0, 1), w, b)
    gx, gw, gb = torch.autograd.grad(out.sum(), [x, w, b], create_graph=create_graph)
    assert gx.shape == x.shape
    assert gw.shape == w.shape
    assert gb.shape == b.shape


def test_layer_norm_of_an_empty_batch_backward_is_quiet():
    x = torch.zeros(0, 4, requires_grad=True)
    (gx,) = torch.autograd.grad(F.layer_norm(x, (4,)).sum(), x, create_graph=True)
    assert gx.shape == (0, 4)
