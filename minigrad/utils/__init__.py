"""Utilities: hook handles and data loading."""

from . import hooks

__all__ = ["hooks"]
