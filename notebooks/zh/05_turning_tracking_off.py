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
# # 5 · 关闭梯度追踪：`no_grad`、`detach`、`requires_grad_`、冻结层
#
# *About 20 minutes.*（约 20 分钟）
#
# 记录计算图要花内存（每个保存的张量）和时间。很多时候你并不需要它：评估模型时、更新权重时、某个值应当
# 作为常量时。有时你还想让模型的一部分保持不变，只训练其余部分。这个 notebook 涵盖
#
# * `torch.no_grad()`、`enable_grad()`、`set_grad_enabled()`——关闭与打开记录，
# * `detach()`——把一个张量从计算图中分离，
# * `requires_grad_()`——为叶子节点打开追踪，
# * 冻结模型的层并替换最后一层（微调），
# * 旧式的 `volatile` 标志以及取代它的东西。

# %%
import minigrad as torch
import minigrad.nn as nn
import viz

from course_checks import check_frozen_model, check_tracking_quiz

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## `torch.no_grad()`
#
# 在 `with torch.no_grad():` 块内什么都不记录：结果不要求梯度，没有 `grad_fn`，是叶子节点——即使它们的
# 输入要求梯度。

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print("块内：梯度是否开启？", torch.is_grad_enabled())
print(y, y.requires_grad, y.grad_fn, y.is_leaf)
print("块外：梯度是否开启？", torch.is_grad_enabled())

# %% [markdown]
# 典型用途：在验证数据上评估模型，以及手动更新权重。更新不能成为计算图的一部分，而且必须**原地**修改
# 叶子节点。重新绑定 `w = w - lr * w.grad` 会让 `w` 成为一个*新*张量——在 `no_grad` 外是一个 `.grad`
# 保持 `None` 的非叶子节点，在 `no_grad` 内是一个根本不要求梯度的张量——参数就丢了。

# %%
w = torch.tensor([1.0, -1.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad            # 原地操作，不被记录：w 仍是同一个叶子节点
w.grad = None
print(w, w.is_leaf)

# %% [markdown]
# `no_grad` 也可以用作装饰器，`enable_grad()` 在其中重新打开记录，`set_grad_enabled(flag)` 接受一个布尔
# 值——对一个既训练又评估的循环很方便：

# %%
@torch.no_grad()
def evaluate(t):
    return t * 2


print("装饰后:", evaluate(x).requires_grad)

with torch.no_grad():  # noqa: SIM117 - 有意嵌套：内层块重新打开记录
    with torch.enable_grad():
        print("no_grad 内的 enable_grad:", (x * 2).requires_grad)

for training in (True, False):
    with torch.set_grad_enabled(training):
        print(f"set_grad_enabled({training}):", (x * 2).requires_grad)

# %% [markdown]
# ## `detach()`：把一个张量移出计算图
#
# `t.detach()` 返回一个新的叶子节点，**数据相同**（不复制），不要求梯度。梯度不会流过它：由它计算出的
# 任何东西，对自动求导来说都是常量。
#
# 下面的实时计算图（`viz.live()`）在每个记录了操作的单元格之后重新绘制。逐个运行接下来的单元格，看它
# 增长；在 `detach()` 切断计算图的地方，它画出一个灰色的“✂ cut”框：一个作为常量进入计算的值，没有
# 指回的梯度边。

# %%
w = torch.tensor([0.2, -0.1], requires_grad=True)
live = viz.live(params={"w": w})
live

# %%
h = (w * 3).exp()

# %%
scale = h.detach()                   # h 的当前值，作为常量
loss = (h * scale).sum()

# %% [markdown]
# 数值上 `loss` 是 $\sum h^2$，但梯度只流过第一个因子：`scale` 对自动求导是常量。所以 `w.grad` 是
# `(h * h).sum()` 梯度的**一半**：

# %%
loss.backward(retain_graph=True)     # 保留保存的值，让实时计算图仍能显示切断处
print("w.grad:              ", w.grad)
print("(h*h).sum 的梯度:    ", torch.autograd.grad(((w * 3).exp() ** 2).sum(), w)[0])
print("scale.requires_grad:", scale.requires_grad, "  与 h 共享数据:",
      scale.data_ptr() == h.data_ptr())

# %% [markdown]
# 因为 `detach()` 共享数据，`t.detach().numpy()` 是把要求梯度的张量交给 numpy 或 matplotlib 的常用办法
# （`.numpy()` 本身会拒绝）。对分离出的张量做原地修改也会改变原张量——第 6 个 notebook 展示自动求导如何
# 察觉这一点。
#
# ## `requires_grad_()`：为叶子节点打开追踪
#
# `requires_grad_()` 原地打开追踪（传 `False` 则关闭）并返回该张量。只有叶子节点可以改变这个标志：对一个
# 计算出的张量，半路停止追踪毫无意义——请改用 `detach()`。

# %%
t = torch.zeros(2).requires_grad_()
print(t)
try:
    (t * 2).requires_grad_(False)    # 计算出的张量：被拒绝
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ### 练习 1 · 哪些张量要求梯度？
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
# 对 `a` … `f` 中的每一个：它要求梯度吗？

# %%
# EXERCISE: 每个张量填 True 或 False
# PREDICTION
answer = {"a": False, "b": True, "c": True, "d": False, "e": False, "f": True}
# END PREDICTION
check_tracking_quiz(answer)

# %% [markdown]
# ## 冻结层，替换最后一层
#
# 微调一个预训练网络，通常意味着：保持前面的层不变，为你自己的类别训练一个新的最后一层。冻结就是对参数
# 设置 `requires_grad = False`（它们是叶子节点）。被冻结的参数离开计算图，所以反向传播既不计算也不保存
# 它们的梯度。

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
# 在计算图中，被冻结的第 `0` 层没有 `AccumulateGrad` 节点：`params=model` 按模型的属性给参数命名，并按
# 模块分组。

# %%
viz.draw(model(inputs).sum(), params=model)

# %% [markdown]
# 要为 3 个类别微调，就替换最后一层：新的 `nn.Linear` 默认要求梯度。只把要训练的参数交给优化器。

# %%
model[4] = nn.Linear(8, 3)
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(trainable, lr=0.1)
print(model)
print(len(trainable), "个可训练的参数张量")

# %% [markdown]
# `module.requires_grad_(False)` 一次冻结一个模块的所有参数。
#
# ### 练习 2 · 除新的输出层外全部冻结
#
# 构建 `model2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))`，冻结**每一个**参数，然后把
# 最后一层替换为一个有 3 个输出的新 `nn.Linear`。

# %%
# EXERCISE: 冻结全部，然后给 model2 一个有 3 个输出、可训练的新输出层
# SOLUTION
model2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
model2.requires_grad_(False)
model2[2] = nn.Linear(8, 3)
# END SOLUTION
check_frozen_model(model2, n_classes=3)

# %% [markdown]
# ## 历史：`volatile` 标志
#
# 在 PyTorch 0.4（2018 年）之前，张量被包装在 `Variable` 对象中，推理用 `Variable(x, volatile=True)` 标记。
# 0.4 版把 `Variable` 合并进 `Tensor`，并用 `torch.no_grad()` 取代了 `volatile`。旧代码仍能运行，但这个
# 标志什么也不做：

# %%
x = torch.tensor([1.0], requires_grad=True)
print(x.volatile)                                  # 总是 False，并给出警告
v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
print(v, type(v).__name__)                         # Variable(...) 只是返回一个 Tensor

# %% [markdown]
#
# %% [markdown]
# ## `torch.inference_mode()`：更严格的 `no_grad`
#
# `inference_mode()` 像 `no_grad` 一样什么都不记录，还跳过了之后的反向传播可能需要的簿记（版本计数器）
# ——对纯推理稍快一些。它产生的张量被标记为*推理张量*。它们之后**可以**进入计算图；它们不能做的是
# **被保存用于反向传播**，或在推理模式之外被原地修改：

# %%
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    t = torch.ones(2) * 3
print("推理张量:", t.is_inference(), "  requires_grad:", t.requires_grad)
(t + w).sum().backward()                     # AddBackward0 什么也不保存：没问题
print("t + w 可以，w.grad =", w.grad)
for code in ["(t * w).sum().backward()", "t.add_(1)"]:   # 乘法必须为 w 的梯度保存 t
    try:
        exec(code)
    except RuntimeError as error:
        print(f"{code:26s} RuntimeError: {str(error)[:70]}…")

# %% [markdown]
# 所以，只做评估的代码用 `inference_mode()`；其结果之后可能用于训练时用 `no_grad()`（或对推理张量调用
# `t.clone()` 得到一个普通张量）。
#
# > **The same in PyTorch.**（PyTorch 中也一样。）`no_grad`、`enable_grad`、`set_grad_enabled`（作为上下文
# > 管理器和作为函数）、共享数据的 `detach()`、只能用于叶子节点的 `requires_grad_()`（错误信息相同）、用
# > `requires_grad = False` 冻结、`volatile` 的警告，以及带两种错误的 `inference_mode()`，都是 PyTorch 的
# > 行为。
#
# ## 小结
#
# * `no_grad()` 在一个块内停止记录；用于评估和权重更新。
# * `detach()` 把一个张量从计算图中切断（数据相同，没有梯度）。
# * 用 `requires_grad = False` 冻结参数；它们于是没有 `AccumulateGrad` 节点，也没有 `.grad`。
#
# 下一节：**6 · 原地操作**与版本计数器。
