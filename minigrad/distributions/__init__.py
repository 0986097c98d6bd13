"""``torch.distributions``: ``Normal``, ``Uniform``, ``Bernoulli``, ``Categorical`` — PyTorch's formulas and its
random streams (minigrad's generator is PyTorch's CPU generator: the same seed gives the same samples).

>>> import minigrad as torch
>>> from minigrad.distributions import Normal
>>> _ = torch.manual_seed(0)
>>> d = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
>>> d.sample()
tensor([1.5410, 0.4131])
>>> d.log_prob(torch.tensor([0.0, 1.0]))
tensor([-0.9189, -1.6121])
"""

from . import constraints
from .distribution import Bernoulli, Categorical, Distribution, Normal, Uniform

__all__ = ["Distribution", "Normal", "Uniform", "Bernoulli", "Categorical", "constraints"]
