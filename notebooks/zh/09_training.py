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
# # 9 · 训练：从单层网络到手写数字上的 MLP
#
# *About 30 minutes.*（约 30 分钟）
#
# 前面的一切都汇集在训练循环里：前向传播记录计算图，损失是一个标量，`backward()` 填好每个参数的
# `.grad`，优化器走一步，`zero_grad()` 为下一个批次清空梯度。在这个 notebook 中你将
#
# * 用 `binary_cross_entropy_with_logits` 计算单层网络的梯度（与 PyTorch 的自动求导教程一样），并用公式
#   验证其中一个，
# * 用 `nn`、带动量的 `optim.SGD` 和 `DataLoader` 在 scikit-learn 的手写数字上训练一个 MLP，画出损失曲线
#   和每一层的**梯度流**，
# * 在一个深层 sigmoid 网络中看到**梯度消失**。

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

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## A 部分 · 单层网络：用自动求导，也用公式
#
# PyTorch 自动求导教程里的例子：一个有 5 个特征的输入 `x`，一个输出为 3 的线性层（权重 `w`、偏置 `b`），
# 以及输出与目标 `y` 之间的二元交叉熵。`binary_cross_entropy_with_logits` 自己应用 sigmoid，并且以数值
# 稳定的方式计算。

# %%
torch.manual_seed(0)
x = torch.ones(5)                              # 输入
y = torch.zeros(3)                             # 期望的输出
w = torch.randn(5, 3, requires_grad=True)      # 参数
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b                     # logits
loss = F.binary_cross_entropy_with_logits(z, y)
print("z 的梯度函数:", z.grad_fn)
print("loss 的梯度函数:", loss.grad_fn)
viz.draw(loss, params={"w": w, "b": b, "loss": loss})

# %%
loss.backward()
print("w.grad:", w.grad)
print("b.grad:", b.grad)

# %% [markdown]
# ### 练习 1 · 用公式求偏置的梯度
#
# 记 $p = \sigma(z)$，$n = 3$ 个输出上的平均二元交叉熵是
# $L = -\frac1n\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]$，它的导数有一个著名的简单形式：
# $\partial L/\partial z_i = (p_i - y_i)/n$。由于 $z = x w + b$，$\partial z_i/\partial b_i = 1$。用这个
# 公式（用 `z` 和 `y`，不用自动求导）算出 $\partial L/\partial b$，并与 `b.grad` 比较。

# %%
# EXERCISE: 用 z 和 y，按公式求 dL/db
# SOLUTION
answer = (torch.sigmoid(z.detach()) - y) / 3
print(answer, b.grad)
# END SOLUTION
check_bce_bias_grad(answer, z.detach(), y)

# %% [markdown]
# ## B 部分 · 手写数字上的 MLP
#
# scikit-learn 自带一个小数据集：1,797 张手写数字，每张 8×8 像素（无需下载）。每张图变成一个由 64 个
# $[0, 1]$ 之间的数组成的向量。

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
print(len(X_train), "张训练图像，", len(X_val), "张验证图像，每轮", len(loader), "个批次")

# %% [markdown]
# 模型：64 个输入 → 64 个带 ReLU 的隐藏单元 → 10 个分数，每个数字一个。`F.cross_entropy` 把分数变成损失
# （softmax 和负对数似然在一个数值稳定的步骤里完成）。

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(model)

xb, yb = next(iter(loader))
viz.draw(F.cross_entropy(model(xb), yb), params=model)

# %% [markdown]
# 每个 `nn.Linear` 是一个 `AddmmBackward0` 节点（bias + input @ weightᵀ），它的权重要经过一个
# `TBackward0`（转置）。参数以模型的属性命名。
#
# ### 练习 2 · 训练步
#
# 写出 `train_step(model, optimizer, xb, yb)`：清空梯度，用 `F.cross_entropy` 计算这个批次的损失，反向
# 传播，让优化器走一步，并返回损失。检查会确认梯度不会在各步之间累加（第 4 个 notebook）。

# %%
# EXERCISE: 在批次 (xb, yb) 上训练一步；返回损失
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
# 现在训练几轮（epoch）。每轮之后，我们在 `no_grad` 之下（第 5 个 notebook）测量验证图像上的损失和
# 准确率。

# %%
# NEEDS: check_train_step (练习 2)
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
    print(f"第 {epoch} 轮: 训练损失 {np.mean(batch_losses):.3f}  "
          f"验证损失 {val_loss:.3f}  准确率 {val_accuracy:.3f}")

# %%
# NEEDS: check_train_step (练习 2)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.5))
viz.plots.plot_losses(step_losses, ax=ax1, log=True)
ax1.set_title("training loss per step")       # 图中文字保持英文：matplotlib 默认字体没有汉字
viz.plots.plot_losses(epoch_losses, ax=ax2)
ax2.set_xlabel("epoch")
ax2.set_title("mean loss per epoch")
plt.show()

# %% [markdown]
# ### 练习 3 · 用小批次拼出大批次：梯度累加
#
# 一个 192 张图像的批次放不进内存？把它切成若干个微批次（micro-batch），只走**一**步优化器，而这一步的
# 梯度是整个批次的梯度。反向传播会累加到 `.grad` 上（第 4 个 notebook）——正是这一点让它可行；优化器本身
# 什么也不累加。写出 `accumulated_step(model, optimizer, micro_batches)`：对大小相同的若干微批次，走一步，
# 其梯度恰好是所有样本合在一起的平均交叉熵的梯度；返回这个平均损失（Python 浮点数）。想一想
# `zero_grad()` 应该放在哪里，还有“平均”这个词。

# %%
# EXERCISE: 由大小相同的微批次，以整个批次的梯度走一步优化器
def accumulated_step(model, optimizer, micro_batches):
    # SOLUTION
    optimizer.zero_grad()
    total = 0.0
    for xb, yb in micro_batches:
        loss = F.cross_entropy(model(xb), yb) / len(micro_batches)   # 所有微批次上的平均
        loss.backward()                                                # 累加到每个 .grad 上
        total += loss.item()
    optimizer.step()
    return total
    # END SOLUTION


check_accumulation_step(accumulated_step, torch)

# %% [markdown]
# ### 达到的准确率

# %%
# NEEDS: check_train_step (练习 2)
print(f"8 轮之后的验证准确率: {evaluate(model)[1]:.1%}")

# %% [markdown]
# ## 每一层的梯度流
#
# **梯度流图**显示每个权重在一次反向传播之后梯度绝对值的平均值和最大值。在一个健康的网络中，所有层得到
# 的梯度数量级相近。

# %%
optimizer.zero_grad()
F.cross_entropy(model(X_train[:256]), y_train[:256]).backward()
viz.plots.plot_grad_flow(model.named_parameters())
plt.show()

# %% [markdown]
# ## C 部分 · 梯度消失
#
# sigmoid 的导数是 $\sigma'(x) = \sigma(x)(1 - \sigma(x)) \le \tfrac14$。反向传播每经过一个 sigmoid 层就
# 乘上它一次，所以在深层 sigmoid 网络中，梯度在返回输入的路上（大致）按几何级数缩小。于是最前面的几层
# 学得非常慢。ReLU 的导数是 0 或 1：只要单元处于激活状态，梯度就原样通过。
#
# 我们在同一个批次上比较两个深度相同的网络，一个用 sigmoid，一个用 ReLU。

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
# sigmoid 网络的柱子朝输入方向每层下降大约 5–10 倍（注意纵轴是对数刻度）。ReLU 网络的柱子缩小得少得多。
# （它们剩下的那点下降来自 `nn.Linear` 的默认初始化；为 ReLU 缩放的 He 初始化
# `nn.init.kaiming_normal_` 能让它们几乎持平。）
#
# 这对训练意味着什么：把两个网络都训练两轮，测量每个权重矩阵相对于其大小移动了多少：
# $\lVert W_\text{after} - W_\text{before}\rVert \,/\, \lVert W_\text{before}\rVert$。

# %%
# NEEDS: check_train_step (练习 2)
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
# 在 sigmoid 网络中，第一层几乎没动——比最后一层小好几个数量级：它几乎没在学习。在 ReLU 网络中，每一层
# 都在学习。

# %% [markdown]
# ### 练习 4 · 让梯度到达第一层
#
# 构建 `fixed_net`，和 sigmoid 网络一样深（`deep_net`，6 个宽度为 32 的隐藏层，最后是一个输出 10 类的
# `nn.Linear`），但要改动它，使得在前 256 张训练图像上做一次反向传播之后，**第一个**权重梯度绝对值的平均
# 值至少是**最后一个**权重的四分之一。检查会测量它。只改一处可能不够：再读一遍梯度流图之后的那段说明。

# %%
# EXERCISE: 一个有 6 个隐藏层的网络，其第一层得到的梯度与最后一层相差不超过 4 倍
# SOLUTION
torch.manual_seed(0)
fixed_net = deep_net(nn.ReLU)
for layer in fixed_net:
    if isinstance(layer, nn.Linear):
        nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
# END SOLUTION
check_gradient_reaches_input(fixed_net, X_train[:256], y_train[:256])

# %% [markdown]
# ### 同样的事，逐个节点地看
#
# 一条每层只有一个权重的 sigmoid 链 $y = \sigma(w_9\,\sigma(\cdots\sigma(w_0\,x)))$，用 `grad_flow=True`
# 单步执行：边按照它携带的梯度大小着色、加粗。一直走到最后，比较到达 `w9`（靠近输出）和 `w0`（靠近输入）
# 的梯度。

# %%
chain = viz.demos.vanishing_sigmoid_chain(torch, depth=10)
print({name: f"{p.grad.item():.2e}" for name, p in chain.params.items()})
chain

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）A 部分就是 PyTorch 的自动求导教程，原封未动。
# > `nn.Sequential`、`nn.Linear`（二维输入时是一个 `AddmmBackward0` 节点）、`F.cross_entropy`、带动量的
# > `optim.SGD`、`DataLoader` / `TensorDataset`、把梯度设为 `None` 的 `zero_grad()`，以及 `0.weight` 这样
# > 的 `named_parameters()` 名字，都与 PyTorch 相同。随机数不同：minigrad 的 `manual_seed` 使运行可重复，
# > 但与 PyTorch 的随机数并不相同。
#
# ## 小结
#
# * 一个训练步：`zero_grad()` → 前向传播 → 损失 → `backward()` → `step()`。
# * BCE-with-logits 的梯度是 $(\sigma(z) - y)/n$——自动求导算出的正是它。
# * 梯度流图揭示梯度消失：每个 sigmoid 至多把梯度乘以 ¼，所以深层 sigmoid 网络几乎训练不动它最前面的
#   几层；ReLU 没有这个问题。
#
# 下一节：**10 · 你自己的自动求导 `Function`**，用 `gradcheck` 检验。
