"""Command line: long fuzz runs, single programs, the CI expectations.

From the project root (``make fuzz`` runs the first)::

    PYTHONPATH=.:tests/fuzz python -m fuzzlib run -n 10000 --seed 1     # summary + reproducers
    PYTHONPATH=.:tests/fuzz python -m fuzzlib show --seed 1 --k 17      # one program, as a script
    PYTHONPATH=.:tests/fuzz python -m fuzzlib expect                    # rewrite the CI run's expectations

``run`` prints the number of mismatching programs by root cause ``(category, op)`` -- each
program counted once, under its first difference -- then minimises up to ``--per-key`` programs
of every root cause and writes them, as standalone scripts with PyTorch's and minigrad's results
in comments, to ``--out`` (default ``fuzz-out/``), plus ``summary.md`` there.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

from .compare import check
from .generate import generate
from .minimize import minimize
from .program import render

HERE = Path(__file__).resolve().parent.parent
EXPECTED = HERE / "expected_failures.json"
CI_SEED, CI_N = 0, 500


def program_id(seed: int, k: int) -> int:
    return seed * 1_000_003 + k


def reproducer(program: dict, diffs) -> str:
    lines = ["# fuzz reproducer (program %s): %s" % (program.get("seed"), diffs[0].key if diffs else "no difference")]
    for d in diffs[:3]:
        for ln in d.describe().splitlines():
            lines.append("# " + ln)
    return "\n".join(lines) + "\n" + render(program)


def run_many(seed: int, n: int, progress: bool = True):
    """Yield (k, program, diffs) for the n programs of ``seed``."""
    t0 = time.time()
    for k in range(n):
        program = generate(program_id(seed, k))
        try:
            diffs = check(program)
        except Exception as exc:
            from .compare import Diff
            diffs = [Diff("harness_error", type(exc).__name__, "harness", "", str(exc))]
        if progress and (k + 1) % 500 == 0:
            print("  %d programs, %.0f s" % (k + 1, time.time() - t0), file=sys.stderr, flush=True)
        yield k, program, diffs


def summary_table(results: list[tuple[int, list]], n: int) -> str:
    by_key = collections.Counter()
    by_cat = collections.Counter()
    anywhere = collections.Counter()
    failing = 0
    for _, diffs in results:
        if not diffs:
            continue
        failing += 1
        by_key[diffs[0].key] += 1
        by_cat[diffs[0].category] += 1
        for key in {d.key for d in diffs}:
            anywhere[key] += 1
    lines = ["**%d of %d programs mismatch (%.1f %%).**" % (failing, n, 100.0 * failing / max(n, 1)), "",
             "| category (first difference) | programs |", "|---|---:|"]
    lines += ["| %s | %d |" % (c, v) for c, v in by_cat.most_common()]
    lines += ["", "| root cause (category, op) | first difference | anywhere in program |", "|---|---:|---:|"]
    for key, v in sorted(anywhere.items(), key=lambda kv: (-by_key.get(kv[0], 0), -kv[1])):
        lines.append("| %s `%s` | %d | %d |" % (key[0], key[1], by_key.get(key, 0), v))
    return "\n".join(lines)


def cmd_run(args) -> int:
    t0 = time.time()
    results, examples = [], collections.defaultdict(list)
    for k, program, diffs in run_many(args.seed, args.n):
        results.append((k, diffs))
        if diffs and len(examples[diffs[0].key]) < args.per_key:
            examples[diffs[0].key].append(program)
    elapsed = time.time() - t0
    table = summary_table(results, args.n)
    print("\nfuzz: seed %d, %d programs, %.0f s\n" % (args.seed, args.n, elapsed))
    print(table)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if args.per_key:
        print("\nminimising up to %d program(s) per root cause into %s/ ..." % (args.per_key, out), flush=True)
        for key, programs in examples.items():
            for j, program in enumerate(programs):
                small = minimize(program, key, budget=args.budget)
                diffs = [d for d in check(small) if d.key == key] or check(small)
                name = "%s--%s--%d.py" % (key[0], key[1], j)
                (out / name).write_text(reproducer(small, diffs))
                (out / (name[:-3] + ".json")).write_text(json.dumps(small, indent=1))
                written.append((key, name, len(small["steps"])))
    report = ["# fuzz run: seed %d, %d programs (%.0f s)" % (args.seed, args.n, elapsed), "", table, ""]
    if written:
        report += ["## Minimised reproducers", ""] + ["- %s `%s`: %s (%d steps)" % (k[0], k[1], nm, s)
                                                      for k, nm, s in written]
    (out / "summary.md").write_text("\n".join(report) + "\n")
    print("\nwrote %s/summary.md and %d reproducer(s)" % (out, len(written)))
    return 0


def cmd_hits(args) -> int:
    from .listed import hits
    found = hits(run_many(args.seed, args.n))
    print("\nissue 11's listed bugs reached by %d programs of seed %d:\n" % (args.n, args.seed))
    print("| listed bug | programs | e.g. (python -m fuzzlib show --seed %d --k K --minimize) |" % args.seed)
    print("|---|---:|---|")
    for name, ks in found.items():
        print("| %s | %d | %s |" % (name, len(ks), ", ".join(map(str, ks[:3]))))
    return 0


REGRESSIONS = HERE / "regressions"


def cmd_regressions(args) -> int:
    """Mark regression cases whose root cause is gone as fixed; add new ones from a run's output folder."""
    added = 0
    if args.add:
        for f in sorted(Path(args.add).glob("*--0.json")):
            name = REGRESSIONS / f.name.replace("--0.json", ".json")
            case = json.loads(f.read_text())
            if name.exists() or len(case["steps"]) > args.max_steps:
                continue
            case["status"] = "open"
            name.write_text(json.dumps(case, indent=1, sort_keys=True) + "\n")
            added += 1
    counts = collections.Counter()
    for f in sorted(REGRESSIONS.glob("*.json")):
        case = json.loads(f.read_text())
        keys = {d.key for d in check(case)}
        status = "open" if tuple(case["key"]) in keys else "fixed"
        if case.get("status") == "fixed" and status == "open":
            print("REGRESSED: %s" % f.name)
        counts[status] += 1
        if status != case.get("status"):
            case["status"] = status
            f.write_text(json.dumps(case, indent=1, sort_keys=True) + "\n")
    print("regressions: %d added; %d open, %d fixed" % (added, counts["open"], counts["fixed"]))
    return 0


def cmd_show(args) -> int:
    program = generate(program_id(args.seed, args.k))
    diffs = check(program)
    if args.bug:
        from .listed import LISTED
        name = next(n for n in LISTED if args.bug.lower() in n.lower())
        program = minimize(program, diffs[0].key, budget=args.budget, keep=LISTED[name])
        diffs = check(program)
        print("# minimised to keep: %s" % name)
    elif args.minimize and diffs:
        program = minimize(program, diffs[0].key, budget=args.budget)
        diffs = check(program)
    print(reproducer(program, diffs))
    return 0


def expectations(seed: int = CI_SEED, n: int = CI_N) -> dict:
    """{program index: sorted root-cause keys} for the CI run's failing programs."""
    out = {}
    for k, _, diffs in run_many(seed, n, progress=False):
        if diffs:
            out[str(k)] = sorted({"%s:%s" % d.key for d in diffs})
    return out


def cmd_expect(args) -> int:
    data = {"seed": CI_SEED, "n": CI_N,
            "about": "Programs of the CI fuzz run that mismatch today, with their root causes. A program "
                     "failing with a cause not listed fails the test; rewrite with `python -m fuzzlib expect` "
                     "after a fix (the list must only shrink).",
            "failing": expectations()}
    EXPECTED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("wrote %s: %d of %d programs failing" % (EXPECTED, len(data["failing"]), CI_N))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzzlib", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run", help="fuzz N programs, print the summary, write minimised reproducers")
    p.add_argument("-n", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--per-key", type=int, default=2, help="programs to minimise per root cause")
    p.add_argument("--budget", type=int, default=300, help="runs per minimisation")
    p.add_argument("--out", default="fuzz-out")
    p.set_defaults(fn=cmd_run)
    p = sub.add_parser("show", help="print one program (minimised with --minimize)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--k", type=int, default=0)
    p.add_argument("--minimize", action="store_true")
    p.add_argument("--bug", help="minimise keeping this listed bug (a substring of its name in fuzzlib/listed.py)")
    p.add_argument("--budget", type=int, default=300)
    p.set_defaults(fn=cmd_show)
    p = sub.add_parser("hits", help="count the programs reaching each bug issue 11 lists")
    p.add_argument("-n", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(fn=cmd_hits)
    p = sub.add_parser("regressions", help="update the status of tests/fuzz/regressions/*.json (--add DIR: new ones)")
    p.add_argument("--add", help="a run's output folder (fuzz-out): add its first reproducer per root cause")
    p.add_argument("--max-steps", type=int, default=15)
    p.set_defaults(fn=cmd_regressions)
    p = sub.add_parser("expect", help="rewrite tests/fuzz/expected_failures.json from the CI run")
    p.set_defaults(fn=cmd_expect)
    args = parser.parse_args(argv)
    import warnings
    warnings.simplefilter("ignore")  # warnings are recorded per step by the interpreter
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
