"""Command line: ``python -m viz render SCRIPT.py --var NAME -o OUT.svg``, ``python -m viz gallery``."""

from __future__ import annotations

import argparse
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .capture import _is_tensor
from .diagram import draw


def _names_from(namespace: dict[str, Any]) -> dict[str, Any]:
    """Every tensor and module of a script's globals, by variable name (modules name their params)."""
    names: dict[str, Any] = {}
    for key, value in namespace.items():
        if key.startswith("_"):
            continue
        if _is_tensor(value) or (hasattr(value, "named_parameters") and not isinstance(value, type)):
            names[key] = value
    return names


def _render(args: argparse.Namespace) -> int:
    script = Path(args.script)
    if not script.is_file():
        print(f"viz render: no such script: {script}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(script.resolve().parent))
    namespace = runpy.run_path(str(script), run_name="__main__")
    if args.var not in namespace or not _is_tensor(namespace[args.var]):
        found = sorted(k for k, v in namespace.items() if _is_tensor(v) and not k.startswith("_"))
        print(f"viz render: {script.name} has no tensor variable {args.var!r}; "
              f"tensors found: {', '.join(found) or 'none'}", file=sys.stderr)
        return 2
    names = _names_from(namespace)
    # The drawn variable's name wins for its own tensor.
    params = {args.var: namespace[args.var], **{k: v for k, v in names.items() if k != args.var}}
    diagram = draw(namespace[args.var], params=params, view=args.view, show_saved=args.show_saved,
                   theme=args.theme, depth=args.depth, backend=args.backend)
    path = diagram.save(args.output)
    print(f"wrote {path}")
    return 0


def _gallery(args: argparse.Namespace) -> int:
    import minigrad

    from .gallery import render_gallery

    for path in render_gallery(args.output, minigrad, backend=args.backend):
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m viz", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    render = commands.add_parser("render", help="run a script and draw one of its tensors")
    render.add_argument("script", help="the Python script to run")
    render.add_argument("--var", required=True, help="name of the tensor variable to draw")
    render.add_argument("-o", "--output", required=True,
                        help="output file: .svg, .dot (always), .png or .pdf (native Graphviz)")
    render.add_argument("--view", choices=("autograd", "dataflow"), default="autograd")
    render.add_argument("--show-saved", action="store_true", help="show saved tensors")
    render.add_argument("--theme", choices=("default", "projector", "compact"), default="default")
    render.add_argument("--depth", type=int, default=None, help="collapse deeper modules")
    render.add_argument("--backend", choices=("auto", "native", "wasm"), default=None)
    render.set_defaults(run=_render)

    gallery = commands.add_parser("gallery", help="render the example gallery")
    gallery.add_argument("-o", "--output", required=True, help="output directory")
    gallery.add_argument("--backend", choices=("auto", "native", "wasm"), default=None)
    gallery.set_defaults(run=_gallery)

    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except RuntimeError as exc:  # e.g. GraphvizNotFoundError for .png without Graphviz
        print(f"viz {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
