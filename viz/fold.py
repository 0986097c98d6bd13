"""Fold repeated structure so big graphs stay readable and lay out in time (pure functions).

A loop unrolled by autograd -- ``for _ in range(300): h = (h * w + 0.1).tanh()`` --
records the same few nodes 300 times, all fed by the one shared ``w``.  Drawn as is,
that is 900 boxes and a curtain of 300 edges from ``w`` (and minutes of Graphviz).
:func:`fold_loops` finds such runs and draws the loop body once:

- the body's nodes stand for every iteration (``NodeInfo.members``: the ids of the
  same node in each iteration, nearest the root first; role ``"repeated"``);
- the edge that carries ``h`` from one iteration to the next is drawn once, as a back
  edge (``EdgeInfo.back``) labelled with the number of hand-overs;
- edges from a shared input (``w``) into every iteration become one edge with
  ``EdgeInfo.count`` = 300 ("×300");
- :attr:`GraphSnapshot.folds` says which nodes form the body and how often it ran
  (the renderer draws a cluster "loop body ×300").

How a run is found (see NOTE [finding loops]): along the longest path from the roots
(the *spine*), the sequence of node signatures (kind, name, shape) is periodic where
a loop ran; each period is one iteration.  Nodes off the spine join the iteration of
their consumers (an iteration's private inputs), or stay outside when iterations share
them.  A run folds only if its iterations are truly identical: same nodes, same edges
inside, same hand-over edges.

Step ids stay valid: :func:`alias_map` maps every original id to the node drawn for it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from .model import EdgeInfo, FoldInfo, GraphSnapshot, NodeInfo

__all__ = ["fold_loops", "fold_note", "alias_map", "MIN_REPEATS", "MAX_PERIOD", "AUTO_FOLD_NODES"]

#: ``fold=None`` (automatic) folds loops in graphs with more nodes than this.
AUTO_FOLD_NODES = 150

#: A run folds from this many identical iterations on.
MIN_REPEATS = 3

#: The longest loop body looked for, in spine nodes.
MAX_PERIOD = 64

#: Edge kinds that rank the layout (the others are annotations).
_FLOW = ("next", "output", "dataflow", "input")


def _signature(node: NodeInfo) -> tuple[object, ...]:
    """What must agree for two nodes to be "the same node in another iteration"."""
    tensor = node.tensor
    shape = (tensor.shape, tensor.dtype, tensor.requires_grad) if tensor is not None else None
    roles = tuple(r for r in node.roles if r not in ("root",))
    return (node.kind, node.name, shape, roles, node.module, node.attrs)


@dataclass
class _Graph:
    """Adjacency of a snapshot: inputs (edge sources) and consumers (edge targets) per node."""

    snapshot: GraphSnapshot

    def __post_init__(self) -> None:
        self.order = {node.id: i for i, node in enumerate(self.snapshot.nodes)}
        self.inputs: dict[str, list[EdgeInfo]] = {n.id: [] for n in self.snapshot.nodes}
        self.consumers: dict[str, list[str]] = {n.id: [] for n in self.snapshot.nodes}
        for edge in self.snapshot.edges:
            if edge.kind in _FLOW and edge.source in self.order and edge.target in self.order:
                self.inputs[edge.target].append(edge)
                self.consumers[edge.source].append(edge.target)
        for edges in self.inputs.values():
            edges.sort(key=lambda e: (e.slot if e.slot is not None else -1, self.order[e.source]))

    def depths(self) -> dict[str, int]:
        """Longest-path distance from the roots (consumers before inputs; Kahn's order)."""
        waiting = {nid: len(c) for nid, c in self.consumers.items()}
        ready = [nid for nid, count in waiting.items() if count == 0]
        ready.sort(key=self.order.__getitem__, reverse=True)
        depth = dict.fromkeys(ready, 0)
        while ready:
            nid = ready.pop()
            for edge in self.inputs[nid]:
                source = edge.source
                depth[source] = max(depth.get(source, 0), depth[nid] + 1)
                waiting[source] -= 1
                if waiting[source] == 0:
                    ready.append(source)
        return depth

    def spine(self, depth: Mapping[str, int], among: set[str]) -> list[str]:
        """The longest path (root first) through the nodes ``among``."""
        inside = [nid for nid in among if nid in depth]
        if not inside:
            return []
        deepest = max(inside, key=lambda nid: (depth[nid], -self.order[nid]))
        path = [deepest]
        while True:
            here = path[-1]
            up = [c for c in self.consumers[here] if c in among and depth.get(c) == depth[here] - 1]
            if not up:
                break
            path.append(min(up, key=self.order.__getitem__))
        path.reverse()
        return path


def _best_run(codes: list[int], min_repeats: int, max_period: int) -> tuple[int, int, int] | None:
    """``(start, period, repeats)`` of the longest periodic stretch of ``codes``.

    NOTE [finding loops]: for each period ``p``, a stretch where ``codes[i] == codes[i + p]``
    holds for consecutive ``i`` covers ``len + p`` codes, i.e. ``(len + p) // p`` periods.
    The longest cover wins, the shorter period on ties (``p`` and ``2p`` both fit a loop).
    """
    best: tuple[int, int, int, int] | None = None  # (-covered, period, start, repeats)
    array = np.asarray(codes)
    n = len(codes)
    for period in range(1, min(max_period, n // min_repeats) + 1):
        same = np.concatenate(([0], (array[:-period] == array[period:]).astype(np.int8), [0]))
        edges = np.flatnonzero(np.diff(same))  # starts and ends of the stretches where codes repeat
        for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist()):
            repeats = (stop - start + period) // period
            if repeats >= min_repeats:
                candidate = (-(repeats * period), period, start, repeats)
                if best is None or candidate < best:
                    best = candidate
    if best is None:
        return None
    return best[2], best[1], best[3]


@dataclass
class _Run:
    """A folded loop: ``blocks[k]`` lists the node ids of iteration ``k`` (root side first),
    each in canonical order, so ``blocks[k][j]`` is "node ``j``" of that iteration."""

    blocks: list[list[str]]


def _assign(graph: _Graph, depth: Mapping[str, int], spine_blocks: list[list[str]],
            among: set[str], outside: set[str]) -> dict[str, int]:
    """Iteration index of every node of the run: spine nodes by their period, the rest by
    their consumers (a node whose consumers all sit in one iteration belongs to it).  The
    spine before and after the run (``outside``: what comes before the loop) never joins it."""
    block_of = {nid: k for k, ids in enumerate(spine_blocks) for nid in ids}
    spine = set(block_of)
    for nid in sorted(among, key=lambda n: (depth.get(n, 0), graph.order[n])):
        if nid in spine or nid in outside:
            continue
        blocks = {block_of.get(c, -1) for c in graph.consumers[nid]}
        if len(blocks) == 1 and -1 not in blocks:
            block_of[nid] = blocks.pop()
    return block_of


def _canonical(graph: _Graph, members: set[str], starts: list[str]) -> list[str]:
    """The nodes of one iteration in a fixed order: depth-first from its spine nodes, inputs by slot."""
    ordered: list[str] = []
    seen: set[str] = set()
    for start in starts:
        stack = [start]
        while stack:
            nid = stack.pop()
            if nid in seen or nid not in members:
                continue
            seen.add(nid)
            ordered.append(nid)
            stack.extend(e.source for e in reversed(graph.inputs[nid]))
    ordered += sorted(members - seen, key=graph.order.__getitem__)
    return ordered


def _block_shape(graph: _Graph, block: list[str], nxt: list[str] | None,
                 nodes: Mapping[str, NodeInfo]) -> tuple[object, ...]:
    """What must be equal between iterations: node signatures, inner edges, hand-over edges."""
    pos = {nid: j for j, nid in enumerate(block)}
    pos_next = {nid: j for j, nid in enumerate(nxt)} if nxt is not None else {}
    sigs = tuple(_signature(nodes[nid]) for nid in block)
    inner, carried = [], []
    for nid in block:
        for edge in graph.inputs[nid]:
            key = (edge.kind, -1 if edge.slot is None else edge.slot,
                   -1 if edge.input_nr is None else edge.input_nr, edge.label)
            if edge.source in pos:
                inner.append((pos[edge.source], pos[nid], *key))
            elif edge.source in pos_next:
                carried.append((pos_next[edge.source], pos[nid], *key))
    return sigs, tuple(sorted(inner)), tuple(sorted(carried)) if nxt is not None else None


def _find_run(graph: _Graph, depth: Mapping[str, int], among: set[str], nodes: Mapping[str, NodeInfo],
              min_repeats: int, max_period: int) -> tuple[_Run | None, list[str], int, int]:
    """The best loop on the spine through ``among``; also the spine and the run's span on it."""
    spine = graph.spine(depth, among)
    codes_of: dict[tuple[object, ...], int] = {}
    codes = [codes_of.setdefault(_signature(nodes[nid]), len(codes_of)) for nid in spine]
    found = _best_run(codes, min_repeats, max_period)
    if found is None:
        return None, spine, 0, 0
    start, period, repeats = found
    spine_blocks = [spine[start + k * period: start + (k + 1) * period] for k in range(repeats)]
    outside = set(spine[:start]) | set(spine[start + repeats * period:])
    block_of = _assign(graph, depth, spine_blocks, among, outside)
    sets: list[set[str]] = [set() for _ in spine_blocks]
    for nid, k in block_of.items():
        sets[k].add(nid)
    blocks = [_canonical(graph, sets[k], spine_blocks[k]) for k in range(repeats)]
    # Iterations must match a middle one (the first and last may differ: the loop's entry and exit).
    shapes = [_block_shape(graph, blocks[k], blocks[k + 1] if k + 1 < repeats else None, nodes)
              for k in range(repeats)]
    ref = (repeats - 1) // 2
    for k in (0, repeats - 1):  # the entry's extra inputs (h0, a constant) stay outside the loop
        surplus = len(blocks[k]) - len(blocks[ref])
        if shapes[k][:2] == shapes[ref][:2] or not 0 < surplus <= 2:
            continue
        sources = [nid for nid in blocks[k] if not graph.inputs[nid]]
        for extra in itertools.combinations(sources, surplus):
            trimmed = [nid for nid in blocks[k] if nid not in extra]
            shape = _block_shape(graph, trimmed, blocks[k + 1] if k + 1 < repeats else None, nodes)
            if shape[:2] == shapes[ref][:2]:
                blocks[k], shapes[k] = trimmed, shape
                if k > 0:
                    shapes[k - 1] = _block_shape(graph, blocks[k - 1], blocks[k], nodes)
                break
    same = [shape[:2] == shapes[ref][:2] for shape in shapes]
    hands_over = [shapes[k][2] == shapes[ref][2] for k in range(repeats - 1)]  # block k+1 -> block k
    lo = hi = ref
    while lo > 0 and same[lo - 1] and hands_over[lo - 1]:
        lo -= 1
    while hi + 1 < repeats and same[hi + 1] and hands_over[hi]:
        hi += 1
    kept = blocks[lo:hi + 1]
    span = (start + lo * period, start + (hi + 1) * period)
    if len(kept) < min_repeats:
        return None, spine, span[0], span[1]
    return _Run(kept), spine, span[0], span[1]


def fold_loops(snapshot: GraphSnapshot, min_repeats: int = MIN_REPEATS,
               max_period: int = MAX_PERIOD) -> GraphSnapshot:
    """Draw every loop body of ``snapshot`` once (see the module docstring).

    Parameters
    ----------
    snapshot : GraphSnapshot
    min_repeats : int
        Fewer identical iterations than this stay drawn in full.
    max_period : int
        The largest loop body looked for (nodes along the longest path).

    Returns
    -------
    GraphSnapshot
        The same snapshot when nothing repeats; otherwise one with ``folds``.

    Examples
    --------
    >>> from viz.model import EdgeInfo, GraphSnapshot, NodeInfo
    >>> nodes = [NodeInfo(f"n{i}", "fn", "TanhBackward0") for i in range(5)]
    >>> edges = [EdgeInfo(f"e{i}", f"n{i + 1}", f"n{i}", slot=0, input_nr=0) for i in range(4)]
    >>> folded = fold_loops(GraphSnapshot(tuple(nodes), tuple(edges), roots=("n0",)))
    >>> [(n.id, n.members) for n in folded.nodes]
    [('n0', ('n0', 'n1', 'n2', 'n3', 'n4'))]
    >>> folded.folds[0].count, [(e.source, e.target, e.back, e.count) for e in folded.edges]
    (5, [('n0', 'n0', True, 4)])
    """
    graph = _Graph(snapshot)
    depth = graph.depths()
    nodes = {node.id: node for node in snapshot.nodes}
    runs: list[_Run] = []
    among = set(nodes)
    while len(among) >= min_repeats:  # one loop after another (e.g. two loops in a row)
        run, _spine, _lo, _hi = _find_run(graph, depth, among, nodes, min_repeats, max_period)
        if run is None:
            break
        runs.append(run)
        among -= {nid for block in run.blocks for nid in block}
    if not runs:
        return snapshot
    return _apply(snapshot, graph, runs)


def _apply(snapshot: GraphSnapshot, graph: _Graph, runs: list[_Run]) -> GraphSnapshot:
    """Keep the first iteration of each run (nearest the root) and redirect everything to it."""
    alias: dict[str, str] = {}
    block_index: dict[str, tuple[int, int]] = {}  # id -> (run, iteration)
    members: dict[str, list[str]] = {}
    folds = list(snapshot.folds)
    for r, run in enumerate(runs):
        rep = run.blocks[0]
        for k, block in enumerate(run.blocks):
            for j, nid in enumerate(block):
                alias[nid] = rep[j]
                block_index[nid] = (r, k)
                members.setdefault(rep[j], []).append(nid)
        count = len(run.blocks)
        folds.append(FoldInfo(id=f"f{len(folds)}", nodes=tuple(rep), count=count,
                              label=f"loop body ×{count}"))
    nodes = []
    for node in snapshot.nodes:
        if node.id not in alias:
            nodes.append(node)
        elif alias[node.id] == node.id:
            roles = node.roles if "repeated" in node.roles else (*node.roles, "repeated")
            nodes.append(replace(node, members=tuple(members[node.id]), roles=roles))
    edges: list[EdgeInfo] = []
    grouped: dict[tuple[object, ...], int] = {}
    for edge in snapshot.edges:
        if edge.source not in alias and edge.target not in alias:
            edges.append(edge)
            continue
        source, target = alias.get(edge.source, edge.source), alias.get(edge.target, edge.target)
        src_at, tgt_at = block_index.get(edge.source), block_index.get(edge.target)
        same_run = src_at is not None and tgt_at is not None and src_at[0] == tgt_at[0]
        if same_run and src_at == tgt_at:
            if src_at is not None and src_at[1] == 0:  # inside the drawn iteration
                edges.append(edge)
            continue
        back = same_run  # from one iteration into the next: the loop's hand-over
        key = (source, target, edge.kind, edge.slot if back else None, edge.label, back)
        if key in grouped:
            i = grouped[key]
            edges[i] = replace(edges[i], count=edges[i].count + edge.count)
            continue
        grouped[key] = len(edges)
        edges.append(replace(edge, source=source, target=target, back=back))
    roots = tuple(alias.get(r, r) for r in snapshot.roots)
    return replace(snapshot, nodes=tuple(nodes), edges=tuple(edges), roots=roots, folds=tuple(folds))


def fold_note(before: int, folds: tuple[FoldInfo, ...], automatic: bool = True) -> str:
    """The caption saying what was folded, and how to see every node.

    Examples
    --------
    >>> fold_note(902, (FoldInfo("f0", ("n1",), 300),))
    '902 nodes: a loop body repeated ×300 is drawn once (fold=False draws every node)'
    """
    loops = ", ".join(f"×{f.count}" for f in folds)
    what = "a loop body repeated" if len(folds) == 1 else "loop bodies repeated"
    how = "fold=False draws every node" if automatic else "fold=False to draw every node"
    return f"{before} nodes: {what} {loops} {'is' if len(folds) == 1 else 'are'} drawn once ({how})"


def alias_map(snapshot: GraphSnapshot) -> dict[str, str]:
    """Original node id -> the id drawn for it in a folded snapshot (identity elsewhere).

    Examples
    --------
    >>> snap = GraphSnapshot(nodes=(NodeInfo("n0", "fn", "A", members=("n0", "n3")),), edges=())
    >>> alias_map(snap)
    {'n0': 'n0', 'n3': 'n0'}
    """
    alias = {}
    for node in snapshot.nodes:
        alias[node.id] = node.id
        if node.kind != "module":
            for member in node.members:
                alias[member] = node.id
    return alias
