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
# # 2 · 链式法则：手算与自动求导
#
# *About 25 minutes.*（约 25 分钟）
#
# 反向传播不过就是链式法则：从输出到输入，一次一个节点地应用它。在这个 notebook 中你将
#
# * **手算**一个小表达式的梯度，
# * 看自动求导算出同样的数字，**逐个节点地单步执行 `backward()`**，
# * 亲手写出引擎的循环：遍历 `grad_fn.next_functions`，统计依赖数，再用节点的局部导数把每个梯度
#   传下去。

# %%
import minigrad as torch
import viz
import viz.plots

from course_checks import check_edge_gradients, check_hand_gradients, check_leaves_function, check_mul_rule

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 导数就是斜率
#
# 对单个数的函数，$f'(x_0)$ 是 $x_0$ 处切线的斜率：在微小变化下，$x$ 每变化一个单位，$f$ 变化多少。
# 这里由自动求导计算斜率（`torch=torch` 告诉绘图函数用 minigrad 求导）。

# %%
ax = viz.plots.plot_tangent(lambda x: x**3 - 2 * x, 1.5, torch=torch)

# %% [markdown]
# ## 自动求导之前：轻推输入，观察输出
#
# 不懂微积分也能测出斜率：把输入轻推一个很小的 $h$，看输出移动多少。随着 $h$ 变小，
# $\big(f(x + h) - f(x)\big)/h$ 趋近于 $f'(x)$。这就是有限差分。只用 Python 浮点数，不用自动求导：

# %%
def f_plain(x):
    return x**3 - 2 * x


x0 = 1.5
for h in (0.1, 0.01, 0.001, 0.0001):
    print(f"h = {h:<7} (f(x0 + h) - f(x0)) / h = {(f_plain(x0 + h) - f_plain(x0)) / h:.5f}")
print("精确斜率 3·x0² − 2 =", 3 * x0**2 - 2)

# %% [markdown]
# ## 链式法则
#
# 如果 $L$ 只通过 $e$ 依赖于 $a$，那么
# $\dfrac{\partial L}{\partial a} = \dfrac{\partial L}{\partial e}\cdot\dfrac{\partial e}{\partial a}$：
# $a$ 对 $L$ 的影响，等于它对 $e$ 的影响乘以 $e$ 对 $L$ 的影响。沿着更长的路径，局部导数相乘；
# 一个值被多条路径使用时，各条路径的贡献**相加**。
#
# 我们的例子（来自 micrograd）：
#
# $$e = a\cdot b,\qquad d = e + c,\qquad L = d\cdot f$$
#
# 其中 $a = 2,\ b = -3,\ c = 10,\ f = -2$。

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = torch.tensor(10.0, requires_grad=True)
f = torch.tensor(-2.0, requires_grad=True)
e = a * b
d = e + c
L = d * f
names = {"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": L}
print(e, d, L)

# %% [markdown]
# 依次把每个输入轻推 $h = 0.001$，观察 $L$（仍然只用普通数字）。$L$ 的变化除以 $h$，就是 $L$ 沿该输入
# 方向的斜率：**$L$ 对它有多敏感**。记住这四个数。

# %%
def L_of(a, b, c, f):
    return (a * b + c) * f


h = 0.001
base = L_of(2.0, -3.0, 10.0, -2.0)
for name, nudged in [("a", L_of(2.0 + h, -3.0, 10.0, -2.0)), ("b", L_of(2.0, -3.0 + h, 10.0, -2.0)),
                     ("c", L_of(2.0, -3.0, 10.0 + h, -2.0)), ("f", L_of(2.0, -3.0, 10.0, -2.0 + h))]:
    print(f"轻推 {name}：L 变化 {nudged - base:+.4f}，斜率 ≈ {(nudged - base) / h:+.3f}")

# %% [markdown]
# 每个输入都要多算一次 $L$——四个输入还好，对一个有一百万个权重的网络就毫无希望了（而且只是近似）。
# 链式法则在一次反向传播中就**精确地**得到全部四个斜率。（第 11 个 notebook 会统计两种方式各需几遍。）

# %% [markdown]
# ### 手算
#
# 从输出开始，$\partial L/\partial L = 1$，然后往回走。每一步把已经到达的梯度乘以一个操作的
# **局部**导数：
#
# 1. $L = d\cdot f$：局部导数为 $\partial L/\partial d = f = -2$ 和
#    $\partial L/\partial f = d = 4$。所以 $\partial L/\partial d = -2$，$\partial L/\partial f = 4$。
# 2. $d = e + c$：局部导数都是 1，所以梯度 $-2$ 原样传下去：
#    $\partial L/\partial e = -2$，$\ \partial L/\partial c = -2$。
# 3. $e = a\cdot b$：局部导数 $\partial e/\partial a = b = -3$ 和
#    $\partial e/\partial b = a = 2$，所以 $\partial L/\partial a = -2 \cdot (-3) = 6$，
#    $\partial L/\partial b = -2 \cdot 2 = -4$。
#
# 乘法把传入的梯度乘以*另一个*因子后传给每个因子；加法把梯度原样传下去。

# %% [markdown]
# ### 自动求导，一次一个节点
#
# 这是自动求导记录下的计算图。现在还没有任何梯度。

# %%
viz.draw(L, params=names)

# %% [markdown]
# `viz.step_backward(L)` 运行真正的 `L.backward()`，并记录引擎执行的每一个节点。按 **▶**
# （下一步；或点击控件后用 → 键）单步执行：正在执行的节点会高亮，传递梯度的边显示梯度值，面板显示
# 到达的梯度、节点的局部导数以及它传出的梯度；在 `AccumulateGrad` 节点上可以看到叶子节点的 `.grad`
# 在之前和之后的值。把每一步与上面的手算对照。（**▶ 播放**会走完所有步骤；滑块可以跳转。）

# %%
stepper = viz.step_backward(L, params=names)
stepper

# %% [markdown]
# 这些步骤也是普通数据，所以可以把它们打印出来，与手算结果核对。`grad_outputs` 是到达节点的梯度，
# `grad_inputs` 是它传给 `next_functions` 各项的梯度。

# %%
stepper.print()

# %%
for step in stepper.steps:
    print(f"{step.name:15s} 传入: {step.grad_outputs}  传出: {step.grad_inputs}")
print("a.grad =", a.grad, " b.grad =", b.grad, " c.grad =", c.grad, " f.grad =", f.grad)

# %% [markdown]
# 注意执行顺序：自动求导只有在一个节点的**所有**梯度都到达后才执行它，而叶子节点的 `AccumulateGrad`
# 一旦可以执行就立即执行。
#
# ## 练习 1 · 手算链式法则，其中一个值被用了两次
#
# $$q = x\cdot y,\qquad r = q + z,\qquad s = r\cdot r \qquad\text{在 } x = 3,\ y = -2,\ z = 4.$$
#
# 手算 $\partial s/\partial x$、$\partial s/\partial y$、$\partial s/\partial z$。小心：
# $r$ 在 $r\cdot r$ 中被用了两次，两次使用都会把梯度传回 $r$。

# %%
# EXERCISE: 你手算的梯度
# PREDICTION
answer = {"x": 8.0, "y": -12.0, "z": -4.0}
# END PREDICTION
check_hand_gradients(answer)

# %% [markdown]
# 现在让自动求导来验证（并看看从 `AddBackward0` 指向 `MulBackward0` 的两条箭头）。

# %%
x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(-2.0, requires_grad=True)
z = torch.tensor(4.0, requires_grad=True)
r = x * y + z
s = r * r
s.backward()
print(x.grad, y.grad, z.grad)
viz.draw(s, params={"x": x, "y": y, "z": z, "s": s})

# %% [markdown]
# ### 练习 2 · 手算每一条边
#
# 反向传播沿计算图的每条边传一个梯度。对同样的 $s = r\cdot r$、$r = q + z$、$q = x\cdot y$，
# 在 $x = 3,\ y = -2,\ z = 4$ 处，写出沿每条边传递的梯度：从发送它的节点到接收它的输入。
# `s → r (1st)` 和 `s → r (2nd)` 是从乘法 `r * r` 到 `r` 的两条边：每个因子一条。不要把它们相加——
# 相加发生在 `r` *处*，在两者都到达之后。

# %%
# EXERCISE: 每条边上的梯度（发送者 → 接收者）
# PREDICTION
answer = {
    "s → r (1st)": -2.0,
    "s → r (2nd)": -2.0,
    "r → q": -4.0,
    "r → z": -4.0,
    "q → x": 8.0,
    "q → y": -12.0,
}
# END PREDICTION
check_edge_gradients(answer)

# %% [markdown]
# 单步演示器也可以用同样的方式逐边考你：在**预测模式**中，每个传出的梯度都会隐藏，直到你输入自己的
# 数值（或选择显示）。输入你上表中的数字。

# %%
x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(-2.0, requires_grad=True)
z = torch.tensor(4.0, requires_grad=True)
q = x * y
r = q + z
s = r * r
try:
    quiz = viz.step_backward(s, params={"x": x, "y": y, "z": z, "q": q, "r": r, "s": s}, predict=True)
except TypeError:   # 没有预测模式的 viz：改用普通单步演示器，直接显示梯度
    print("（这个 viz 还没有预测模式：下面的单步演示器直接显示梯度）")
    quiz = viz.step_backward(s, params={"x": x, "y": y, "z": z, "q": q, "r": r, "s": s})
quiz

# %% [markdown]
# ## 像引擎一样遍历计算图
#
# `backward()` 需要遍历计算图两遍。
#
# **第一遍：发现计算图并统计依赖数。** 从根的 `grad_fn` 出发，沿 `next_functions` 的每一项走
# （跳过 `None`），统计每个节点将收到多少个梯度。我们用栈而不是递归，所以很深的计算图也没问题。

# %%
def count_dependencies(root):
    """对从 root.grad_fn 可达的每个节点：有多少条边指向它。"""
    dependencies = {}
    stack, seen = [root.grad_fn], {root.grad_fn}
    while stack:
        node = stack.pop()
        for child, _input_nr in node.next_functions:
            if child is None:          # 不需要梯度的输入
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


r = x * y + z
s = r * r
for node, count in count_dependencies(s).items():
    print(f"{type(node).__name__:15s} 收到 {count} 个梯度")

# %% [markdown]
# **第二遍：执行节点。** 为每个节点保存一个缓冲，存放到目前为止收集到的梯度。当一个节点的计数降到零时
# 它就就绪了；这时它把局部导数应用到收集到的梯度上，并给它的每个 `next_functions` 各传一个梯度。
#
# 一个节点计算局部导数需要什么？它在**前向传播中保存的值**。这些值以属性 `_saved_<name>` 的形式可见：
# 乘法保存了两个因子。

# %%
print(s.grad_fn, s.grad_fn._saved_self, s.grad_fn._saved_other)

# %% [markdown]
# 对加法，两个输入的局部导数都是 1：规则把梯度原样传下去。一条规则接收节点和到达它的梯度（这里是一个
# 普通的 Python 数字），并为 `next_functions` 的每一项返回一个梯度。

# %%
def add_rule(node, grad):
    return grad, grad


# %% [markdown]
# ### 练习 3 · 乘法的规则
#
# 为 `MulBackward0`（`out = self * other`）写出 `mul_rule(node, grad)`。用
# `node._saved_self.item()` 和 `node._saved_other.item()` 读取保存的因子（`.item()` 把单元素张量
# 变成 Python 数字）。

# %%
# EXERCISE: 返回 (self 的梯度, other 的梯度)
def mul_rule(node, grad):
    # SOLUTION
    # STUB: ...  # TODO: 返回 (self 的梯度, other 的梯度)
    return grad * node._saved_other.item(), grad * node._saved_self.item()
    # END SOLUTION


check_mul_rule(mul_rule, torch)

# %% [markdown]
# 现在是整个引擎，二十行。它只处理单个数的张量（梯度是 Python 浮点数），但算法与真正的引擎相同。

# %%
# NEEDS: check_mul_rule (Exercise 3)
RULES = {"AddBackward0": add_rule, "MulBackward0": mul_rule}


def manual_backward(root):
    """对标量 root 返回 {叶子张量: 梯度}，与 root.backward() 累加的结果一致。"""
    dependencies = count_dependencies(root)
    buffers = {root.grad_fn: 1.0}          # dL/dL = 1
    ready = [root.grad_fn]
    leaf_grads = {}
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)           # 所有到达梯度之和
        if type(node).__name__ == "AccumulateGrad":
            leaf_grads[node.variable] = leaf_grads.get(node.variable, 0.0) + grad
            continue
        grads_out = RULES[type(node).__name__](node, grad)
        for (child, _), g in zip(node.next_functions, grads_out):
            if child is None:
                continue
            buffers[child] = buffers.get(child, 0.0) + g    # 各路贡献相加
            dependencies[child] -= 1
            if dependencies[child] == 0:                    # 全部到达
                ready.append(child)
    return leaf_grads


r = x * y + z
s = r * r
grads = manual_backward(s)
print("ds/dx =", grads[x], " ds/dy =", grads[y], " ds/dz =", grads[z])

# %% [markdown]
# 与自动求导的结果相同，也与你手算的相同。再看第一个例子：

# %%
# NEEDS: check_mul_rule (Exercise 3)
a2, b2, c2, f2 = (torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, -2.0))
L2 = (a2 * b2 + c2) * f2
print([manual_backward(L2)[t] for t in (a2, b2, c2, f2)])

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）PyTorch 的引擎也是这样工作的：它先为从根可达的每个
# > 节点统计将收到多少个梯度，只有在它们全部到达后才以其总和执行该节点——所以无论有多少条路径通向
# > 一个节点，它都恰好执行一次。在就绪的节点中，它优先执行最近创建的那个，而 `AccumulateGrad` 一旦
# > 就绪就立即执行。`_saved_self` / `_saved_other` 属性、`next_functions` 和节点名称也都是 PyTorch 的。
#
# ### 练习 4 · 找出叶子节点
#
# 写出 `leaves(t)`：遍历 `t` 背后的计算图（从 `t.grad_fn` 开始，沿 `next_functions` 走），返回要求
# 梯度的叶子张量列表——每个只出现一次。像 `count_dependencies` 那样使用栈和 `seen` 集合。
# `AccumulateGrad` 节点在 `.variable` 中保存它的叶子节点。

# %%
# EXERCISE: 返回从 t.grad_fn 可达的每个叶子张量，每个一次
def leaves(t):
    # SOLUTION
    found, stack, seen = [], [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            found.append(node.variable)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return found
    # END SOLUTION


check_leaves_function(leaves, torch)

# %% [markdown]
# ## 小结
#
# * 链式法则沿每条路径把局部导数相乘，再把各条路径相加。
# * 每个节点根据它在前向传播中保存的内容（`_saved_*`）计算局部导数。
# * 引擎先统计依赖数，然后在每个节点的所有梯度都到达时执行它一次；`AccumulateGrad` 把结果加到叶子
#   节点的 `.grad` 中。
#
# 下一节：**3 · 向量输出**：当输出不是单个数字时，`backward()` 计算的是什么。
