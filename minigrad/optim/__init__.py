"""``minigrad.optim`` (being written)."""
