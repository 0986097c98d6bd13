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
# # 1 · 张量与 `requires_grad`
#
# *About 20 minutes.*（约 20 分钟）
#
# 训练神经网络，就是微调数以百万计的数字，让损失变小。要知道每个数字该往哪个方向调，
# 我们需要损失对它的导数。没有人手写这些导数：**自动求导**（autograd）在代码运行时记录下
# 每一个操作，之后再沿着这份记录反向走一遍，应用链式法则。
#
# 第一个 notebook 讲的就是这份记录本身。你将学到
#
# * 张量如何要求被追踪（`requires_grad`），以及这一属性如何传给结果，
# * `grad_fn` 是什么，哪些张量是**叶子节点**，
# * 叶子节点如何通过它的 `AccumulateGrad` 节点进入计算图。
#
# 我们使用 **minigrad**——一个行为与 PyTorch 一致的小型自动求导引擎——以及用来观察计算图的
# **viz**。代码就是 PyTorch 代码：唯一的区别是 `import minigrad as torch`。

# %%
import minigrad as torch  # 其余代码与 PyTorch 完全一样
import viz

from course_checks import check_accumulate_grad, check_next_functions, check_requires_grad_table

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 张量
#
# 张量是一个 n 维的数字数组。Python 浮点数生成 `float32` 张量，Python 整数生成 `int64` 张量。

# %%
x = torch.tensor([1.0, 2.0, 3.0])
n = torch.tensor([1, 2, 3])
print(x, x.dtype, x.shape)
print(n, n.dtype)

# %% [markdown]
# ## 让自动求导追踪一个张量
#
# 默认情况下什么都不追踪：`requires_grad` 为 `False`。传入 `requires_grad=True` 表示
# “我之后需要对这个张量求梯度”。张量打印出来时也会注明这一点。

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
print(x.requires_grad, w.requires_grad)
w

# %% [markdown]
# 只有浮点张量才能要求梯度：导数需要可以微小变化的数值。整数张量会拒绝，并给出一条
# 你以后还会见到的错误信息。

# %%
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## `requires_grad` 向前传播
#
# 一个操作的结果，**只要有任一输入**要求梯度，它就要求梯度。自动求导正是这样知道该记录什么：
# 一切依赖于被追踪张量的计算。

# %%
a = x + w        # w 要求梯度，所以 a 也要求
b = x * 2        # 这里没有任何张量要求梯度
print("a:", a)
print("b:", b)
print(a.requires_grad, b.requires_grad)

# %% [markdown]
# `a` 的打印中有 `grad_fn=<AddBackward0>`：这是自动求导为这次加法记录的节点。它知道如何把到达
# `a` 的梯度传回给 `x` 和 `w`（对加法而言：原样传回）。每个操作都有自己的节点：`MulBackward0`、
# `ExpBackward0`、`SumBackward0`……

# %%
loss = (a * a).sum()
print(loss)
print(loss.grad_fn, type(loss.grad_fn).__name__, loss.grad_fn.name())

# %% [markdown]
# ## 看见计算图
#
# `viz.draw` 画出自动求导在一个张量背后记录的内容。输入在上方，结果（绿色）在下方；每条箭头把一个
# 节点连到使用它输出的节点——也就是 `grad_fn.next_functions` 保存的链接，按数据流动的方向画出。
# 反向传播会沿相反方向、自下而上地走这些链接。`params=` 给张量起名字，让图能标注它们。

# %%
viz.draw(loss, params={"x": x, "w": w, "loss": loss})

# %% [markdown]
# 值得注意的几点：
#
# * `x` 没有出现：它不要求梯度，所以永远不会有梯度传给它。
# * `w` 通过一个名为 **`AccumulateGrad`** 的节点出现。这个节点在反向传播中唯一的任务，就是把到达的
#   梯度加到 `w.grad` 中。
# * 现在还没有任何梯度：viz 显示“not computed yet”（尚未计算），而不是显示一个误导人的零。
#
# 同一个计算图的前向视角（张量与操作，像一张数据流图）只差一个参数：

# %%
viz.draw(loss, params={"x": x, "w": w, "a": a, "loss": loss}, view="dataflow")

# %% [markdown]
# ## 叶子节点与非叶子节点
#
# **叶子节点**是不由自动求导计算出来的张量。具体来说：
#
# * 每个 `requires_grad=False` 的张量都是叶子节点（即使它是某个操作的结果），
# * 要求梯度的张量，只有由你亲手创建（没有 `grad_fn`）时才是叶子节点，
# * `t.detach()` 返回一个新的叶子节点，它与原张量共享数据，但与计算图断开。
#
# 只有叶子节点的 `.grad` 会被 `backward()` 填入。它们就是你的参数。

# %%
for name, t in [("x", x), ("w", w), ("a", a), ("b", b), ("loss", loss), ("a.detach()", a.detach())]:
    print(f"{name:11s} requires_grad={t.requires_grad!s:5s}  is_leaf={t.is_leaf!s:5s}  grad_fn={t.grad_fn}")

# %% [markdown]
# ## 沿着 `next_functions` 找到 `AccumulateGrad` 节点
#
# 一个节点在 `next_functions` 中列出其输入的节点：每个输入一对 `(node, input_nr)`，按参数顺序排列；
# 不需要梯度的输入记为 `(None, 0)`。从 `loss` 一路往下走到叶子节点：

# %%
print(loss.grad_fn.next_functions)                 # SumBackward0 -> a * a 的 MulBackward0
mul = loss.grad_fn.next_functions[0][0]
print(mul.next_functions)                          # a 被用了两次：同一个 AddBackward0 出现两次
add = mul.next_functions[0][0]
print(add.next_functions)                          # x 不需要梯度：(None, 0)；w：它的 AccumulateGrad
acc = add.next_functions[1][0]
print(acc, acc.variable is w, acc.next_functions)

# %% [markdown]
# `acc.variable` 就是叶子节点 `w` 本身，而 `AccumulateGrad` 没有 `next_functions`：路走到这里就结束了。
# 现在运行反向传播，看梯度到达 `w.grad`。
#
# $\text{loss} = \sum_i (x_i + w_i)^2$，所以 $\partial\,\text{loss}/\partial w_i = 2(x_i + w_i)$。

# %%
print("之前:", w.grad)
loss.backward()
print("之后:", w.grad)
print("2 * (x + w) =", 2 * (x + w.detach()))

# %%
viz.draw(loss, params={"x": x, "w": w, "loss": loss})

# %% [markdown]
# `backward()` 之后，图中显示了 `w` 的梯度。节点现在被标记为“buffers freed”（缓冲已释放）：
# `backward()` 会释放节点为它保存的内容（这里 `MulBackward0` 保存了 `a`，两次），
# 除非另有指示——第 4 个 notebook 专门讲这一点。
#
# > **The same in PyTorch.**（PyTorch 中也一样。）以上全部都是 PyTorch 的行为：传播规则、节点名称
# > （`AddBackward0`、`MulBackward0`、`SumBackward0`）、对不需要梯度的输入记为 `(None, 0)` 的
# > `next_functions`，以及 `AccumulateGrad.variable`。一个细节：在 PyTorch 中 `AccumulateGrad` 是
# > C++ 节点，所以它的 `name()` 是 `'torch::autograd::AccumulateGrad'`，而 `type(node).__name__`
# > 是 `'AccumulateGrad'`；minigrad 两者都照搬。

# %% [markdown]
# ## 练习
#
# ### 练习 1 · 预测 `requires_grad` 与 `is_leaf`
#
# 先不要运行任何代码，预测 `a` … `e` 的 `(requires_grad, is_leaf)`：
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
# 填好字典，然后运行检查。（之后你可以运行这段代码，看看为什么。）

# %%
# EXERCISE: 把每个 ... 换成你的预测，即一对 (requires_grad, is_leaf)
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
# ### 练习 2 · 预测 `next_functions`
#
# 这里只有 `x` 要求梯度：
#
# ```python
# x = torch.tensor([1., 2.], requires_grad=True)
# w = torch.tensor([3., 4.])
# t = (x * w + w.exp()).sum()
# ```
#
# `t.grad_fn` 是一个 `SumBackward0`。从它往下走：`add` 是它 `next_functions` 第一项指向的节点，
# `mul` 是 `add` 的第一项指向的节点。对这三个节点，分别写出其 `next_functions` 内容的列表，每个输入
# 一项，按参数顺序：节点的类名，或者对 `(None, 0)` 项写 `None`。想一想自动求导到底会记录哪些操作。
# 先预测；检查之后的单元格会打印出真实结果。

# %%
# EXERCISE: 每个节点一个列表：其 next_functions 各项的类名（(None, 0) 写 None）
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
# ### 练习 3 · 找到叶子节点的 `AccumulateGrad`
#
# 下面的 `bias` 要求梯度。从 `out.grad_fn` 出发，沿着 `next_functions` 找到 `bias` 的
# `AccumulateGrad` 节点，并把它赋给 `node`。画出计算图会有帮助。

# %%
inp = torch.tensor([1.0, -1.0])
weight = torch.tensor([2.0, 3.0], requires_grad=True)
bias = torch.tensor(0.5, requires_grad=True)
out = ((inp * weight).sum() + bias).tanh()
viz.draw(out, params={"weight": weight, "bias": bias})

# %%
# EXERCISE: 从 out.grad_fn 沿 next_functions 找到 bias 的 AccumulateGrad
# SOLUTION
node = out.grad_fn.next_functions[0][0].next_functions[1][0]
# END SOLUTION
check_accumulate_grad(node, bias)

# %% [markdown]
# ## 小结
#
# * `requires_grad=True` 标记一个张量需要追踪；对它做运算得到的结果也要求梯度。
# * 每个被记录的操作都是一个节点，即结果的 `grad_fn`；`next_functions` 把它连到其输入的节点。
# * 叶子节点是不由自动求导计算出来的张量。要求梯度的叶子节点在计算图中表现为一个
#   `AccumulateGrad` 节点，它在反向传播中填写叶子节点的 `.grad`。
#
# 下一节：**2 · 链式法则**，手算一遍，再让自动求导算一遍，一次一个节点。
