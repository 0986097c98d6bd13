"""Render the pictures used by README.md (run: python docs/make_images.py)."""

from pathlib import Path

import minigrad as torch
import minigrad.nn.functional as F
import viz

HERE = Path(__file__).parent / "img"


def single_layer_network():
    """PyTorch's autograd tutorial: one linear layer, binary cross-entropy with logits, after backward."""
    torch.manual_seed(0)
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    loss.backward(retain_graph=True)
    return viz.draw(loss, params={"w": w, "b": b})


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    single_layer_network().save(HERE / "graph.svg")
    print("wrote", HERE / "graph.svg")
