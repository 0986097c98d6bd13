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
# # 4 · Gradients accumulate; what backward frees; hooks and `autograd.grad`
#
# *About 25 minutes.*
#
# Every PyTorch training loop calls `optimizer.zero_grad()`. Forget it and the model trains
# badly, without any error. This notebook explains why, and looks at the other things that happen
# around a `backward()` call:
#
# * `.grad` **adds up** over backward calls; `grad.zero_()`, `grad = None`, `optimizer.zero_grad()`,
# * `backward()` **frees** the values the graph saved, unless `retain_graph=True`,
# * non-leaf gradients: `retain_grad()` and tensor **hooks**,
# * `torch.autograd.grad`, which returns gradients without touching `.grad`.

# %%
import minigrad as torch
import viz

from course_checks import check_accumulated_grad, check_autograd_grad_paths, check_norm_clip_hook

# %% [markdown]
# ## `.grad` accumulates
#
# Run backward three times on a freshly built `y = x * x` and watch `x.grad`:

# %%
x = torch.tensor(3.0, requires_grad=True)
for i in range(3):
    y = x * x
    y.backward()
    print(f"after backward #{i + 1}: x.grad = {x.grad}")

# %% [markdown]
# $dy/dx = 2x = 6$, but `x.grad` grows: 6, 12, 18. Backward does not *set* `.grad`, it **adds** to
# it. That is a feature: when a parameter is used in several places, or when you want the gradient
# of several losses (or of several small batches, "gradient accumulation"), the contributions simply
# add up. The price: before each new gradient you must clear the old one.
#
# The stepper shows it too: `backward_again()` runs one more backward on the same graph and appends
# its steps, so at the `AccumulateGrad` step you see `.grad` go from 6 to 12. (`retain_graph=True`
# is explained below.)

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x * x
stepper = viz.step_backward(y, params={"x": x, "y": y}, retain_graph=True)
stepper.backward_again()
stepper.print()
stepper

# %% [markdown]
# ## Clearing gradients
#
# Three ways, in order of how often you will use them:

# %%
x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
x.grad.zero_()                       # 1. in place: the same tensor, now filled with zeros
print("after x.grad.zero_():", x.grad)
x.grad = None                        # 2. drop it: the next backward creates a new .grad
print("after x.grad = None: ", x.grad)

lin = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(lin.parameters(), lr=0.1)
lin(torch.ones(1, 2)).sum().backward()
print("before zero_grad:", lin.weight.grad)
optimizer.zero_grad()                # 3. for all parameters of an optimizer (or model.zero_grad())
print("after zero_grad: ", lin.weight.grad)

# %% [markdown]
# `optimizer.zero_grad()` sets the gradients to `None` by default (`set_to_none=True`): it saves
# memory and a needless addition. `zero_grad(set_to_none=False)` fills them with zeros instead.
#
# ### Exercise 1 · predict the accumulated gradient
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# (x ** 2).backward()
# (5 * x).backward()
# ```
#
# What is `x.grad` now? Decide first, then check (and then run it, if you like).

# %%
# EXERCISE: the value of x.grad after the two backward calls
# PREDICTION
answer = 11.0
# END PREDICTION
check_accumulated_grad(answer)

# %% [markdown]
# ## What `backward()` frees: `retain_graph`
#
# To compute its local derivative a node keeps values from the forward pass (notebook 2:
# `MulBackward0` keeps both factors). After `backward()` those saved values are no longer needed, so
# they are **freed** — the graph's memory goes back right away. A second backward through the same
# graph then fails:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# The picture after the first backward marks the freed nodes. Reading a saved value now fails with
# the same error:

# %%
viz.draw(y, params={"x": x, "y": y})

# %%
try:
    y.grad_fn.next_functions[0][0]._saved_self
except RuntimeError as error:
    print("RuntimeError:", str(error)[:80], "…")

# %% [markdown]
# `retain_graph=True` keeps the saved values, so you can call backward again (and the gradients
# accumulate):

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)

# %% [markdown]
# The error only comes when backward reaches a node that **saved tensors**. A graph of sums and
# additions saves nothing (their derivative is 1), so a second backward works even without
# `retain_graph`:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sum()
y.backward()
y.backward()
print(x.grad)

# %% [markdown]
# In the stepper, a second backward without `retain_graph` shows PyTorch's error in the panel
# (`on_error="show"` keeps the widget instead of raising):

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
stepper = viz.step_backward(y, params={"x": x, "y": y})
stepper.backward_again(raise_error=False)
print(stepper.error)
stepper

# %% [markdown]
# ## Gradients of non-leaf tensors
#
# Backward computes the gradient at every node it passes, but it stores it only in the leaves'
# `.grad`. For an intermediate tensor `.grad` stays `None` (with a warning, as in notebook 3).
# `retain_grad()` asks autograd to keep it:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.retain_grad()
loss = (h * h).sum()
loss.backward()
print("h.retains_grad:", h.retains_grad, "  h.grad:", h.grad, "  x.grad:", x.grad)

# %% [markdown]
# ## Tensor hooks
#
# `t.register_hook(fn)` calls `fn(grad)` with the gradient arriving at `t`, during backward. The hook
# can just look (return `None`) or return a replacement gradient, which is then used instead. Hooks
# are the tool for gradient logging, clipping, or debugging. `register_hook` returns a handle;
# `handle.remove()` takes the hook off.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
handle = h.register_hook(lambda grad: print("gradient arriving at h:", grad))
h.register_hook(lambda grad: grad * 10)            # replaces the gradient
(h * h).sum().backward()
print("x.grad:", x.grad, " (ten times the usual 8·x)")
handle.remove()

# %% [markdown]
# A hook runs **once per backward**, with the sum of the gradients of all uses of the tensor, and
# the stepper shows it as an event of the step where it fired. Below, `h` is used twice: the
# gradients $3$ (from `h * 3`) and $2h = [4, 8]$ (from `h * h`) arrive summed, $[7, 11]$, and the
# hook turns them into $[70, 110]$ before `MulBackward0` (the node of `h = x * 2`) runs.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(lambda grad: grad * 10)
loss = (h * 3 + h * h).sum()
stepper = viz.step_backward(loss, params={"x": x, "h": h, "loss": loss})
stepper.print()

# %% [markdown]
# ### Exercise 2 · a norm-clipping hook
#
# Exploding gradients are often tamed by **clipping by norm**: a gradient longer than a limit is
# shrunk to that length, keeping its direction; a shorter one passes unchanged. Write a hook that
# does this with the limit 1 (PyTorch's `torch.nn.utils.clip_grad_norm_` does the same for all the
# parameters of a model together). Rules of the house for hooks: return the new gradient, never
# change `grad` in place. What should happen to a gradient of all zeros?

# %%
# EXERCISE: return grad rescaled to norm 1 if its norm is above 1, else grad unchanged
def clip_norm_hook(grad):
    # SOLUTION
    norm = grad.norm()
    if norm > 1:
        return grad / norm
    return grad
    # END SOLUTION


check_norm_clip_hook(clip_norm_hook, torch)

# %% [markdown]
# ## `torch.autograd.grad`: gradients without `.grad`
#
# `torch.autograd.grad(outputs, inputs)` returns the gradients of `outputs` with respect to `inputs`
# as a tuple, and leaves every `.grad` alone. It accepts non-leaf inputs, and it is the tool of
# choice inside a computation (for example a gradient penalty, which notebook 7 builds).

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
grads = torch.autograd.grad(a * b, [a, b])
print(grads, a.grad, b.grad)

# %% [markdown]
# If an input was not used to compute the output, that is an error, unless you pass
# `allow_unused=True` — then its gradient comes back as `None`:

# %%
try:
    torch.autograd.grad(a * 2, [a, b])
except RuntimeError as error:
    print("RuntimeError:", error)
print(torch.autograd.grad(a * 2, [a, b], allow_unused=True))

# %% [markdown]
# ### Exercise 3 · two paths, and a non-leaf input
#
# ```python
# a = torch.tensor(3.0, requires_grad=True)
# b = torch.tensor(4.0, requires_grad=True)
# h = a * b
# loss = h**2 + a
# ```
#
# First predict $\partial\,\text{loss}/\partial a$ by hand — `a` reaches `loss` along two paths.
# Then compute $(\partial\,\text{loss}/\partial h,\ \partial\,\text{loss}/\partial a,\
# \partial\,\text{loss}/\partial b)$ with **one** `torch.autograd.grad` call (`h` is not a leaf: does
# that matter?). Does asking for the gradient at `h` stop the gradient on its way to `a`?

# %%
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
h = a * b
loss = h**2 + a
# EXERCISE: your prediction of dloss/da, then the three gradients from one autograd.grad call
# PREDICTION
prediction = 97.0
# END PREDICTION
# SOLUTION
answer = torch.autograd.grad(loss, [h, a, b])
# END SOLUTION
check_autograd_grad_paths(prediction, answer, a)

# %% [markdown]
# > **The same in PyTorch.** Accumulation, `zero_grad(set_to_none=True)` as the default, freeing
# > the saved tensors (with exactly this error text), the success of a second backward through a
# > graph that saved nothing, `retain_grad()`, hooks (run once per backward with the summed
# > gradient), and `autograd.grad` with `allow_unused` are all PyTorch's behaviour. PyTorch also
# > has `materialize_grads=True`, which returns zeros instead of `None` for unused inputs.
#
# ## Summary
#
# * `.grad` adds up across backward calls: clear it before each step (`optimizer.zero_grad()`).
# * Backward frees what the graph saved; `retain_graph=True` keeps it for another backward.
# * Intermediate gradients: `retain_grad()`, or a hook that sees (and may replace) them.
# * `torch.autograd.grad` returns gradients and never touches `.grad`.
#
# Next: **5 · turning tracking off**.
