"""Training-loop benchmark: minigrad against PyTorch, in the same process, on the same data.

Two measurements, each run for both libraries with interleaved repeats (the machine's
noise hits both alike) and reported as the best time and the ratio minigrad / torch:

1. one training step (zero_grad, forward, cross-entropy, backward, optimizer step) of a
   784-256-10 ReLU MLP on a batch of 64 random inputs, with SGD (momentum 0.9) and Adam;
2. training an MLP (64-128-10) on scikit-learn's bundled digits for a few epochs with a
   DataLoader-style loop, reporting time per epoch and test accuracy.

Usage::

    python benchmarks/bench_training.py [--threads N] [--repeats R] [--epochs E]

``--threads`` (default 1) pins both libraries' BLAS/OpenMP thread counts, so the comparison
measures the libraries and not the scheduler of a busy machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads for both libraries")
    parser.add_argument(
        "--repeats", type=int, default=15, help="timed repeats per measurement (best is kept)"
    )
    parser.add_argument("--steps", type=int, default=20, help="training steps per repeat")
    parser.add_argument("--epochs", type=int, default=10, help="epochs of digits training")
    return parser.parse_args()


ARGS = parse_args()
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(ARGS.threads)  # before numpy/torch load their BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import minigrad  # noqa: E402

try:
    import torch
except ImportError:  # the comparison needs the `torch` extra
    sys.exit("this benchmark compares with PyTorch: pip install torch==2.13.0")
torch.set_num_threads(ARGS.threads)

LIBRARIES = {"torch": torch, "minigrad": minigrad}


def mlp(lib, sizes):
    """A ReLU MLP with weights from numpy (the same in both libraries)."""
    rng = np.random.default_rng(0)
    layers = []
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        layer = lib.nn.Linear(n_in, n_out)
        bound = 1 / np.sqrt(n_in)
        with lib.no_grad():
            layer.weight.copy_(lib.from_numpy(rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)))
            layer.bias.copy_(lib.from_numpy(rng.uniform(-bound, bound, n_out).astype(np.float32)))
        layers += [layer, lib.nn.ReLU()] if i < len(sizes) - 2 else [layer]
    return lib.nn.Sequential(*layers)


def best_of_interleaved(runs: dict, repeats: int) -> dict:
    """Call each ``runs[name]()`` ``repeats`` times, alternating; keep each one's best time."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def step_benchmark(optimizer: str, steps: int, repeats: int) -> dict:
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((64, 784)).astype(np.float32)
    y_np = rng.integers(0, 10, 64)
    runs = {}
    for name, lib in LIBRARIES.items():
        model = mlp(lib, [784, 256, 10])
        opt = (
            lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
            if optimizer == "SGD"
            else lib.optim.Adam(model.parameters(), lr=1e-3)
        )
        x, y = lib.from_numpy(x_np), lib.from_numpy(y_np)
        loss_fn = lib.nn.functional.cross_entropy

        def run(model=model, opt=opt, x=x, y=y, loss_fn=loss_fn):
            for _ in range(steps):
                opt.zero_grad()
                loss_fn(model(x), y).backward()
                opt.step()

        run()  # warm-up
        runs[name] = run
    return {name: t / steps for name, t in best_of_interleaved(runs, repeats).items()}


def digits_benchmark(epochs: int) -> dict:
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    data = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(
        (data.data / 16.0).astype(np.float32), data.target, test_size=0.25, random_state=0
    )
    results = {}
    for name, lib in LIBRARIES.items():
        model = mlp(lib, [64, 128, 10])
        opt = lib.optim.Adam(model.parameters(), lr=1e-2)
        xs, ys = lib.from_numpy(x_train), lib.from_numpy(y_train.astype(np.int64))
        order = np.random.default_rng(2).permutation
        start = time.perf_counter()
        for _ in range(epochs):
            perm = lib.from_numpy(order(len(x_train)))
            for i in range(0, len(x_train), 64):
                idx = perm[i : i + 64]
                opt.zero_grad()
                lib.nn.functional.cross_entropy(model(xs[idx]), ys[idx]).backward()
                opt.step()
        elapsed = (time.perf_counter() - start) / epochs
        with lib.no_grad():
            predicted = model(lib.from_numpy(x_test)).argmax(1).numpy()
        results[name] = (elapsed, float((predicted == y_test).mean()))
    return results


def main() -> None:
    print(
        "minigrad %s vs torch %s, numpy %s, %d thread(s)"
        % (minigrad.__version__, torch.__version__, np.__version__, ARGS.threads)
    )
    for optimizer in ("SGD", "Adam"):
        t = step_benchmark(optimizer, ARGS.steps, ARGS.repeats)
        print(
            "MLP 784-256-10, batch 64, %-4s step: torch %7.0f us   minigrad %7.0f us   ratio %.2f"
            % (optimizer, t["torch"] * 1e6, t["minigrad"] * 1e6, t["minigrad"] / t["torch"])
        )
    r = digits_benchmark(ARGS.epochs)
    print(
        "digits MLP 64-128-10, %d epochs: torch %.1f ms/epoch (test acc %.3f)   minigrad %.1f ms/epoch "
        "(test acc %.3f)   ratio %.2f"
        % (
            ARGS.epochs,
            r["torch"][0] * 1e3,
            r["torch"][1],
            r["minigrad"][0] * 1e3,
            r["minigrad"][1],
            r["minigrad"][0] / r["torch"][0],
        )
    )


if __name__ == "__main__":
    main()
