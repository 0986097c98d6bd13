"""Build the course as a static web site: read it from ``file://``, with no Python and no network.

    python notebooks/tools/site.py                        # -> site/ (what `make site` runs)
    python notebooks/tools/site.py -o /tmp/site --only 02_chain_rule
    python notebooks/tools/site.py --edition teacher      # with the solutions (for the teacher only)

Each notebook is executed (nbclient, a fresh kernel) and converted to HTML (nbconvert) with its
outputs: every graph is inline SVG, every plot an embedded PNG, and every backward stepper becomes
the offline HTML stepper (``Stepper.save_html``) in its own file, embedded with an ``<iframe>`` —
the same player as in JupyterLab, keys and buttons included, without a kernel. The live graph
(``viz.live``), which needs a kernel, is replaced by a note. Nothing on a page is loaded from the
network: the build removes nbconvert's CDN scripts (MathJax, require.js) and checks the result.
Formulas are rendered at build time instead: each ``$...$`` / ``$$...$$`` of a markdown cell becomes
MathML (``latex2mathml``, in the ``notebooks`` extra), which the browser typesets itself -- no script,
no web font, nothing fetched. Without latex2mathml a page keeps the TeX source (and the build says so).

The site also holds the teacher pack's worksheets, slide frames and offline stepper
(``teacher/``, without the answer key; ``--no-teacher-pack`` leaves them out).

By default the site is built from the **learner edition** (``make learner``'s rules: exercises
open, no answers), so it can be given to a class. Each language folder of the course becomes a
language of the site: ``notebooks/`` is English, ``notebooks/zh/`` (when it exists) Chinese.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TIMEOUT = 300

#: (folder code, source folder, language name, html lang) -- a translated edition appears by existing.
LANGUAGES = [("en", NOTEBOOKS, "English", "en"), ("zh", NOTEBOOKS / "zh", "中文", "zh")]

#: Run in the kernel before the notebook: steppers and the live graph render as static HTML.
SITE_PRELUDE = r'''
import itertools as _it, os as _os
import viz.stepper as _vs
from IPython.display import display as _display

_assets = _os.environ["COURSE_SITE_ASSETS"]
_prefix = _os.environ["COURSE_SITE_PREFIX"]
_count = _it.count(1)


def _static_stepper(self, include=None, exclude=None):
    name = f"stepper-{next(_count)}.html"
    self.save_html(_os.path.join(_assets, name), title="backward stepper")
    tall = 640 if len(self.steps) < 40 else 720
    return {"text/html": f'<iframe class="course-stepper" src="{_prefix}/{name}" title="backward stepper" '
                         f'style="width: 100%; height: {tall}px; border: 1px solid #ccc; border-radius: 4px">'
                         '</iframe>',
            "text/plain": repr(self)}


_vs.Stepper._repr_mimebundle_ = _static_stepper
_vs.Stepper._ipython_display_ = lambda self: _display(_static_stepper(self), raw=True)

def _static_live(self, include=None, exclude=None):
    return {"text/html": '<p class="course-note"><em>(The live graph redraws itself as you run the '
                         'cells in JupyterLab; this static page cannot. The graphs below show the same '
                         'steps.)</em></p>', "text/plain": "live graph"}


import importlib as _il

for _module in ("viz.live_graph", "viz.widget"):          # where LiveGraphWidget lives, by viz version
    try:
        _cls = getattr(_il.import_module(_module), "LiveGraphWidget", None)
    except ImportError:
        _cls = None
    if _cls is not None:
        _cls._repr_mimebundle_ = _static_live
        _cls._ipython_display_ = lambda self: _display(_static_live(self), raw=True)
'''

STYLE = """
body { max-width: 1100px; margin: 0 auto; padding: 0 1.2em 3em;
       font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; }
nav.course { padding: .6em 0; border-bottom: 1px solid #ddd; margin-bottom: 1em; font-size: 14px; }
nav.course a { margin-right: 1em; }
table.course-index td { padding: .2em .8em .2em 0; vertical-align: top; }
.course-note { color: #555; }
"""


@dataclass
class Page:
    language: str
    name: str
    title: str
    html_path: Path
    steppers: int
    seconds: float


def _load_learner():
    spec = importlib.util.spec_from_file_location("course_learner_tool", Path(__file__).with_name("learner.py"))
    if spec is None or spec.loader is None:
        raise ImportError("notebooks/tools/learner.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _title(notebook) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "notebook"


EXTERNAL = re.compile(r"""<(script|link)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?//[^>]*>(\s*</script>)?""", re.I)


def _offline(page: str) -> str:
    """The page without anything it would fetch from the network (nbconvert's CDN scripts)."""
    page = EXTERNAL.sub("", page)
    # nbconvert's mermaid loader imports from a CDN when a page has diagrams; ours have none
    page = re.sub(r"<script\b[^>]*>(?:(?!</script>).)*?import\(\s*[\"']https?://.*?</script>", "", page, flags=re.S)
    if re.search(r"""import\(\s*["']https?://""", page):
        raise RuntimeError("the page still imports a module from the network")
    leftovers = re.findall(r"""\b(?:src|href)\s*=\s*["']?(?:https?:)?//[^"' >]+""", page)
    # links the reader may click are fine; anything loaded automatically is not
    loaded = [m for m in leftovers if not m.lower().startswith("href")]
    if loaded:
        raise RuntimeError(f"the page still loads from the network: {loaded[:3]}")
    return page


#: A rendered markdown cell (nbconvert's lab template); the TeX inside it is still ``$...$``.
_MARKDOWN_CELL = re.compile(r'(<div class="[^"]*\bjp-RenderedMarkdown\b[^"]*"[^>]*>)(.*?)(</div>)', re.S)
#: Inside a markdown cell, what is not prose: code spans and blocks keep their dollars.
_NOT_PROSE = re.compile(r"(<(code|pre|script|style)\b.*?</\2>)", re.S | re.I)
#: $$display$$, or $inline$ (no space just inside the dollars, no digit after: "$5 and $6" stays text).
_TEX = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?=\S)([^$\n]+?)(?<=\S)\$(?!\d)", re.S)
MATH_STYLE = """
math { font-family: "DejaVu Math TeX Gyre", "STIX Two Math", "Latin Modern Math", "Cambria Math", math;
       font-size: 1.1em; }
math[display="block"] { margin: .8em 0; }
"""


#: Chromium's MathML knows only mathvariant="normal": \mathbb R must be the character ℝ itself.
_DOUBLE_STRUCK = re.compile(r'<mi mathvariant="double-struck">([A-Za-z])</mi>')
_DOUBLE_STRUCK_HOLES = {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}


def _double_struck(letter: str) -> str:
    if letter in _DOUBLE_STRUCK_HOLES:
        return _DOUBLE_STRUCK_HOLES[letter]
    base = 0x1D538 if letter.isupper() else 0x1D552
    return chr(base + ord(letter.upper() if letter.isupper() else letter) - ord("A" if letter.isupper() else "a"))


def render_math(page: str) -> tuple[str, int]:
    """The page with the TeX of its markdown cells as MathML, and how many formulas were converted.

    nbconvert leaves the TeX for MathJax, which a page that may fetch nothing cannot load; MathML is
    typeset by the browser itself (Chromium 109+, Firefox, Safari). Each formula keeps its TeX source
    as an annotation (copy and paste, screen readers). Raises ImportError without latex2mathml.
    """
    from latex2mathml.converter import convert

    count = 0

    def formula(match: re.Match[str]) -> str:
        nonlocal count
        display = match.group(1) is not None
        tex = html.unescape(match.group(1) if display else match.group(2)).strip()
        mathml = convert(tex, display="block" if display else "inline")
        mathml = _DOUBLE_STRUCK.sub(lambda m: f"<mi>{_double_struck(m.group(1))}</mi>", mathml)
        annotation = f'<annotation encoding="application/x-tex">{html.escape(tex)}</annotation>'
        mathml = re.sub(r"(<math\b[^>]*>)(.*)(</math>)",
                        lambda m: f"{m.group(1)}<semantics>{m.group(2)}{annotation}</semantics>{m.group(3)}",
                        mathml, count=1, flags=re.S)
        count += 1
        return mathml

    def prose(text: str) -> str:
        parts = _NOT_PROSE.split(text)
        # split() with two groups: [prose, whole tag, tag name, prose, ...]
        return "".join(_TEX.sub(formula, part) if i % 3 == 0 else part
                       for i, part in enumerate(parts) if i % 3 != 2)

    page = _MARKDOWN_CELL.sub(lambda m: m.group(1) + prose(m.group(2)) + m.group(3), page)
    return page, count


#: The navigation bar's link back to the index, per language.
INDEX_LINK = {"en": "course index", "zh": "课程目录"}


def _nav(language: str, pages: list[tuple[str, str]], here: str, up: str) -> str:
    links = [f'<a href="{up}index.html">{INDEX_LINK.get(language, INDEX_LINK["en"])}</a>']
    for name, title in pages:
        label = html.escape(title.split("·")[0].strip() or name[:2])
        if name == here:
            links.append(f"<strong>{label}</strong>")
        else:
            links.append(f'<a href="{html.escape(name)}.html">{label}</a>')
    return f'<nav class="course" lang="{language}">' + " ".join(links) + "</nav>"


def build_language(code: str, source_dir: Path, out: Path, edition: str, only: list[str] | None,
                   quiet: bool = False) -> list[Page]:
    """Execute and convert one language's notebooks into ``out/<code>/``."""
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    sources = sorted(source_dir.glob("[0-9][0-9]_*.py"))
    if only:
        sources = [s for s in sources if any(s.stem.startswith(o) for o in only)]
    if not sources:
        return []
    target = out / code
    target.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"course-site-{code}-"))
    learner = _load_learner()
    if edition == "learner":
        learner.build(source_dir, work, force=True, quiet=True)
    else:
        import jupytext
        for source in sources:
            nbformat.write(jupytext.read(source), work / f"{source.stem}.ipynb")
        checks = source_dir / "course_checks.py"
        shutil.copyfile(checks if checks.exists() else NOTEBOOKS / "course_checks.py", work / "course_checks.py")

    exporter = HTMLExporter(template_name="lab")
    exporter.mathjax_url = ""
    titles = []
    notebooks = []
    for source in sources:
        notebook = nbformat.read(work / f"{source.stem}.ipynb", as_version=4)
        titles.append((source.stem, _title(notebook)))
        notebooks.append((source, notebook))
    pages = []
    warned_math = False
    for source, notebook in notebooks:
        assets = target / source.stem
        if assets.exists():
            shutil.rmtree(assets)
        assets.mkdir(parents=True)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        env["COURSE_SITE_ASSETS"] = str(assets)
        env["COURSE_SITE_PREFIX"] = source.stem
        env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        prelude = nbformat.v4.new_code_cell(SITE_PRELUDE)
        notebook.cells.insert(0, prelude)
        client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3", allow_errors=True,
                                         resources={"metadata": {"path": str(work)}})
        start = time.monotonic()
        client.execute(env=env)
        seconds = time.monotonic() - start
        notebook.cells.pop(0)
        notebook.metadata.pop("widgets", None)
        errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs
                  if o.output_type == "error" and o.ename != "CheckFailed"]
        if errors:
            raise RuntimeError(f"{source.name}: {errors[0].ename}: {errors[0].evalue}")
        for cell in notebook.cells:                       # widget views cannot render without a kernel
            for output in cell.get("outputs", []):
                output.get("data", {}).pop("application/vnd.jupyter.widget-view+json", None)
        body, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": _title(notebook)}})
        nav = _nav(code, titles, source.stem, "../")
        body = body.replace("<body", f"<body data-course-page=\"{source.stem}\"", 1)
        body = re.sub(r"(<body[^>]*>)", lambda m, nav=nav: m.group(1) + nav, body, count=1)
        body = body.replace("</head>", f"<style>{STYLE}{MATH_STYLE}</style>\n</head>", 1)
        try:
            body, _formulas = render_math(body)
        except ImportError:
            if not quiet and not warned_math:
                print("  (latex2mathml is not installed: formulas stay TeX source; "
                      "pip install -e '.[notebooks]')", flush=True)
            warned_math = True
        path = target / f"{source.stem}.html"
        path.write_text(_offline(body), encoding="utf-8")
        steppers = len(list(assets.glob("stepper-*.html")))
        if not steppers:
            assets.rmdir()
        pages.append(Page(code, source.stem, _title(notebook), path, steppers, seconds))
        if not quiet:
            print(f"  {code}/{source.stem}.html  {seconds:5.1f} s  {steppers} stepper(s)", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return pages


def write_index(out: Path, pages: list[Page], edition: str) -> Path:
    rows = []
    for code, _source, name, lang in LANGUAGES:
        mine = [p for p in pages if p.language == code]
        if not mine:
            continue
        rows.append(f'<h2 lang="{lang}">{html.escape(name)}</h2>\n<table class="course-index" lang="{lang}">')
        for page in mine:
            rows.append(f'<tr><td><a href="{code}/{page.name}.html">{html.escape(page.title)}</a></td>'
                        f"<td>{page.steppers} stepper(s)</td></tr>")
        rows.append("</table>")
    teacher = ""
    if (out / "teacher" / "index.html").exists():
        teacher = ('<p><a href="teacher/index.html">Worksheets and slides</a>: printable worksheets, '
                   "slide frames, an offline stepper.</p>")
    note = ("the learner edition: exercises are open" if edition == "learner"
            else "the teacher edition, with every solution")
    page = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>How autograd works: the course</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>How autograd works: the course</h1>\n"
            f"<p>The notebooks with their outputs ({note}). Every page works offline, from this folder: "
            "each backward stepper steps with its buttons or the arrow keys (click it first).</p>\n"
            + "\n".join(rows) + f"\n{teacher}\n</body>\n</html>\n")
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def write_teacher_pack(out: Path) -> Path:
    """The teacher pack's worksheet, slides and offline stepper under ``out/teacher/`` -- never the key."""
    spec = importlib.util.spec_from_file_location("course_teacher_pack", Path(__file__).with_name("teacher_pack.py"))
    if spec is None or spec.loader is None:
        raise ImportError("notebooks/tools/teacher_pack.py is missing")
    pack = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = pack
    spec.loader.exec_module(pack)
    folder = out / "teacher"
    written = pack.build(folder, quiet=True)
    (folder / "worksheet-key.html").unlink(missing_ok=True)
    links = [("worksheet.html", "Worksheets (print them: two pages)"),
             ("slides/index.html", "Slides: backward, step by step (→ / ←)"),
             ("chain_rule_stepper.html", "The chain-rule stepper (offline)")]
    links += [(name, f"{name} (the worksheet's graph as PDF)") for name in sorted(written) if name.endswith(".pdf")]
    items = "".join(f'<li><a href="{html.escape(href)}">{html.escape(text)}</a></li>' for href, text in links)
    page = folder / "index.html"
    page.write_text("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Teacher pack</title>"
                    f"<style>{STYLE}</style></head><body><nav class=\"course\"><a href=\"../index.html\">course "
                    f"index</a></nav><h1>Worksheets and slides</h1><ul>{items}</ul></body></html>\n",
                    encoding="utf-8")
    return page


def build(out: Path, edition: str = "learner", only: list[str] | None = None, quiet: bool = False,
          teacher_pack: bool = True) -> list[Page]:
    out.mkdir(parents=True, exist_ok=True)
    pages: list[Page] = []
    for code, source_dir, _name, _lang in LANGUAGES:
        if source_dir.is_dir():
            pages += build_language(code, source_dir, out, edition, only, quiet)
    if teacher_pack:
        write_teacher_pack(out)
    write_index(out, pages, edition)
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "site")
    parser.add_argument("--edition", choices=["learner", "teacher"], default="learner")
    parser.add_argument("--only", nargs="*", help="notebook name prefixes, e.g. 02 09_training")
    parser.add_argument("--no-teacher-pack", action="store_true", help="leave out the worksheets and slides")
    args = parser.parse_args(argv)
    start = time.monotonic()
    pages = build(args.output, args.edition, args.only, teacher_pack=not args.no_teacher_pack)
    print(f"course site: {len(pages)} pages in {time.monotonic() - start:.0f} s -> {args.output / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
