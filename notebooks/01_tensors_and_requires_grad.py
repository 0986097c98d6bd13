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
# # 1 · Tensors and `requires_grad`
#
# *About 20 minutes.*
#
# Training a neural network means nudging millions of numbers so that a loss gets smaller.
# To know which way to nudge each number we need the derivative of the loss with respect to it.
# Nobody writes those derivatives by hand: **autograd** records the operations as your code runs
# and later walks that record backwards, applying the chain rule.
#
# This first notebook is about the record itself. You will learn
#
# * how a tensor asks to be tracked (`requires_grad`) and how that spreads to results,
# * what `grad_fn` is, and which tensors are **leaves**,
# * how a leaf enters the graph through its `AccumulateGrad` node.
#
# We use **minigrad**, a small autograd engine that behaves like PyTorch, and **viz** to see the
# graph. The code is PyTorch code: `import minigrad as torch` is the only difference.

# %%
import minigrad as torch  # the rest of the code reads exactly like PyTorch
import viz

from course_checks import check_accumulate_grad, check_next_functions, check_requires_grad_table

# %% [markdown]
# ## Tensors
#
# A tensor is an n-dimensional array of numbers. Python floats give `float32` tensors, Python
# integers give `int64` tensors.

# %%
x = torch.tensor([1.0, 2.0, 3.0])
n = torch.tensor([1, 2, 3])
print(x, x.dtype, x.shape)
print(n, n.dtype)

# %% [markdown]
# ## Asking autograd to track a tensor
#
# By default nothing is tracked: `requires_grad` is `False`. Pass `requires_grad=True` to say
# "I will want the gradient with respect to this tensor". The tensor's printout says so.

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
print(x.requires_grad, w.requires_grad)
w

# %% [markdown]
# Only floating-point tensors can require gradients: a derivative needs values that can change
# by a little. Integer tensors refuse, with an error message you will meet again.

# %%
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## `requires_grad` spreads forward
#
# The result of an operation requires grad **if any of its inputs does**. That is how autograd
# knows what to record: everything that depends on a tracked tensor.

# %%
a = x + w        # w requires grad, so a does
b = x * 2        # nothing here requires grad
print("a:", a)
print("b:", b)
print(a.requires_grad, b.requires_grad)

# %% [markdown]
# `a` prints a `grad_fn=<AddBackward0>`: the node autograd recorded for the addition. It is the
# object that knows how to send a gradient arriving at `a` back to `x` and `w` (for an addition:
# unchanged). Every operation has its node: `MulBackward0`, `ExpBackward0`, `SumBackward0`…

# %%
loss = (a * a).sum()
print(loss)
print(loss.grad_fn, type(loss.grad_fn).__name__, loss.grad_fn.name())

# %% [markdown]
# ## Seeing the graph
#
# `viz.draw` draws what autograd recorded behind a tensor. The inputs are at the top and the
# result (green) at the bottom; each arrow joins a node to the node that used its output — the
# links that `grad_fn.next_functions` stores, drawn in the direction the data flowed. Backward
# will travel them the other way, from the bottom up. `params=` gives names to tensors so the
# picture can label them.

# %%
viz.draw(loss, params={"x": x, "w": w, "loss": loss})

# %% [markdown]
# Things to notice:
#
# * `x` does not appear: it does not require grad, so no gradient will ever be sent to it.
# * `w` appears through a node called **`AccumulateGrad`**. That node's only job, during backward, is
#   to add the gradient that arrives into `w.grad`.
# * Nothing has a gradient yet: viz says "not computed yet" rather than showing a misleading zero.
#
# The same graph in the forward direction (tensors and operations, like a data-flow diagram) is
# one argument away:

# %%
viz.draw(loss, params={"x": x, "w": w, "a": a, "loss": loss}, view="dataflow")

# %% [markdown]
# ## Leaves and non-leaves
#
# A **leaf** is a tensor that autograd did not compute. In detail:
#
# * every tensor with `requires_grad=False` is a leaf (even the result of an operation),
# * a tensor that requires grad is a leaf only if you created it (it has no `grad_fn`),
# * `t.detach()` returns a new leaf that shares the data but is cut off from the graph.
#
# Only leaves get their `.grad` filled by `backward()`. Those are your parameters.

# %%
for name, t in [("x", x), ("w", w), ("a", a), ("b", b), ("loss", loss), ("a.detach()", a.detach())]:
    print(f"{name:11s} requires_grad={t.requires_grad!s:5s}  is_leaf={t.is_leaf!s:5s}  grad_fn={t.grad_fn}")

# %% [markdown]
# ## Following `next_functions` to the `AccumulateGrad` node
#
# A node lists the nodes of its inputs in `next_functions`: one `(node, input_nr)` pair per
# input, in argument order, with `(None, 0)` for an input that needs no gradient. Follow them
# from `loss` down to the leaf:

# %%
print(loss.grad_fn.next_functions)                 # SumBackward0 -> the MulBackward0 of a * a
mul = loss.grad_fn.next_functions[0][0]
print(mul.next_functions)                          # a is used twice: two entries for the same AddBackward0
add = mul.next_functions[0][0]
print(add.next_functions)                          # x needs no grad: (None, 0); w: its AccumulateGrad
acc = add.next_functions[1][0]
print(acc, acc.variable is w, acc.next_functions)

# %% [markdown]
# `acc.variable` is the leaf `w` itself, and an `AccumulateGrad` has no `next_functions`: the walk
# ends there. Let's run backward and see the gradient arrive in `w.grad`.
#
# $\text{loss} = \sum_i (x_i + w_i)^2$, so $\partial\,\text{loss}/\partial w_i = 2(x_i + w_i)$.

# %%
print("before:", w.grad)
loss.backward()
print("after: ", w.grad)
print("2 * (x + w) =", 2 * (x + w.detach()))

# %%
viz.draw(loss, params={"x": x, "w": w, "loss": loss})

# %% [markdown]
# After `backward()` the picture shows `w`'s gradient. The nodes are now marked "buffers freed":
# `backward()` releases whatever the nodes saved for it (here `MulBackward0` saved `a`, twice)
# unless told otherwise — notebook 4 is about that.
#
# > **The same in PyTorch.** All of the above is PyTorch's behaviour: the propagation rule, the
# > node names (`AddBackward0`, `MulBackward0`, `SumBackward0`), `next_functions` with `(None, 0)`
# > for an input that needs no gradient, and `AccumulateGrad.variable`. One detail: in PyTorch
# > `AccumulateGrad` is a C++ node, so its `name()` is `'torch::autograd::AccumulateGrad'` while
# > `type(node).__name__` is `'AccumulateGrad'`; minigrad copies both.

# %% [markdown]
# ## Exercises
#
# ### Exercise 1 · predict `requires_grad` and `is_leaf`
#
# Without running anything, predict `(requires_grad, is_leaf)` for `a` … `e`:
#
# ```python
# x = torch.tensor([1., 2.], requires_grad=True)
# w = torch.tensor([3., 4.])
# a = x + w
# b = w * 2
# c = a.detach()
# d = c + b
# e = d * x
# ```
#
# Fill in the dictionary, then run the check. (Afterwards you may run the code to see why.)

# %%
# EXERCISE: replace each ... by your prediction, a pair (requires_grad, is_leaf)
# PREDICTION
answer = {
    "a": (True, False),
    "b": (False, True),
    "c": (False, True),
    "d": (False, True),
    "e": (True, False),
}
# END PREDICTION
check_requires_grad_table(answer)

# %% [markdown]
# ### Exercise 2 · predict `next_functions`
#
# Only `x` requires grad here:
#
# ```python
# x = torch.tensor([1., 2.], requires_grad=True)
# w = torch.tensor([3., 4.])
# t = (x * w + w.exp()).sum()
# ```
#
# `t.grad_fn` is a `SumBackward0`. Walk down from it: `add` is the node its first entry of
# `next_functions` points to, and `mul` the node `add`'s first entry points to. For each of the
# three nodes, write the list of what its `next_functions` hold, one entry per input, in argument
# order: the node's class name, or `None` for a `(None, 0)` entry. Think about which operations
# autograd records at all. Predict first; the cell after the check prints the truth.

# %%
# EXERCISE: one list per node: the class names of its next_functions entries (None for (None, 0))
# PREDICTION
answer = {
    "t": ["AddBackward0"],
    "add": ["MulBackward0", None],
    "mul": ["AccumulateGrad", None],
}
# END PREDICTION
check_next_functions(answer)

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0])
t = (x * w + w.exp()).sum()
add = t.grad_fn.next_functions[0][0]
mul = add.next_functions[0][0]
for name, node in [("t", t.grad_fn), ("add", add), ("mul", mul)]:
    print(f"{name:4s}", node.next_functions)
viz.draw(t, params={"x": x, "t": t})

# %% [markdown]
# ### Exercise 3 · find a leaf's `AccumulateGrad`
#
# Below, `bias` requires grad. Starting from `out.grad_fn`, follow `next_functions` to the
# `AccumulateGrad` node of `bias` and assign it to `node`. Drawing the graph helps.

# %%
inp = torch.tensor([1.0, -1.0])
weight = torch.tensor([2.0, 3.0], requires_grad=True)
bias = torch.tensor(0.5, requires_grad=True)
out = ((inp * weight).sum() + bias).tanh()
viz.draw(out, params={"weight": weight, "bias": bias})

# %%
# EXERCISE: follow next_functions from out.grad_fn to bias's AccumulateGrad
# SOLUTION
node = out.grad_fn.next_functions[0][0].next_functions[1][0]
# END SOLUTION
check_accumulate_grad(node, bias)

# %% [markdown]
# ## Summary
#
# * `requires_grad=True` marks a tensor for tracking; results of operations on it require grad too.
# * Each recorded operation is a node, the result's `grad_fn`; `next_functions` links it to the
#   nodes of its inputs.
# * Leaves are the tensors autograd did not compute. A leaf that requires grad appears in the graph
#   as an `AccumulateGrad` node, which fills its `.grad` during backward.
#
# Next: **2 · the chain rule**, by hand and by autograd, one node at a time.
