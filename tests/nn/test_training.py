"""End to end: the tutorial's one-layer network, freezing and replacing a layer, and a real dataset."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.utils.data import DataLoader, TensorDataset

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def test_seed_single_layer_network_matches_pytorch():
    """PyTorch's autograd tutorial: z = x @ w + b, then binary cross-entropy on the logits."""
    x = minigrad.ones(5)
    y = minigrad.zeros(3)
    w = minigrad.randn(5, 3, requires_grad=True)
    b = minigrad.randn(3, requires_grad=True)
    z = minigrad.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    assert type(z.grad_fn).__name__ == "AddBackward0"
    assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    loss.backward()

    tw = torch.tensor(w.detach().numpy(), requires_grad=True)
    tb = torch.tensor(b.detach().numpy(), requires_grad=True)
    tloss = torch.nn.functional.binary_cross_entropy_with_logits(
        torch.matmul(torch.ones(5), tw) + tb, torch.zeros(3)
    )
    tloss.backward()
    assert loss.item() == pytest.approx(tloss.item(), rel=1e-6)
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-5, atol=1e-7)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()


def tiny_net(lib):
    class TinyNet(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 6))
            self.fc = lib.nn.Linear(6, 5)

        def forward(self, x):
            return self.fc(lib.relu(self.features(x)))

    return TinyNet()


def test_freeze_then_replace_the_last_layer_matches_pytorch():
    """Freeze a "pretrained" model, put a new head on it and train only the head."""
    rng = np.random.default_rng(0)
    x_np, y_np = rng.standard_normal((16, 4)).astype(np.float32), rng.integers(0, 2, 16)
    results = []
    reference = tiny_net(torch)
    for lib in (minigrad, torch):
        model = tiny_net(lib)
        with lib.no_grad():
            for p, q in zip(model.parameters(), reference.parameters()):
                p.copy_(lib.from_numpy(q.detach().numpy().copy()))
        frozen_before = [p.detach().clone() for p in model.features.parameters()]
        for param in model.parameters():
            param.requires_grad = False
        model.fc = lib.nn.Linear(6, 2)  # new modules require grad by default
        with lib.no_grad():
            model.fc.weight.copy_(lib.from_numpy(np.linspace(-0.5, 0.5, 12, dtype=np.float32).reshape(2, 6)))
            model.fc.bias.zero_()
        optimizer = lib.optim.SGD(model.fc.parameters(), lr=1e-1, momentum=0.9)
        losses = []
        for _ in range(20):
            optimizer.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(lib.from_numpy(x_np)), lib.from_numpy(y_np))
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        assert [n for n, p in model.named_parameters() if p.requires_grad] == ["fc.weight", "fc.bias"]
        assert all(p.grad is None for p in model.features.parameters())
        assert all(lib.equal(p, q) for p, q in zip(model.features.parameters(), frozen_before))
        results.append((losses, [p.detach().numpy().copy() for p in model.fc.parameters()]))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    assert results[0][0][-1] < results[0][0][0]


def test_requires_grad_false_model_has_no_graph():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).requires_grad_(False)
    out = model(minigrad.ones(2, 3))
    assert out.grad_fn is None
    assert not out.requires_grad
    with pytest.raises(
        RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"
    ):
        out.sum().backward()


def test_digits_mlp_reaches_95_percent():
    """A small MLP on scikit-learn's 8x8 digits, trained the PyTorch way, shuffled by a DataLoader."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(
        (digits.data / 16.0).astype(np.float32),
        digits.target,
        test_size=0.25,
        random_state=0,
        stratify=digits.target,
    )
    minigrad.manual_seed(0)
    loader = DataLoader(
        TensorDataset(minigrad.from_numpy(x_train), minigrad.from_numpy(y_train)), batch_size=64, shuffle=True
    )
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 10))
    optimizer = minigrad.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = minigrad.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)
    criterion = nn.CrossEntropyLoss()
    for _ in range(25):
        model.train()
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()
        scheduler.step()
    model.eval()
    with minigrad.no_grad():
        predicted = model(minigrad.from_numpy(x_test)).argmax(1).numpy()
    accuracy = (predicted == y_test).mean()
    assert accuracy >= 0.95, accuracy
