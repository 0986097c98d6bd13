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
# # 10 · Your own operation: `autograd.Function` and `gradcheck`
#
# *About 25 minutes.*
#
# Autograd knows the derivative of every built-in operation. Sometimes you want to write one
# yourself: a new operation, a numerically safer formula, or a deliberately *different* gradient —
# a "straight-through" gradient for a step function, gradient clipping, gradient reversal. Then you
# write the forward and the backward by hand, and you must make sure they agree. In this notebook
# you will
#
# * write a `torch.autograd.Function` with `forward`, `backward` and `ctx.save_for_backward`,
# * see your node in the graph and step through it,
# * verify a backward numerically with `gradcheck`, and find a bug with it.

# %%
import minigrad as torch
import viz

from course_checks import check_fixed_function, check_softplus_function

# %% [markdown]
# ## Anatomy of a `Function`
#
# Two static methods. `forward(ctx, *inputs)` computes the result and stores on `ctx` what backward
# will need. `backward(ctx, grad_output)` receives the gradient of the loss with respect to the
# output and returns one gradient per input of `forward` — the vector-Jacobian product of
# notebook 3. You call it through `.apply(...)`, which records the node in the graph.

# %%
class MyExp(torch.autograd.Function):
    """exp(x), with d exp(x)/dx = exp(x): the output is all backward needs."""

    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)      # saved tensors are version-checked (notebook 6)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result        # chain rule: incoming gradient × local derivative


x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.next_functions)

# %% [markdown]
# The node is called `MyExpBackward`, and it behaves like any built-in node — the stepper steps
# through it like any other:

# %%
loss = (MyExp.apply(x) * 2).sum()
viz.step_backward(loss, params={"x": x, "loss": loss})

# %%
print("x.grad:", x.grad, "   2·exp(x):", 2 * x.detach().exp())

# %% [markdown]
# Two details:
#
# * `forward` runs with gradient recording **off** — what happens inside it is not recorded; the
#   whole `Function` is one node. Its derivative is whatever your `backward` says.
# * Arguments that are not tensors (a number, a flag) get `None` as their gradient. `ctx` can hold
#   them, and `ctx.needs_input_grad` tells which inputs need a gradient at all.

# %%
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        print("  forward: grad enabled?", torch.is_grad_enabled())
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad_output):
        print("  backward: needs_input_grad =", ctx.needs_input_grad)
        return grad_output * ctx.k, None   # one gradient per forward input; None for k


x = torch.tensor([1.0, 2.0], requires_grad=True)
Scale.apply(x, 3.0).sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# ## A deliberately different gradient: the straight-through estimator
#
# `sign(x)` has derivative 0 almost everywhere, so nothing learns through it. Binarised networks
# use a *straight-through estimator* instead: forward computes `sign`, backward pretends it was the
# identity (clipped to $|x| \le 1$). Autograd cannot invent this — you write it.

# %%
class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1)


x = torch.tensor([-2.0, -0.5, 0.3, 1.5], requires_grad=True)
x.sign().sum().backward()
print("built-in sign:  ", x.grad)
x.grad = None
BinarizeSTE.apply(x).sum().backward()
print("straight-through:", x.grad)

# %% [markdown]
# ## `gradcheck`: is my backward right?
#
# A wrong backward does not raise an error — training just goes wrong. `torch.autograd.gradcheck`
# compares your backward with **finite differences**: it nudges each input by a tiny `eps`,
# measures $\big(f(x + \varepsilon) - f(x - \varepsilon)\big) / 2\varepsilon$, builds the numerical
# Jacobian, and compares it with the Jacobian your backward produces. Use `float64` inputs: with
# `eps = 1e-6`, single precision would drown the difference in rounding error.

# %%
x64 = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(MyExp.apply, (x64,)))

# %% [markdown]
# Now a bug: a backward that is off by a factor of 2. `gradcheck` raises a `GradcheckError` showing
# both Jacobians — or, with `raise_exception=False`, returns `False`.

# %%
class WrongExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result * 2    # wrong!


try:
    torch.autograd.gradcheck(WrongExp.apply, (x64,))
except RuntimeError as error:
    print(type(error).__name__, error)
print(torch.autograd.gradcheck(WrongExp.apply, (x64,), raise_exception=False))

# %% [markdown]
# `gradcheck` on the straight-through estimator rightly **fails**: its backward is deliberately not
# the derivative of its forward. Use `gradcheck` for functions whose backward is meant to be exact.
# (`gradgradcheck` does the same for second derivatives, notebook 7.)

# %%
x64 = torch.tensor([-0.5, 0.5, 1.5], dtype=torch.float64, requires_grad=True)
ste_ok = torch.autograd.gradcheck(BinarizeSTE.apply, (x64,), raise_exception=False)
print("straight-through estimator:", ste_ok)
print("gradgradcheck of MyExp:    ", torch.autograd.gradgradcheck(MyExp.apply, (x64,)))

# %% [markdown]
#
# ### Exercise 1 · softplus
#
# Write `Softplus`, computing $\operatorname{softplus}(x) = \log(1 + e^x)$. Its derivative is the
# sigmoid: $\operatorname{softplus}'(x) = \sigma(x)$. Save what backward needs in `forward`. The check
# tests values, the gradient with a non-trivial `grad_output`, and runs `gradcheck`.

# %%
# EXERCISE: forward computes log(1 + exp(x)); backward returns grad_output * sigmoid(x)
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        # SOLUTION
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()
        # END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        # SOLUTION
        (x,) = ctx.saved_tensors
        return grad_output * x.sigmoid()
        # END SOLUTION


check_softplus_function(Softplus, torch)

# %% [markdown]
# ### Exercise 2 · find the bug
#
# `ScaledSquare` computes $k\,x^2$ for a number $k$. Its backward has a bug. First run `gradcheck`
# with $k = 1$ and with $k = 3$ — note that a test with $k = 1$ alone would have missed it — then
# fix the `backward` in the cell after.

# %%
class BuggyScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return k * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * x, None


x64 = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
for k in (1.0, 3.0):
    ok = torch.autograd.gradcheck(lambda t, k=k: BuggyScaledSquare.apply(t, k), (x64,), raise_exception=False)
    print(f"k = {k}: gradcheck passed? {ok}")

# %%
# EXERCISE: fix the backward of ScaledSquare (out = k * x**2)
class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return k * x * x

    @staticmethod
    def backward(ctx, grad_output):
        # SOLUTION
        # STUB: ...  # TODO: BuggyScaledSquare's backward, with the bug fixed
        (x,) = ctx.saved_tensors
        return grad_output * 2 * ctx.k * x, None
        # END SOLUTION


check_fixed_function(ScaledSquare, torch)

# %% [markdown]
# > **The same in PyTorch.** The `Function` API is PyTorch's: static `forward(ctx, ...)` and
# > `backward(ctx, ...)`, `.apply`, `ctx.save_for_backward` / `ctx.saved_tensors`,
# > `ctx.needs_input_grad`, one returned gradient per input (`None` for non-tensors), forward run
# > with grad mode off, and the node named `<ClassName>Backward` (without the `0` of built-in
# > nodes). `gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)` raises `GradcheckError` (a
# > `RuntimeError`) with both Jacobians, or returns `False` with `raise_exception=False`; with
# > `float32` inputs it warns that the check will likely fail.
#
# ## Summary
#
# * A custom `Function` is one node: you provide its forward and its vector-Jacobian product.
# * Save what backward needs with `ctx.save_for_backward`; return one gradient per input.
# * Always `gradcheck` a hand-written backward, in `float64`, with non-trivial inputs and
#   parameters.
#
# Where next? Read minigrad's source: each operation's forward and backward sit side by side in
# `minigrad/ops/`, and the engine in `minigrad/autograd/engine.py` is the loop you wrote in
# notebook 2. In the course: **11 · forward and reverse mode**, and **12 · what the articles got
# wrong**.
