# smooth_l1 / huber / cosine_similarity values and gradients, full backward hooks, and Adagrad steps.
import torch
import torch.nn.functional as F

pred = torch.tensor([[0.2, 1.5, -2.0], [0.9, 0.0, 3.0]], requires_grad=True)
target = torch.tensor([[0.0, 0.5, -1.0], [1.0, 1.0, 0.0]])
result = {}
for name, fn in [("smooth_l1", lambda: F.smooth_l1_loss(pred, target, beta=0.5)),
                 ("huber", lambda: F.huber_loss(pred, target, delta=1.0, reduction="sum")),
                 ("cosine", lambda: F.cosine_similarity(pred, target + 0.1).sum()),
                 ("normalize", lambda: F.normalize(pred, dim=1).pow(3).sum())]:
    pred.grad = None
    loss = fn()
    loss.backward()
    result[name] = loss
    result[name + " grad"] = pred.grad.clone()

layer = torch.nn.Linear(3, 2)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    layer.bias.zero_()
calls = []
layer.register_full_backward_pre_hook(lambda m, grad_output: calls.append(("pre", grad_output[0].clone())))
layer.register_full_backward_hook(lambda m, grad_input, grad_output: calls.append(
    ("hook", grad_input[0].clone(), grad_output[0].clone())))
inp = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
layer(inp).pow(2).sum().backward()
result["hook calls"] = calls
result["inp.grad"] = inp.grad

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.Adagrad([w], lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.2)
for _ in range(5):
    opt.zero_grad()
    (w * w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    opt.step()
result["adagrad w"] = w.detach().clone()
result["adagrad sum"] = opt.state[w]["sum"].clone()

RESULT = result
