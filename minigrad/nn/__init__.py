"""``minigrad.nn``: modules, parameters, losses, ``functional`` and ``init``, as in ``torch.nn``.

>>> import minigrad as torch
>>> from minigrad import nn
>>> _ = torch.manual_seed(0)
>>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
>>> loss = nn.CrossEntropyLoss()(model(torch.randn(5, 4)), torch.tensor([0, 2, 1, 1, 0]))
>>> loss.backward()
>>> [tuple(p.grad.shape) for p in model.parameters()]
[(8, 4), (8,), (3, 8), (3,)]
"""

from . import functional, init, utils
from .modules import *  # noqa: F403 - the layer classes, like torch.nn
from .modules import __all__ as _modules_all
from .modules.module import register_module_forward_hook, register_module_forward_pre_hook
from .parameter import Parameter

__all__ = [
    "Parameter",
    "functional",
    "init",
    "utils",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    *_modules_all,
]
