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
# # 8 · Dynamic graphs: the graph is what your code did
#
# *About 15 minutes.*
#
# PyTorch records the graph **while your code runs** ("define-by-run"). There is no separate graph
# language: Python's own `if`, `for`, `while`, function calls and recursion decide which operations
# happen, and only those are recorded. So the graph can be different at every call — for every
# input, every batch, every iteration of training. In this notebook you will draw graphs of the
# same function for different inputs, side by side.

# %%
import minigrad as torch
import viz

from course_checks import check_branch_grads, check_doubling_loop


def count_nodes(t, name):
    """How many nodes called `name` are in the graph behind t."""
    count, stack, seen = 0, [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        count += type(node).__name__ == name
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return count


# %% [markdown]
# ## An `if` decides which operation is recorded

# %%
def f(x):
    if x > 0:
        return x**2
    return -3 * x


a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-2.0, requires_grad=True)
fa, fb = f(a), f(b)
viz.side_by_side(viz.draw(fa, params={"x": a}, legend=False), viz.draw(fb, params={"x": b}, legend=False),
                 titles=["f(2): the x > 0 branch", "f(-2): the other branch"])

# %% [markdown]
# Each graph contains only the branch that ran, so autograd differentiates exactly that branch:

# %%
fa.backward()
fb.backward()
print("f'(2) =", a.grad, "   f'(-2) =", b.grad)

# %% [markdown]
# ## A `while` loop: the data decides the depth
#
# The PyTorch tutorial's example: double `y` until its norm reaches 1000. How many multiplications
# happen depends on the input's values.

# %%
def double_until_big(x):
    y = x * 2
    while y.norm() < 1000:
        y = y * 2
    return y


small = torch.tensor([3.0, 4.0, 0.0], requires_grad=True)
large = torch.tensor([100.0, 0.0, 0.0], requires_grad=True)
y_small, y_large = double_until_big(small), double_until_big(large)
print(count_nodes(y_small, "MulBackward0"), "multiplications for", small)
print(count_nodes(y_large, "MulBackward0"), "multiplications for", large)
viz.side_by_side(viz.draw(y_small, params={"x": small}, legend=False),
                 viz.draw(y_large, params={"x": large}, legend=False),
                 titles=["x = [3, 4, 0]", "x = [100, 0, 0]"])

# %% [markdown]
# The gradient follows the graph that was recorded: $y = 2^n x$, so $\partial(\sum y)/\partial x = 2^n$.

# %%
y_small.sum().backward()
y_large.sum().backward()
print(small.grad, large.grad)

# %% [markdown]
# ## A recurrent loop over sequences of different lengths
#
# A recurrent network applies the same cell once per element of a sequence:
# $h_t = \tanh(w\,h_{t-1} + x_t)$. With define-by-run, a sequence of length 2 and one of length 4
# simply give graphs of different depth — with the **same** weight `w` used at every step. Its
# gradient collects a contribution from every step.

# %%
w = torch.tensor(0.5, requires_grad=True)


def rnn(sequence):
    h = torch.tensor(0.0)
    for x_t in sequence:
        h = (w * h + x_t).tanh()
    return h


h2 = rnn(torch.tensor([1.0, -1.0]))
h4 = rnn(torch.tensor([1.0, -1.0, 0.5, 2.0]))
viz.side_by_side(viz.draw(h2, params={"w": w}, legend=False), viz.draw(h4, params={"w": w}, legend=False),
                 titles=["length 2", "length 4"])

# %% [markdown]
# Step through the longer one and watch `w`'s `AccumulateGrad`: it runs once, after the engine has
# summed the contributions of all four steps (notebook 2's dependency counting).

# %%
viz.step_backward(h4, params={"w": w})

# %% [markdown]
# ### Exercise 1 · how deep is the loop?
#
# For `x = torch.tensor([1., 2., 2.], requires_grad=True)`, predict how many `MulBackward0` nodes
# `double_until_big(x)` records, and what `x.grad` is after `double_until_big(x).sum().backward()`.
# Work it out first; then verify in the cell after the check.

# %%
# EXERCISE: your predictions: the number of multiplications, and x.grad
# PREDICTION
n_mul = 9
x_grad = [512.0, 512.0, 512.0]
# END PREDICTION
check_doubling_loop(n_mul, x_grad)

# %%
x = torch.tensor([1.0, 2.0, 2.0], requires_grad=True)
y = double_until_big(x)
print(count_nodes(y, "MulBackward0"), "multiplications")
y.sum().backward()
print(x.grad)

# %% [markdown]
# ### Exercise 2 · which branch?
#
# With `f` from the top of this notebook, what is $df/dx$ at $x = -2$, $x = 1.5$ and $x = 0$?
# Careful at 0: which branch does Python take? Predict, check, then let autograd confirm.

# %%
# EXERCISE: {x: df/dx}
# PREDICTION
answer = {-2.0: -3.0, 1.5: 3.0, 0.0: -3.0}
# END PREDICTION
check_branch_grads(answer)

# %%
for value in (-2.0, 1.5, 0.0):
    x = torch.tensor(value, requires_grad=True)
    f(x).backward()
    print(f"df/dx at {value:4}: {x.grad.item()}")

# %% [markdown]
# > **The same in PyTorch.** PyTorch's autograd is define-by-run in exactly this way: the graph is
# > rebuilt by every forward pass and freed by its backward. (`torch.compile` captures graphs ahead
# > of time for speed; where the control flow depends on tensor values it splits the graph and runs
# > that Python code as usual.) A comparison like `y.norm() < 1000` gives a one-element boolean
# > tensor, which `while` and `if` turn into a Python `bool`.
#
# ## Summary
#
# * The graph is recorded as your Python code runs: control flow picks what gets recorded.
# * Different inputs → different graphs; backward differentiates the graph that was recorded.
# * A weight used at many steps gets the sum of all their contributions.
#
# Next: **9 · training a network**.
