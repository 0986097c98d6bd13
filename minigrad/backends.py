"""``torch.backends``: the flags tutorials set or ask about (``cudnn.deterministic``, ``mps.is_available()``).

minigrad has neither cuDNN nor MPS; the cuDNN flags are accepted and have no effect (numpy is deterministic).
"""

from __future__ import annotations

from types import SimpleNamespace

from .ops.simd import cpu_capability

__all__ = ["cudnn", "mps", "cpu"]

cudnn: SimpleNamespace = SimpleNamespace(enabled=True, deterministic=False, benchmark=False, is_available=lambda: False)
mps: SimpleNamespace = SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
# ``torch.backends.cpu.get_cpu_capability()``: the SIMD kernel set PyTorch would run here ("AVX2", ...);
# minigrad follows it where the kernel decides the last bits of a result (``arange``).
cpu: SimpleNamespace = SimpleNamespace(get_cpu_capability=cpu_capability)
