# Less common ops: values, gradients and grad_fn names (einsum's node differs by design: only values).
import torch

x = torch.tensor([[0.3, -0.7, 1.2], [0.9, 0.1, -0.4]], requires_grad=True)
z = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]], requires_grad=True)
result = {}
for name, fn in [
    ("tan", lambda: x.tan()), ("atan2", lambda: torch.atan2(x, x.flip(1) + 2)), ("log1p", lambda: x.log1p()),
    ("expm1", lambda: x.expm1()), ("asin", lambda: (x / 2).asin()), ("sinh", lambda: x.sinh()),
    ("amax ties", lambda: z.amax(1)), ("amin dims", lambda: z.amin((0, 1))),
    ("sort", lambda: x.sort(1, descending=True).values), ("topk", lambda: x.topk(2, 1).values),
    ("cumprod with zero", lambda: z.cumprod(1)), ("median", lambda: x.median()),
    ("masked_fill", lambda: x.masked_fill(x > 0.5, -1.0)), ("trace", lambda: x[:, :2].trace()),
    ("diagonal", lambda: x.diagonal()), ("roll", lambda: x.roll(1, 1)),
]:
    x.grad = z.grad = None
    out = fn()
    out.backward(torch.ones_like(out) * torch.arange(1.0, out.numel() + 1).reshape(out.shape))
    result[name] = out
    result[name + " grad"] = (x.grad if x.grad is not None else z.grad).clone()

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
out = torch.einsum("ij,jk->ik", a, b)
out.backward(torch.ones(2, 3))
result["einsum values"] = out.detach()
result["einsum a.grad"] = a.grad
result["einsum b.grad"] = b.grad
result["einsum trace"] = torch.einsum("ii->", a).detach()

RESULT = result
