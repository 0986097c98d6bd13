# create_graph=True through relu, softmax and log_softmax: the derivative is itself a graph, with
# PyTorch's fused backward nodes, and second derivatives; relu's backward is 0 where it is off, even
# for an infinite incoming gradient.
import torch

x = torch.tensor([[-1.0, 0.5, 2.0], [0.3, -0.2, 1.5]], requires_grad=True)
g = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)

result = {}
for name, fn in [("relu", lambda t: t.relu()), ("softmax", lambda t: t.softmax(1)),
                 ("log_softmax", lambda t: t.log_softmax(1))]:
    (dx,) = torch.autograd.grad(fn(x), x, g, create_graph=True)
    node = dx.grad_fn
    result[name + " dx"] = dx
    result[name + " node"] = node.name()
    result[name + " next"] = [None if n is None else n.name() for n, _ in node.next_functions]
    ddx, dg = torch.autograd.grad((dx * dx).sum(), (x, g), allow_unused=True, materialize_grads=True)
    result[name + " d2/dx"] = ddx
    result[name + " d2/dg"] = dg

y = torch.tensor([-1.0, 0.0, 2.0, -3.0], requires_grad=True)
y.relu().backward(torch.tensor([float("inf"), float("nan"), 1.0, float("-inf")]))
result["relu off gives exact zeros"] = y.grad

RESULT = result
