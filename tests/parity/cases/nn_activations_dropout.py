# GELU (exact and tanh), LeakyReLU, Hardtanh, LogSigmoid with gradients;
# Dropout is the identity in eval mode and for p=0; one_hot and pad.
import torch
import torch.nn as nn
import torch.nn.functional as F

values = [-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0]


def run(fn):
    x = torch.tensor(values, requires_grad=True)
    y = fn(x)
    (y * torch.linspace(1.0, 2.0, y.numel()).view(y.shape)).sum().backward()
    return {"y": y, "grad": x.grad}


x = torch.ones(4, requires_grad=True)
drop = nn.Dropout(0.5)
drop.eval()

RESULT = {
    "gelu": run(F.gelu),
    "gelu tanh": run(lambda t: nn.GELU(approximate="tanh")(t)),
    "leaky_relu": run(lambda t: F.leaky_relu(t, 0.1)),
    "LeakyReLU module": run(nn.LeakyReLU()),
    "hardtanh": run(lambda t: F.hardtanh(t, -0.5, 1.0)),
    "logsigmoid": run(F.logsigmoid),
    "eval dropout is identity": drop(x) is x,
    "p=0 dropout is identity": F.dropout(x, 0.0) is x,
    "p=1 dropout": F.dropout(x, 1.0),
    "dropout repr": repr(drop),
    "bad p": catch(lambda: nn.Dropout(1.5)),
    "one_hot": F.one_hot(torch.tensor([0, 2, 1]), 4),
    "one_hot too small": catch(lambda: F.one_hot(torch.tensor([0, 2]), 2)),
    "pad": run(lambda t: F.pad(t.view(1, 7), (1, 2), value=0.5)),
}
