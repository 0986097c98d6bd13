"""``minigrad.nn`` (being written)."""
