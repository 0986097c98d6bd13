# state_dict keys (parameters and persistent buffers, parents first) and
# load_state_dict's errors for missing, unexpected and mis-shaped entries.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(2, 1))
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)


net = Net()
state = net.state_dict()
missing = {k: v for k, v in state.items() if k != "fc.bias"}
unexpected = dict(state, extra=torch.ones(1))
wrong_shape = dict(state)
wrong_shape["fc.weight"] = torch.ones(3, 3)

fresh = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.full(p.shape, float(i)))
result = fresh.load_state_dict(net.state_dict())

RESULT = {
    "keys": list(state.keys()),
    "buffers": [n for n, _ in net.named_buffers()],
    "value requires_grad": state["fc.weight"].requires_grad,
    "missing": catch(lambda: Net().load_state_dict(missing)),
    "unexpected": catch(lambda: Net().load_state_dict(unexpected)),
    "wrong shape": catch(lambda: Net().load_state_dict(wrong_shape)),
    "not strict": repr(Net().load_state_dict(missing, strict=False)),
    "all matched": repr(result),
    "loaded weight": fresh.fc.weight,
    "loaded buffer": fresh.running,
}
KEYS = {
    "missing": 'Missing key(s) in state_dict: "fc.bias".',
    "unexpected": 'Unexpected key(s) in state_dict: "extra".',
    "wrong shape": "size mismatch for fc.weight: copying a param with shape torch.Size([3, 3]) from "
                   "checkpoint, the shape in current model is torch.Size([2, 2]).",
}
