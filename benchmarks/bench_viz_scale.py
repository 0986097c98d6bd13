"""Time viz on the graphs that used to hang a notebook: loops with a shared weight, wide graphs, the live graph.

Run: ``python benchmarks/bench_viz_scale.py [--iterations 100 200 300] [--backend native|wasm] [--repeat 3]``.

1. The shared-weight loop ``h = (h * w + 0.1).tanh()`` (one ``w``): ``viz.draw(...).svg()``
   (capture, folding, layout) and ``viz.step_backward(...)`` construction, at 100/200/300
   iterations (issue 13: 4.1 s / 23.6 s / 112 s to draw, 47 s to step at 300; target <= 2 s each).
2. The residual network ``h = (h * w_i).tanh() + h`` at 400 and 666 blocks (1,603 and 2,667
   nodes: 70 s, and 377 s ending in "Graphviz failed:").
3. ``viz.live()`` with 300 nodes alive: the time a one-operation cell gains from the watcher
   (the post-cell snapshot; layout runs in a thread) -- target <= 50 ms -- and the cost per
   recorded operation while watching.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minigrad
import viz
from viz.live_graph import LiveGraphWidget

TARGET_SECONDS = 2.0
LIVE_TARGET_MS = 50.0


def shared_loop(iterations: int) -> tuple[Any, Any]:
    w = minigrad.tensor(0.5, requires_grad=True)
    h = minigrad.tensor(1.0)
    for _ in range(iterations):
        h = (h * w + 0.1).tanh()
    return h, w


def residual(blocks: int) -> Any:
    h = minigrad.tensor([0.5, -0.25], requires_grad=True)
    for i in range(blocks):
        w = minigrad.tensor([0.9 + 0.001 * i, 1.1 - 0.001 * i], requires_grad=True)
        h = (h * w).tanh() + h
    return h.sum()


def best_of(repeat: int, make: Any, run: Any) -> tuple[float, Any]:
    """Best wall time of ``run(make())`` over ``repeat`` fresh graphs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        arg = make()
        start = time.perf_counter()
        result = run(arg)
        times.append(time.perf_counter() - start)
    return min(times), result


def live_cost(alive: int, cells: int) -> tuple[float, float, float]:
    """(ms a one-op cell gains from the watcher, µs per op without / with a watcher)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    keep = [x]
    for _ in range(alive // 2):  # two nodes per step, all kept alive
        keep.append((keep[-1] * 1.5).tanh())

    def op_time(n: int = 2000) -> float:
        start = time.perf_counter()
        for _ in range(n):
            _ = keep[-1] * 2.0
        return (time.perf_counter() - start) / n * 1e6

    plain = op_time()
    widget = LiveGraphWidget()
    try:
        watched = op_time()
        widget._after_cell()
        widget.wait()
        gained = []
        for _ in range(cells):
            y = keep[-1] * 2.0          # the cell: one operation
            start = time.perf_counter()
            widget._after_cell()        # what the kernel runs after it (snapshot; layout in a thread)
            gained.append(time.perf_counter() - start)
            widget.wait()
            del y
    finally:
        widget.close()
    return min(gained) * 1e3, plain, watched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", nargs="*", type=int, default=[100, 200, 300])
    parser.add_argument("--backend", default=None, help="native, wasm or auto (default)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    viz.render.render_dot("digraph { a -> b }", backend=args.backend)  # compile WebAssembly once
    ok = True
    print("shared-weight loop h = (h * w + 0.1).tanh()")
    print(f"{'iterations':>10} {'nodes':>6} {'draw s':>8} {'step_backward s':>16} {'steps':>6}  drawn as")
    for n in args.iterations:
        draw_s, diagram = best_of(args.repeat, lambda n=n: shared_loop(n),
                                  lambda hw: _svg(viz.draw(hw[0], params={"w": hw[1]}, backend=args.backend)))
        step_s, stepper = best_of(args.repeat, lambda n=n: shared_loop(n),
                                  lambda hw: viz.step_backward(hw[0], params={"w": hw[1]}))
        ok &= draw_s <= TARGET_SECONDS and step_s <= TARGET_SECONDS
        notes = "; ".join(diagram.drawn.notes) or "every node"
        print(f"{n:>10} {len(diagram.snapshot.nodes):>6} {draw_s:>8.3f} {step_s:>16.3f} "
              f"{len(stepper.steps):>6}  {notes}")
    print("\nresidual network h = (h * w_i).tanh() + h")
    for blocks in (400, 666):
        draw_s, diagram = best_of(1, lambda b=blocks: residual(b), lambda y: _svg(viz.draw(y, backend=args.backend)))
        step_s, _ = best_of(1, lambda b=blocks: residual(b), viz.step_backward)
        print(f"{blocks:>10} {len(diagram.snapshot.nodes):>6} {draw_s:>8.3f} {step_s:>16.3f}  "
              f"{'; '.join(diagram.drawn.notes)}")
    gained_ms, plain_us, watched_us = live_cost(alive=300, cells=5)
    ok &= gained_ms <= LIVE_TARGET_MS
    print(f"\nviz.live() with 300 nodes alive: a one-op cell gains {gained_ms:.1f} ms "
          f"(target <= {LIVE_TARGET_MS:g} ms); an op takes {plain_us:.1f} µs, {watched_us:.1f} µs while watched")
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


def _svg(diagram: viz.Diagram) -> viz.Diagram:
    diagram.svg()
    return diagram


if __name__ == "__main__":
    raise SystemExit(main())
