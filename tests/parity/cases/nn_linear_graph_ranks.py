# nn.Linear's graph for 1-D, 2-D and 3-D inputs, with and without bias, and
# whether the input requires grad: grad_fn names along next_functions.
import torch
import torch.nn as nn


def graph(t):
    def walk(node):
        if node is None:
            return None
        return [type(node).__name__, [walk(f) for f, _ in node.next_functions]]
    return walk(t.grad_fn)


def linear(bias):
    layer = nn.Linear(3, 2, bias=bias)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        if bias:
            layer.bias.copy_(torch.tensor([0.01, -0.02]))
    return layer


RESULT = {}
for bias in (True, False):
    for shape in ((3,), (4, 3), (2, 4, 3)):
        for requires_grad in (False, True):
            x = torch.linspace(-1.0, 1.0, 3 * (4 if len(shape) > 1 else 1) * (2 if len(shape) > 2 else 1))
            x = x.view(shape).requires_grad_(requires_grad)
            out = linear(bias)(x)
            name = "bias=%s %d-D%s" % (bias, len(shape), " input grad" if requires_grad else "")
            RESULT[name] = {"out": out, "graph": repr(graph(out))}
