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
# # 11 · Forward mode and reverse mode: why backward wins for a loss
#
# *About 20 minutes.*
#
# Notebook 3 showed that `backward(v)` computes a **vector-Jacobian product** $v^\top J$: one
# backward pass gives one combination of the Jacobian's *rows*. There is a second way to run the
# chain rule — **forward mode** — which carries a derivative along *with* the values, from the
# inputs to the outputs, and gives a **Jacobian-vector product** $J u$: one combination of the
# Jacobian's *columns*. In this notebook you will
#
# * run forward mode by hand with "dual numbers" (a value and its tangent, side by side),
# * compare `torch.autograd.functional.jvp` ($Ju$) with `vjp` ($v^\top J$),
# * count the passes each mode needs for a full Jacobian: $n$ forward passes, or $m$ backward ones,
# * see why training (one loss, millions of parameters) always uses reverse mode.
#
# Notebooks 2 and 3 come first.

# %%
import math

import minigrad as torch
import viz

from course_checks import check_jvp_column, check_pass_counts

# %% [markdown]
# ## The Jacobian, once more
#
# For $f:\mathbb R^n \to \mathbb R^m$ the Jacobian $J$ is $m \times n$: row $i$ is the gradient of
# output $i$, column $j$ says how all outputs move when input $j$ is nudged. Our example, from
# $\mathbb R^3$ to $\mathbb R^2$:
#
# $$f(x) = \big(x_0 x_1,\ \sin x_1 + x_2\big),\qquad
# J = \begin{pmatrix} x_1 & x_0 & 0\\ 0 & \cos x_1 & 1\end{pmatrix}.$$

# %%
def f(x):
    return torch.stack([x[0] * x[1], x[1].sin() + x[2]])


x0 = torch.tensor([1.0, 2.0, 3.0])
J = torch.autograd.functional.jacobian(f, x0)
print(J)
xs = x0.clone().requires_grad_()
viz.draw(f(xs), params={"x": xs})

# %% [markdown]
# ## Forward mode by hand: dual numbers
#
# Notebook 2 nudged an input and watched the output. Forward mode does that **exactly**: next to
# every value it carries a *tangent* — how fast that value changes when the input moves in a chosen
# direction $u$. Each operation updates both, with its local derivative: for $a\cdot b$ the tangent
# is $\dot a\, b + a\, \dot b$, for $\sin a$ it is $\cos a \cdot \dot a$. One pass from the inputs to
# the outputs, and the outputs' tangents are $J u$.

# %%
class Dual:
    """A value and its tangent (the derivative along one chosen input direction)."""

    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __mul__(self, other):
        return Dual(self.value * other.value, self.tangent * other.value + self.value * other.tangent)

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def sin(self):
        return Dual(math.sin(self.value), math.cos(self.value) * self.tangent)

    def __repr__(self):
        return f"Dual({self.value:.4f}, tangent {self.tangent:.4f})"


def f_dual(x):                       # the same f, written for Dual numbers
    return [x[0] * x[1], x[1].sin() + x[2]]


u = [0.0, 1.0, 0.0]                  # the direction: nudge x1 only
print(f_dual([Dual(v, t) for v, t in zip([1.0, 2.0, 3.0], u)]))
print("column 1 of J:", J[:, 1])

# %% [markdown]
# The tangents of the two outputs are column 1 of $J$: with $u = e_j$, one forward pass gives
# **column $j$**. Reverse mode goes the other way: one backward pass with the seed $v = e_i$ gives
# **row $i$**.
#
# ## `jvp` and `vjp`
#
# `torch.autograd.functional` offers both products for any function of tensors:

# %%
u = torch.tensor([0.0, 1.0, 0.0])
v = torch.tensor([1.0, 0.0])
_, Ju = torch.autograd.functional.jvp(f, x0, u)      # J u: a combination of columns, length m = 2
_, vJ = torch.autograd.functional.vjp(f, x0, v)      # vᵀJ: a combination of rows, length n = 3
print("J u  =", Ju, "  (column 1)")
print("vᵀJ =", vJ, "  (row 0)")

# %% [markdown]
# ## Counting passes for a full Jacobian
#
# A full Jacobian needs one product per column in forward mode ($n$ passes, one per input) or one
# per row in reverse mode ($m$ passes, one per output). Let us count, with a wrapper that counts
# how often `f` is evaluated — each product evaluates it once, then runs its pass:

# %%
def counted(function):
    def wrapper(x):
        wrapper.calls += 1
        return function(x)
    wrapper.calls = 0
    return wrapper


def jacobian_by_columns(function, x, m):       # forward mode: one jvp per input (n of them)
    columns = []
    for j in range(x.shape[0]):
        e_j = torch.zeros(x.shape[0])
        e_j[j] = 1.0
        columns.append(torch.autograd.functional.jvp(function, x, e_j)[1])
    return torch.stack(columns, dim=1)


def jacobian_by_rows(function, x, m):          # reverse mode: one vjp per output (m of them)
    rows = []
    for i in range(m):
        e_i = torch.zeros(m)
        e_i[i] = 1.0
        rows.append(torch.autograd.functional.vjp(function, x, e_i)[1])
    return torch.stack(rows)


for name, build in [("by columns (jvp)", jacobian_by_columns), ("by rows (vjp)", jacobian_by_rows)]:
    g = counted(f)
    print(f"{name:17s} {build(g, x0, 2).tolist()}  passes: {g.calls}")

# %% [markdown]
# Three columns, or two rows. Now a function
# that looks like a **loss**: a million inputs would be slow here, so take $n = 200$ inputs and one
# output, $L(w) = \sum_k \tanh(w_k)^2$:

# %%
def loss_fn(w):
    return (w.tanh() ** 2).sum().reshape(1)


w0 = torch.linspace(-1, 1, 200)
for name, build in [("by columns (jvp)", jacobian_by_columns), ("by rows (vjp)", jacobian_by_rows)]:
    g = counted(loss_fn)
    grad = build(g, w0, 1)
    print(f"{name:17s} shape {tuple(grad.shape)}  passes: {g.calls}")

# %% [markdown]
# The same 200 derivatives: **200** forward-mode passes, or **one** backward pass. That is the whole
# reason training uses reverse mode. A loss is one number ($m = 1$); the parameters are many
# ($n$ = millions). One backward pass — costing a small multiple of one forward pass — gives the
# derivative with respect to every parameter at once. Forward mode would need one pass per
# parameter. Notebook 2's nudging was worse still: one evaluation per input, and only approximate.
#
# Forward mode wins the other way round: **few inputs, many outputs** — the sensitivity of a whole
# simulated trajectory to one physical constant, or a Jacobian-vector product $Ju$ inside an
# optimiser (one pass, whatever $m$ is).
#
# | $f:\mathbb R^n\to\mathbb R^m$ | forward mode (jvp) | reverse mode (vjp, backward) |
# |---|---|---|
# | one pass gives | $J u$: a column (combination) | $v^\top J$: a row (combination) |
# | full Jacobian | $n$ passes | $m$ passes |
# | a loss ($m = 1$) | $n$ passes | **1 pass** |
# | memory | no graph to keep | the graph (saved tensors) until backward |
#
# The last row is reverse mode's price: backward needs the values the forward pass saved (notebook
# 4), so the graph stays in memory until backward has run. Forward mode keeps nothing.

# %% [markdown]
# ### Exercise 1 · how many passes?
#
# For each function, the *fewest* passes that give its full Jacobian, in each mode (one pass per
# input, or one per output). Write `{"forward": ..., "reverse": ...}` for each.
#
# * `"loss"`: a loss of a network with 1,000,000 parameters (one number out),
# * `"layer"`: a layer from 512 inputs to 512 outputs,
# * `"curve"`: one parameter in, a curve of 1,000 points out,
# * `"gradient"`: and which mode (`"forward"` or `"reverse"`) gives the loss's gradient in one pass?

# %%
# EXERCISE: the fewest passes for a full Jacobian, per mode; and the mode for a loss's gradient
# PREDICTION
answer = {
    "loss": {"forward": 1_000_000, "reverse": 1},
    "layer": {"forward": 512, "reverse": 512},
    "curve": {"forward": 1, "reverse": 1000},
    "gradient": "reverse",
}
# END PREDICTION
check_pass_counts(answer)

# %% [markdown]
# ### Exercise 2 · one column with one product
#
# For $f$ above at $x_0 = (1, 2, 3)$: get **column 2** of the Jacobian — how both outputs move when
# only $x_2$ is nudged — with a **single** call of `jvp` or `vjp`. Which one, and with which
# vector? Put the product in `answer`.

# %%
# EXERCISE: column 2 of f's Jacobian at x0, from one jvp or vjp call
# SOLUTION
_, answer = torch.autograd.functional.jvp(f, x0, torch.tensor([0.0, 0.0, 1.0]))
# END SOLUTION
check_jvp_column(answer)

# %% [markdown]
# > **The same in PyTorch.** `torch.autograd.functional.jvp`, `vjp` and `jacobian` take the same
# > arguments and return the same values. Both libraries compute `functional.jvp` with the
# > "double-backward trick" (the JVP as the derivative of a VJP, two backward passes), which gives
# > forward-mode's result but not its cost; PyTorch also has true forward mode, which carries tangents
# > as in our `Dual` class: `torch.func.jvp` and `torch.autograd.forward_ad`.
# > `torch.autograd.functional.jacobian(..., vectorize=True, strategy="forward-mode")` chooses the
# > mode for a whole Jacobian.
#
# ## Summary
#
# * Forward mode carries tangents with the values and gives $Ju$, one column per pass.
# * Reverse mode (backward) carries gradients from the output and gives $v^\top J$, one row per pass.
# * A full Jacobian costs $n$ forward passes or $m$ backward passes. A loss has $m = 1$: one backward
#   pass gives the gradient with respect to every parameter. That is why deep learning is reverse mode.
#
# Next: **12 · what the articles got wrong**.
