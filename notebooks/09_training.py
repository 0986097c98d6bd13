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
# # 9 · Training: from one layer to an MLP on handwritten digits
#
# *About 30 minutes.*
#
# Everything so far comes together in a training loop: a forward pass records the graph, the loss
# is a scalar, `backward()` fills every parameter's `.grad`, an optimizer takes a step, and
# `zero_grad()` clears the gradients for the next batch. In this notebook you will
#
# * compute the gradients of a single-layer network with `binary_cross_entropy_with_logits` (as in
#   PyTorch's autograd tutorial) and check one by formula,
# * train an MLP on scikit-learn's handwritten digits with `nn`, `optim.SGD` with momentum and a
#   `DataLoader`, plotting the loss curves and the **gradient flow** per layer,
# * see **vanishing gradients** in a deep sigmoid network.

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits

import minigrad as torch
import minigrad.nn as nn
import minigrad.nn.functional as F
import viz
import viz.demos
import viz.plots
from minigrad.utils.data import DataLoader, TensorDataset

from course_checks import check_accumulation_step, check_bce_bias_grad, check_gradient_reaches_input, check_train_step

# %% [markdown]
# ## Part A · a single layer, by autograd and by formula
#
# The example from PyTorch's autograd tutorial: an input `x` of 5 features, one linear layer to 3
# outputs (weights `w`, bias `b`), and the binary cross-entropy between the outputs and the target
# `y`. `binary_cross_entropy_with_logits` applies the sigmoid itself, in a numerically stable way.

# %%
torch.manual_seed(0)
x = torch.ones(5)                              # input
y = torch.zeros(3)                             # expected output
w = torch.randn(5, 3, requires_grad=True)      # parameters
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b                     # the logits
loss = F.binary_cross_entropy_with_logits(z, y)
print("Gradient function for z:", z.grad_fn)
print("Gradient function for loss:", loss.grad_fn)
viz.draw(loss, params={"w": w, "b": b, "loss": loss})

# %%
loss.backward()
print("w.grad:", w.grad)
print("b.grad:", b.grad)

# %% [markdown]
# ### Exercise 1 · the bias gradient by formula
#
# With $p = \sigma(z)$, the mean binary cross-entropy over the $n = 3$ outputs is
# $L = -\frac1n\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]$, and its derivative has a
# famously simple form: $\partial L/\partial z_i = (p_i - y_i)/n$. Since $z = x w + b$,
# $\partial z_i/\partial b_i = 1$. Compute $\partial L/\partial b$ from this formula (with `z` and
# `y`, not with autograd) and compare it with `b.grad`.

# %%
# EXERCISE: dL/db from the formula, using z and y
# SOLUTION
answer = (torch.sigmoid(z.detach()) - y) / 3
print(answer, b.grad)
# END SOLUTION
check_bce_bias_grad(answer, z.detach(), y)

# %% [markdown]
# ## Part B · an MLP on handwritten digits
#
# scikit-learn ships a small data set of 1,797 handwritten digits, 8×8 pixels each (no download
# needed). Each image becomes a vector of 64 numbers in $[0, 1]$.

# %%
digits = load_digits()
images = (digits.data / 16.0).astype(np.float32)
labels = digits.target.astype(np.int64)
order = np.random.default_rng(0).permutation(len(labels))
train_idx, val_idx = order[:1500], order[1500:]

fig, axes = plt.subplots(1, 8, figsize=(8, 1.3))
for ax, i in zip(axes, train_idx[:8]):
    ax.imshow(images[i].reshape(8, 8), cmap="gray_r")
    ax.set_title(str(labels[i]))
    ax.axis("off")
plt.show()

X_train, y_train = torch.tensor(images[train_idx]), torch.tensor(labels[train_idx])
X_val, y_val = torch.tensor(images[val_idx]), torch.tensor(labels[val_idx])
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
print(len(X_train), "training images,", len(X_val), "validation images,", len(loader), "batches per epoch")

# %% [markdown]
# The model: 64 inputs → 64 hidden units with ReLU → 10 scores, one per digit. `F.cross_entropy`
# turns the scores into a loss (softmax and negative log-likelihood in one stable step).

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(model)

xb, yb = next(iter(loader))
viz.draw(F.cross_entropy(model(xb), yb), params=model)

# %% [markdown]
# Each `nn.Linear` is one `AddmmBackward0` node (bias + input @ weightᵀ), and its weight passes
# through a `TBackward0` (the transpose). The parameters are named after the model's attributes.
#
# ### Exercise 2 · the training step
#
# Write `train_step(model, optimizer, xb, yb)`: clear the gradients, compute the loss of the batch
# with `F.cross_entropy`, backpropagate, take an optimizer step, and return the loss. The check
# makes sure the gradients do not accumulate across steps (notebook 4).

# %%
# EXERCISE: one step of training on the batch (xb, yb); return the loss
def train_step(model, optimizer, xb, yb):
    # SOLUTION
    optimizer.zero_grad()
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    optimizer.step()
    return loss
    # END SOLUTION


check_train_step(train_step, torch)

# %% [markdown]
# Now train for a few epochs. After each epoch we measure the loss and the accuracy on the
# validation images, under `no_grad` (notebook 5).

# %%
# NEEDS: check_train_step (Exercise 2)
def evaluate(model):
    with torch.no_grad():
        scores = model(X_val)
        val_loss = F.cross_entropy(scores, y_val).item()
        accuracy = (scores.argmax(dim=1) == y_val).float().mean().item()
    return val_loss, accuracy


step_losses, epoch_losses = [], {"train": [], "validation": []}
for epoch in range(8):
    batch_losses = [train_step(model, optimizer, xb, yb).item() for xb, yb in loader]
    step_losses += batch_losses
    val_loss, val_accuracy = evaluate(model)
    epoch_losses["train"].append(np.mean(batch_losses))
    epoch_losses["validation"].append(val_loss)
    print(f"epoch {epoch}: train loss {np.mean(batch_losses):.3f}  "
          f"validation loss {val_loss:.3f}  accuracy {val_accuracy:.3f}")

# %%
# NEEDS: check_train_step (Exercise 2)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.5))
viz.plots.plot_losses(step_losses, ax=ax1, log=True)
ax1.set_title("training loss per step")
viz.plots.plot_losses(epoch_losses, ax=ax2)
ax2.set_xlabel("epoch")
ax2.set_title("mean loss per epoch")
plt.show()

# %% [markdown]
# ### Exercise 3 · a big batch from small ones: gradient accumulation
#
# A batch of 192 images does not fit in memory? Cut it into micro-batches and take **one** optimizer
# step whose gradient is that of the whole batch. Backward adds into `.grad` (notebook 4) — that is
# what makes this work; the optimizer itself accumulates nothing. Write
# `accumulated_step(model, optimizer, micro_batches)`: for equal-sized micro-batches, one step with
# exactly the gradient of the mean cross-entropy over all their examples together; return that
# mean loss as a Python float. Think about where `zero_grad()` goes, and about the word *mean*.

# %%
# EXERCISE: one optimizer step with the gradient of the whole batch, from equal micro-batches
def accumulated_step(model, optimizer, micro_batches):
    # SOLUTION
    optimizer.zero_grad()
    total = 0.0
    for xb, yb in micro_batches:
        loss = F.cross_entropy(model(xb), yb) / len(micro_batches)   # the mean over all of them
        loss.backward()                                                # adds into every .grad
        total += loss.item()
    optimizer.step()
    return total
    # END SOLUTION


check_accumulation_step(accumulated_step, torch)

# %% [markdown]
# ### The accuracy reached

# %%
# NEEDS: check_train_step (Exercise 2)
print(f"validation accuracy after 8 epochs: {evaluate(model)[1]:.1%}")

# %% [markdown]
# ## Gradient flow per layer
#
# A **gradient-flow plot** shows, for each weight, the mean and the maximum absolute gradient after
# one backward. In a healthy network all layers get gradients of a similar order of magnitude.

# %%
optimizer.zero_grad()
F.cross_entropy(model(X_train[:256]), y_train[:256]).backward()
viz.plots.plot_grad_flow(model.named_parameters())
plt.show()

# %% [markdown]
# ## Part C · vanishing gradients
#
# The derivative of the sigmoid is $\sigma'(x) = \sigma(x)(1 - \sigma(x)) \le \tfrac14$. Backward
# multiplies by it once per sigmoid layer, so in a deep sigmoid network the gradient shrinks
# (roughly) geometrically on its way back to the input. The first layers then learn very slowly.
# ReLU's derivative is 0 or 1: the gradient passes unchanged wherever the unit is active.
#
# Let us compare two networks of the same depth, one with sigmoids and one with ReLUs, on the same
# batch.

# %%
def deep_net(activation, depth=6, width=32):
    layers, features = [], 64
    for _ in range(depth):
        layers += [nn.Linear(features, width), activation()]
        features = width
    return nn.Sequential(*layers, nn.Linear(features, 10))


torch.manual_seed(0)
sigmoid_net, relu_net = deep_net(nn.Sigmoid), deep_net(nn.ReLU)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.5), sharey=True)
for net, ax, title in [(sigmoid_net, ax1, "6 sigmoid layers"), (relu_net, ax2, "6 ReLU layers")]:
    F.cross_entropy(net(X_train[:256]), y_train[:256]).backward()
    viz.plots.plot_grad_flow(net.named_parameters(), ax=ax)
    net.zero_grad()
    ax.set_title(title)
    ax.set_yscale("log")
plt.show()

# %% [markdown]
# The sigmoid network's bars drop by a factor of roughly 5–10 per layer toward the input (note the
# logarithmic axis). The ReLU network's shrink much less. (What is left of their decrease comes
# from the default initialisation of `nn.Linear`; He initialisation, `nn.init.kaiming_normal_`,
# scaled for ReLU, makes them almost level.)
#
# The consequence for training: train both networks for two epochs and measure how much each weight
# matrix has moved, relative to its size:
# $\lVert W_\text{after} - W_\text{before}\rVert \,/\, \lVert W_\text{before}\rVert$.

# %%
# NEEDS: check_train_step (Exercise 2)
def weights(net):
    return [(name, p.detach().clone()) for name, p in net.named_parameters() if name.endswith("weight")]


fig, ax = plt.subplots(figsize=(7, 3.5))
for offset, (label, net) in zip((-0.2, 0.2), [("sigmoid", sigmoid_net), ("ReLU", relu_net)]):
    before = weights(net)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for _ in range(2):
        for xb, yb in loader:
            train_step(net, opt, xb, yb)
    moved = [((w - w0).norm() / w0.norm()).item() for (name, w0), (_, w) in zip(before, weights(net))]
    ax.bar(np.arange(len(moved)) + offset, moved, width=0.4, label=label)
ax.set_xticks(range(len(before)), [name for name, _ in before], rotation=45, ha="right")
ax.set_yscale("log")
ax.set_ylabel("relative change of the weights")
ax.set_title("after 2 epochs")
ax.legend()
plt.show()

# %% [markdown]
# In the sigmoid network the first layer has hardly moved — orders of magnitude less than the last
# layer: it is barely learning. In the ReLU network every layer learns.

# %% [markdown]
# ### Exercise 4 · make the gradient reach the first layer
#
# Build `fixed_net`, as deep as the sigmoid network (`deep_net` with 6 hidden layers of width 32,
# then the last `nn.Linear` to 10 classes), but changed so that after one backward on the first 256
# training images the **first** weight's mean absolute gradient is at least a quarter of the
# **last** weight's. The check measures it. One change may not be enough: read the remark after the
# gradient-flow plots again.

# %%
# EXERCISE: a 6-hidden-layer network whose first layer gets a gradient within 4x of the last
# SOLUTION
torch.manual_seed(0)
fixed_net = deep_net(nn.ReLU)
for layer in fixed_net:
    if isinstance(layer, nn.Linear):
        nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
# END SOLUTION
check_gradient_reaches_input(fixed_net, X_train[:256], y_train[:256])

# %% [markdown]
# ### The same, node by node
#
# A chain of sigmoids with one weight each, $y = \sigma(w_9\,\sigma(\cdots\sigma(w_0\,x)))$, stepped
# with `grad_flow=True`: edges are coloured and thickened by the size of the gradient they carry.
# Step to the end and compare the gradients reaching `w9` (near the output) and `w0` (near the
# input).

# %%
chain = viz.demos.vanishing_sigmoid_chain(torch, depth=10)
print({name: f"{p.grad.item():.2e}" for name, p in chain.params.items()})
chain

# %% [markdown]
# > **The same in PyTorch.** Part A is PyTorch's autograd tutorial, unchanged. `nn.Sequential`,
# > `nn.Linear` (one `AddmmBackward0` node for a 2-D input), `F.cross_entropy`, `optim.SGD` with
# > momentum, `DataLoader` / `TensorDataset`, `zero_grad()` setting gradients to `None`, and
# > `named_parameters()` names like `0.weight` are PyTorch's. Random numbers differ: minigrad's
# > `manual_seed` makes runs repeatable, but not identical to PyTorch's.
#
# ## Summary
#
# * A training step: `zero_grad()` → forward → loss → `backward()` → `step()`.
# * The gradient of BCE-with-logits is $(\sigma(z) - y)/n$ — autograd computes exactly that.
# * Gradient-flow plots reveal vanishing gradients: each sigmoid multiplies the gradient by at most
#   ¼, so deep sigmoid networks barely train their first layers; ReLU does not have this problem.
#
# Next: **10 · your own autograd `Function`**, checked with `gradcheck`.
