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
# # 11 · 前向模式与反向模式：为什么对损失来说反向传播更胜一筹
#
# *About 20 minutes.*（约 20 分钟）
#
# 第 3 个 notebook 讲过，`backward(v)` 计算的是**雅可比向量积**（vector-Jacobian product，VJP）$v^\top J$：
# 一次反向传播给出雅可比矩阵各*行*的一个组合。运行链式法则还有第二种方式——**前向模式**（forward mode）：
# 它让导数*跟着*值一起，从输入走到输出，给出 **JVP**（Jacobian-vector product，术语表中的“向量雅可比积”）
# $J u$：雅可比矩阵各*列*的一个组合。本 notebook 里两者总是连同公式一起出现：VJP 是 $v^\top J$，JVP 是
# $Ju$。在这个 notebook 中你将
#
# * 用“对偶数”（一个值和它的切向量并排放在一起）手动运行前向模式，
# * 比较 `torch.autograd.functional.jvp`（$Ju$）与 `vjp`（$v^\top J$），
# * 数一数两种模式求完整雅可比矩阵各需要几次传播：$n$ 次前向，或 $m$ 次反向，
# * 看清为什么训练（一个损失，数百万个参数）总是用反向模式。
#
# 请先学完第 2 和第 3 个 notebook。

# %%
import math

import minigrad as torch
import viz

from course_checks import check_jvp_column, check_pass_counts

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 再看一次雅可比矩阵
#
# 对 $f:\mathbb R^n \to \mathbb R^m$，雅可比矩阵 $J$ 是 $m \times n$ 的：第 $i$ 行是输出 $i$ 的梯度，第 $j$ 列
# 说明轻推输入 $j$ 时所有输出怎样变化。我们的例子，从 $\mathbb R^3$ 到 $\mathbb R^2$：
#
# $$f(x) = \big(x_0 x_1,\ \sin x_1 + x_2\big),\qquad
# J = \begin{pmatrix} x_1 & x_0 & 0\\ 0 & \cos x_1 & 1\end{pmatrix}.$$

# %%
def f(x):
    return torch.stack([x[0] * x[1], x[1].sin() + x[2]])


x0 = torch.tensor([1.0, 2.0, 3.0])
J = torch.autograd.functional.jacobian(f, x0)
print(J)
xs = x0.clone().requires_grad_()
viz.draw(f(xs), params={"x": xs})

# %% [markdown]
# ## 手动做前向模式：对偶数
#
# 第 2 个 notebook 轻推一个输入，观察输出。前向模式**精确地**做这件事：在每个值旁边带上一个*切向量*
# （tangent）——当输入沿选定的方向 $u$ 移动时，这个值变化得有多快。每个操作用它的局部导数同时更新两者：
# 对 $a\cdot b$，切向量是 $\dot a\, b + a\, \dot b$；对 $\sin a$，是 $\cos a \cdot \dot a$。从输入到输出走一遍，
# 输出的切向量就是 $J u$。

# %%
class Dual:
    """一个值和它的切向量（沿一个选定输入方向的导数）。"""

    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __mul__(self, other):
        return Dual(self.value * other.value, self.tangent * other.value + self.value * other.tangent)

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def sin(self):
        return Dual(math.sin(self.value), math.cos(self.value) * self.tangent)

    def __repr__(self):
        return f"Dual({self.value:.4f}, 切向量 {self.tangent:.4f})"


def f_dual(x):                       # 同一个 f，为 Dual 数而写
    return [x[0] * x[1], x[1].sin() + x[2]]


u = [0.0, 1.0, 0.0]                  # 方向：只轻推 x1
print(f_dual([Dual(v, t) for v, t in zip([1.0, 2.0, 3.0], u)]))
print("J 的第 1 列:", J[:, 1])

# %% [markdown]
# 两个输出的切向量就是 $J$ 的第 1 列：取 $u = e_j$，一次前向传播给出**第 $j$ 列**。反向模式走相反的方向：
# 以 $v = e_i$ 为初始梯度做一次反向传播，给出**第 $i$ 行**。
#
# ## `jvp` 与 `vjp`
#
# `torch.autograd.functional` 为任何张量函数提供这两种乘积：

# %%
u = torch.tensor([0.0, 1.0, 0.0])
v = torch.tensor([1.0, 0.0])
_, Ju = torch.autograd.functional.jvp(f, x0, u)      # J u：各列的组合，长度 m = 2
_, vJ = torch.autograd.functional.vjp(f, x0, v)      # vᵀJ：各行的组合，长度 n = 3
print("J u  =", Ju, "  （第 1 列）")
print("vᵀJ =", vJ, "  （第 0 行）")

# %% [markdown]
# ## 数一数完整雅可比矩阵需要几次传播
#
# 完整的雅可比矩阵在前向模式下每列需要一次乘积（$n$ 次传播，每个输入一次），在反向模式下每行需要一次
# （$m$ 次传播，每个输出一次）。我们用一个包装器来数 `f` 被求值了多少次——每次乘积对它求值一次，然后运行
# 它的那次传播：

# %%
def counted(function):
    def wrapper(x):
        wrapper.calls += 1
        return function(x)
    wrapper.calls = 0
    return wrapper


def jacobian_by_columns(function, x, m):       # 前向模式：每个输入一次 jvp（共 n 次）
    columns = []
    for j in range(x.shape[0]):
        e_j = torch.zeros(x.shape[0])
        e_j[j] = 1.0
        columns.append(torch.autograd.functional.jvp(function, x, e_j)[1])
    return torch.stack(columns, dim=1)


def jacobian_by_rows(function, x, m):          # 反向模式：每个输出一次 vjp（共 m 次）
    rows = []
    for i in range(m):
        e_i = torch.zeros(m)
        e_i[i] = 1.0
        rows.append(torch.autograd.functional.vjp(function, x, e_i)[1])
    return torch.stack(rows)


for name, build in [("按列（jvp）", jacobian_by_columns), ("按行（vjp）", jacobian_by_rows)]:
    g = counted(f)
    print(f"{name:17s} {build(g, x0, 2).tolist()}  传播次数: {g.calls}")

# %% [markdown]
# 三列，或者两行。现在换一个看起来像**损失**的函数：一百万个输入在这里会很慢，所以取 $n = 200$ 个输入、
# 一个输出，$L(w) = \sum_k \tanh(w_k)^2$：

# %%
def loss_fn(w):
    return (w.tanh() ** 2).sum().reshape(1)


w0 = torch.linspace(-1, 1, 200)
for name, build in [("按列（jvp）", jacobian_by_columns), ("按行（vjp）", jacobian_by_rows)]:
    g = counted(loss_fn)
    grad = build(g, w0, 1)
    print(f"{name:17s} 形状 {tuple(grad.shape)}  传播次数: {g.calls}")

# %% [markdown]
# 同样的 200 个导数：前向模式要 **200** 次传播，反向只要**一**次。这就是训练使用反向模式的全部理由。损失
# 是一个数（$m = 1$）；参数很多（$n$ 是数百万）。一次反向传播——代价只是一次前向传播的一个小倍数——就一次性
# 给出对每个参数的导数。前向模式则每个参数需要一次传播。第 2 个 notebook 里的轻推还要更糟：每个输入求值
# 一次，而且只是近似值。
#
# 反过来，前向模式在**输入少、输出多**时胜出：一整条模拟轨迹对一个物理常数的敏感度，或者优化器内部的一个
# JVP $Ju$（一次传播，无论 $m$ 多大）。
#
# | $f:\mathbb R^n\to\mathbb R^m$ | 前向模式（jvp） | 反向模式（vjp、backward） |
# |---|---|---|
# | 一次传播给出 | $J u$：一列（的组合） | $v^\top J$：一行（的组合） |
# | 完整雅可比矩阵 | $n$ 次传播 | $m$ 次传播 |
# | 一个损失（$m = 1$） | $n$ 次传播 | **1 次传播** |
# | 内存 | 无需保留计算图 | 计算图（保存的张量）一直保留到反向传播 |
#
# 最后一行是反向模式的代价：反向传播需要前向传播保存的值（第 4 个 notebook），所以计算图要留在内存里，直到
# 反向传播运行完。前向模式什么都不保留。

# %% [markdown]
# ### 练习 1 · 需要几次传播？
#
# 对每个函数，给出每种模式下得到其完整雅可比矩阵所需的*最少*传播次数（每个输入一次，或每个输出一次）。
# 每个写成 `{"forward": ..., "reverse": ...}`。
#
# * `"loss"`：一个有 1,000,000 个参数的网络的损失（输出一个数），
# * `"layer"`：一个从 512 个输入到 512 个输出的层，
# * `"curve"`：输入一个参数，输出一条 1,000 个点的曲线，
# * `"gradient"`：以及哪种模式（`"forward"` 或 `"reverse"`）一次传播就给出损失的梯度？

# %%
# EXERCISE: 每种模式求完整雅可比矩阵的最少传播次数；以及求损失梯度用哪种模式
# PREDICTION
answer = {
    "loss": {"forward": 1_000_000, "reverse": 1},
    "layer": {"forward": 512, "reverse": 512},
    "curve": {"forward": 1, "reverse": 1000},
    "gradient": "reverse",
}
# END PREDICTION
check_pass_counts(answer)

# %% [markdown]
# ### 练习 2 · 一次乘积得到一列
#
# 对上面的 $f$，在 $x_0 = (1, 2, 3)$ 处：只调用**一次** `jvp` 或 `vjp`，得到雅可比矩阵的**第 2 列**——只轻推
# $x_2$ 时两个输出怎样变化。用哪一个，配哪个向量？把乘积放进 `answer`。

# %%
# EXERCISE: f 在 x0 处雅可比矩阵的第 2 列，只调用一次 jvp 或 vjp
# SOLUTION
_, answer = torch.autograd.functional.jvp(f, x0, torch.tensor([0.0, 0.0, 1.0]))
# END SOLUTION
check_jvp_column(answer)

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）`torch.autograd.functional.jvp`、`vjp` 和 `jacobian`
# > 接受相同的参数，返回相同的值。两个库都用“双重反向技巧”（把 JVP 当作一个 VJP 的导数，做两次反向传播）
# > 来计算 `functional.jvp`，得到的是前向模式的结果，却不是它的代价；PyTorch 还有真正的前向模式，像我们的
# > `Dual` 类那样携带切向量：`torch.func.jvp` 和 `torch.autograd.forward_ad`。
# > `torch.autograd.functional.jacobian(..., vectorize=True, strategy="forward-mode")` 为整个雅可比矩阵
# > 选择模式。
#
# ## 小结
#
# * 前向模式让切向量跟着值走，给出 $Ju$，每次传播一列。
# * 反向模式（backward）从输出把梯度往回传，给出 $v^\top J$，每次传播一行。
# * 完整的雅可比矩阵需要 $n$ 次前向传播或 $m$ 次反向传播。损失的 $m = 1$：一次反向传播就给出对每个参数的
#   梯度。这就是深度学习用反向模式的原因。
#
# 下一节：**12 · 那些文章说错了什么**。
