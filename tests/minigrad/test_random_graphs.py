"""Random graphs with fan-in and fan-out, built step by step by a hypothesis state machine.

The machine grows a *program*: leaves, unary ops and binary ops on any earlier tensor (so one
tensor feeds many ops: fan-out; and ops join tensors: fan-in; shapes (2, 3), (2, 1) and ()
broadcast together). At any step ``check`` picks some tensors as roots with random output
gradients, runs ``autograd.backward`` on them, and compares every leaf's ``.grad`` with a
reference: PyTorch running the same program, or (``NumericalGraphs``) central differences of
the program replayed by numpy-backed minigrad under ``no_grad``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

import minigrad

UNARY = {
    "tanh_exp": lambda x: x.tanh().exp(),
    "sin": lambda x: x.sin(),
    "sigmoid": lambda x: x.sigmoid(),
    "square": lambda x: x * x,
    "scale": lambda x: 0.5 * x - 1,
    "neg": lambda x: -x,
    "sum_keepdim": lambda x: x.sum(-1, keepdim=True) if x.ndim else x,
    "mean": lambda x: x.mean(),
    "softmax": lambda x: x.softmax(-1) if x.ndim else x,
    "view_t_t": lambda x: x.t().t() if x.ndim == 2 else x.view(x.shape),
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "safe_div": lambda a, b: a / (1 + b * b),
}
SHAPES = [(2, 3), (2, 1), ()]
FLOATS = st.floats(-1.5, 1.5, allow_subnormal=False)


def replay(module, program, leaf_values, grad_enabled=True):
    """Build the program's tensors with ``module``; returns (leaves, tensors)."""
    leaves, tensors = [], []
    for step in program:
        if step[0] == "leaf":
            t = module.tensor(leaf_values[len(leaves)], dtype=module.float64, requires_grad=grad_enabled)
            leaves.append(t)
        elif step[0] in UNARY:
            t = UNARY[step[0]](tensors[step[1]])
        else:
            t = BINARY[step[0]](tensors[step[1]], tensors[step[2]])
        tensors.append(t)
    return leaves, tensors


def numerical_grads(program, leaf_values, roots, seeds, eps=1e-6):
    """d/d leaf of sum_r <tensor_r, seed_r>, by central differences (no autograd involved)."""

    def objective(values):
        with minigrad.no_grad():
            _, tensors = replay(minigrad, program, values, grad_enabled=False)
        return sum(float((tensors[r].numpy() * s).sum()) for r, s in zip(roots, seeds))

    grads = []
    for i, value in enumerate(leaf_values):
        g = np.zeros_like(value)
        for k in np.ndindex(value.shape):
            plus = [v.copy() for v in leaf_values]
            minus = [v.copy() for v in leaf_values]
            plus[i][k] += eps
            minus[i][k] -= eps
            g[k] = (objective(plus) - objective(minus)) / (2 * eps)
        grads.append(g)
    return grads


class RandomGraphs(RuleBasedStateMachine):
    """Grow a program; ``check`` compares minigrad's gradients with the reference."""

    reference = "torch"

    def __init__(self):
        super().__init__()
        self.program, self.leaf_values, self.shapes = [], [], []

    def _add_leaf(self, value):
        self.program.append(("leaf",))
        self.leaf_values.append(value)
        self.shapes.append(value.shape)

    @initialize(value=hnp.arrays(np.float64, (2, 3), elements=FLOATS))
    def first_leaf(self, value):
        self._add_leaf(value)

    @rule(data=st.data())
    def leaf(self, data):
        shape = data.draw(st.sampled_from(SHAPES))
        self._add_leaf(data.draw(hnp.arrays(np.float64, shape, elements=FLOATS)))

    @rule(data=st.data(), name=st.sampled_from(sorted(UNARY)))
    def unary(self, data, name):
        i = data.draw(st.integers(0, len(self.program) - 1), label="operand")
        self.program.append((name, i))
        self.shapes.append(None)

    @rule(data=st.data(), name=st.sampled_from(sorted(BINARY)))
    def binary(self, data, name):
        i = data.draw(st.integers(0, len(self.program) - 1), label="left")
        j = data.draw(st.integers(0, len(self.program) - 1), label="right")  # may equal i: x * x
        self.program.append((name, i, j))
        self.shapes.append(None)

    @precondition(lambda self: len(self.program) >= 2)
    @rule(data=st.data())
    def check(self, data):
        _, tensors = replay(minigrad, self.program, self.leaf_values)
        candidates = [k for k, t in enumerate(tensors) if t.grad_fn is not None]
        if not candidates:
            return
        roots = data.draw(
            st.lists(st.sampled_from(candidates), min_size=1, max_size=3, unique=True), label="roots"
        )
        seeds = [
            data.draw(hnp.arrays(np.float64, tuple(tensors[r].shape), elements=FLOATS), label="seed")
            for r in roots
        ]
        leaves, tensors = replay(minigrad, self.program, self.leaf_values)
        seed_tensors = [minigrad.tensor(s) for s in seeds]
        minigrad.autograd.backward([tensors[r] for r in roots], seed_tensors, retain_graph=True)
        ours = [
            np.zeros(v.shape) if t.grad is None else t.grad.numpy().copy() for t, v in zip(leaves, self.leaf_values)
        ]
        # No .grad shares memory with another .grad, a tensor of the program or a seed (NOTE [stealing the
        # gradient]), so a second backward adds up to exactly twice the first.
        grads = [t.grad.numpy() for t in leaves if t.grad is not None]
        others = [t.detach().numpy() for t in tensors] + [s.numpy() for s in seed_tensors]
        for i, g in enumerate(grads):
            assert not any(np.shares_memory(g, o) for o in grads[i + 1:] + others)
        minigrad.autograd.backward([tensors[r] for r in roots], seed_tensors)
        for t, first in zip(leaves, ours):
            if t.grad is not None:
                np.testing.assert_allclose(t.grad.numpy(), 2 * first, rtol=1e-12, atol=1e-12)
        if self.reference == "torch":
            import torch

            t_leaves, t_tensors = replay(torch, self.program, self.leaf_values)
            torch.autograd.backward([t_tensors[r] for r in roots], [torch.tensor(s) for s in seeds])
            theirs = [
                np.zeros(v.shape) if t.grad is None else t.grad.numpy()
                for t, v in zip(t_leaves, self.leaf_values)
            ]
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
        else:
            theirs = numerical_grads(self.program, self.leaf_values, roots, seeds)
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


class NumericalGraphs(RandomGraphs):
    reference = "numerical"


TestRandomGraphsNumerical = NumericalGraphs.TestCase
TestRandomGraphsNumerical.settings = settings(max_examples=25, stateful_step_count=12, deadline=None)

TestRandomGraphsTorch = pytest.mark.torch(RandomGraphs.TestCase)
TestRandomGraphsTorch.settings = settings(max_examples=40, stateful_step_count=15, deadline=None)
