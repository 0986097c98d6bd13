"""``torch.backends``: the flags tutorials set or ask about (``cudnn.deterministic``, ``mps.is_available()``).

minigrad has neither cuDNN nor MPS; the cuDNN flags are accepted and have no effect (numpy is deterministic).
"""

from __future__ import annotations

from types import SimpleNamespace

__all__ = ["cudnn", "mps"]

cudnn: SimpleNamespace = SimpleNamespace(enabled=True, deterministic=False, benchmark=False, is_available=lambda: False)
mps: SimpleNamespace = SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
