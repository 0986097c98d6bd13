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
# # 3 · Vector-valued outputs: Jacobians and vector-Jacobian products
#
# *About 25 minutes.*
#
# So far every `backward()` started from a single number. Inside a network, though, almost every
# tensor is a vector or a matrix; only the loss at the very end is a number. What does autograd
# compute when the output is a vector? In this notebook you will see
#
# * why `z.backward()` fails for a non-scalar `z`, and the two usual ways out,
# * that `backward(v)` computes a **vector-Jacobian product** $v^\top J$ — never the Jacobian itself,
# * how to get a whole Jacobian anyway, row by row,
# * the classic `torch.mm` example, including a surprise: `x.grad` is `None`.

# %%
import matplotlib.pyplot as plt

import minigrad as torch
import viz

from course_checks import check_jacobian_function, check_mm_fix, check_vjp

# %% [markdown]
# ## `backward()` on a vector fails

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = x * x
print(z)
try:
    z.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# For a scalar $L$ the starting gradient is obvious: $\partial L/\partial L = 1$. For a vector
# $z = (z_1, z_2, z_3)$ there is no single derivative with respect to $x$; there is a whole matrix
# of them, the **Jacobian** $J_{ij} = \partial z_i/\partial x_j$. Autograd will not guess which
# combination you want, so it asks for a seed vector — it creates the seed `1` *implicitly* only
# for outputs with one element.
#
# ## Two ways out, which give the same result
#
# * reduce to a scalar first: `z.sum().backward()`,
# * or pass the seed yourself, a tensor of `z`'s shape: `z.backward(torch.ones_like(z))`.

# %%
z.sum().backward()
print("z.sum().backward():              x.grad =", x.grad)

x.grad = None                      # start again from an empty .grad (notebook 4: gradients add up)
z = x * x
z.backward(torch.ones_like(z))
print("z.backward(torch.ones_like(z)):  x.grad =", x.grad)

# %% [markdown]
# Both give $2x$. The gradient of `z.sum()` with respect to `z` is a vector of ones, so the two are
# literally the same computation. (The seed must be a tensor with exactly `z`'s shape; a plain
# Python list is not accepted.)
#
# ## The seed is a vector in a vector-Jacobian product
#
# In general `z.backward(v)` puts into `x.grad` the vector-Jacobian product
#
# $$x.\text{grad} = v^\top J = \sum_i v_i \,\frac{\partial z_i}{\partial x}.$$
#
# Read $v$ as "the gradient of some later loss with respect to $z$": then $v^\top J$ is exactly the
# chain rule, $\partial L/\partial x = \partial L/\partial z \cdot \partial z/\partial x$. This is
# all backward ever does, node by node: it multiplies the gradient arriving at a node (a vector)
# by the node's local Jacobian — **without ever building the Jacobian**, which for a layer with a
# million inputs and outputs would have $10^{12}$ entries.
#
# `torch.autograd.backward(tensors, grad_tensors=...)` is the function behind `tensor.backward`; its
# `grad_tensors` are these seed vectors.

# %%
x.grad = None
z = x * x
v = torch.tensor([1.0, 0.1, 0.01])
torch.autograd.backward(z, grad_tensors=v)       # the same as z.backward(v)
print(x.grad, "=", v * 2 * x.detach())

# %% [markdown]
# ## A small Jacobian, drawn and computed
#
# Take $h(x) = \big(x_0 x_1,\; x_1 + x_2^2\big)$, from $\mathbb R^3$ to $\mathbb R^2$. Its Jacobian is
#
# $$J = \begin{pmatrix} x_1 & x_0 & 0\\ 0 & 1 & 2x_2\end{pmatrix}
#     = \begin{pmatrix} 2 & 1 & 0\\ 0 & 1 & 6\end{pmatrix}\quad\text{at } x = (1, 2, 3).$$

# %%
def h(x):
    return torch.stack([x[0] * x[1], x[1] + x[2] ** 2])


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = h(x)
viz.draw(out, params={"x": x, "h(x)": out})

# %% [markdown]
# Indexing `x[0]` is an operation too (`SelectBackward0`), and `stack` joins the two results.
#
# **Row by row.** With the seed $e_i$ (a one-hot vector), $e_i^\top J$ is row $i$ of $J$. So one
# backward per output gives the whole Jacobian. `retain_graph=True` keeps the graph alive for the
# next backward (notebook 4), and we reset `x.grad` in between because gradients accumulate.

# %%
rows = []
for i in range(2):
    seed = torch.zeros(2)
    seed[i] = 1.0
    x.grad = None
    out.backward(seed, retain_graph=True)
    rows.append(x.grad.clone())
J = torch.stack(rows)
print(J)

# %% [markdown]
# `torch.autograd.functional.jacobian` does the same for you:

# %%
J_auto = torch.autograd.functional.jacobian(h, torch.tensor([1.0, 2.0, 3.0]))
print(J_auto)


def show_matrix(matrix, title, ax):
    values = matrix.tolist()
    ax.imshow(values, cmap="coolwarm", vmin=-6, vmax=6)
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            ax.text(j, i, f"{value:g}", ha="center", va="center", fontsize=14)
    ax.set_xticks(range(len(values[0])), [f"∂/∂x{j}" for j in range(len(values[0]))])
    ax.set_yticks(range(len(values)), [f"h{i}" for i in range(len(values))])
    ax.set_title(title)


fig, ax = plt.subplots(figsize=(4, 2.5))
show_matrix(J_auto, "Jacobian of h at (1, 2, 3)", ax)
plt.show()

# %% [markdown]
# ### Exercise 1 · a vector-Jacobian product by hand
#
# Using the Jacobian above, what is `x.grad` after `h(x).backward(torch.tensor([1., 10.]))`
# (starting from `x.grad = None`)? Work it out on paper, then write it here.

# %%
# EXERCISE: x.grad after h(x).backward(torch.tensor([1., 10.]))
# PREDICTION
answer = [2.0, 11.0, 60.0]
# END PREDICTION
check_vjp(answer)

# %% [markdown]
# ### Exercise 2 · a Jacobian of any function
#
# Write `jacobian_rows(f, x)`: the Jacobian of any `f` from $\mathbb R^n$ to $\mathbb R^m$ at the point
# `x` (a 1-D tensor), as an $m \times n$ tensor, with one backward per output as above — without
# `torch.autograd.functional`. The check tries functions whose number of outputs differs from their
# number of inputs, and passes an `x` that does **not** require grad. Think about: where the
# gradients of earlier rows go, what `retain_graph` is for, and how many seeds you need.

# %%
# EXERCISE: the m×n Jacobian of f at x, one backward per output
def jacobian_rows(f, x):
    # SOLUTION
    x = x.detach().requires_grad_()           # a leaf of our own that requires grad
    out = f(x)
    rows = []
    for i in range(out.shape[0]):             # m outputs: m seeds
        seed = torch.zeros(out.shape[0])
        seed[i] = 1.0
        x.grad = None                         # otherwise row i would add onto row i - 1
        out.backward(seed, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)
    # END SOLUTION


check_jacobian_function(jacobian_rows, torch)

# %% [markdown]
# Try it on $g(x) = (x_0 x_1,\ x_1 x_2,\ x_2 x_0)$ and compare with `autograd.functional.jacobian`:

# %%
# NEEDS: check_jacobian_function (Exercise 2)
def g(x):
    return torch.stack([x[0] * x[1], x[1] * x[2], x[2] * x[0]])


print(jacobian_rows(g, torch.tensor([1.0, 2.0, 3.0])))
print(torch.autograd.functional.jacobian(g, torch.tensor([1.0, 2.0, 3.0])))

# %% [markdown]
# ## The classic `mm` example — and why `x.grad` is `None`
#
# This example is in many autograd tutorials. `x` is a row vector, `y` a matrix, `z = x y`, and we
# backward from `z` with the seed `[[1, 0]]` (the gradient of $z_{0,0}$ alone).

# %%
x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.mm(x, y)
print("z:", z)

z.backward(torch.Tensor([[1.0, 0]]), retain_graph=True)
print("x.grad:", x.grad)
print("y.grad:", y.grad)

# %% [markdown]
# `y.grad` is there, but `x.grad` is `None` — and reading it printed a long `UserWarning` about
# "a Tensor that is not a leaf Tensor". Why?
#
# `torch.tensor([2., 1.], requires_grad=True)` is a leaf. But we never kept it: `x` is the result of
# `.view(1, 2)` on it, and a view is an **operation**, so `x` has a `grad_fn` and is **not a leaf**.
# Backward only fills `.grad` of leaves. The gradient did arrive — in the unnamed leaf behind the
# view, which `x._base` still points to.

# %%
print("x.is_leaf:", x.is_leaf, "  x.grad_fn:", x.grad_fn)
print("the leaf behind the view:", x._base, "  its grad:", x._base.grad)
viz.draw(z, params={"x (view)": x, "leaf behind x": x._base, "y": y, "z": z})

# %% [markdown]
# Step through the same backward to watch the gradient `[1, 3]` travel through `ViewBackward0` into
# the leaf's `AccumulateGrad`, not into `x`:

# %%
x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.mm(x, y)
viz.step_backward(z, gradient=torch.Tensor([[1.0, 0]]), params={"leaf behind x": x._base, "y": y, "z": z})

# %% [markdown]
# By hand: $z = x\,y$, so $\partial L/\partial x = v\,y^\top = [1, 0]\,y^\top = [1, 3]$ and
# $\partial L/\partial y = x^\top v = \begin{pmatrix}2 & 0\\ 1 & 0\end{pmatrix}$.
#
# ### Exercise 3 · fix it
#
# Change the definition of `x` so that `x` **is** a leaf of shape `(1, 2)` and `x.grad` gets filled.
# Then run the same `mm` and backward.

# %%
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
# EXERCISE: define x as a leaf of shape (1, 2) that requires grad, then z = torch.mm(x, y) and backward
# SOLUTION
x = torch.tensor([[2.0, 1.0]], requires_grad=True)
z = torch.mm(x, y)
z.backward(torch.Tensor([[1.0, 0]]))
print(x.is_leaf, x.grad, y.grad)
# END SOLUTION
check_mm_fix(x, y)

# %% [markdown]
# <!-- SOLUTION -->
# Two other fixes work too:
#
# * make the view first from a tensor that does not require grad, then switch tracking on:
#   `torch.tensor([2., 1.]).view(1, 2).requires_grad_()` — the view of a tensor without
#   `requires_grad` has no `grad_fn`, so it is a leaf;
# * keep the non-leaf but ask autograd to store its gradient: `x.retain_grad()` before backward.
# <!-- END SOLUTION -->
#
# The cell below shows two more ways to get `x.grad` filled.

# %%
x = torch.tensor([2.0, 1.0]).view(1, 2).requires_grad_()
torch.mm(x, y).backward(torch.Tensor([[1.0, 0]]))
print("requires_grad_() after view:", x.is_leaf, x.grad)

x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
x.retain_grad()
torch.mm(x, y).backward(torch.Tensor([[1.0, 0]]))
print("retain_grad():              ", x.is_leaf, x.grad)

# %% [markdown]
# ## Broadcasting: why a bias's gradient is summed over the batch
#
# A gradient always has the shape of its tensor: `b.grad.shape == b.shape`. What if the tensor was
# *broadcast* — used in more places than it has entries? A layer `out = X @ W + b` on a batch of 4
# rows adds the same bias `b` (2 numbers) to every row: each entry of `b` is used 4 times.

# %%
torch.manual_seed(0)
X = torch.randn(4, 3)                            # a batch of 4 inputs
W = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)           # broadcast over the batch in X @ W + b
out = X @ W + b
weights = torch.tensor([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
(out * weights).sum().backward()                 # the gradient arriving at out is `weights`
print("gradient at out:\n", weights)
print("b.grad:", b.grad, "  = the column sums", weights.sum(dim=0))

# %% [markdown]
# A value used several times collects the sum of the gradients of all its uses (notebook 2's
# $r\cdot r$). Broadcasting is exactly that: `b` is used once per row, so `b.grad` is the gradient at
# `out` **summed over the batch** — the axis `b` was broadcast along. The addition's backward does
# that reduction itself (`AddBackward0` sums the incoming gradient back to each input's shape), so
# `b.grad` has `b`'s shape, 2, not `out`'s, 4 × 2. `nn.Linear`'s bias (notebook 9) works the same.
#
# > **The same in PyTorch.** Everything here is PyTorch's behaviour, including the error text
# > "grad can be implicitly created only for scalar outputs", the `UserWarning` when reading `.grad`
# > of a non-leaf, `x._base`, the summed gradient of a broadcast tensor, and the numbers.
# > `torch.Tensor([[1., 0]])` is the legacy constructor: it makes a tensor of the default dtype
# > (`float32` unless `torch.set_default_dtype` changed it); `torch.tensor` is the one to use in new
# > code. PyTorch also offers
# > `torch.func.jacrev` / `vmap` to build Jacobians faster than a Python loop; minigrad has only
# > `torch.autograd.functional`.
#
# ## Summary
#
# * `backward()` needs a seed for a non-scalar output: reduce (`.sum()`) or pass `gradient=`.
# * `backward(v)` computes $v^\top J$, one node at a time, without building $J$.
# * A one-hot seed gives one row of the Jacobian.
# * `.view()`, `.reshape()`, indexing… are operations: their results are not leaves, so their
#   `.grad` stays `None`. Keep a handle on the leaf you create.
# * A broadcast tensor's gradient is summed over the broadcast axes, back to its own shape.
#
# Next: **4 · gradients accumulate** — and what backward frees.
