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
# # 5 · Turning tracking off: `no_grad`, `detach`, `requires_grad_`, frozen layers
#
# *About 20 minutes.*
#
# Recording a graph costs memory (every saved tensor) and time. Often you do not want it: when you
# evaluate a model, when you update the weights, when a value should act as a constant. And
# sometimes you want part of a model to stay fixed while the rest trains. This notebook covers
#
# * `torch.no_grad()`, `enable_grad()`, `set_grad_enabled()` — switching recording off and on,
# * `detach()` — one tensor cut off from the graph,
# * `requires_grad_()` — switching tracking on for a leaf,
# * freezing layers of a model and replacing its last layer (fine-tuning),
# * the legacy `volatile` flag and what replaced it.

# %%
import minigrad as torch
import minigrad.nn as nn
import viz

from course_checks import check_frozen_model, check_tracking_quiz

# %% [markdown]
# ## `torch.no_grad()`
#
# Inside a `with torch.no_grad():` block nothing is recorded: results do not require grad, have no
# `grad_fn`, and are leaves — even when their inputs require grad.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print("inside: grad enabled?", torch.is_grad_enabled())
print(y, y.requires_grad, y.grad_fn, y.is_leaf)
print("outside: grad enabled?", torch.is_grad_enabled())

# %% [markdown]
# Typical uses: evaluating a model on validation data, and updating weights by hand. The update must
# not become part of the graph, and it must change the leaf **in place**. Rebinding
# `w = w - lr * w.grad` would make `w` a *new* tensor — outside `no_grad` a non-leaf whose `.grad`
# stays `None`, inside it a tensor that does not require grad at all — and the parameter is lost.

# %%
w = torch.tensor([1.0, -1.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad            # in place, not recorded: w stays the same leaf
w.grad = None
print(w, w.is_leaf)

# %% [markdown]
# `no_grad` also works as a decorator, `enable_grad()` switches recording back on inside it, and
# `set_grad_enabled(flag)` takes a boolean — handy for one loop that trains or evaluates:

# %%
@torch.no_grad()
def evaluate(t):
    return t * 2


print("decorated:", evaluate(x).requires_grad)

with torch.no_grad():  # noqa: SIM117 - nested on purpose: the inner block switches recording back on
    with torch.enable_grad():
        print("enable_grad inside no_grad:", (x * 2).requires_grad)

for training in (True, False):
    with torch.set_grad_enabled(training):
        print(f"set_grad_enabled({training}):", (x * 2).requires_grad)

# %% [markdown]
# ## `detach()`: one tensor out of the graph
#
# `t.detach()` returns a new leaf with the **same data** (no copy) that does not require grad.
# Gradients do not flow through it: whatever is computed from it is, for autograd, a constant.
#
# The live graph below (`viz.live()`) redraws itself after each cell that records operations. Run
# the next cells one by one and watch it grow; where `detach()` cut the graph it draws a grey
# "✂ cut" box: a value that entered the computation as a constant, with no gradient edge back.

# %%
w = torch.tensor([0.2, -0.1], requires_grad=True)
live = viz.live(params={"w": w})
live

# %%
h = (w * 3).exp()

# %%
scale = h.detach()                   # h's current value, as a constant
loss = (h * scale).sum()

# %% [markdown]
# Numerically `loss` is $\sum h^2$, but the gradient only flows through the first factor: `scale`
# is a constant for autograd. So `w.grad` is **half** the gradient of `(h * h).sum()`:

# %%
loss.backward(retain_graph=True)     # keep the saved values, so the live graph can still show the cut
print("w.grad:               ", w.grad)
print("gradient of (h*h).sum:", torch.autograd.grad(((w * 3).exp() ** 2).sum(), w)[0])
print("scale.requires_grad:", scale.requires_grad, "  shares data with h:",
      scale.data_ptr() == h.data_ptr())

# %% [markdown]
# Because `detach()` shares the data, `t.detach().numpy()` is the usual way to hand a tensor that
# requires grad to numpy or matplotlib (`.numpy()` itself refuses). In-place changes to a detached
# tensor change the original too — notebook 6 shows how autograd notices.
#
# ## `requires_grad_()`: tracking on for a leaf
#
# `requires_grad_()` switches tracking on (or off, with `False`) in place and returns the tensor.
# Only leaves may change the flag: for a computed tensor it would make no sense to stop tracking
# half-way — use `detach()` instead.

# %%
t = torch.zeros(2).requires_grad_()
print(t)
try:
    (t * 2).requires_grad_(False)    # a computed tensor: refused
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ### Exercise 1 · which tensors require grad?
#
# ```python
# x = torch.tensor([1., 2.], requires_grad=True)
# with torch.no_grad():
#     a = x * 2
#     b = torch.ones(2, requires_grad=True)
#     with torch.enable_grad():
#         c = x * 2
# d = (x * 2).detach()
# torch.set_grad_enabled(False)
# e = x * 2
# torch.set_grad_enabled(True)
# f = torch.zeros(2).requires_grad_()
# ```
#
# For each of `a` … `f`: does it require grad?

# %%
# EXERCISE: True or False for each tensor
# PREDICTION
answer = {"a": False, "b": True, "c": True, "d": False, "e": False, "f": True}
# END PREDICTION
check_tracking_quiz(answer)

# %% [markdown]
# ## Freezing layers, replacing the last one
#
# Fine-tuning a pretrained network often means: keep the early layers as they are, and train a new
# last layer for your own classes. Freezing is just `requires_grad = False` on the parameters
# (they are leaves). Frozen parameters leave the graph, so backward neither computes nor stores
# their gradients.

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
for p in model[0].parameters():
    p.requires_grad = False

inputs = torch.randn(5, 4)
model(inputs).sum().backward()
for name, p in model.named_parameters():
    grad = None if p.grad is None else tuple(p.grad.shape)
    print(f"{name:9s} requires_grad={p.requires_grad!s:5s} grad={grad}")

# %% [markdown]
# In the graph the frozen layer `0` has no `AccumulateGrad` nodes: `params=model` names the
# parameters after the model's attributes and groups them by module.

# %%
viz.draw(model(inputs).sum(), params=model)

# %% [markdown]
# To fine-tune for 3 classes, replace the last layer: a new `nn.Linear` requires grad by default.
# Give the optimizer only the parameters that train.

# %%
model[4] = nn.Linear(8, 3)
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(trainable, lr=0.1)
print(model)
print(len(trainable), "trainable parameter tensors")

# %% [markdown]
# `module.requires_grad_(False)` freezes all of a module's parameters at once.
#
# ### Exercise 2 · freeze all but a new head
#
# Build `model2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))`, freeze **every**
# parameter, then replace the last layer by a new `nn.Linear` with 3 outputs.

# %%
# EXERCISE: freeze everything, then give model2 a new trainable head with 3 outputs
# SOLUTION
model2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
model2.requires_grad_(False)
model2[2] = nn.Linear(8, 3)
# END SOLUTION
check_frozen_model(model2, n_classes=3)

# %% [markdown]
# ## History: the `volatile` flag
#
# Before PyTorch 0.4 (2018), tensors were wrapped in `Variable` objects, and inference was marked
# with `Variable(x, volatile=True)`. Version 0.4 merged `Variable` into `Tensor` and replaced
# `volatile` with `torch.no_grad()`. Old code still runs, but the flag does nothing:

# %%
x = torch.tensor([1.0], requires_grad=True)
print(x.volatile)                                  # always False, with a warning
v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
print(v, type(v).__name__)                         # Variable(...) just returns a Tensor

# %% [markdown]
#
# %% [markdown]
# ## `torch.inference_mode()`: a stricter `no_grad`
#
# `inference_mode()` records nothing, like `no_grad`, and also skips the bookkeeping (version
# counters) that a later backward might need — a little faster for pure inference. Its tensors are
# marked *inference tensors*. They **can** enter a graph later; what they cannot do is be **saved
# for backward**, or be changed in place outside inference mode:

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    t = torch.ones(2) * 3
print("inference tensor:", t.is_inference(), "  requires_grad:", t.requires_grad)
(t + w).sum().backward()                     # AddBackward0 saves nothing: fine
print("t + w works, w.grad =", w.grad)
for code in ["(t * w).sum().backward()", "t.add_(1)"]:   # mul must save t for w's gradient
    try:
        exec(code)
    except RuntimeError as error:
        print(f"{code:26s} RuntimeError: {str(error)[:70]}…")

# %% [markdown]
# So use `inference_mode()` for code that only evaluates, and `no_grad()` when its results may be
# used in training later (or `t.clone()` an inference tensor to get a normal one).
#
# > **The same in PyTorch.** `no_grad`, `enable_grad`, `set_grad_enabled` (as a context manager and
# > as a function), `detach()` sharing data, `requires_grad_()` only on leaves (with this error
# > text), freezing with `requires_grad = False`, the `volatile` warnings, and `inference_mode()`
# > with its two errors are PyTorch's behaviour.
#
# ## Summary
#
# * `no_grad()` stops recording for a block; use it for evaluation and weight updates.
# * `detach()` cuts one tensor out of the graph (same data, no gradient).
# * Freeze parameters with `requires_grad = False`; they then have no `AccumulateGrad` node and no
#   `.grad`.
#
# Next: **6 · in-place operations** and the version counter.
