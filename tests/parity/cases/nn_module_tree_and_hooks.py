# A module tree's repr, traversal order and modes; forward pre-hooks and hooks
# run only through module(x) and may replace inputs and outputs.
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Linear(2, 3),
    nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()]),
    nn.ModuleDict({"drop": nn.Dropout(0.1), "act": nn.GELU()}),
    nn.Flatten(),
    nn.Embedding(5, 2, padding_idx=0),
    nn.Identity(),
)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [0.0, 2.0]]))
    model[0].bias.copy_(torch.tensor([0.1, 0.0, -0.1]))

calls = []
layer = model[0]
pre = layer.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
post = layer.register_forward_hook(lambda m, args, out: calls.append(tuple(out.shape)) or out + 1)
x = torch.tensor([[1.0, 2.0]])
hooked = layer(x)
direct = layer.forward(x)
pre.remove()
post.remove()

RESULT = {
    "repr": repr(model),
    "modules": [n for n, _ in model.named_modules()],
    "children": [n for n, _ in model.named_children()],
    "parameters": [n for n, _ in model.named_parameters()],
    "eval": [m.training for m in model.eval().modules()],
    "train": [m.training for m in model.train().modules()],
    "hooked": hooked,
    "direct": direct,
    "calls": calls,
    "after remove": layer(x),
    "slice": repr(model[1:3]),
    "index error": catch(lambda: model[10]),
}
