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
# # 8 · 动态图：计算图就是你的代码做过的事
#
# *About 15 minutes.*（约 15 分钟）
#
# PyTorch 在**你的代码运行时**记录计算图（“define-by-run”，边运行边定义）。没有单独的图语言：Python 自己的
# `if`、`for`、`while`、函数调用和递归决定了哪些操作会发生，也只有这些操作被记录下来。所以每次调用的
# 计算图都可以不同——每个输入、每个批次、训练的每次迭代都可以不同。在这个 notebook 中，你会把同一个函数
# 在不同输入下的计算图并排画出来。

# %%
import minigrad as torch
import viz

from course_checks import check_branch_grads, check_doubling_loop

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文


def count_nodes(t, name):
    """t 背后的计算图里有多少个名为 `name` 的节点。"""
    count, stack, seen = 0, [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        count += type(node).__name__ == name
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return count


# %% [markdown]
# ## 一个 `if` 决定记录哪个操作

# %%
def f(x):
    if x > 0:
        return x**2
    return -3 * x


a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-2.0, requires_grad=True)
fa, fb = f(a), f(b)
viz.side_by_side(viz.draw(fa, params={"x": a}, legend=False), viz.draw(fb, params={"x": b}, legend=False),
                 titles=["f(2)：x > 0 的分支", "f(-2)：另一个分支"])

# %% [markdown]
# 每张计算图只包含实际运行的那个分支，所以自动求导恰好对那个分支求导：

# %%
fa.backward()
fb.backward()
print("f'(2) =", a.grad, "   f'(-2) =", b.grad)

# %% [markdown]
# ## `while` 循环：数据决定深度
#
# PyTorch 教程里的例子：把 `y` 不断翻倍，直到它的范数达到 1000。做多少次乘法取决于输入的值。

# %%
def double_until_big(x):
    y = x * 2
    while y.norm() < 1000:
        y = y * 2
    return y


small = torch.tensor([3.0, 4.0, 0.0], requires_grad=True)
large = torch.tensor([100.0, 0.0, 0.0], requires_grad=True)
y_small, y_large = double_until_big(small), double_until_big(large)
print(count_nodes(y_small, "MulBackward0"), "次乘法，输入", small)
print(count_nodes(y_large, "MulBackward0"), "次乘法，输入", large)
viz.side_by_side(viz.draw(y_small, params={"x": small}, legend=False),
                 viz.draw(y_large, params={"x": large}, legend=False),
                 titles=["x = [3, 4, 0]", "x = [100, 0, 0]"])

# %% [markdown]
# 梯度沿着被记录下来的计算图走：$y = 2^n x$，所以 $\partial(\sum y)/\partial x = 2^n$。

# %%
y_small.sum().backward()
y_large.sum().backward()
print(small.grad, large.grad)

# %% [markdown]
# ## 在不同长度的序列上循环的循环网络
#
# 循环神经网络对序列的每个元素应用同一个单元一次：$h_t = \tanh(w\,h_{t-1} + x_t)$。在 define-by-run 下，
# 长度为 2 的序列和长度为 4 的序列只是给出深度不同的计算图——每一步都用**同一个**权重 `w`。它的梯度收集
# 了每一步的贡献。

# %%
w = torch.tensor(0.5, requires_grad=True)


def rnn(sequence):
    h = torch.tensor(0.0)
    for x_t in sequence:
        h = (w * h + x_t).tanh()
    return h


h2 = rnn(torch.tensor([1.0, -1.0]))
h4 = rnn(torch.tensor([1.0, -1.0, 0.5, 2.0]))
viz.side_by_side(viz.draw(h2, params={"w": w}, legend=False), viz.draw(h4, params={"w": w}, legend=False),
                 titles=["长度 2", "长度 4"])

# %% [markdown]
# 单步执行较长的那个，观察 `w` 的 `AccumulateGrad`：它只运行一次，在引擎把四步的贡献加起来之后
# （第 2 个 notebook 里的依赖计数）。

# %%
viz.step_backward(h4, params={"w": w})

# %% [markdown]
# ### 练习 1 · 循环有多深？
#
# 对 `x = torch.tensor([1., 2., 2.], requires_grad=True)`，预测 `double_until_big(x)` 会记录多少个
# `MulBackward0` 节点，以及 `double_until_big(x).sum().backward()` 之后 `x.grad` 是多少。先自己算出来；
# 然后在检查之后的单元格里验证。

# %%
# EXERCISE: 你的预测：乘法的次数，以及 x.grad
# PREDICTION
n_mul = 9
x_grad = [512.0, 512.0, 512.0]
# END PREDICTION
check_doubling_loop(n_mul, x_grad)

# %%
x = torch.tensor([1.0, 2.0, 2.0], requires_grad=True)
y = double_until_big(x)
print(count_nodes(y, "MulBackward0"), "次乘法")
y.sum().backward()
print(x.grad)

# %% [markdown]
# ### 练习 2 · 走哪个分支？
#
# 用本 notebook 开头的 `f`，在 $x = -2$、$x = 1.5$ 和 $x = 0$ 处 $df/dx$ 分别是多少？在 0 处要小心：
# Python 走的是哪个分支？先预测，再检查，然后让自动求导来确认。

# %%
# EXERCISE: {x: df/dx}
# PREDICTION
answer = {-2.0: -3.0, 1.5: 3.0, 0.0: -3.0}
# END PREDICTION
check_branch_grads(answer)

# %%
for value in (-2.0, 1.5, 0.0):
    x = torch.tensor(value, requires_grad=True)
    f(x).backward()
    print(f"x = {value:4} 处的 df/dx: {x.grad.item()}")

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）PyTorch 的自动求导正是这样 define-by-run 的：每次前向
# > 传播都重新构建计算图，反向传播之后释放它。（`torch.compile` 为了速度会提前捕获计算图；控制流依赖张量
# > 的值时，它把图切开，照常运行那段 Python 代码。）`y.norm() < 1000` 这样的比较得到一个只有一个元素的
# > 布尔张量，`while` 和 `if` 会把它变成 Python 的 `bool`。
#
# ## 小结
#
# * 计算图在你的 Python 代码运行时被记录：控制流决定记录什么。
# * 不同的输入 → 不同的计算图；反向传播对被记录下来的那张图求导。
# * 在许多步里使用的权重，得到所有这些步贡献的总和。
#
# 下一节：**9 · 训练一个网络**。
