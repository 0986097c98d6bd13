"""``minigrad.utils.data`` (being written)."""
