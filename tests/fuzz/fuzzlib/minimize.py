"""Delta debugging of a mismatching program.

``minimize(program, key)`` removes steps while the program still shows a difference with the same
root-cause key ``(category, op)``. Removing a step also removes every later step that uses a
name it defines (so the result always runs). The search is Zeller's ddmin over the step list
(drop one of n chunks; on success coarsen, else refine), then single steps until nothing more
can go. Each test runs the candidate under both libraries, a few milliseconds.
"""

from __future__ import annotations

from .compare import check


def without(steps: list[dict], drop: set[int]) -> list[dict]:
    """``steps`` less the indices in ``drop`` and everything that depends on them."""
    gone: set[str] = set()
    out = []
    for i, step in enumerate(steps):
        if i in drop or gone.intersection(step.get("uses", ())):
            gone.update(step.get("outs", ()))
            continue
        out.append(step)
    return out


def still_fails(program: dict, key: tuple[str, str], torch_module=None, minigrad_module=None) -> bool:
    try:
        diffs = check(program, torch_module, minigrad_module)
    except Exception:
        return False
    return any(d.key == key for d in diffs)


def minimize(program: dict, key: tuple[str, str], budget: int = 400, torch_module=None,
             minigrad_module=None, keep=None) -> dict:
    """The smallest program (by steps) found within ``budget`` runs that still shows ``key``.

    ``keep(program, diffs) -> bool``, when given, replaces "shows ``key``" as what must be preserved.
    """
    steps = list(program["steps"])
    runs = 0

    def test(candidate: list[dict]) -> bool:
        nonlocal runs
        runs += 1
        cand = {"seed": program.get("seed"), "steps": candidate}
        if keep is None:
            return still_fails(cand, key, torch_module, minigrad_module)
        try:
            return bool(keep(cand, check(cand, torch_module, minigrad_module)))
        except Exception:
            return False

    for _ in range(3):
        before = len(steps), sum(len(s.get("terms", ())) for s in steps)
        steps = _ddmin(steps, test, lambda: runs < budget)
        steps = _drop_terms(steps, test, lambda: runs < budget)
        if (len(steps), sum(len(s.get("terms", ())) for s in steps)) == before:
            break
    return {"seed": program.get("seed"), "steps": steps, "key": list(key)}


def _drop_terms(steps: list[dict], test, more) -> list[dict]:
    """Drop terms of a plan's loss (``loss = (t3 * c).sum() + t7.sum()``) while the difference stays."""
    for i, step in enumerate(steps):
        while len(step.get("terms", ())) > 1 and more():
            for j in range(len(step["terms"])):
                terms = step["terms"][:j] + step["terms"][j + 1:]
                roots = step["term_roots"][:j] + step["term_roots"][j + 1:]
                new = dict(step, terms=terms, term_roots=roots, uses=roots + step["leaves"],
                           code=step["template"].replace("{loss}", " + ".join(terms)))
                candidate = [*steps[:i], new, *steps[i + 1:]]
                if test(candidate):
                    steps = candidate
                    step = new
                    break
            else:
                break
    return steps


def _ddmin(steps: list[dict], test, more) -> list[dict]:
    n = 2
    while len(steps) >= 2 and more():
        size = -(-len(steps) // n)
        chunks = [set(range(i, min(i + size, len(steps)))) for i in range(0, len(steps), size)]
        for chunk in chunks:
            candidate = without(steps, chunk)
            if len(candidate) < len(steps) and test(candidate):
                steps = candidate
                n = max(n - 1, 2)
                break
        else:
            if n >= len(steps):
                break
            n = min(len(steps), 2 * n)
    changed = True
    while changed and more():
        changed = False
        for i in reversed(range(len(steps))):
            candidate = without(steps, {i})
            if len(candidate) < len(steps) and test(candidate):
                steps = candidate
                changed = True
                break
    return steps
