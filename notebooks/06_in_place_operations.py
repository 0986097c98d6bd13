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
# # 6 · In-place operations and the version counter
#
# *About 20 minutes.*
#
# An in-place operation — `t.add_(1)`, `t += 1`, `t[0] = 5`, `t.mul_(2)`, any method ending in `_` —
# changes a tensor's data instead of making a new tensor. That saves memory. But backward may need
# the **old** values: a node saved them during the forward pass. If they were overwritten, the
# gradient would silently be wrong. Autograd prevents that with a **version counter**. You will see
#
# * the version counter, and the errors autograd raises (and why),
# * which in-place operations are harmless,
# * `.data`, which bypasses all of this — and why to avoid it.

# %%
import minigrad as torch
import viz

from course_checks import check_inplace_quiz, check_inplace_repair

# %% [markdown]
# ## The version counter
#
# Every tensor carries a counter, `t._version`, that each in-place operation increases by one.

# %%
t = torch.tensor([1.0, 2.0])
print(t._version)
t.add_(1)
t += 1
t[0] = 0.0
print(t, t._version)

# %% [markdown]
# ## In place on a leaf that requires grad: refused
#
# A leaf that requires grad is a parameter you want the gradient for. Changed in place while
# recording, it would become the *result* of an operation — it would need a `grad_fn` and stop being
# a leaf, and its gradient would have no `.grad` to go to. So autograd refuses:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
for code in ["x.add_(1)", "x += 1", "x[0] = 5.0"]:
    try:
        exec(code)
    except RuntimeError as error:
        print(f"{code:12s} RuntimeError: {error}")

# %% [markdown]
# Under `torch.no_grad()` it is allowed — that is exactly the weight update of notebook 5:
# `with torch.no_grad(): w -= lr * w.grad`.
#
# ## Overwriting a value that backward needs
#
# The sigmoid's derivative is $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$, so `SigmoidBackward0`
# saves its **output**. Modify that output in place, and backward would use the wrong numbers:

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x.sigmoid()
print("saved at version", y._version)
y.mul_(2)
print("now at version  ", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# The message names the tensor (type and shape), the operation whose output it is, and the two
# versions: the one saved for backward and the current one. The stepper highlights the node whose
# saved tensor was modified (`on_error="show"` keeps the widget instead of raising):

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x.sigmoid()
y.mul_(2)
stepper = viz.step_backward(y.sum(), params={"x": x}, on_error="show")
print(stepper.error)
stepper

# %% [markdown]
# Which operations save what? Some save their inputs (`mul`, `pow`, `div`, `mm`), some their
# output (`exp`, `sigmoid`, `tanh`, `relu`), some nothing at all (`add`, `sub`, `sum`, `view`):
# their derivative does not depend on any value. An in-place change is a problem only when it
# overwrites a value some node saved.

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x + 1                       # AddBackward0 saves nothing
print("before:", y.grad_fn)
y.mul_(2)                       # fine: nobody saved y
print("after: ", y.grad_fn)
y.sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# Note how the in-place `mul_` became `y`'s new `grad_fn`: the same Python object `y` now stands for
# "`(x + 1)` multiplied by 2". `y += 1` on a non-leaf does the same (it is in place, not a new
# tensor). Both steps are in the graph:

# %%
viz.draw(y, params={"x": x, "y": y})

# %% [markdown]
# ### Exercise 1 · harmless or an error?
#
# For each snippet (each starts from a fresh `x = torch.tensor([1., 2.], requires_grad=True)`),
# decide: does it run (`"ok"`) or raise (`"error"`)?
#
# ```python
# # A
# x.mul_(2)
# # B
# y = x + 1; y.mul_(2); y.sum().backward()
# # C
# y = x.exp(); y.add_(1); y.sum().backward()
# # D
# loss = (x * x).sum(); loss.backward()
# with torch.no_grad():
#     x -= 0.1 * x.grad
# # E
# h = x * 1; y = h * h; h.add_(1); y.sum().backward()
# ```

# %%
# EXERCISE: "ok" or "error" for each snippet
# PREDICTION
answer = {"A": "error", "B": "ok", "C": "error", "D": "ok", "E": "error"}
# END PREDICTION
check_inplace_quiz(answer)

# %% [markdown]
# ### Exercise 2 · find the culprit, repair it
#
# This code has two in-place operations, and its backward fails:
#
# ```python
# x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
# h = x.tanh()
# y = h * 3
# y += 1
# h *= 2
# loss = (y + h).sum()
# loss.backward()
# ```
#
# Which line is the culprit — `"y += 1"` or `"h *= 2"`? Decide from what each node saved (run it
# and read the error if you like). Then repair it with as few changes as possible, so that `loss`
# keeps its value, $\sum (3\tanh x + 1 + 2\tanh x)$, and put the resulting `x.grad` in `x_grad`.
# (`.data` and `detach()` are not repairs: ask yourself what gradient they would give.)

# %%
# EXERCISE: the culprit line, and x.grad after your repair
# PREDICTION
culprit = "h *= 2"
# END PREDICTION
# SOLUTION
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = x.tanh()
y = h * 3
y += 1                # harmless: h * 3 saved no tensor it would need (3 needs no gradient)
h = h * 2             # out of place: TanhBackward0's saved output stays intact
loss = (y + h).sum()
loss.backward()
x_grad = x.grad
# END SOLUTION
check_inplace_repair(culprit, x_grad)

# %% [markdown]
# ## `.data`: the silent bypass
#
# Old code often uses `t.data` to get "the numbers without autograd". `.data` shares the storage,
# does not require grad, and — the problem — its in-place changes are **not counted** by the
# version counter. Autograd cannot notice them, and the gradient comes out wrong without any error:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.data.mul_(0)                  # overwrites the saved output behind autograd's back
y.sum().backward()
print("silently wrong:", x.grad, " (should be exp(x) =", torch.tensor([1.0, 2.0]).exp(), ")")

# %% [markdown]
# `detach()` also shares the storage, but it shares the version counter too, so the same mistake is
# caught:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.detach().mul_(0)
print("version of y:", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", str(error)[:150], "…")

# %% [markdown]
# Use `detach()` (or `torch.no_grad()`) wherever old code uses `.data`.
#
# > **The same in PyTorch.** The version counter (`_version`), the three errors above with their
# > texts, the `grad_fn` replaced by an in-place op, and the silent `.data` bypass are PyTorch's
# > behaviour. PyTorch's `torch.autograd.set_detect_anomaly(True)` additionally prints the forward
# > line that created the failing node — helpful in a big model.
#
# ## Summary
#
# * In-place ops bump the tensor's version; backward checks the versions of what it saved.
# * In place on a leaf that requires grad is refused (except under `no_grad`).
# * In place is harmless where nothing saved the old value; otherwise use an out-of-place op.
# * Avoid `.data`: it hides changes from autograd. Use `detach()` or `no_grad()`.
#
# Next: **7 · higher-order derivatives**.
