"""Core benchmark: minigrad against PyTorch (when installed) and raw numpy, in one process.

Three measurements, each timed for every library with interleaved repeats (the machine's noise
hits all alike), reported as the best time and the ratios minigrad / torch and minigrad / numpy:

1. per-op overhead: forward + backward of one op on 10-element tensors (add, mul, exp, sum,
   matmul), in microseconds per op; "numpy" is the same forward and backward arithmetic by hand,
   i.e. the floor below which no numpy-based engine can go;
2. one training step of a 784-256-10 ReLU MLP on a batch of 64 (float32): ``x @ W1 + b1``,
   relu, ``@ W2 + b2``, log_softmax cross-entropy, backward, a manual SGD update -- tensor ops
   only, no ``nn``;
3. a chain of 100,000 ops (``y = y * 0.9999``) built and backpropagated, with the 10,000-op chain
   for the scaling ratio (10.0 is linear).

Usage::

    python benchmarks/bench_core.py [--threads N] [--repeats R] [--quick]

``--threads`` (default 1) pins the BLAS/OpenMP thread count of numpy and torch alike.
OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE: some machines of this workplace set them (older OpenBLAS
builds need them there); they slow a current numpy's BLAS.  The script prints their values and
the BLAS kernel numpy runs (threadpoolctl); to compare fairly, unset both for the benchmark
command only (``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_core.py``),
never in tests or CI.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads for numpy and torch")
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats per measurement (best is kept)")
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    return parser.parse_args()


ARGS = parse_args()
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = str(ARGS.threads)  # before numpy/torch load their BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import minigrad  # noqa: E402

try:
    import torch

    torch.set_num_threads(ARGS.threads)
except ImportError:  # the torch column is then left out
    torch = None

LIBS = [("minigrad", minigrad)] + ([("torch", torch)] if torch is not None else [])


def best_of(fns, number, repeats):
    """Best seconds per call of each function, the functions' repeats interleaved."""
    best = {name: float("inf") for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            gc.collect()
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return best


# -- 1. per-op overhead ------------------------------------------------------------------------------


def op_programs(lib):
    """Forward + backward of each op on 10-element float32 tensors."""
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal(10, dtype=np.float32), requires_grad=True)
    b = lib.tensor(rng.standard_normal(10, dtype=np.float32), requires_grad=True)
    m1 = lib.tensor(rng.standard_normal((2, 5), dtype=np.float32), requires_grad=True)
    m2 = lib.tensor(rng.standard_normal((5, 2), dtype=np.float32), requires_grad=True)
    g10, g22, g0 = lib.ones(10), lib.ones(2, 2), lib.tensor(1.0)

    def run(fn, grad):
        def step():
            fn().backward(grad)

        return step

    return {
        "add": run(lambda: a + b, g10),
        "mul": run(lambda: a * b, g10),
        "exp": run(lambda: a.exp(), g10),
        "sum": run(lambda: a.sum(), g0),
        "matmul": run(lambda: m1 @ m2, g22),
    }


def numpy_op_programs():
    """The same arithmetic by hand: forward, then the backward formulas, then accumulation into .grad."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(10, dtype=np.float32), rng.standard_normal(10, dtype=np.float32)
    m1, m2 = rng.standard_normal((2, 5), dtype=np.float32), rng.standard_normal((5, 2), dtype=np.float32)
    ga, gb, gm1, gm2 = np.zeros_like(a), np.zeros_like(b), np.zeros_like(m1), np.zeros_like(m2)
    g10, g22 = np.ones(10, np.float32), np.ones((2, 2), np.float32)

    def add():
        a + b
        ga.__iadd__(g10), gb.__iadd__(g10)

    def mul():
        a * b
        ga.__iadd__(g10 * b), gb.__iadd__(g10 * a)

    def exp():
        out = np.exp(a)
        ga.__iadd__(g10 * out)

    def sum_():
        a.sum()
        ga.__iadd__(np.broadcast_to(np.float32(1.0), a.shape))

    def matmul():
        m1 @ m2
        gm1.__iadd__(g22 @ m2.T), gm2.__iadd__(m1.T @ g22)

    return {"add": add, "mul": mul, "exp": exp, "sum": sum_, "matmul": matmul}


# -- 2. MLP training step ------------------------------------------------------------------------------


def mlp_step(lib):
    """One SGD step of a 784-256-10 ReLU MLP on a batch of 64, with tensor ops only."""
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((64, 784), dtype=np.float32))
    target = lib.tensor(rng.integers(0, 10, 64))
    rows = lib.arange(64)
    params = [
        lib.tensor(v, requires_grad=True)
        for v in (
            rng.uniform(-0.035, 0.035, (784, 256)).astype(np.float32),
            np.zeros(256, np.float32),
            rng.uniform(-0.06, 0.06, (256, 10)).astype(np.float32),
            np.zeros(10, np.float32),
        )
    ]
    w1, b1, w2, b2 = params

    def step():
        logits = (x @ w1 + b1).relu() @ w2 + b2
        loss = -logits.log_softmax(1)[rows, target].mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 0.01 * p.grad
                p.grad = None

    return step


def numpy_mlp_step():
    """The same step by hand in numpy: the floor for an engine on numpy."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 784), dtype=np.float32)
    target = rng.integers(0, 10, 64)
    w1 = rng.uniform(-0.035, 0.035, (784, 256)).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = rng.uniform(-0.06, 0.06, (256, 10)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    rows = np.arange(64)

    def step():
        h = x @ w1 + b1
        r = np.maximum(h, 0)
        logits = r @ w2 + b2
        shifted = logits - logits.max(1, keepdims=True)
        logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
        -logp[rows, target].mean()
        g = np.exp(logp)
        g[rows, target] -= 1
        g /= 64
        gw2, gb2 = r.T @ g, g.sum(0)
        gh = (g @ w2.T) * (h > 0)
        gw1, gb1 = x.T @ gh, gh.sum(0)
        for p, gp in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            p -= 0.01 * gp

    return step


# -- 3. the long chain -----------------------------------------------------------------------------------


def chain(lib, n):
    def run():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 0.9999
        y.sum().backward()

    return run


def numpy_chain(n):
    def run():
        y = np.array([1.0, 2.0], np.float32)
        for _ in range(n):
            y = y * np.float32(0.9999)
        g = np.ones(2, np.float32)
        for _ in range(n):
            g = g * np.float32(0.9999)

    return run


# -- report ------------------------------------------------------------------------------------------------


def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"


def table(title, unit, scale, rows):
    """rows: (label, {lib: seconds})."""
    names = [n for n, _ in LIBS] + ["numpy"]
    header = "%-22s" % title + "".join("%14s" % ("%s (%s)" % (n, unit)) for n in names)
    header += "%16s%16s" % ("minigrad/torch", "minigrad/numpy")
    print(header)
    print("-" * len(header))
    for label, times in rows:
        line = "%-22s" % label + "".join(
            "%14.1f" % (times[n] * scale) if n in times else "%14s" % "-" for n in names
        )
        line += "%16s%16s" % (
            ratio(times["minigrad"], times.get("torch", 0)),
            ratio(times["minigrad"], times["numpy"]),
        )
        print(line)
    print()


def environment():
    print(
        "numpy %s, torch %s, python %s, %d BLAS/OpenMP thread(s)"
        % (np.__version__, torch.__version__ if torch else "absent", sys.version.split()[0], ARGS.threads)
    )
    print(
        "OPENBLAS_CORETYPE=%s OPENBLAS_L2_SIZE=%s"
        % (os.environ.get("OPENBLAS_CORETYPE", "(unset)"), os.environ.get("OPENBLAS_L2_SIZE", "(unset)"))
    )
    try:
        from threadpoolctl import threadpool_info

        for pool in threadpool_info():
            if pool.get("internal_api") == "openblas":
                print("numpy BLAS: OpenBLAS %s, kernel %s" % (pool.get("version"), pool.get("architecture")))
    except ImportError:
        pass
    print()


def main():
    environment()
    quick = ARGS.quick
    repeats = 3 if quick else ARGS.repeats

    programs = {name: op_programs(lib) for name, lib in LIBS}
    programs["numpy"] = numpy_op_programs()
    rows = []
    for op in programs["minigrad"]:
        rows.append(
            (op, best_of({lib: programs[lib][op] for lib in programs}, 200 if quick else 2000, repeats))
        )
    table("fwd+bwd, 10 elements", "µs", 1e6, rows)

    steps = {name: mlp_step(lib) for name, lib in LIBS}
    steps["numpy"] = numpy_mlp_step()
    table("MLP 784-256-10, b=64", "ms", 1e3, [("SGD step", best_of(steps, 3 if quick else 20, repeats))])

    n_long = 20_000 if quick else 100_000
    rows = []
    for n in (n_long // 10, n_long):
        runs = {name: chain(lib, n) for name, lib in LIBS}
        runs["numpy"] = numpy_chain(n)
        rows.append(("chain of %d" % n, best_of(runs, 1, 1 if quick else 3)))
    table("long chain fwd+bwd", "ms", 1e3, rows)
    print(
        "chain scaling %d -> %d (10.0 is linear): minigrad %.1f%s"
        % (
            n_long // 10,
            n_long,
            rows[1][1]["minigrad"] / rows[0][1]["minigrad"],
            ", torch %.1f" % (rows[1][1]["torch"] / rows[0][1]["torch"]) if torch else "",
        )
    )


if __name__ == "__main__":
    main()
