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
# # 7 · 高阶导数：导数本身也是一张计算图
#
# *About 20 minutes.*（约 20 分钟）
#
# 有时梯度不是计算的终点，而是计算的一部分：牛顿法需要二阶导数，梯度惩罚把 $\lVert\nabla_x f\rVert$
# 放进损失里，元学习要对一步梯度更新再求导。为此，导数本身必须是可微的。在这个 notebook 中你将
#
# * 用 `create_graph=True` 把导数构建成一张计算图，再对它求导，
# * 看导数的计算图画在函数的计算图旁边，
# * 理解“符号到符号”（Theano、TensorFlow 1）与 PyTorch 基于动态图的“符号到数值”的区别，
# * 在牛顿法中使用二阶导数。

# %%
import matplotlib.pyplot as plt

import minigrad as torch
import viz

from course_checks import check_newton_minimum, check_penalty_gradient

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 普通的梯度只是一个数
#
# 通常反向传播只计算数字，不记录任何东西：结果不要求梯度，所以没有什么可以继续求导的。

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy_dx,) = torch.autograd.grad(y, x)
print(dy_dx, dy_dx.requires_grad)

# %% [markdown]
# ## `create_graph=True`：把反向传播也记录下来
#
# 有了 `create_graph=True`，反向传播执行的操作会像其他操作一样被记录。结果 $3x^2 = 12$ 现在有了
# `grad_fn`：它是一张计算图的输出，我们可以再对它求导——想求多少次都行。

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(d1,) = torch.autograd.grad(y, x, create_graph=True)     # 3x² = 12，带计算图
(d2,) = torch.autograd.grad(d1, x, create_graph=True)    # 6x  = 12，带计算图
(d3,) = torch.autograd.grad(d2, x)                       # 6
print(d1, d2, d3)

# %% [markdown]
# 下面把两张计算图画在同一幅图里：函数 $y = x^3$ 和它的导数。导数的节点（粉色）用一条**虚线**边连到
# 它所求导的那个前向节点。`PowBackward0` 的反向公式是 $\text{grad}\cdot(3\,x^{2})$，在
# `create_graph=True` 之下，PyTorch 把它记录为实际执行的操作：`x ** 2`（一个新的 `PowBackward0`，指数为
# 2），乘以数 3（`MulBackward1`，与普通数字相乘的节点），再乘以传入的梯度（`MulBackward0`）。传入的梯度
# 是隐含的初始梯度 1，它不需要梯度，所以这个 `MulBackward0` 在 `next_functions` 中的第一项是
# `(None, 0)`。整张小图读取的是同一个叶子节点 `x`。图后面的单元格沿着实际记录下来的链走一遍。

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(d1,) = torch.autograd.grad(y, x, create_graph=True)
viz.draw(y, d1, params={"x": x, "y": y, "dy/dx": d1})

# %%
node = d1.grad_fn
while node is not None:                      # 沿每个节点的最后一个输入一直走到叶子节点
    print(type(node).__name__, [None if n is None else type(n).__name__ for n, _ in node.next_functions])
    node = node.next_functions[-1][0] if node.next_functions else None

# %% [markdown]
# 在 PyTorch 中这会打印 `MulBackward0 [None, 'MulBackward1']`、`MulBackward1 ['PowBackward0']`、
# `PowBackward0 ['AccumulateGrad']`、`AccumulateGrad []`。一个引擎可以用更少或不同的节点记录同一个
# 公式（minigrad 对因子 3 的处理方式不同）；数值，以及之后的每一阶导数，都是一样的。

# %% [markdown]
# ## 一个陷阱：`backward(create_graph=True)`
#
# `y.backward(create_graph=True)` 也能用，但它把导数的计算图存进了 `x.grad`。于是 `x.grad` 引用着一张
# 引用 `x` 的计算图（循环引用，所以会有警告），而从 `x.grad` 出发的第二次反向传播会**累加**到
# `x.grad` 上——而它现在正是你求导对象的一部分。在两次之间把 `.grad` 重置为 `None`，或者更好的做法：用
# `torch.autograd.grad`，它从不碰 `.grad`。

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
y.backward(create_graph=True)
print("x.grad:", x.grad)
g = x.grad
x.grad = None                 # 对 g 求导之前先打破循环
g.backward()
print("二阶导数:", x.grad)

# %% [markdown]
# 单步执行器同样运行 `y.backward(create_graph=True)`。粉色节点是这次反向传播运行时记录下的导数计算图；
# 它终止于 `CopyBackwards`，结果就是经由这个节点进入 `x.grad` 的。虚线边把每一块连到它所求导的前向节点。

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
stepper = viz.step_backward(y, create_graph=True, params={"x": x, "y": y})
stepper

# %% [markdown]
# ## 符号到符号与符号到数值
#
# 构建自动求导系统有两种方式（Goodfellow、Bengio 与 Courville，《深度学习》，§6.5.5）：
#
# * **符号到符号**（symbol-to-symbol）——Theano 和 TensorFlow 1。你先把整个计算描述成一张符号计算图；
#   求导数就是往这张图里添加**新的符号节点**，此时还没有任何数字。导数天生就是一张计算图，所以再对它
#   求导是很自然的事，而且整个东西可以在运行之前被优化和编译。代价是：图是静态的，用一种专门的语言
#   构建，构建与运行是分开的。
# * **符号到数值**（symbol-to-value，symbol-to-number）——PyTorch。计算图在你普通的 Python 代码运行时被
#   记录下来（*动态图*，第 8 个 notebook），反向传播遍历它，为手头的值计算出**数字**。不留下任何符号的东西。
#
# `create_graph=True` 让 PyTorch 两者兼得：反向传播仍然只是在数值上运行的代码，但因为运行时记录是打开
# 的，它会留下一张导数的计算图——动态地、恰好为这些输入构建——你可以再对它求导。
#
# ## 看 $f$、$f'$ 和 $f''$
#
# 对逐元素函数，`f(x).sum()` 对向量 `x` 的梯度在每一项上都是 $f'(x_i)$。再做一次 `grad` 就得到
# $f''$——这里以 $\tanh$ 为例：

# %%
xs = torch.linspace(-3, 3, 121, requires_grad=True)
ys = xs.tanh()
(first,) = torch.autograd.grad(ys.sum(), xs, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), xs)

fig, ax = plt.subplots(figsize=(6, 3.5))
for values, label in [(ys, "tanh(x)"), (first, "tanh'(x) = 1 - tanh²(x)"), (second, "tanh''(x)")]:
    ax.plot(xs.detach().numpy(), values.detach().numpy(), label=label)
ax.axhline(0, color="gray", lw=0.5)
ax.legend()
ax.set_xlabel("x")
plt.show()

# %% [markdown]
# ## 梯度惩罚：由梯度构成的损失
#
# 有些损失里含有梯度。**梯度惩罚**（WGAN-GP；输入梯度正则化）把 $\lVert \partial f/\partial x\rVert^2$
# 加进损失，让训练使模型对输入 $x$ 保持平滑。要在这样的损失上训练权重 $w$，我们需要一个梯度对 $w$ 的
# 导数 $\partial/\partial w$：这个梯度必须是一张计算图（`create_graph=True`），第二次反向传播再遍历它。

# %%
w = torch.tensor(1.5, requires_grad=True)             # 一个权重
x = torch.tensor(0.5, requires_grad=True)             # 一个输入
out = (w * x).tanh()
(g,) = torch.autograd.grad(out, x, create_graph=True)   # ∂out/∂x = w·(1 − tanh²(w·x))，一张关于 w 的计算图
penalty = g**2
penalty.backward()
print("∂out/∂x =", g.item(), "  惩罚 =", penalty.item(), "  ∂惩罚/∂w =", w.grad.item())

# %% [markdown]
# 没有 `create_graph=True`，梯度 `g` 就只是一个普通的数，惩罚项没有计算图，它的反向传播会失败：

# %%
out = (w * x).tanh()
(g,) = torch.autograd.grad(out, x)
try:
    (g**2).backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ### 练习 1 · 梯度惩罚的梯度
#
# 现在换成向量：$f(x) = \sum_i \tanh(w_i x_i)$，权重和输入如下，惩罚项为
# $P = \lVert \partial f/\partial x \rVert^2$（梯度各项的平方和）。用自动求导算出 $\partial P/\partial w$
# ——对**权重**求导，而不是对输入——并放进 `answer`。

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 0.5, -0.3], requires_grad=True)
# EXERCISE: 对 P = ||df/dx||²、f(x) = tanh(w * x).sum() 求 dP/dw
# SOLUTION
f = (w * x).tanh().sum()
(df_dx,) = torch.autograd.grad(f, x, create_graph=True)
P = (df_dx**2).sum()
(answer,) = torch.autograd.grad(P, w)
# END SOLUTION
check_penalty_gradient(answer)

# %% [markdown]
# ## 二阶导数的用武之地：牛顿法
#
# 为了最小化 $f$，牛顿法跳到局部抛物线的最低点：$x \leftarrow x - f'(x)/f''(x)$。它需要 $f''$——再沿
# 导数的计算图做一次反向传播。更新本身不能被记录，所以它在 `no_grad` 之下运行。
#
# 对多元函数，二阶导数构成 **黑塞矩阵**（Hessian）：

# %%
print(torch.autograd.functional.hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3, torch.tensor([1.0, 2.0])))

# %% [markdown]
# ### 练习 2 · 牛顿法
#
# 从 $x = 2$ 出发最小化 $f(x) = x^4 - 3x^2 + x$：重复牛顿步大约八次，用自动求导计算 $f'$ 和 $f''$。
# 把最终的 `x` 放进 `answer`。

# %%
# EXERCISE: 牛顿步 x <- x - f'(x) / f''(x)，从 x = 2 开始
x = torch.tensor(2.0, requires_grad=True)
# SOLUTION
for step in range(8):
    f = x**4 - 3 * x**2 + x
    (d1,) = torch.autograd.grad(f, x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x)
    with torch.no_grad():
        x -= d1 / d2
    print(f"第 {step} 步: x = {x.item():.6f}")
answer = x
# END SOLUTION
check_newton_minimum(answer)

# %%
# NEEDS: check_newton_minimum (练习 2)
grid = torch.linspace(-2.2, 2.2, 200)
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(grid.numpy(), (grid**4 - 3 * grid**2 + grid).numpy())
# 图中文字保持英文：matplotlib 默认字体没有汉字
ax.plot([x.item()], [(x**4 - 3 * x**2 + x).item()], "o", color="black", label="Newton's result")
ax.legend()
plt.show()

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）`create_graph=True`、`autograd.grad`、
# > `backward(create_graph=True)` 的警告、带 `grad_fn=<CopyBackwards>` 的 `.grad` 以及
# > `autograd.functional.hessian` 的行为都如上所示。一个看得见的差别：PyTorch 把某些反向公式实现为专门的
# > 节点（`tanh` 的导数显示为 `TanhBackwardBackward0`），而 minigrad 用普通的张量操作写出每个反向公式，
# > 所以它的导数计算图里是 `MulBackward0`、`SubBackward0`……数值是一样的。PyTorch 的
# > `torch.autograd.gradgradcheck` 用数值方法检验二阶导数（第 10 个 notebook）。
#
# ## 小结
#
# * `create_graph=True` 记录反向传播：导数成为一张可以再求导的计算图。
# * 求高阶导数优先用 `torch.autograd.grad`；`backward(create_graph=True)` 会把计算图混进 `.grad`。
# * 由梯度构成的损失（梯度惩罚）需要在内层梯度上用 `create_graph=True`。
# * PyTorch 是基于动态图的“符号到数值”；记录反向传播让它也拥有符号到符号系统中“导数即计算图”的能力。
#
# 下一节：**8 · 动态图**。
