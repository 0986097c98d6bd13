"""``memory_format=`` of ``clone``/``contiguous``/``is_contiguous``, and the public classes' printed names."""

from __future__ import annotations

import pickle

import pytest

import minigrad

torch = pytest.importorskip("torch")


def _both(fn):
    out = []
    for lib in (torch, minigrad):
        try:
            out.append(("ok", fn(lib)))
        except Exception as e:
            out.append((type(e).__name__, str(e)))
    return out


CASES = {
    "clone channels_last strides": lambda lib: lib.ones(2, 3, 4, 5).clone(memory_format=lib.channels_last).stride(),
    "contiguous channels_last": lambda lib: lib.ones(2, 3, 4, 5).contiguous(memory_format=lib.channels_last).stride(),
    "back to contiguous": lambda lib: lib.ones(2, 3, 4, 5).contiguous(
        memory_format=lib.channels_last).contiguous().stride(),
    "is_contiguous channels_last": lambda lib: (
        lib.ones(2, 3, 4, 5).is_contiguous(memory_format=lib.channels_last),
        lib.ones(2, 3, 4, 5).contiguous(memory_format=lib.channels_last).is_contiguous(
            memory_format=lib.channels_last)),
    "clone contiguous of a transpose": lambda lib: lib.ones(3, 4).t().clone(
        memory_format=lib.contiguous_format).stride(),
    "clone preserve of a transpose": lambda lib: lib.ones(3, 4).t().clone(memory_format=lib.preserve_format).stride(),
    "rank error": lambda lib: lib.ones(2, 3).clone(memory_format=lib.channels_last),
    "type error": lambda lib: lib.ones(2, 3).clone(memory_format="contiguous"),
    "repr": lambda lib: (repr(lib.contiguous_format), repr(lib.channels_last), repr(lib.preserve_format)),
    "grad through a channels_last copy": lambda lib: (
        lambda x: (x.contiguous(memory_format=lib.channels_last) * 2).sum().backward() or x.grad.sum().item())(
            lib.ones(1, 2, 2, 2, requires_grad=True)),
}


@pytest.mark.parametrize("name", CASES)
def test_like_pytorch(name):
    t, m = _both(CASES[name])
    assert m == t


def test_public_classes_print_where_they_are_imported_from():
    assert str(type(minigrad.ones(1))) == "<class 'minigrad.Tensor'>"
    assert str(type(minigrad.float32)) == "<class 'minigrad.dtype'>"
    assert str(type(minigrad.Size([1]))) == "<class 'minigrad.Size'>"
    assert str(type(minigrad.contiguous_format)) == "<class 'minigrad.memory_format'>"
    x = minigrad.ones(2, requires_grad=True)
    assert pickle.loads(pickle.dumps(x)).tolist() == [1.0, 1.0]
    assert pickle.loads(pickle.dumps(minigrad.channels_last)) is minigrad.channels_last
