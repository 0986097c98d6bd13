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
# # 3 · 向量输出：雅可比矩阵与雅可比向量积
#
# *About 25 minutes.*（约 25 分钟）
#
# 到目前为止，每次 `backward()` 都从单个数字开始。但在网络内部，几乎每个张量都是向量或矩阵；只有最后的
# 损失是一个数。当输出是向量时，自动求导计算的是什么？在这个 notebook 中你将看到
#
# * 为什么对非标量 `z` 调用 `z.backward()` 会失败，以及两种常见的解决办法，
# * `backward(v)` 计算的是**雅可比向量积**（vector-Jacobian product）$v^\top J$——从不计算雅可比矩阵本身，
# * 如何逐行得到完整的雅可比矩阵，
# * 经典的 `torch.mm` 例子，以及一个意外：`x.grad` 是 `None`。

# %%
import matplotlib.pyplot as plt

import minigrad as torch
import viz

from course_checks import check_jacobian_function, check_mm_fix, check_vjp

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 对向量调用 `backward()` 会失败

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = x * x
print(z)
try:
    z.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# 对标量 $L$，初始梯度是显然的：$\partial L/\partial L = 1$。对向量 $z = (z_1, z_2, z_3)$，不存在对 $x$
# 的单个导数；而是一整个导数矩阵，即**雅可比矩阵** $J_{ij} = \partial z_i/\partial x_j$。自动求导不会去猜
# 你想要哪种组合，所以它要求一个初始向量——只有对只含一个元素的输出，它才会*隐式地*创建初始梯度 `1`。
#
# ## 两种解决办法，结果相同
#
# * 先归约成标量：`z.sum().backward()`，
# * 或者自己传入初始梯度，一个与 `z` 形状相同的张量：`z.backward(torch.ones_like(z))`。

# %%
z.sum().backward()
print("z.sum().backward():              x.grad =", x.grad)

x.grad = None                      # 从空的 .grad 重新开始（第 4 个 notebook：梯度会累加）
z = x * x
z.backward(torch.ones_like(z))
print("z.backward(torch.ones_like(z)):  x.grad =", x.grad)

# %% [markdown]
# 两者都得到 $2x$。`z.sum()` 对 `z` 的梯度是全 1 向量，所以两者实际上是同一个计算。（初始梯度必须是与
# `z` 形状完全相同的张量；普通的 Python 列表不被接受。）
#
# ## 初始梯度是雅可比向量积中的那个向量
#
# 一般地，`z.backward(v)` 把雅可比向量积放进 `x.grad`：
#
# $$x.\text{grad} = v^\top J = \sum_i v_i \,\frac{\partial z_i}{\partial x}.$$
#
# 把 $v$ 理解为“之后某个损失对 $z$ 的梯度”：那么 $v^\top J$ 恰好就是链式法则，
# $\partial L/\partial x = \partial L/\partial z \cdot \partial z/\partial x$。反向传播所做的全部事情就是
# 这个，一个节点一个节点地：把到达节点的梯度（一个向量）乘以节点的局部雅可比矩阵——**从不构造雅可比矩阵**，
# 对一个有一百万个输入和输出的层，它将有 $10^{12}$ 个元素。
#
# `torch.autograd.backward(tensors, grad_tensors=...)` 是 `tensor.backward` 背后的函数；它的
# `grad_tensors` 就是这些初始向量。

# %%
x.grad = None
z = x * x
v = torch.tensor([1.0, 0.1, 0.01])
torch.autograd.backward(z, grad_tensors=v)       # 与 z.backward(v) 相同
print(x.grad, "=", v * 2 * x.detach())

# %% [markdown]
# ## 一个小的雅可比矩阵：画出来，算出来
#
# 取 $h(x) = \big(x_0 x_1,\; x_1 + x_2^2\big)$，从 $\mathbb R^3$ 到 $\mathbb R^2$。它的雅可比矩阵是
#
# $$J = \begin{pmatrix} x_1 & x_0 & 0\\ 0 & 1 & 2x_2\end{pmatrix}
#     = \begin{pmatrix} 2 & 1 & 0\\ 0 & 1 & 6\end{pmatrix}\quad\text{在 } x = (1, 2, 3).$$

# %%
def h(x):
    return torch.stack([x[0] * x[1], x[1] + x[2] ** 2])


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = h(x)
viz.draw(out, params={"x": x, "h(x)": out})

# %% [markdown]
# 索引 `x[0]` 也是一个操作（`SelectBackward0`），`stack` 把两个结果拼在一起。
#
# **逐行计算。** 用初始梯度 $e_i$（独热向量），$e_i^\top J$ 就是 $J$ 的第 $i$ 行。所以每个输出做一次反向
# 传播，就得到完整的雅可比矩阵。`retain_graph=True` 让计算图在下一次反向传播时仍然可用（第 4 个
# notebook），我们在两次之间重置 `x.grad`，因为梯度会累加。

# %%
rows = []
for i in range(2):
    seed = torch.zeros(2)
    seed[i] = 1.0
    x.grad = None
    out.backward(seed, retain_graph=True)
    rows.append(x.grad.clone())
J = torch.stack(rows)
print(J)

# %% [markdown]
# `torch.autograd.functional.jacobian` 替你做同样的事：

# %%
J_auto = torch.autograd.functional.jacobian(h, torch.tensor([1.0, 2.0, 3.0]))
print(J_auto)


def show_matrix(matrix, title, ax):
    values = matrix.tolist()
    ax.imshow(values, cmap="coolwarm", vmin=-6, vmax=6)
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            ax.text(j, i, f"{value:g}", ha="center", va="center", fontsize=14)
    ax.set_xticks(range(len(values[0])), [f"∂/∂x{j}" for j in range(len(values[0]))])
    ax.set_yticks(range(len(values)), [f"h{i}" for i in range(len(values))])
    ax.set_title(title)


fig, ax = plt.subplots(figsize=(4, 2.5))
show_matrix(J_auto, "Jacobian of h at (1, 2, 3)", ax)  # 标题保持英文：matplotlib 默认字体没有汉字
plt.show()

# %% [markdown]
# ### 练习 1 · 手算雅可比向量积
#
# 利用上面的雅可比矩阵，`h(x).backward(torch.tensor([1., 10.]))` 之后（从 `x.grad = None` 开始）
# `x.grad` 是多少？先在纸上算出来，再写在这里。

# %%
# EXERCISE: h(x).backward(torch.tensor([1., 10.])) 之后的 x.grad
# PREDICTION
answer = [2.0, 11.0, 60.0]
# END PREDICTION
check_vjp(answer)

# %% [markdown]
# ### 练习 2 · 任意函数的雅可比矩阵
#
# 写出 `jacobian_rows(f, x)`：任意从 $\mathbb R^n$ 到 $\mathbb R^m$ 的函数 `f` 在点 `x`（一维张量）处的
# 雅可比矩阵，形状为 $m \times n$，像上面那样每个输出做一次反向传播——不使用 `torch.autograd.functional`。
# 检查会尝试输出个数与输入个数不同的函数，并传入一个**不**要求梯度的 `x`。想一想：前面各行的梯度去了
# 哪里，`retain_graph` 有什么用，你需要多少个初始向量。

# %%
# EXERCISE: f 在 x 处的 m×n 雅可比矩阵，每个输出一次反向传播
def jacobian_rows(f, x):
    # SOLUTION
    x = x.detach().requires_grad_()           # 一个我们自己的、要求梯度的叶子节点
    out = f(x)
    rows = []
    for i in range(out.shape[0]):             # m 个输出：m 个初始向量
        seed = torch.zeros(out.shape[0])
        seed[i] = 1.0
        x.grad = None                         # 否则第 i 行会加到第 i - 1 行上
        out.backward(seed, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)
    # END SOLUTION


check_jacobian_function(jacobian_rows, torch)

# %% [markdown]
# 在 $g(x) = (x_0 x_1,\ x_1 x_2,\ x_2 x_0)$ 上试一试，并与 `autograd.functional.jacobian` 比较：

# %%
# NEEDS: check_jacobian_function (Exercise 2)
def g(x):
    return torch.stack([x[0] * x[1], x[1] * x[2], x[2] * x[0]])


print(jacobian_rows(g, torch.tensor([1.0, 2.0, 3.0])))
print(torch.autograd.functional.jacobian(g, torch.tensor([1.0, 2.0, 3.0])))

# %% [markdown]
# ## 经典的 `mm` 例子——以及为什么 `x.grad` 是 `None`
#
# 这个例子出现在许多自动求导教程中。`x` 是行向量，`y` 是矩阵，`z = x y`，我们用初始梯度 `[[1, 0]]`
# （只对 $z_{0,0}$ 求梯度）从 `z` 开始反向传播。

# %%
x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.mm(x, y)
print("z:", z)

z.backward(torch.Tensor([[1.0, 0]]), retain_graph=True)
print("x.grad:", x.grad)
print("y.grad:", y.grad)

# %% [markdown]
# `y.grad` 有值，但 `x.grad` 是 `None`——而且读取它时打印了一条很长的 `UserWarning`，提到
# “a Tensor that is not a leaf Tensor”（不是叶子节点的张量）。为什么？
#
# `torch.tensor([2., 1.], requires_grad=True)` 是叶子节点。但我们没有保留它：`x` 是对它调用
# `.view(1, 2)` 的结果，而视图是一个**操作**，所以 `x` 有 `grad_fn`，**不是叶子节点**。反向传播只填写
# 叶子节点的 `.grad`。梯度确实到达了——到达的是视图背后那个没有名字的叶子节点，`x._base` 仍然指向它。

# %%
print("x.is_leaf:", x.is_leaf, "  x.grad_fn:", x.grad_fn)
print("视图背后的叶子节点:", x._base, "  它的梯度:", x._base.grad)
viz.draw(z, params={"x (view)": x, "leaf behind x": x._base, "y": y, "z": z})

# %% [markdown]
# 单步执行同样的反向传播，看梯度 `[1, 3]` 经过 `ViewBackward0` 进入叶子节点的 `AccumulateGrad`，
# 而不是进入 `x`：

# %%
x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.mm(x, y)
viz.step_backward(z, gradient=torch.Tensor([[1.0, 0]]), params={"leaf behind x": x._base, "y": y, "z": z})

# %% [markdown]
# 手算：$z = x\,y$，所以 $\partial L/\partial x = v\,y^\top = [1, 0]\,y^\top = [1, 3]$，
# $\partial L/\partial y = x^\top v = \begin{pmatrix}2 & 0\\ 1 & 0\end{pmatrix}$。
#
# ### 练习 3 · 修正它
#
# 修改 `x` 的定义，使 `x` **是**一个形状为 `(1, 2)` 的叶子节点，并且 `x.grad` 会被填写。
# 然后运行同样的 `mm` 和反向传播。

# %%
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
# EXERCISE: 把 x 定义为形状 (1, 2)、要求梯度的叶子节点，然后 z = torch.mm(x, y) 并反向传播
# SOLUTION
x = torch.tensor([[2.0, 1.0]], requires_grad=True)
z = torch.mm(x, y)
z.backward(torch.Tensor([[1.0, 0]]))
print(x.is_leaf, x.grad, y.grad)
# END SOLUTION
check_mm_fix(x, y)

# %% [markdown]
# <!-- SOLUTION -->
# 另外两种修正也可以：
#
# * 先从一个不要求梯度的张量生成视图，再打开追踪：
#   `torch.tensor([2., 1.]).view(1, 2).requires_grad_()`——不要求梯度的张量的视图没有 `grad_fn`，
#   所以它是叶子节点；
# * 保留非叶子节点，但让自动求导保存它的梯度：在反向传播之前调用 `x.retain_grad()`。
# <!-- END SOLUTION -->
#
# 下面的单元格展示另外两种让 `x.grad` 被填写的方法。

# %%
x = torch.tensor([2.0, 1.0]).view(1, 2).requires_grad_()
torch.mm(x, y).backward(torch.Tensor([[1.0, 0]]))
print("view 之后 requires_grad_():", x.is_leaf, x.grad)

x = torch.tensor([2.0, 1.0], requires_grad=True).view(1, 2)
x.retain_grad()
torch.mm(x, y).backward(torch.Tensor([[1.0, 0]]))
print("retain_grad():            ", x.is_leaf, x.grad)

# %% [markdown]
# ## 广播：为什么偏置的梯度要对批次求和
#
# 梯度总是与它的张量形状相同：`b.grad.shape == b.shape`。如果张量被*广播*了——被使用的次数比它的元素
# 还多——会怎样？一个层 `out = X @ W + b` 作用在 4 行的批次上，会把同一个偏置 `b`（2 个数）加到每一行：
# `b` 的每个元素被使用了 4 次。

# %%
torch.manual_seed(0)
X = torch.randn(4, 3)                            # 一个含 4 个输入的批次
W = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(2, requires_grad=True)           # 在 X @ W + b 中沿批次广播
out = X @ W + b
weights = torch.tensor([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
(out * weights).sum().backward()                 # 到达 out 的梯度就是 `weights`
print("到达 out 的梯度:\n", weights)
print("b.grad:", b.grad, "  = 各列之和", weights.sum(dim=0))

# %% [markdown]
# 一个被多次使用的值，收集它所有使用处梯度之和（第 2 个 notebook 中的 $r\cdot r$）。广播正是如此：`b`
# 每行被使用一次，所以 `b.grad` 是 `out` 处的梯度**沿批次求和**——也就是 `b` 被广播的那个轴。加法的
# 反向传播自己完成这个归约（`AddBackward0` 把传入的梯度求和回每个输入的形状），所以 `b.grad` 的形状是
# `b` 的 2，而不是 `out` 的 4 × 2。`nn.Linear` 的偏置（第 9 个 notebook）也是这样。
#
# > **The same in PyTorch.**（PyTorch 中也一样。）这里的一切都是 PyTorch 的行为，包括错误信息
# > “grad can be implicitly created only for scalar outputs”、读取非叶子节点 `.grad` 时的 `UserWarning`、
# > `x._base`、广播张量的梯度求和，以及这些数字。`torch.Tensor([[1., 0]])` 是旧式构造函数：它生成默认
# > dtype 的张量（除非 `torch.set_default_dtype` 改过，否则是 `float32`）；新代码应使用 `torch.tensor`。
# > PyTorch 还提供 `torch.func.jacrev` / `vmap`，比 Python 循环更快地构造雅可比矩阵；minigrad 只有
# > `torch.autograd.functional`。
#
# ## 小结
#
# * 对非标量输出，`backward()` 需要初始梯度：先归约（`.sum()`）或传入 `gradient=`。
# * `backward(v)` 逐个节点地计算 $v^\top J$，不构造 $J$。
# * 独热初始向量给出雅可比矩阵的一行。
# * `.view()`、`.reshape()`、索引……都是操作：它们的结果不是叶子节点，所以 `.grad` 保持 `None`。
#   要保留你创建的那个叶子节点的引用。
# * 被广播的张量，其梯度沿广播的轴求和，回到它自己的形状。
#
# 下一节：**4 · 梯度会累加**——以及反向传播会释放什么。
