# A leaf's .grad is its own: never the tensor a hook kept, never another leaf's gradient, never the
# gradient passed to backward; accumulating into it changes nothing else.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
kept = []
a.register_hook(lambda grad: kept.append(grad))
(a * b + b).sum().backward()
a.grad.add_(100.0)
b.grad.mul_(10.0)

x = torch.tensor([1.0, 2.0], requires_grad=True)
seed = torch.tensor([5.0, 6.0])
x.backward(seed)
x.grad.add_(1.0)

w = torch.ones(3, 2, requires_grad=True)
h = torch.ones(4, 3) @ w.t().t()
h.sum().backward()
first = w.grad.clone()
(torch.ones(4, 3) @ w).sum().backward()

lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.1, 0.0, 0.4]]))
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
for _ in range(3):
    lin(torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]])).pow(2).sum().backward()

RESULT = {
    "kept by the hook": kept[0],
    "a.grad": a.grad,
    "b.grad": b.grad,
    "seed": seed,
    "x.grad": x.grad,
    "w.grad first": first,
    "w.grad accumulated": w.grad,
    "w.grad contiguous": w.grad.is_contiguous(),
    "linear weight grad after 3": lin.weight.grad,
    "linear bias grad after 3": lin.bias.grad,
}
