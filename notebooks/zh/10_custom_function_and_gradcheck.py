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
# # 10 · 你自己的操作：`autograd.Function` 与 `gradcheck`
#
# *About 25 minutes.*（约 25 分钟）
#
# 自动求导知道每个内置操作的导数。有时你想自己写一个：一个新操作、一个数值上更安全的公式，或者一个
# 故意*不同*的梯度——阶跃函数的“直通”（straight-through）梯度、梯度裁剪、梯度反转。这时你要亲手写出前向
# 和反向，并且必须确保两者一致。在这个 notebook 中你将
#
# * 用 `forward`、`backward` 和 `ctx.save_for_backward` 写一个 `torch.autograd.Function`，
# * 在计算图里看到你的节点，并单步执行它，
# * 用 `gradcheck` 在数值上验证一个反向函数，并用它找出一个 bug。

# %%
import minigrad as torch
import viz

from course_checks import check_fixed_function, check_softplus_function

viz.set_language("zh")  # viz 的界面文字（图例、按钮、说明）用中文

# %% [markdown]
# ## 解剖一个 `Function`
#
# 两个静态方法。`forward(ctx, *inputs)` 计算结果，并把反向传播需要的东西存到 `ctx` 上。
# `backward(ctx, grad_output)` 接收损失对输出的梯度，为 `forward` 的每个输入返回一个梯度——即第 3 个
# notebook 里的雅可比向量积。你通过 `.apply(...)` 调用它，它会把节点记录到计算图中。

# %%
class MyExp(torch.autograd.Function):
    """exp(x)，d exp(x)/dx = exp(x)：反向传播只需要输出。"""

    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)      # 保存的张量会检查版本（第 6 个 notebook）
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result        # 链式法则：传入的梯度 × 局部导数


x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.next_functions)

# %% [markdown]
# 这个节点叫 `MyExpBackward`，它的行为和任何内置节点一样——单步执行器也像对待其他节点一样单步经过它：

# %%
loss = (MyExp.apply(x) * 2).sum()
viz.step_backward(loss, params={"x": x, "loss": loss})

# %%
print("x.grad:", x.grad, "   2·exp(x):", 2 * x.detach().exp())

# %% [markdown]
# 两个细节：
#
# * `forward` 运行时梯度记录是**关闭**的——它内部发生的事不会被记录；整个 `Function` 就是一个节点。它的
#   导数就是你的 `backward` 所说的那样。
# * 不是张量的参数（一个数、一个标志）的梯度是 `None`。`ctx` 可以保存它们，`ctx.needs_input_grad` 告诉你
#   哪些输入究竟需要梯度。

# %%
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        print("  forward：梯度是否开启？", torch.is_grad_enabled())
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad_output):
        print("  backward：needs_input_grad =", ctx.needs_input_grad)
        return grad_output * ctx.k, None   # forward 的每个输入一个梯度；k 的是 None


x = torch.tensor([1.0, 2.0], requires_grad=True)
Scale.apply(x, 3.0).sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# ## 故意不同的梯度：直通估计器
#
# `sign(x)` 的导数几乎处处为 0，所以什么都无法通过它学习。二值化网络改用*直通估计器*（straight-through
# estimator）：前向计算 `sign`，反向假装它是恒等函数（截断到 $|x| \le 1$）。自动求导发明不了这个——得你来写。

# %%
class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1)


x = torch.tensor([-2.0, -0.5, 0.3, 1.5], requires_grad=True)
x.sign().sum().backward()
print("内置 sign:  ", x.grad)
x.grad = None
BinarizeSTE.apply(x).sum().backward()
print("直通估计器:", x.grad)

# %% [markdown]
# ## `gradcheck`：我的反向函数对吗？
#
# 写错的反向函数不会报错——只是训练会出问题。`torch.autograd.gradcheck` 用**有限差分**来比较你的反向
# 函数：它把每个输入轻推一个很小的 `eps`，测量 $\big(f(x + \varepsilon) - f(x - \varepsilon)\big) / 2\varepsilon$，
# 构建数值雅可比矩阵，再与你的反向函数给出的雅可比矩阵比较。输入要用 `float64`：`eps = 1e-6` 时，单精度的
# 舍入误差会淹没这个差。

# %%
x64 = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(MyExp.apply, (x64,)))

# %% [markdown]
# 现在来一个 bug：一个差了 2 倍的反向函数。`gradcheck` 抛出 `GradcheckError`，给出两个雅可比矩阵——或者在
# `raise_exception=False` 时返回 `False`。

# %%
class WrongExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result * 2    # 错了！


try:
    torch.autograd.gradcheck(WrongExp.apply, (x64,))
except RuntimeError as error:
    print(type(error).__name__, error)
print(torch.autograd.gradcheck(WrongExp.apply, (x64,), raise_exception=False))

# %% [markdown]
# 对直通估计器做 `gradcheck` 理所当然会**失败**：它的反向函数故意不是前向函数的导数。`gradcheck` 用于
# 反向函数本应精确的函数。（`gradgradcheck` 对二阶导数做同样的事，见第 7 个 notebook。）

# %%
x64 = torch.tensor([-0.5, 0.5, 1.5], dtype=torch.float64, requires_grad=True)
ste_ok = torch.autograd.gradcheck(BinarizeSTE.apply, (x64,), raise_exception=False)
print("直通估计器:           ", ste_ok)
print("MyExp 的 gradgradcheck:", torch.autograd.gradgradcheck(MyExp.apply, (x64,)))

# %% [markdown]
#
# ### 练习 1 · softplus
#
# 写出 `Softplus`，计算 $\operatorname{softplus}(x) = \log(1 + e^x)$。它的导数是 sigmoid：
# $\operatorname{softplus}'(x) = \sigma(x)$。在 `forward` 里保存反向传播需要的东西。检查会测试数值、带一个
# 非平凡 `grad_output` 的梯度，并运行 `gradcheck`。

# %%
# EXERCISE: forward 计算 log(1 + exp(x))；backward 返回 grad_output * sigmoid(x)
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        # SOLUTION
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()
        # END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        # SOLUTION
        (x,) = ctx.saved_tensors
        return grad_output * x.sigmoid()
        # END SOLUTION


check_softplus_function(Softplus, torch)

# %% [markdown]
# ### 练习 2 · 找出 bug
#
# `ScaledSquare` 对一个数 $k$ 计算 $k\,x^2$。它的反向函数有一个 bug。先分别用 $k = 1$ 和 $k = 3$ 运行
# `gradcheck`——注意，只用 $k = 1$ 的测试会漏掉它——然后在后面的单元格里修好 `backward`。

# %%
class BuggyScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return k * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * x, None


x64 = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
for k in (1.0, 3.0):
    ok = torch.autograd.gradcheck(lambda t, k=k: BuggyScaledSquare.apply(t, k), (x64,), raise_exception=False)
    print(f"k = {k}：gradcheck 通过了吗？{ok}")

# %%
# EXERCISE: 修好 ScaledSquare 的 backward（out = k * x**2）
class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return k * x * x

    @staticmethod
    def backward(ctx, grad_output):
        # SOLUTION
        # STUB: ...  # TODO: BuggyScaledSquare 的 backward，把 bug 修好
        (x,) = ctx.saved_tensors
        return grad_output * 2 * ctx.k * x, None
        # END SOLUTION


check_fixed_function(ScaledSquare, torch)

# %% [markdown]
# > **The same in PyTorch.**（PyTorch 中也一样。）`Function` 的 API 就是 PyTorch 的：静态的
# > `forward(ctx, ...)` 和 `backward(ctx, ...)`、`.apply`、`ctx.save_for_backward` / `ctx.saved_tensors`、
# > `ctx.needs_input_grad`、每个输入返回一个梯度（非张量返回 `None`）、forward 在梯度模式关闭时运行，以及
# > 名为 `<ClassName>Backward` 的节点（没有内置节点的那个 `0`）。
# > `gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)` 抛出带两个雅可比矩阵的 `GradcheckError`
# > （一种 `RuntimeError`），或在 `raise_exception=False` 时返回 `False`；输入是 `float32` 时它会警告检验
# > 很可能失败。
#
# ## 小结
#
# * 一个自定义 `Function` 就是一个节点：你提供它的前向和它的雅可比向量积。
# * 用 `ctx.save_for_backward` 保存反向传播需要的东西；每个输入返回一个梯度。
# * 手写的反向函数一定要做 `gradcheck`：用 `float64`、非平凡的输入和参数。
#
# 接下来去哪儿？读一读 minigrad 的源码：每个操作的前向和反向并排写在 `minigrad/ops/` 里，
# `minigrad/autograd/engine.py` 里的引擎就是你在第 2 个 notebook 里写过的那个循环。课程里接下来是：
# **11 · 前向模式与反向模式**，以及 **12 · 那些文章说错了什么**。
