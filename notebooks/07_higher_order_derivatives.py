# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 7 · Higher-order derivatives: the derivative as a graph of its own
#
# *About 20 minutes.*
#
# Sometimes the gradient is not the end of the computation but part of it: Newton's method needs
# the second derivative, a gradient penalty puts $\lVert\nabla_x f\rVert$ into the loss, and
# meta-learning differentiates through a gradient step. For that, the derivative must itself be
# differentiable. In this notebook you will
#
# * build the derivative as a graph with `create_graph=True` and differentiate it again,
# * see the derivative graph drawn next to the function's graph,
# * understand "symbol-to-symbol" (Theano, TensorFlow 1) versus PyTorch's "symbol-to-value" with a
#   dynamic graph,
# * use second derivatives in Newton's method.

# %%
import matplotlib.pyplot as plt

import minigrad as torch
import viz

from course_checks import check_newton_minimum, check_penalty_gradient

# %% [markdown]
# ## A plain gradient is just a number
#
# Normally backward computes numbers and records nothing: the result does not require grad, so
# there is nothing to differentiate further.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy_dx,) = torch.autograd.grad(y, x)
print(dy_dx, dy_dx.requires_grad)

# %% [markdown]
# ## `create_graph=True`: record the backward pass too
#
# With `create_graph=True` the operations that backward performs are recorded like any others. The
# result, $3x^2 = 12$, now has a `grad_fn`: it is the output of a graph, and we can differentiate
# it again — as many times as we like.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(d1,) = torch.autograd.grad(y, x, create_graph=True)     # 3x² = 12, with a graph
(d2,) = torch.autograd.grad(d1, x, create_graph=True)    # 6x  = 12, with a graph
(d3,) = torch.autograd.grad(d2, x)                       # 6
print(d1, d2, d3)

# %% [markdown]
# Here are both graphs in one picture: the function $y = x^3$ and its derivative. The derivative's
# nodes (pink) are linked by a **dashed** edge to the forward node they differentiate.
# `PowBackward0`'s backward formula is $\text{grad}\cdot(3\,x^{2})$, and under `create_graph=True`
# PyTorch records it as the operations it runs: `x ** 2` (a new `PowBackward0`, exponent 2), times
# the number 3 (`MulBackward1`, the node for a product with a plain number), times the incoming
# gradient (`MulBackward0`). The incoming gradient is the implicit seed 1, which needs no gradient,
# so that `MulBackward0`'s first entry in `next_functions` is `(None, 0)`. The whole small graph
# reads the same leaf `x`. The cell after the picture walks the chain that was actually recorded.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(d1,) = torch.autograd.grad(y, x, create_graph=True)
viz.draw(y, d1, params={"x": x, "y": y, "dy/dx": d1})

# %%
node = d1.grad_fn
while node is not None:                      # follow the last input of each node down to the leaf
    print(type(node).__name__, [None if n is None else type(n).__name__ for n, _ in node.next_functions])
    node = node.next_functions[-1][0] if node.next_functions else None

# %% [markdown]
# In PyTorch this prints `MulBackward0 [None, 'MulBackward1']`, `MulBackward1 ['PowBackward0']`,
# `PowBackward0 ['AccumulateGrad']`, `AccumulateGrad []`. An engine may record the same formula
# with fewer or other nodes (minigrad folds the factor 3 differently); the values, and every
# further derivative, are the same.

# %% [markdown]
# ## A pitfall: `backward(create_graph=True)`
#
# `y.backward(create_graph=True)` also works, but it stores the derivative graph in `x.grad`. Then
# `x.grad` refers to a graph that refers to `x` (a reference cycle, hence a warning), and a second
# backward from `x.grad` **adds** into `x.grad` — which is now part of what you differentiate.
# Reset `.grad` to `None` in between, or better, use `torch.autograd.grad`, which never touches
# `.grad`.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
y.backward(create_graph=True)
print("x.grad:", x.grad)
g = x.grad
x.grad = None                 # break the cycle before differentiating g
g.backward()
print("second derivative:", x.grad)

# %% [markdown]
# The stepper runs `y.backward(create_graph=True)` too. The pink nodes are the derivative graph that
# this backward recorded while it ran; it ends in `CopyBackwards`, the node through which the result
# went into `x.grad`. Dashed edges link each piece to the forward node it differentiates.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
stepper = viz.step_backward(y, create_graph=True, params={"x": x, "y": y})
stepper

# %% [markdown]
# ## Symbol-to-symbol versus symbol-to-value
#
# There are two ways to build an autograd system (Goodfellow, Bengio & Courville, *Deep Learning*,
# §6.5.5):
#
# * **symbol-to-symbol** — Theano and TensorFlow 1. You first describe the whole computation as a
#   symbolic graph; asking for a derivative adds **new symbolic nodes** to that graph, before any
#   number exists. The derivative is a graph by construction, so differentiating it again is
#   natural, and the whole thing can be optimised and compiled before it runs. The price: a static
#   graph, built in a special language, separate from running it.
# * **symbol-to-value** (symbol-to-number) — PyTorch. The graph is recorded while your ordinary
#   Python code runs (a *dynamic* graph, notebook 8), and backward walks it computing **numbers**
#   for the values at hand. Nothing symbolic is left over.
#
# `create_graph=True` gives PyTorch the best of both: backward is still just code running on
# values, but because it runs with recording on, it leaves behind a graph of the derivative — built
# dynamically, for exactly these inputs — which you can differentiate again.
#
# ## Seeing $f$, $f'$ and $f''$
#
# For an elementwise function, the gradient of `f(x).sum()` with respect to a vector `x` holds
# $f'(x_i)$ in each entry. One more `grad` gives $f''$ — here for $\tanh$:

# %%
xs = torch.linspace(-3, 3, 121, requires_grad=True)
ys = xs.tanh()
(first,) = torch.autograd.grad(ys.sum(), xs, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), xs)

fig, ax = plt.subplots(figsize=(6, 3.5))
for values, label in [(ys, "tanh(x)"), (first, "tanh'(x) = 1 - tanh²(x)"), (second, "tanh''(x)")]:
    ax.plot(xs.detach().numpy(), values.detach().numpy(), label=label)
ax.axhline(0, color="gray", lw=0.5)
ax.legend()
ax.set_xlabel("x")
plt.show()

# %% [markdown]
# ## A gradient penalty: a loss made of a gradient
#
# Some losses contain a gradient. A **gradient penalty** (WGAN-GP; input-gradient regularisation)
# adds $\lVert \partial f/\partial x\rVert^2$ to the loss, so that training keeps the model smooth in
# its input $x$. To train the weights $w$ on such a loss we need $\partial/\partial w$ of a gradient:
# the gradient must be a graph (`create_graph=True`), which the second backward then walks.

# %%
w = torch.tensor(1.5, requires_grad=True)             # a weight
x = torch.tensor(0.5, requires_grad=True)             # an input
out = (w * x).tanh()
(g,) = torch.autograd.grad(out, x, create_graph=True)   # ∂out/∂x = w·(1 − tanh²(w·x)), a graph in w
penalty = g**2
penalty.backward()
print("∂out/∂x =", g.item(), "  penalty =", penalty.item(), "  ∂penalty/∂w =", w.grad.item())

# %% [markdown]
# Without `create_graph=True` the gradient `g` is a plain number, the penalty has no graph, and its
# backward fails:

# %%
out = (w * x).tanh()
(g,) = torch.autograd.grad(out, x)
try:
    (g**2).backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ### Exercise 1 · the gradient of a gradient penalty
#
# Now for vectors: $f(x) = \sum_i \tanh(w_i x_i)$ with the weights and the input below, and the
# penalty $P = \lVert \partial f/\partial x \rVert^2$ (the sum of the squares of the gradient's
# entries). Compute $\partial P/\partial w$ with autograd — with respect to the **weights**, not the
# input — and put it in `answer`.

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 0.5, -0.3], requires_grad=True)
# EXERCISE: dP/dw for P = ||df/dx||², f(x) = tanh(w * x).sum()
# SOLUTION
f = (w * x).tanh().sum()
(df_dx,) = torch.autograd.grad(f, x, create_graph=True)
P = (df_dx**2).sum()
(answer,) = torch.autograd.grad(P, w)
# END SOLUTION
check_penalty_gradient(answer)

# %% [markdown]
# ## Second derivatives at work: Newton's method
#
# To minimise $f$, Newton's method jumps to the minimum of the local parabola:
# $x \leftarrow x - f'(x)/f''(x)$. It needs $f''$ — one more backward through the derivative's
# graph. The update itself must not be recorded, so it runs under `no_grad`.
#
# For a function of many variables the second derivatives form the **Hessian** matrix:

# %%
print(torch.autograd.functional.hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3, torch.tensor([1.0, 2.0])))

# %% [markdown]
# ### Exercise 2 · Newton's method
#
# Minimise $f(x) = x^4 - 3x^2 + x$ starting from $x = 2$: repeat the Newton step about eight times,
# computing $f'$ and $f''$ by autograd. Put the final `x` in `answer`.

# %%
# EXERCISE: Newton steps x <- x - f'(x) / f''(x), starting at x = 2
x = torch.tensor(2.0, requires_grad=True)
# SOLUTION
for step in range(8):
    f = x**4 - 3 * x**2 + x
    (d1,) = torch.autograd.grad(f, x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x)
    with torch.no_grad():
        x -= d1 / d2
    print(f"step {step}: x = {x.item():.6f}")
answer = x
# END SOLUTION
check_newton_minimum(answer)

# %%
# NEEDS: check_newton_minimum (Exercise 2)
grid = torch.linspace(-2.2, 2.2, 200)
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(grid.numpy(), (grid**4 - 3 * grid**2 + grid).numpy())
ax.plot([x.item()], [(x**4 - 3 * x**2 + x).item()], "o", color="black", label="Newton's result")
ax.legend()
plt.show()

# %% [markdown]
# > **The same in PyTorch.** `create_graph=True`, `autograd.grad`, the warning for
# > `backward(create_graph=True)`, `.grad` with `grad_fn=<CopyBackwards>` and
# > `autograd.functional.hessian` behave as shown. One visible difference: PyTorch implements some
# > backward formulas as dedicated nodes (the derivative of `tanh` shows up as
# > `TanhBackwardBackward0`), while minigrad writes every backward formula with ordinary tensor
# > operations, so its derivative graphs contain `MulBackward0`, `SubBackward0`, …. The values are
# > the same. PyTorch's `torch.autograd.gradgradcheck` checks second derivatives numerically
# > (notebook 10).
#
# ## Summary
#
# * `create_graph=True` records the backward pass: the derivative becomes a graph you can
#   differentiate again.
# * Prefer `torch.autograd.grad` for higher derivatives; `backward(create_graph=True)` mixes the
#   graph into `.grad`.
# * A loss made of a gradient (a gradient penalty) needs `create_graph=True` on the inner gradient.
# * PyTorch is "symbol-to-value" with a dynamic graph; recording the backward gives it the
#   derivative-as-a-graph of symbol-to-symbol systems.
#
# Next: **8 · dynamic graphs**.
