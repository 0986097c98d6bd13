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
# # 12 · What the articles got wrong: six traps, predicted, run and explained
#
# *About 25 minutes.*
#
# This course grew out of a handful of well-known articles about autograd (the course calls them
# the *seeds*). They are good articles — and, like most writing about autograd, they contain a few
# claims that are wrong, out of date, or true only half-way. Each trap below quotes the claim, asks
# you to **predict** what happens, lets you **run** it, and then **explains** it. The claims are
# quoted as the project's parity notes record them (`shared/parity/cases/seed_*.py`), or, where
# marked, as they usually appear in tutorials.
#
# Take it after notebooks 1–5 (traps 5 and 6 also use notebooks 6 and 3).

# %%
import warnings

import minigrad as torch
import minigrad.nn as nn
import viz

from course_checks import check_trap_broadcast, check_trap_eval, check_trap_kinks, check_trap_optimizer

# %% [markdown]
# ## Trap 1 · "the optimizer accumulates gradients"
#
# > Seed 004: *optimizers accumulate into `.grad`, so each iteration starts with
# > `optimizer.zero_grad()`.*
#
# The advice is right — call `zero_grad()` every step — but the reason is wrong. **Predict**: after
# the code below, what are `w.grad` (a) after the two `backward` calls, with no optimizer anywhere,
# (b) right after `optimizer.step()`, and (c) what is `w` after the step?
#
# ```python
# w = torch.tensor(1.0, requires_grad=True)
# (3 * w).backward()
# (3 * w).backward()                       # (a) w.grad = ?
# optimizer = torch.optim.SGD([w], lr=0.1)
# optimizer.step()                         # (b) w.grad = ?   (c) w = ?
# ```

# %%
# EXERCISE: your predictions (numbers)
# PREDICTION
answer = {"a": 6.0, "b": 6.0, "c": 0.4}
# END PREDICTION
check_trap_optimizer(answer)

# %%
w = torch.tensor(1.0, requires_grad=True)
(3 * w).backward()
(3 * w).backward()
print("(a) after two backward calls, no optimizer:", w.grad)
optimizer = torch.optim.SGD([w], lr=0.1)
optimizer.step()
print("(b) after optimizer.step():", w.grad, "  (c) w:", w.detach())
optimizer.zero_grad()
print("after zero_grad():", w.grad)

# %% [markdown]
# **Explained.** `backward()` accumulates: each call *adds* into `.grad` (notebook 4) — with or
# without an optimizer. The optimizer only *reads* `.grad` in `step()` (here $w - 0.1\cdot 6 = 0.4$)
# and never changes it; `zero_grad()` is the optimizer's one method that touches it, to clear it.
# Gradient accumulation over micro-batches (notebook 9) works because backward, not the optimizer,
# adds up.
#
# ## Trap 2 · `grad_variables`
#
# > Seed 000 quotes the signature *`torch.autograd.backward(tensors, grad_tensors=None,
# > retain_graph=None, create_graph=False, grad_variables=None)`*.
#
# That signature is from PyTorch 0.3. `grad_variables` was renamed `grad_tensors` when `Variable`
# merged into `Tensor` (0.4, 2018). The old name still works, with a deprecation warning; new code
# should not use it. Run:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.backward(x * x, grad_variables=torch.ones(2))
print("x.grad:", x.grad)
print("warning:", caught[0].category.__name__, "-", caught[0].message)

# %% [markdown]
# Today's signature is `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None,
# create_graph=False, inputs=None)`: the `inputs=` argument limits which leaves get a `.grad`.
#
# ## Trap 3 · `.grad` of a view
#
# > Seed 000's `mm` example: `x = torch.tensor([2., 1.], requires_grad=True).view(1, 2)`, and after
# > `z.backward(...)` the seed *prints `x.grad` as `tensor([[1., 3.]])`*.
#
# Notebook 3 ran this code: today `x.grad` is `None`, with a warning. The article was written for an
# old release. Here is the same trap in a form that still catches people — the view made *after*
# the leaf, on purpose:

# %%
leaf = torch.tensor([2.0, 1.0], requires_grad=True)
x = leaf.view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.mm(x, y).backward(torch.tensor([[1.0, 0.0]]))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print("x.grad (the view):", x.grad)
print("leaf.grad:        ", leaf.grad, "  (a view of shape (1, 2) would get [[1., 3.]])")

# %% [markdown]
# **Explained.** A view is an operation (`ViewBackward0`); only leaves get `.grad`. The gradient
# arrives at `leaf`, in `leaf`'s shape. Keep a handle on the leaf, make the leaf with its final
# shape, or call `x.retain_grad()`.
#
# ## Trap 4 · `model.eval()` versus `torch.no_grad()`
#
# > A claim often made in tutorials: *"call `model.eval()` for inference, so that no gradients are
# > computed"*.
#
# **Predict** for a model with a `Dropout` layer: does the output require grad (a) after
# `model.eval()`, (b) inside `torch.no_grad()` (in training mode)? And does dropout drop values
# (c) after `eval()`, (d) inside `no_grad()` in training mode?

# %%
# EXERCISE: True or False for each
# PREDICTION
answer = {"a": True, "b": False, "c": False, "d": True}
# END PREDICTION
check_trap_eval(answer)

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 64), nn.Dropout(0.5))
inputs = torch.ones(1, 4)
model.eval()
out = model(inputs)
print("(a) after eval():       requires_grad =", out.requires_grad, " grad_fn =", type(out.grad_fn).__name__)
print("(c) zeros after eval():", int((out == 0).sum()), "of 64")
model.train()
with torch.no_grad():
    out = model(inputs)
print("(b) inside no_grad():   requires_grad =", out.requires_grad)
print("(d) zeros in no_grad() (training mode):", int((out == 0).sum()), "of 64")

# %% [markdown]
# **Explained.** They are two different switches. `model.eval()` sets `module.training = False`
# in every submodule: layers that behave differently in training — `Dropout`, `BatchNorm` — switch
# to their inference behaviour. It does nothing to autograd: the graph is still recorded.
# `torch.no_grad()` switches recording off and does nothing to the layers. For inference use both:
#
# ```python
# model.eval()
# with torch.no_grad():
#     predictions = model(inputs)
# ```
#
# ## Trap 5 · points where the derivative does not exist
#
# > A claim often made in tutorials: *"autograd needs differentiable functions"* — so ReLU, `abs`,
# > `max` should break it.
#
# $\mathrm{relu}(x)$ has no derivative at 0; neither has $|x|$; $\sqrt{x}$ has an infinite one; a
# `max` over equal values has no single "winner". Yet every network uses them. **Predict** the
# gradient autograd returns at these points:
#
# * `"relu"`: $d\,\mathrm{relu}(x)/dx$ at $x = 0$,
# * `"abs"`: $d|x|/dx$ at $x = 0$,
# * `"sqrt"`: $d\sqrt x/dx$ at $x = 0$ (a number, or `float("inf")`),
# * `"max"`: the gradient of `t.max()` for `t = [2., 2., 1.]`, a list of three numbers.

# %%
# EXERCISE: the gradients autograd returns at the kinks
# PREDICTION
answer = {"relu": 0.0, "abs": 0.0, "sqrt": float("inf"), "max": [0.5, 0.5, 0.0]}
# END PREDICTION
check_trap_kinks(answer)

# %%
for name, function in [("relu", torch.relu), ("abs", torch.abs), ("sqrt", torch.sqrt)]:
    t = torch.tensor(0.0, requires_grad=True)
    function(t).backward()
    print(f"d {name}/dx at 0 = {t.grad.item()}")
t = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
t.max().backward()
print("gradient of max([2, 2, 1]):", t.grad)
t = torch.tensor([[2.0, 2.0, 1.0]], requires_grad=True)
t.max(dim=1).values.sum().backward()
print("gradient of max(dim=1):    ", t.grad, "  (picks one index)")

# %% [markdown]
# **Explained.** Autograd never checks differentiability: each operation has **one rule**, and at a
# kink the rule picks a value — usually a *subgradient*, a slope between the left and right ones.
# ReLU and `abs` give 0 at 0; `sqrt` gives `inf` (the honest slope; `inf` times a zero gradient
# becomes `nan` further down, which is how `nan`s sneak into training); a full `max` shares the
# gradient evenly between tied entries, while `max(dim=...)` returns *indices* and sends the whole
# gradient to the one it picked. The kinks are a set of measure zero: training almost never lands
# exactly on one, so the choice rarely matters — except where it makes `nan`.
#
# ## Trap 6 · a gradient has its data's shape — even when broadcast
#
# > Seed 000: *a gradient has the same shape as its data.*
#
# True — and it surprises people when the tensor was broadcast. **Predict** `b.grad` (its values):
#
# ```python
# X = torch.ones(5, 3)                       # a batch of 5
# W = torch.ones(3, 2, requires_grad=True)
# b = torch.zeros(2, requires_grad=True)     # added to every row of the batch
# (X @ W + b).sum().backward()
# ```

# %%
# EXERCISE: b.grad, a list of 2 numbers
# PREDICTION
answer = [5.0, 5.0]
# END PREDICTION
check_trap_broadcast(answer)

# %%
X = torch.ones(5, 3)
W = torch.ones(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
out = X @ W + b
out.sum().backward()
print("out.shape:", tuple(out.shape), "  b.shape:", tuple(b.shape), "  b.grad:", b.grad)
viz.draw(out.sum(), params={"W": W, "b": b})

# %% [markdown]
# **Explained.** The gradient arriving at `out` has `out`'s shape, 5 × 2, all ones. `b` was used once
# per row, so its gradient is that gradient **summed over the batch** (notebook 3): $[5, 5]$, in
# `b`'s shape. A bias's gradient grows with the batch — one reason losses are usually *means*.
#
# > **The same in PyTorch.** Every output above is PyTorch 2.13's: accumulation by `backward` and
# > an optimizer that only reads `.grad`, the `grad_variables` deprecation warning, `None` for the
# > `.grad` of a view, `eval()` versus `no_grad()`, the values at the kinks (0, 0, `inf`, an even
# > split for a full `max`, one index for `max(dim=)`), and the summed broadcast gradient. Random
# > numbers differ: minigrad's dropout masks are not PyTorch's.
#
# ## Summary
#
# * `backward` accumulates; the optimizer reads `.grad` and `zero_grad` clears it.
# * `grad_variables` is the pre-2018 name of `grad_tensors`.
# * A view is not a leaf: its `.grad` is `None`; the leaf behind it gets the gradient.
# * `eval()` changes layers, `no_grad()` stops recording: for inference use both.
# * At a kink each operation's rule picks a value (0 for ReLU and `abs`, `inf` for `sqrt`).
# * A broadcast tensor's gradient is summed over the broadcast axes, back to its own shape.
#
# That is the end of the course.
