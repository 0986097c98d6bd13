"""Sphinx configuration: the API reference of minigrad and viz, from their numpydoc docstrings.

Built by ``make docs`` (``./dev docs``) into ``docs/_build/html``, with warnings as errors;
CI runs the same.  Only the ``.rst`` files here are sources: the Markdown pages (architecture,
...) are read on GitHub and linked from the reference.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("VIZ_GRAPHVIZ_BACKEND", "auto")

import minigrad  # noqa: E402

project = "minigrad + viz"
author = "the minigrad + viz contributors"
copyright = "2026, the minigrad + viz contributors"
release = version = minigrad.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "numpydoc",
]
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "**/*.md", "img", "make_images.py"]
templates_path: list[str] = []

# autodoc: the public names (each module's __all__), in source order, with their signatures'
# type hints in the signature line rather than duplicated into the numpydoc parameter lists.
autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_inherit_docstrings = True
# numpydoc: no autosummary table of class members (autodoc lists them already).
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = False

# Cross-references that cannot resolve inside this reference (numpy's and Python's own types
# are fine as text; there is no network for intersphinx).
nitpicky = False

html_theme = "alabaster"
html_title = f"minigrad + viz {release}"
html_static_path: list[str] = []
html_theme_options = {"description": "PyTorch's autograd, readable; and a visualizer for its graphs",
                      "sidebar_collapse": True}
