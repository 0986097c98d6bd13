"""``torch.cuda`` on a machine without a GPU: ``device = "cuda" if torch.cuda.is_available() else "cpu"`` picks the CPU.

>>> import minigrad as torch
>>> torch.cuda.is_available(), torch.cuda.device_count()
(False, 0)
"""

from __future__ import annotations

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all"]


def is_available() -> bool:
    """minigrad runs on numpy, on the CPU only."""
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Seeding CUDA without CUDA is silently ignored, as in PyTorch."""


def manual_seed_all(seed: int) -> None:
    """Seeding CUDA without CUDA is silently ignored, as in PyTorch."""
