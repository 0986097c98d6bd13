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
# # 6 · 原地操作与版本计数器
#
# *About 20 minutes.*（约 20 分钟）
#
# 原地操作（in-place operation）——`t.add_(1)`、`t += 1`、`t[0] = 5`、`t.mul_(2)`，以及所有以 `_` 结尾的
# 方法——直接修改张量的数据，而不是生成一个新张量。这样省内存。但反向传播可能需要**旧**值：某个节点在
# 前向传播时把它们保存了下来。如果它们被覆盖了，梯度就会悄无声息地出错。自动求导用**版本计数器**
# （version counter）来防止这种情况。你将看到
#
# * 版本计数器，以及自动求导抛出的错误（和原因），
# * 哪些原地操作是无害的，
# * `.data`：它绕过了这一切——以及为什么应当避免用它。

# %%
import minigrad as torch
import viz

from course_checks import check_inplace_quiz, check_inplace_repair

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 版本计数器
#
# 每个张量都带着一个计数器 `t._version`，每次原地操作都让它加一。

# %%
t = torch.tensor([1.0, 2.0])
print(t._version)
t.add_(1)
t += 1
t[0] = 0.0
print(t, t._version)

# %% [markdown]
# ## 对要求梯度的叶子节点做原地操作：被拒绝
#
# 要求梯度的叶子节点就是你想要其梯度的参数。如果在记录计算图时原地修改它，它就会变成某个操作的
# *结果*——它需要一个 `grad_fn`，不再是叶子节点，它的梯度也就没有 `.grad` 可以存放。所以自动求导拒绝这样做：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
for code in ["x.add_(1)", "x += 1", "x[0] = 5.0"]:
    try:
        exec(code)
    except RuntimeError as error:
        print(f"{code:12s} RuntimeError: {error}")

# %% [markdown]
# 在 `torch.no_grad()` 之下则允许——这正是第 5 个 notebook 里的权重更新：
# `with torch.no_grad(): w -= lr * w.grad`。
#
# ## 覆盖了反向传播需要的值
#
# sigmoid 的导数是 $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$，所以 `SigmoidBackward0` 保存的是它的
# **输出**。原地修改这个输出，反向传播就会用到错误的数字：

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x.sigmoid()
print("保存时的版本", y._version)
y.mul_(2)
print("现在的版本  ", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# 错误信息指出了是哪个张量（类型和形状）、它是哪个操作的输出，以及两个版本：为反向传播保存时的版本
# 和当前的版本。单步执行器会高亮那个保存的张量被修改了的节点（`on_error="show"` 保留控件而不抛出错误）：

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x.sigmoid()
y.mul_(2)
stepper = viz.step_backward(y.sum(), params={"x": x}, on_error="show")
print(stepper.error)
stepper

# %% [markdown]
# 哪些操作保存什么？有的保存输入（`mul`、`pow`、`div`、`mm`），有的保存输出（`exp`、`sigmoid`、
# `tanh`、`relu`），有的什么都不保存（`add`、`sub`、`sum`、`view`）：它们的导数不依赖任何值。只有当
# 原地修改覆盖了某个节点保存的值时，它才是个问题。

# %%
x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = x + 1                       # AddBackward0 什么都不保存
print("之前:", y.grad_fn)
y.mul_(2)                       # 没问题：没有谁保存了 y
print("之后:", y.grad_fn)
y.sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# 注意原地的 `mul_` 成了 `y` 新的 `grad_fn`：同一个 Python 对象 `y` 现在代表“`(x + 1)` 乘以 2”。对
# 非叶子节点做 `y += 1` 也是一样（它是原地操作，不是新张量）。两步都在计算图里：

# %%
viz.draw(y, params={"x": x, "y": y})

# %% [markdown]
# ### 练习 1 · 无害还是报错？
#
# 对每段代码（每段都从一个新的 `x = torch.tensor([1., 2.], requires_grad=True)` 开始）判断：它能运行
# （`"ok"`）还是会抛出错误（`"error"`）？
#
# ```python
# # A
# x.mul_(2)
# # B
# y = x + 1; y.mul_(2); y.sum().backward()
# # C
# y = x.exp(); y.add_(1); y.sum().backward()
# # D
# loss = (x * x).sum(); loss.backward()
# with torch.no_grad():
#     x -= 0.1 * x.grad
# # E
# h = x * 1; y = h * h; h.add_(1); y.sum().backward()
# ```

# %%
# EXERCISE: 每段代码填 "ok" 或 "error"
# PREDICTION
answer = {"A": "error", "B": "ok", "C": "error", "D": "ok", "E": "error"}
# END PREDICTION
check_inplace_quiz(answer)

# %% [markdown]
# ### 练习 2 · 找出罪魁祸首，修好它
#
# 下面的代码有两个原地操作，它的反向传播失败了：
#
# ```python
# x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
# h = x.tanh()
# y = h * 3
# y += 1
# h *= 2
# loss = (y + h).sum()
# loss.backward()
# ```
#
# 哪一行是罪魁祸首——`"y += 1"` 还是 `"h *= 2"`？根据每个节点保存了什么来判断（愿意的话可以运行它，读一读
# 错误信息）。然后用尽可能少的改动修好它，使 `loss` 保持原值 $\sum (3\tanh x + 1 + 2\tanh x)$，并把修好后
# 的 `x.grad` 放进 `x_grad`。（`.data` 和 `detach()` 不算修复：想一想它们会给出什么梯度。）

# %%
# EXERCISE: 罪魁祸首那一行，以及修复之后的 x.grad
# PREDICTION
culprit = "h *= 2"
# END PREDICTION
# SOLUTION
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = x.tanh()
y = h * 3
y += 1                # 无害：h * 3 没有保存它需要的张量（3 不需要梯度）
h = h * 2             # 非原地：TanhBackward0 保存的输出保持不变
loss = (y + h).sum()
loss.backward()
x_grad = x.grad
# END SOLUTION
check_inplace_repair(culprit, x_grad)

# %% [markdown]
# ## `.data`：无声的绕行
#
# 老代码常用 `t.data` 来拿到“不带自动求导的数字”。`.data` 共享存储，不要求梯度，而问题在于：它的原地
# 修改**不会被**版本计数器计入。自动求导察觉不到这些修改，梯度就会错，而且没有任何报错：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.data.mul_(0)                  # 背着自动求导覆盖了保存的输出
y.sum().backward()
print("悄悄算错了:", x.grad, " （应当是 exp(x) =", torch.tensor([1.0, 2.0]).exp(), "）")

# %% [markdown]
# `detach()` 也共享存储，但它同时共享版本计数器，所以同样的错误会被发现：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.detach().mul_(0)
print("y 的版本:", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", str(error)[:150], "…")

# %% [markdown]
# 老代码用 `.data` 的地方，一律改用 `detach()`（或 `torch.no_grad()`）。
#
# > **The same in PyTorch.**（PyTorch 中也一样。）版本计数器（`_version`）、上面三种错误及其文字、被原地
# > 操作替换的 `grad_fn`，以及 `.data` 的无声绕行，都是 PyTorch 的行为。PyTorch 的
# > `torch.autograd.set_detect_anomaly(True)` 还会打印创建出错节点的那行前向代码——在大模型里很有用。
#
# ## 小结
#
# * 原地操作让张量的版本加一；反向传播检查它保存的张量的版本。
# * 对要求梯度的叶子节点做原地操作会被拒绝（`no_grad` 之下除外）。
# * 没有谁保存旧值的地方，原地操作无害；否则请用非原地的操作。
# * 避免 `.data`：它把修改藏起来，不让自动求导看见。用 `detach()` 或 `no_grad()`。
#
# 下一节：**7 · 高阶导数**。
