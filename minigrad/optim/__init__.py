"""``minigrad.optim``: ``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``Adagrad``, ``Adadelta``, ``NAdam``, ``RAdam``,
``Adamax``, ``ASGD``, ``Rprop``, ``LBFGS`` and ``lr_scheduler``, as in ``torch.optim``.

The training loop is PyTorch's:

>>> import minigrad as torch
>>> w = torch.tensor([3.0], requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=0.1)
>>> for _ in range(3):
...     opt.zero_grad()
...     loss = (w ** 2).sum()
...     loss.backward()
...     opt.step()
>>> w
tensor([1.5360], requires_grad=True)
"""

from . import lr_scheduler
from .adadelta import Adadelta, NAdam, RAdam
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax  # nn5
from .adamw import AdamW
from .asgd import ASGD  # nn5
from .lbfgs import LBFGS  # nn5
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .rprop import Rprop  # nn5
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "NAdam", "RAdam", "lr_scheduler"]
__all__ += ["Adamax", "ASGD", "Rprop", "LBFGS"]
