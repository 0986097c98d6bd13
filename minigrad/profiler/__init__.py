"""``torch.profiler``: the same recorder as ``torch.autograd.profiler`` (CPU activity only).

>>> import minigrad as torch
>>> from minigrad.profiler import ProfilerActivity, profile, record_function
>>> with profile(activities=[ProfilerActivity.CPU]) as prof:
...     with record_function("model_inference"):
...         _ = torch.ones(2) + 1
>>> [e.key for e in prof.key_averages()]
['aten::add', 'model_inference']
"""

from __future__ import annotations

import enum
from typing import Any

from ..autograd.profiler import EventList, profile, record_function

__all__ = ["profile", "record_function", "ProfilerActivity", "schedule", "EventList"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


def schedule(*, wait: int = 0, warmup: int = 0, active: int = 1, repeat: int = 0, skip_first: int = 0) -> Any:
    """Accepted for compatibility: minigrad's profiler records every step."""
    return lambda step: None
