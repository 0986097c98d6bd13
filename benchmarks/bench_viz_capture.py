"""Time viz on 100, 1,000 and 2,000-node graphs: capture + DOT (target < 0.2 s at 2,000), then layout.

Run: ``python benchmarks/bench_viz_capture.py [--backends native wasm] [--repeat 5]``.

The graph is a deep chain ``y = tanh(y * w_i)`` with a fresh leaf ``w_i`` per
layer (three nodes per layer: MulBackward0, TanhBackward0, AccumulateGrad),
like an unrolled network.  Capture + DOT is our code; layout is Graphviz's
(native ``dot`` or the WebAssembly build) and is reported separately.  The
WebAssembly module is compiled once before timing.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minigrad
from viz.capture import capture_graph
from viz.render import render_dot, to_dot

SIZES = (100, 1000, 2000)
TARGET_SECONDS = 0.2


def chain(nodes: int) -> Any:
    """A scalar root over a graph of about ``nodes`` autograd nodes."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(max(1, (nodes - 2) // 3)):
        w = minigrad.tensor([0.5, 0.5], requires_grad=True)
        y = (y * w).tanh()
    return y.sum()


def best_of(repeat: int, fn: Any) -> tuple[float, Any]:
    """Best wall time of ``repeat`` runs (the least disturbed one) and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="*", default=None,
                        help="layout backends to time (default: native if `dot` exists, and wasm)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    backends = args.backends
    if backends is None:
        backends = (["native"] if shutil.which("dot") else []) + ["wasm"]
    if "wasm" in backends:
        render_dot("digraph { a -> b }", "svg", "wasm")  # compile the module once, untimed

    header = f"{'nodes':>6} {'capture s':>10} {'DOT s':>8} {'total s':>8} {'target':>7}"
    header += "".join(f" {'layout ' + b + ' s':>16}" for b in backends)
    print(header)
    print("-" * len(header))
    ok = True
    for size in SIZES:
        root = chain(size)
        capture_s, snapshot = best_of(args.repeat, lambda root=root: capture_graph(root))
        dot_s, dot = best_of(args.repeat, lambda snapshot=snapshot: to_dot(snapshot))
        total = capture_s + dot_s
        ok &= total < TARGET_SECONDS or size != 2000
        row = f"{len(snapshot.nodes):>6} {capture_s:>10.4f} {dot_s:>8.4f} {total:>8.4f} "
        row += f"{'ok' if total < TARGET_SECONDS else 'SLOW':>7}"
        for backend in backends:
            layout_s, _ = best_of(1, lambda dot=dot, backend=backend: render_dot(dot, "svg", backend))
            row += f" {layout_s:>16.2f}"
        print(row, flush=True)
    print(f"\ncapture + DOT for 2,000 nodes {'within' if ok else 'OVER'} the {TARGET_SECONDS} s target "
          f"(best of {args.repeat} runs; layout: one run each)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
