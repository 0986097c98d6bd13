"""Time one stepper step on a 500-node graph in headless Chromium, and the size of its HTML export.

Run:  python benchmarks/bench_stepper_browser.py [--nodes 500] [--repeat 200] [--json out.json]

A step only restyles the laid-out SVG (no Graphviz call), so applying one must fit in
a frame: the target is under 16 ms.  Each timing covers ``model.set("step", k)`` (classes,
edge styles, gradient labels, panel) plus a forced style and layout pass, so the
browser's own work is counted too.  A jump restyles only what changed; when that is more
than one frame's worth, the rest is written in the next frames (each timed as well).
Uses Debian's /usr/bin/chromium (or CHROMIUM_PATH); Playwright never downloads a browser.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TARGET_MS = 16.0

#: In the page: time ``model.set("step", k)`` plus a forced style and layout pass, for Next
#: steps and for jumps.  A jump that changes more elements than one frame should restyle
#: leaves the rest queued for the next frames; each of those batches is timed too (written
#: at once through the stepper root's ``mgFlush()``, plus a forced style and layout pass).
MEASURE_JS = """async ([repeat, total]) => {
    const model = window.mgStepper.model;
    const root = document.querySelector(".mg-stepper");
    const timed = (work) => {
        const t0 = performance.now();
        work();
        document.body.getBoundingClientRect();   // force style + layout
        return performance.now() - t0;
    };
    const settle = () => {
        const frames = [];
        while (root.dataset.settled === "false") frames.push(timed(() => root.mgFlush()));
        return frames;
    };
    model.set("step", 0);
    settle();
    const next = [];
    for (let k = 1; k <= Math.min(repeat, total); k++) {
        next.push(timed(() => model.set("step", k)));
        settle();
    }
    const jumps = [], settleFrames = [], frameWork = [];
    for (let i = 0; i < Math.max(10, repeat >> 2); i++) {
        jumps.push(timed(() => model.set("step", (i * 7919) % (total + 1))));
        const frames = settle();
        settleFrames.push(frames.length);
        frameWork.push(...frames);
    }
    return {next, jumps, settleFrames, frameWork};
}"""


def build_graph(nodes: int):
    """A residual tanh network of scalars with about ``nodes`` autograd nodes (fan-out at every block)."""
    import minigrad as torch

    torch.manual_seed(0)
    h = torch.tensor([0.5, -0.25], requires_grad=True)
    blocks = max(1, (nodes - 4) // 4)             # per block: Mul, Tanh, Add + one AccumulateGrad
    for i in range(blocks):
        w = torch.tensor([0.9 + 0.001 * i, 1.1 - 0.001 * i], requires_grad=True)
        h = (h * w).tanh() + h
    return h.sum()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=200,
                        help="Next steps timed (plus a quarter as many jumps)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from viz.stepper import step_backward

    t0 = time.perf_counter()
    root = build_graph(args.nodes)
    stepper = step_backward(root)
    record_s = time.perf_counter() - t0
    n_nodes = len(stepper.snapshot.nodes)
    n_steps = len(stepper.steps)
    with tempfile.TemporaryDirectory() as tmp:
        path = stepper.save_html(Path(tmp) / "bench.html")
        html_bytes = path.stat().st_size
        chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            t1 = time.perf_counter()
            page.goto(path.as_uri())
            page.wait_for_function("window.mgStepper !== undefined")
            load_s = time.perf_counter() - t1
            timings = page.evaluate(MEASURE_JS, [args.repeat, n_steps])
            browser.close()

    def stats(values: list[float]) -> tuple[float, float, float]:
        values = sorted(values)
        return (round(statistics.median(values), 2), round(values[int(0.95 * (len(values) - 1))], 2),
                round(values[-1], 2))

    next_ms, jump_ms = stats(timings["next"]), stats(timings["jumps"])
    frame_ms = stats(timings["frameWork"] or [0.0])
    settle_frames = sorted(timings["settleFrames"])
    result = {
        "graph_nodes": n_nodes,
        "steps": n_steps,
        "record_and_layout_s": round(record_s, 3),
        "page_load_s": round(load_s, 3),
        "next_step_ms_median": next_ms[0],
        "next_step_ms_p95": next_ms[1],
        "next_step_ms_max": next_ms[2],
        "jump_ms_median": jump_ms[0],
        "jump_ms_p95": jump_ms[1],
        "jump_ms_max": jump_ms[2],
        "jump_later_frames_max": settle_frames[-1],
        "jump_later_frame_ms_p95": frame_ms[1],
        "jump_later_frame_ms_max": frame_ms[2],
        "html_export_bytes": html_bytes,
        "target_ms": TARGET_MS,
    }
    for key, value in result.items():
        print(f"{key:>24}: {value}")
    worst = max(result["next_step_ms_p95"], result["jump_ms_p95"], result["jump_later_frame_ms_p95"])
    verdict = "OK" if worst < TARGET_MS else "SLOWER THAN ONE FRAME"
    print(f"{'verdict':>24}: {verdict} (p95 of Next, of a jump and of the frames that finish a"
          f" jump vs {TARGET_MS} ms)")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
