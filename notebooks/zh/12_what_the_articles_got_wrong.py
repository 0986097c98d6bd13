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
# # 12 · 那些文章说错了什么：六个陷阱，预测、运行、解释
#
# *About 25 minutes.*（约 25 分钟）
#
# 这门课源自几篇关于自动求导的知名文章（课程称它们为*种子*，seeds）。这些文章写得很好——但和大多数讲
# 自动求导的文字一样，它们含有一些错误的、过时的或只对了一半的说法。下面每个陷阱都先引用那个说法，请你
# **预测**会发生什么，让你**运行**它，然后**解释**它。引文按项目的一致性说明（`shared/parity/cases/seed_*.py`）
# 的记录译出；标明的地方则是教程中常见的说法。
#
# 建议在第 1–5 个 notebook 之后学习（陷阱 5 和 6 还用到第 6 和第 3 个 notebook）。

# %%
import warnings

import minigrad as torch
import minigrad.nn as nn
import viz

from course_checks import check_trap_broadcast, check_trap_eval, check_trap_kinks, check_trap_optimizer

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 陷阱 1 · “优化器会累加梯度”
#
# > 种子 004：*优化器会累加到 `.grad` 里，所以每次迭代都以 `optimizer.zero_grad()` 开始。*
#
# 建议是对的——每一步都要调用 `zero_grad()`——但理由错了。**预测**：运行下面的代码后，(a) 两次 `backward`
# 调用之后、还没有任何优化器时 `w.grad` 是多少，(b) 刚执行完 `optimizer.step()` 时 `w.grad` 是多少，
# (c) 这一步之后 `w` 是多少？
#
# ```python
# w = torch.tensor(1.0, requires_grad=True)
# (3 * w).backward()
# (3 * w).backward()                       # (a) w.grad = ?
# optimizer = torch.optim.SGD([w], lr=0.1)
# optimizer.step()                         # (b) w.grad = ?   (c) w = ?
# ```

# %%
# EXERCISE: 你的预测（数字）
# PREDICTION
answer = {"a": 6.0, "b": 6.0, "c": 0.4}
# END PREDICTION
check_trap_optimizer(answer)

# %%
w = torch.tensor(1.0, requires_grad=True)
(3 * w).backward()
(3 * w).backward()
print("(a) 两次 backward 之后，没有优化器:", w.grad)
optimizer = torch.optim.SGD([w], lr=0.1)
optimizer.step()
print("(b) optimizer.step() 之后:", w.grad, "  (c) w:", w.detach())
optimizer.zero_grad()
print("zero_grad() 之后:", w.grad)

# %% [markdown]
# **解释。** 累加的是 `backward()`：每次调用都把梯度*加*到 `.grad` 上（第 4 个 notebook）——不管有没有优化器。
# 优化器只在 `step()` 里*读取* `.grad`（这里 $w - 0.1\cdot 6 = 0.4$），从不修改它；`zero_grad()` 是优化器唯一
# 碰它的方法，用来清空它。在微批次上做梯度累加（第 9 个 notebook）之所以可行，是因为做加法的是反向传播，
# 而不是优化器。
#
# ## 陷阱 2 · `grad_variables`
#
# > 种子 000 引用了这个签名：*`torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None,
# > create_graph=False, grad_variables=None)`*。
#
# 这个签名来自 PyTorch 0.3。`Variable` 并入 `Tensor` 时（0.4，2018 年），`grad_variables` 改名为
# `grad_tensors`。旧名字仍然能用，但会给出弃用警告；新代码不应再用它。运行：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.backward(x * x, grad_variables=torch.ones(2))
print("x.grad:", x.grad)
print("警告:", caught[0].category.__name__, "-", caught[0].message)

# %% [markdown]
# 如今的签名是 `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None,
# create_graph=False, inputs=None)`：参数 `inputs=` 限定哪些叶子节点得到 `.grad`。
#
# ## 陷阱 3 · 视图的 `.grad`
#
# > 种子 000 的 `mm` 例子：`x = torch.tensor([2., 1.], requires_grad=True).view(1, 2)`，在
# > `z.backward(...)` 之后，种子*把 `x.grad` 打印为 `tensor([[1., 3.]])`*。
#
# 第 3 个 notebook 运行过这段代码：如今 `x.grad` 是 `None`，并附带一条警告。那篇文章是为旧版本写的。下面是
# 同一个陷阱的一种至今仍让人上当的形式——特意在叶子节点*之后*才创建视图：

# %%
leaf = torch.tensor([2.0, 1.0], requires_grad=True)
x = leaf.view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.mm(x, y).backward(torch.tensor([[1.0, 0.0]]))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print("x.grad（视图）:", x.grad)
print("leaf.grad:     ", leaf.grad, "  （形状为 (1, 2) 的视图会得到 [[1., 3.]]）")

# %% [markdown]
# **解释。** 视图是一个操作（`ViewBackward0`）；只有叶子节点才得到 `.grad`。梯度到达 `leaf`，形状是 `leaf`
# 的形状。要么保留对叶子节点的引用，要么直接以最终形状创建叶子节点，要么调用 `x.retain_grad()`。
#
# ## 陷阱 4 · `model.eval()` 与 `torch.no_grad()`
#
# > 教程中常见的说法：*“推理时调用 `model.eval()`，这样就不计算梯度了”*。
#
# 对一个带 `Dropout` 层的模型，**预测**：输出是否要求梯度——(a) 在 `model.eval()` 之后，(b) 在（训练模式下的）
# `torch.no_grad()` 之内？dropout 是否会丢弃值——(c) 在 `eval()` 之后，(d) 在训练模式下的 `no_grad()` 之内？

# %%
# EXERCISE: 每项填 True 或 False
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
print("(a) eval() 之后：      requires_grad =", out.requires_grad, " grad_fn =", type(out.grad_fn).__name__)
print("(c) eval() 之后的零:", int((out == 0).sum()), "个（共 64 个）")
model.train()
with torch.no_grad():
    out = model(inputs)
print("(b) no_grad() 之内：   requires_grad =", out.requires_grad)
print("(d) no_grad() 之内（训练模式）的零:", int((out == 0).sum()), "个（共 64 个）")

# %% [markdown]
# **解释。** 它们是两个不同的开关。`model.eval()` 在每个子模块里设置 `module.training = False`：那些在训练时
# 行为不同的层——`Dropout`、`BatchNorm`——切换到推理时的行为。它对自动求导毫无影响：计算图照样被记录。
# `torch.no_grad()` 关闭记录，对各层毫无影响。推理时两者都用：
#
# ```python
# model.eval()
# with torch.no_grad():
#     predictions = model(inputs)
# ```
#
# ## 陷阱 5 · 导数不存在的点
#
# > 教程中常见的说法：*“自动求导需要可微函数”*——照这么说，ReLU、`abs`、`max` 都会让它出问题。
#
# $\mathrm{relu}(x)$ 在 0 处没有导数；$|x|$ 也没有；$\sqrt{x}$ 在那里的导数是无穷大；在相等的值上取 `max`，没有
# 唯一的“胜者”。可每个网络都在用它们。**预测**自动求导在这些点上返回的梯度：
#
# * `"relu"`：$x = 0$ 处的 $d\,\mathrm{relu}(x)/dx$，
# * `"abs"`：$x = 0$ 处的 $d|x|/dx$，
# * `"sqrt"`：$x = 0$ 处的 $d\sqrt x/dx$（一个数，或者 `float("inf")`），
# * `"max"`：`t = [2., 2., 1.]` 时 `t.max()` 的梯度，一个由三个数组成的列表。

# %%
# EXERCISE: 自动求导在这些不可导点上返回的梯度
# PREDICTION
answer = {"relu": 0.0, "abs": 0.0, "sqrt": float("inf"), "max": [0.5, 0.5, 0.0]}
# END PREDICTION
check_trap_kinks(answer)

# %%
for name, function in [("relu", torch.relu), ("abs", torch.abs), ("sqrt", torch.sqrt)]:
    t = torch.tensor(0.0, requires_grad=True)
    function(t).backward()
    print(f"0 处的 d {name}/dx = {t.grad.item()}")
t = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
t.max().backward()
print("max([2, 2, 1]) 的梯度:", t.grad)
t = torch.tensor([[2.0, 2.0, 1.0]], requires_grad=True)
t.max(dim=1).values.sum().backward()
print("max(dim=1) 的梯度:    ", t.grad, "  （选中一个下标）")

# %% [markdown]
# **解释。** 自动求导从不检查可微性：每个操作只有**一条规则**，在不可导点上由这条规则选定一个值——通常是一个
# *次梯度*（subgradient），即介于左右斜率之间的一个斜率。ReLU 和 `abs` 在 0 处给出 0；`sqrt` 给出 `inf`（老实
# 的斜率；`inf` 乘以零梯度到了后面就变成 `nan`，`nan` 就是这样混进训练里的）；完整的 `max` 把梯度平均分给
# 并列的各项，而 `max(dim=...)` 返回*下标*，把整个梯度送给它选中的那一个。不可导点构成一个测度为零的集合：
# 训练几乎从不会恰好落在其中某一点上，所以这种选择很少有影响——除非它产生了 `nan`。
#
# ## 陷阱 6 · 梯度与它的数据形状相同——即使经过了广播
#
# > 种子 000：*梯度与它的数据形状相同。*
#
# 没错——可当张量被广播过时，这会让人吃惊。**预测** `b.grad`（它的值）：
#
# ```python
# X = torch.ones(5, 3)                       # 一个 5 个样本的批次
# W = torch.ones(3, 2, requires_grad=True)
# b = torch.zeros(2, requires_grad=True)     # 加到批次的每一行上
# (X @ W + b).sum().backward()
# ```

# %%
# EXERCISE: b.grad，由 2 个数组成的列表
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
# **解释。** 到达 `out` 的梯度形状与 `out` 相同，5 × 2，全是 1。`b` 在每一行都被用了一次，所以它的梯度是那个
# 梯度**沿批次求和**（第 3 个 notebook）：$[5, 5]$，形状是 `b` 的形状。偏置的梯度随批次增大而增大——这也是
# 损失通常取*平均*的一个原因。
#
# > **The same in PyTorch.**（PyTorch 中也一样。）上面的每个输出都与 PyTorch 2.13 相同：`backward` 的累加和
# > 只读取 `.grad` 的优化器、`grad_variables` 的弃用警告、视图的 `.grad` 为 `None`、`eval()` 与 `no_grad()`、
# > 不可导点上的值（0、0、`inf`、完整 `max` 的平均分配、`max(dim=)` 的单个下标），以及求和后的广播梯度。
# > 随机数不同：minigrad 的 dropout 掩码与 PyTorch 的不一样。
#
# ## 小结
#
# * `backward` 负责累加；优化器读取 `.grad`，`zero_grad` 清空它。
# * `grad_variables` 是 `grad_tensors` 在 2018 年之前的名字。
# * 视图不是叶子节点：它的 `.grad` 是 `None`；它背后的叶子节点得到梯度。
# * `eval()` 改变层的行为，`no_grad()` 停止记录：推理时两者都用。
# * 在不可导点上，每个操作的规则选定一个值（ReLU 和 `abs` 是 0，`sqrt` 是 `inf`）。
# * 被广播的张量，其梯度沿广播的轴求和，回到它自己的形状。
#
# 课程到此结束。
