"""``minigrad.nn.functional`` (being written)."""
