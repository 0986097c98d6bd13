"""The one table of colours, shapes and fonts for every node kind, state and edge kind, per theme.

Rows of :data:`NODE_TABLE` / :data:`EDGE_TABLE` give Graphviz attributes for a
node kind (``"fn"``, ``"acc"``, ...) or a state role (``"root"``, ``"freed"``,
...); colours are written as ``{palette_key}`` and filled from the theme's
palette.  A node gets its kind's row, then each role's row in order, so a role
overrides its kind.  The same rows drive the legend.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["Theme", "THEMES", "NODE_TABLE", "EDGE_TABLE", "LEGEND_TEXT", "get_theme"]

#: Node kind (first six rows) and state role -> Graphviz attributes.
NODE_TABLE: Mapping[str, Mapping[str, str]] = {
    "fn": {"shape": "box", "style": "filled,rounded", "fillcolor": "{fn}"},
    "acc": {"shape": "record", "style": "filled", "fillcolor": "{leaf}"},
    "tensor": {"shape": "record", "style": "filled", "fillcolor": "{tensor}"},
    "op": {"shape": "ellipse", "style": "filled", "fillcolor": "{fn}"},
    "saved": {"shape": "record", "style": "filled", "fillcolor": "{saved}"},
    "module": {"shape": "box3d", "style": "filled", "fillcolor": "{module}"},
    "root": {"fillcolor": "{root}", "penwidth": "{thick}"},
    "leaf": {"fillcolor": "{leaf}"},
    "param": {"fillcolor": "{param}"},
    "no-grad": {"fillcolor": "{frozen}", "fontcolor": "{muted}"},
    "frozen": {"style": "filled,dashed", "fillcolor": "{frozen}", "fontcolor": "{muted}"},
    "unused": {"style": "filled,dashed"},
    "retains-grad": {"peripheries": "2"},
    "modified": {"color": "{warn}", "penwidth": "{thick}"},
    "freed": {"style": "filled,rounded,dashed", "color": "{error}", "fontcolor": "{muted}"},
    "stale": {"color": "{error}", "penwidth": "{thick}"},
    "derivative": {"fillcolor": "{derivative}"},
    "collapsed": {},
    "constant": {"style": "filled,dashed", "fillcolor": "{frozen}", "fontcolor": "{muted}",
                 "color": "{muted}", "margin": "0.04,0.02"},
    "repeated": {},
}

#: Edge kind -> Graphviz attributes (see NOTE [edge direction] in viz.model).
EDGE_TABLE: Mapping[str, Mapping[str, str]] = {
    "next": {},
    "output": {"color": "{root_edge}"},
    "dataflow": {},
    "saved": {"style": "dotted", "dir": "none", "color": "{saved_edge}"},
    "differentiates": {"style": "dashed", "color": "{derivative_edge}", "constraint": "false",
                       "arrowhead": "empty"},
    "cut": {"style": "dashed", "color": "{error}", "fontcolor": "{error}", "arrowhead": "tee"},
    "input": {"style": "dashed", "color": "{muted}", "fontcolor": "{muted}", "arrowhead": "onormal"},
}

#: What each kind / role / edge kind means, for the legend, in English (in legend order).
_LEGEND_EN: dict[str, str] = {
    "fn": "backward function\n(grad_fn)",
    "acc": "AccumulateGrad\n(leaf tensor)",
    "tensor": "tensor",
    "op": "operation",
    "saved": "saved for\nbackward",
    "module": "collapsed\nmodule",
    "root": "root\n(output)",
    "leaf": "leaf tensor",
    "param": "parameter",
    "no-grad": "requires_grad\n=False",
    "frozen": "frozen parameter\n(outside the graph)",
    "unused": "parameter\nnot reached",
    "retains-grad": "retains grad\n(double border)",
    "modified": "modified in place\n(version > 0)",
    "freed": "saved buffers freed\nby backward",
    "stale": "saved tensor\nmodified in place",
    "derivative": "built by backward\n(create_graph=True)",
    "constant": "input without grad\n(constant, detached)",
    "edge:differentiates": "dashed arrow:\ndifferentiates",
    "edge:saved": "dotted line:\nsaved by",
    "edge:cut": "✂ cut: detached\n(no gradient flows)",
}

_LEGEND_ZH: dict[str, str] = {
    "fn": "反向函数\n(grad_fn)",
    "acc": "AccumulateGrad\n（叶子节点）",
    "tensor": "张量",
    "op": "运算",
    "saved": "为反向传播\n保存的值",
    "module": "折叠的\n模块",
    "root": "根\n（输出）",
    "leaf": "叶子节点",
    "param": "参数",
    "no-grad": "requires_grad\n=False",
    "frozen": "冻结的参数\n（在计算图之外）",
    "unused": "未到达的\n参数",
    "retains-grad": "保留梯度\n（双边框）",
    "modified": "被原地操作修改\n（版本计数器 > 0）",
    "freed": "保存的张量\n已被 backward 释放",
    "stale": "保存的张量\n被原地修改",
    "derivative": "由 backward 构建\n(create_graph=True)",
    "constant": "不需要梯度的输入\n（常量，已 detach）",
    "edge:differentiates": "虚线箭头：\n求导",
    "edge:saved": "点线：\n被保存于",
    "edge:cut": "✂ 切断：detach\n（没有梯度流过）",
}


class _Legend(Mapping[str, str]):
    """The legend's texts in the language of :func:`viz.set_language` (keys and order fixed)."""

    def __getitem__(self, key: str) -> str:
        from .i18n import get_language

        table = _LEGEND_ZH if get_language() == "zh" else _LEGEND_EN
        return table.get(key, _LEGEND_EN[key])

    def __iter__(self) -> Iterator[str]:
        return iter(_LEGEND_EN)

    def __len__(self) -> int:
        return len(_LEGEND_EN)


#: What each kind / role / edge kind means, for the legend (in legend order; at most two
#: short lines, so the legend stays one small row under the graph), in the current language.
LEGEND_TEXT: Mapping[str, str] = _Legend()

_DEFAULT_PALETTE = {
    "fn": "#eeeeee", "leaf": "#add8e6", "param": "#9cc9f0", "tensor": "#ffffff",
    "root": "#caff70", "saved": "#ffcc80", "module": "#f2ead3", "frozen": "#dddddd",
    "derivative": "#f0d4f7", "warn": "#b35900", "error": "#cc0000", "muted": "#555555",
    "text": "#000000", "line": "#333333", "root_edge": "#333333", "saved_edge": "#b36b00",
    "derivative_edge": "#8e44ad", "cluster": "#f8f8f8", "cluster_line": "#999999",
    "background": "#ffffff", "thick": "2",
}

_PROJECTOR_PALETTE = {
    **_DEFAULT_PALETTE,
    "fn": "#ffffff", "leaf": "#5ec8ff", "param": "#35a7ff", "root": "#8cff1a",
    "saved": "#ffa31a", "module": "#ffe680", "frozen": "#bbbbbb", "derivative": "#ff8cff",
    "muted": "#222222", "line": "#000000", "root_edge": "#000000", "saved_edge": "#a35c00",
    "derivative_edge": "#7a00cc", "cluster": "#ffffff", "cluster_line": "#000000", "thick": "4",
}


@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity, for the style cache
class Theme:
    """Graphviz attributes for a whole picture.

    Parameters
    ----------
    name : str
    palette : mapping
        Colour (and width) values for the ``{key}`` placeholders of the tables.
    fontname : str
    fontsize : float
        Node font size; clusters and edges scale from it.
    penwidth : float
        Default line width.
    nodesep, ranksep : float
        Graphviz spacing, in inches.
    show_values : bool
        Whether tensor nodes list values and gradients (``False`` in compact mode).
    """

    name: str
    palette: Mapping[str, str] = field(default_factory=lambda: dict(_DEFAULT_PALETTE))
    fontname: str = "Helvetica"
    fontsize: float = 11.0
    penwidth: float = 1.0
    nodesep: float = 0.25
    ranksep: float = 0.4
    show_values: bool = True

    def graph_attrs(self) -> dict[str, str]:
        """Attributes of the whole graph."""
        return {"rankdir": "TB", "bgcolor": self.palette["background"],
                "fontname": self.fontname, "fontsize": _num(self.fontsize + 1),
                "nodesep": _num(self.nodesep), "ranksep": _num(self.ranksep)}

    def default_node_attrs(self) -> dict[str, str]:
        """Attributes every node starts from."""
        return {"fontname": self.fontname, "fontsize": _num(self.fontsize),
                "color": self.palette["line"], "fontcolor": self.palette["text"],
                "penwidth": _num(self.penwidth), "height": "0.2", "margin": "0.08,0.04"}

    def default_edge_attrs(self) -> dict[str, str]:
        """Attributes every edge starts from."""
        return {"color": self.palette["line"], "penwidth": _num(self.penwidth),
                "arrowsize": _num(0.6 + 0.2 * self.penwidth), "fontname": self.fontname,
                "fontsize": _num(self.fontsize - 1)}

    def cluster_attrs(self) -> dict[str, str]:
        """Attributes of a module cluster."""
        return {"style": "rounded,filled", "fillcolor": self.palette["cluster"],
                "color": self.palette["cluster_line"], "fontcolor": self.palette["muted"],
                "penwidth": _num(self.penwidth), "labeljust": "l", "labelloc": "t"}

    def legend_attrs(self) -> dict[str, str]:
        """Attributes of a legend sample box: a smaller font and tight margins."""
        return {"fontsize": _num(max(8.0, self.fontsize - 2)), "height": "0.1", "margin": "0.06,0.02"}

    def node_attrs(self, kind: str, roles: tuple[str, ...] = ()) -> dict[str, str]:
        """Attributes of a node: its kind's row, then each role's row."""
        return dict(_resolved(self, kind, roles))

    def edge_attrs(self, kind: str) -> dict[str, str]:
        """Attributes of an edge kind."""
        return {k: v.format_map(self.palette) for k, v in EDGE_TABLE.get(kind, {}).items()}


@lru_cache(maxsize=512)
def _resolved(theme: Theme, kind: str, roles: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    attrs: dict[str, str] = {}
    for row in (kind, *roles):
        for key, value in NODE_TABLE.get(row, {}).items():
            attrs[key] = value.format_map(theme.palette)
    return tuple(attrs.items())


def _num(value: float) -> str:
    """Format a number for DOT without float noise (``11.0`` -> ``"11"``)."""
    return f"{value:g}"


THEMES: Mapping[str, Theme] = {
    "default": Theme("default"),
    "projector": Theme("projector", palette=_PROJECTOR_PALETTE, fontsize=20.0, penwidth=2.0,
                       nodesep=0.35, ranksep=0.55),
    "compact": Theme("compact", fontsize=9.0, nodesep=0.12, ranksep=0.25, show_values=False),
}


def get_theme(theme: str | Theme) -> Theme:
    """Return a :class:`Theme` from its name (``"default"``, ``"projector"``, ``"compact"``).

    Examples
    --------
    >>> get_theme("projector").fontsize
    20.0
    >>> get_theme("default").node_attrs("acc", ("param",))["fillcolor"]
    '#9cc9f0'
    """
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; choose one of {sorted(THEMES)}") from None


#: The stepper's and live graph's display modes.
MODES = ("normal", "presentation", "compact")
#: The drawing theme used for each mode.
THEME_FOR_MODE = {"normal": "default", "presentation": "projector", "compact": "compact"}
