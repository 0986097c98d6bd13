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
# # 4 · 梯度会累加；反向传播释放什么；钩子与 `autograd.grad`
#
# *About 25 minutes.*（约 25 分钟）
#
# 每个 PyTorch 训练循环都会调用 `optimizer.zero_grad()`。忘了它，模型会训练得很差，却没有任何报错。
# 这个 notebook 解释原因，并看看 `backward()` 调用前后发生的其他事情：
#
# * `.grad` 在多次反向传播之间**累加**；`grad.zero_()`、`grad = None`、`optimizer.zero_grad()`，
# * `backward()` 会**释放**计算图保存的值，除非 `retain_graph=True`，
# * 非叶子节点的梯度：`retain_grad()` 与张量**钩子**，
# * `torch.autograd.grad`，它返回梯度而不改动 `.grad`。

# %%
import minigrad as torch
import viz

from course_checks import check_accumulated_grad, check_autograd_grad_paths, check_norm_clip_hook

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## `.grad` 会累加
#
# 对每次新建的 `y = x * x` 运行三次反向传播，观察 `x.grad`：

# %%
x = torch.tensor(3.0, requires_grad=True)
for i in range(3):
    y = x * x
    y.backward()
    print(f"第 {i + 1} 次 backward 之后: x.grad = {x.grad}")

# %% [markdown]
# $dy/dx = 2x = 6$，但 `x.grad` 在增长：6、12、18。反向传播不是*设置* `.grad`，而是**加到**它上面。这是
# 一个特性：当一个参数在多处被使用，或者你想要多个损失（或多个小批次，即“梯度累加”）的梯度时，各部分
# 贡献直接相加。代价是：每次计算新梯度之前，必须清除旧的。
#
# 单步演示器也能显示这一点：`backward_again()` 在同一个计算图上再运行一次反向传播并追加其步骤，所以在
# `AccumulateGrad` 那一步你会看到 `.grad` 从 6 变成 12。（`retain_graph=True` 见下文。）

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x * x
stepper = viz.step_backward(y, params={"x": x, "y": y}, retain_graph=True)
stepper.backward_again()
stepper.print()
stepper

# %% [markdown]
# ## 梯度清零
#
# 三种方法，按你使用的频率排序：

# %%
x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
x.grad.zero_()                       # 1. 原地操作：同一个张量，现在填满了零
print("x.grad.zero_() 之后:", x.grad)
x.grad = None                        # 2. 丢弃它：下一次反向传播会创建新的 .grad
print("x.grad = None 之后: ", x.grad)

lin = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(lin.parameters(), lr=0.1)
lin(torch.ones(1, 2)).sum().backward()
print("zero_grad 之前:", lin.weight.grad)
optimizer.zero_grad()                # 3. 对优化器的所有参数（或 model.zero_grad()）
print("zero_grad 之后:", lin.weight.grad)

# %% [markdown]
# `optimizer.zero_grad()` 默认把梯度设为 `None`（`set_to_none=True`）：这样省内存，也省去一次不必要的
# 加法。`zero_grad(set_to_none=False)` 则是填零。
#
# ### 练习 1 · 预测累加后的梯度
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# (x ** 2).backward()
# (5 * x).backward()
# ```
#
# 现在 `x.grad` 是多少？先想好，再检查（之后愿意的话可以运行它）。

# %%
# EXERCISE: 两次 backward 调用之后 x.grad 的值
# PREDICTION
answer = 11.0
# END PREDICTION
check_accumulated_grad(answer)

# %% [markdown]
# ## `backward()` 释放什么：`retain_graph`
#
# 为了计算局部导数，节点保存了前向传播中的值（第 2 个 notebook：`MulBackward0` 保存了两个因子）。
# `backward()` 之后这些保存的值不再需要，所以它们被**释放**——计算图的内存立即归还。于是对同一个
# 计算图的第二次反向传播会失败：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# 第一次反向传播之后的图标记了被释放的节点。现在读取保存的值会以同样的错误失败：

# %%
viz.draw(y, params={"x": x, "y": y})

# %%
try:
    y.grad_fn.next_functions[0][0]._saved_self
except RuntimeError as error:
    print("RuntimeError:", str(error)[:80], "…")

# %% [markdown]
# `retain_graph=True` 保留保存的值，所以你可以再次调用反向传播（梯度会累加）：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)

# %% [markdown]
# 只有当反向传播到达一个**保存了张量**的节点时才会报错。只有求和与加法的计算图什么也不保存（它们的
# 导数是 1），所以即使没有 `retain_graph`，第二次反向传播也能成功：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sum()
y.backward()
y.backward()
print(x.grad)

# %% [markdown]
# 在单步演示器中，不带 `retain_graph` 的第二次反向传播会在面板中显示 PyTorch 的错误
# （`raise_error=False` 保留控件而不抛出异常）：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
stepper = viz.step_backward(y, params={"x": x, "y": y})
stepper.backward_again(raise_error=False)
print(stepper.error)
stepper

# %% [markdown]
# ## 非叶子张量的梯度
#
# 反向传播会计算它经过的每个节点处的梯度，但只把梯度存进叶子节点的 `.grad`。对中间张量，`.grad` 保持
# `None`（并给出警告，如第 3 个 notebook）。`retain_grad()` 让自动求导保留它：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.retain_grad()
loss = (h * h).sum()
loss.backward()
print("h.retains_grad:", h.retains_grad, "  h.grad:", h.grad, "  x.grad:", x.grad)

# %% [markdown]
# ## 张量钩子
#
# `t.register_hook(fn)` 在反向传播中用到达 `t` 的梯度调用 `fn(grad)`。钩子可以只是查看（返回 `None`），
# 也可以返回一个替代的梯度，之后就用它代替原梯度。钩子是记录、裁剪或调试梯度的工具。`register_hook`
# 返回一个句柄；`handle.remove()` 移除钩子。

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
handle = h.register_hook(lambda grad: print("到达 h 的梯度:", grad))
h.register_hook(lambda grad: grad * 10)            # 替换梯度
(h * h).sum().backward()
print("x.grad:", x.grad, " （通常 8·x 的十倍）")
handle.remove()

# %% [markdown]
# 钩子**每次反向传播只运行一次**，参数是该张量所有使用处梯度之和；单步演示器把它显示为触发那一步中的
# 一个事件。下面 `h` 被使用了两次：梯度 $3$（来自 `h * 3`）和 $2h = [4, 8]$（来自 `h * h`）相加后到达，
# 即 $[7, 11]$，钩子在 `MulBackward0`（`h = x * 2` 的节点）执行之前把它变成 $[70, 110]$。

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 2
h.register_hook(lambda grad: grad * 10)
loss = (h * 3 + h * h).sum()
stepper = viz.step_backward(loss, params={"x": x, "h": h, "loss": loss})
stepper.print()

# %% [markdown]
# ### 练习 2 · 按范数裁剪的钩子
#
# 梯度爆炸常常用**按范数裁剪**来抑制：长度超过上限的梯度被缩短到该长度，方向不变；较短的梯度原样通过。
# 写一个上限为 1 的这样的钩子（PyTorch 的 `torch.nn.utils.clip_grad_norm_` 对模型的所有参数一起做同样
# 的事）。钩子的规矩：返回新的梯度，绝不原地修改 `grad`。全零的梯度应该怎么处理？

# %%
# EXERCISE: 若 grad 的范数大于 1，返回缩放到范数 1 的 grad，否则原样返回 grad
def clip_norm_hook(grad):
    # SOLUTION
    norm = grad.norm()
    if norm > 1:
        return grad / norm
    return grad
    # END SOLUTION


check_norm_clip_hook(clip_norm_hook, torch)

# %% [markdown]
# ## `torch.autograd.grad`：不经过 `.grad` 的梯度
#
# `torch.autograd.grad(outputs, inputs)` 以元组形式返回 `outputs` 对 `inputs` 的梯度，并且不动任何
# `.grad`。它接受非叶子节点作为输入，是在计算内部求梯度的首选工具（例如梯度惩罚，第 7 个 notebook 会
# 构建它）。

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
grads = torch.autograd.grad(a * b, [a, b])
print(grads, a.grad, b.grad)

# %% [markdown]
# 如果某个输入没有被用来计算输出，这是一个错误，除非传入 `allow_unused=True`——那样它的梯度返回
# `None`：

# %%
try:
    torch.autograd.grad(a * 2, [a, b])
except RuntimeError as error:
    print("RuntimeError:", error)
print(torch.autograd.grad(a * 2, [a, b], allow_unused=True))

# %% [markdown]
# ### 练习 3 · 两条路径，以及一个非叶子输入
#
# ```python
# a = torch.tensor(3.0, requires_grad=True)
# b = torch.tensor(4.0, requires_grad=True)
# h = a * b
# loss = h**2 + a
# ```
#
# 先手算预测 $\partial\,\text{loss}/\partial a$——`a` 沿两条路径到达 `loss`。然后用**一次**
# `torch.autograd.grad` 调用计算 $(\partial\,\text{loss}/\partial h,\ \partial\,\text{loss}/\partial a,\
# \partial\,\text{loss}/\partial b)$（`h` 不是叶子节点：这有关系吗？）。对 `h` 求梯度，会不会截断流向
# `a` 的梯度？

# %%
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
h = a * b
loss = h**2 + a
# EXERCISE: 你对 dloss/da 的预测，然后用一次 autograd.grad 调用得到三个梯度
# PREDICTION
prediction = 97.0
# END PREDICTION
# SOLUTION
answer = torch.autograd.grad(loss, [h, a, b])
# END SOLUTION
check_autograd_grad_paths(prediction, answer, a)

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）累加、默认的 `zero_grad(set_to_none=True)`、释放保存的
# > 张量（错误信息完全相同）、对什么也没保存的计算图第二次反向传播能成功、`retain_grad()`、钩子（每次
# > 反向传播以求和后的梯度运行一次）、带 `allow_unused` 的 `autograd.grad`，都是 PyTorch 的行为。PyTorch
# > 还有 `materialize_grads=True`，对未使用的输入返回零而不是 `None`。
#
# ## 小结
#
# * `.grad` 在多次反向传播之间累加：每一步之前先清零（`optimizer.zero_grad()`）。
# * 反向传播释放计算图保存的内容；`retain_graph=True` 把它留给下一次反向传播。
# * 中间梯度：`retain_grad()`，或用钩子查看（并可替换）它们。
# * `torch.autograd.grad` 返回梯度，从不改动 `.grad`。
#
# 下一节：**5 · 关闭梯度追踪**。
