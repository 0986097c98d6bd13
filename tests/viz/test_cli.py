"""python -m viz: render a script's variable, and the gallery, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from viz.gallery import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
import minigrad as torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = (x * w).sum()
"""


def run_viz(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viz", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False, env={**os.environ, **(env or {})})


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "program.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


@pytest.mark.parametrize("view", ["autograd", "dataflow"])
def test_render_draws_the_named_variable(script: Path, tmp_path: Path, view: str) -> None:
    out = tmp_path / "loss.svg"
    done = run_viz("render", str(script), "--var", "loss", "-o", str(out), "--view", view,
                   "--show-saved", env={"VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 0, done.stderr
    svg = out.read_text(encoding="utf-8")
    assert 'id="n0"' in svg
    assert ">loss<" in svg
    assert ">x<" in svg
    assert ">w<" in svg


def test_render_writes_dot(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "loss.dot"
    assert run_viz("render", str(script), "--var", "loss", "-o", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8").startswith("digraph")


def test_render_reports_an_unknown_variable(script: Path, tmp_path: Path) -> None:
    done = run_viz("render", str(script), "--var", "nope", "-o", str(tmp_path / "o.svg"))
    assert done.returncode == 2
    assert "no tensor variable 'nope'" in done.stderr
    assert "loss, w, x" in done.stderr


def test_render_png_without_graphviz_says_how_to_install(script: Path, tmp_path: Path) -> None:
    done = run_viz("render", str(script), "--var", "loss", "-o", str(tmp_path / "o.png"),
                   env={"PATH": str(Path(sys.executable).parent)})
    assert done.returncode == 1
    assert "apt-get install graphviz" in done.stderr


def test_gallery_writes_every_example_and_an_index(tmp_path: Path) -> None:
    done = run_viz("gallery", "-o", str(tmp_path), env={"VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 0, done.stderr
    for name in EXAMPLES:
        assert (tmp_path / f"{name}.svg").read_text(encoding="utf-8").count("<svg") == 1
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert all(f'src="{name}.svg"' in index for name in EXAMPLES)


# ---------------------------------------------------------------- bad arguments: one line, exit 2

def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in this process; (exit status, stdout, stderr)."""
    from viz.__main__ import main

    try:
        status = main(args)
    except SystemExit as exc:  # argparse's own errors, --help, --version
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, err: str, *fragments: str) -> None:
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got:\n{err}"
    assert "Traceback" not in err
    assert "error:" in lines[0]
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize(
    ("output", "fragment"),
    [("out.txt", "unknown suffix '.txt'"), ("out", "no suffix"), ("-", "standard output"),
     ("missing-folder/out.svg", "does not exist")],
)
def test_bad_output_is_one_line(script: Path, tmp_path: Path, output: str, fragment: str,
                                capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", output], capsys)
    assert_one_line_error(status, err, fragment)
    assert not (tmp_path / "out").exists()


def test_output_that_is_a_folder(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", str(tmp_path)], capsys)
    assert_one_line_error(status, err)


def test_format_names_a_file_without_suffix(script: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "graph"
    status, stdout, err = run_main(["render", str(script), "--var", "loss", "-o", str(out), "--format", "dot"],
                                   capsys)
    assert status == 0, err
    assert out.read_text(encoding="utf-8").startswith("digraph")
    assert f"wrote {out}" in stdout


def test_format_disagreeing_with_the_suffix(script: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", str(tmp_path / "g.svg"),
                               "--format", "dot"], capsys)
    assert_one_line_error(status, err, "--format")


@pytest.mark.parametrize(
    "args",
    [["render"], ["render", "x.py"], ["render", "x.py", "--var", "loss"], ["bogus"], [],
     ["render", "x.py", "--var", "v", "-o", "o.svg", "--view", "sideways"],
     ["render", "x.py", "--var", "v", "-o", "o.svg", "--depth", "-1"],
     ["render", "x.py", "--var", "v", "-o", "o.svg", "--depth", "two"],
     ["render", "x.py", "--var", "v", "-o", "o.svg", "--format", "jpeg"],
     ["render", "x.py", "--var", "v", "-o", "o.svg", "--backend", "cairo"],
     ["gallery"], ["gallery", "-o", "d", "--format", "png"], ["--bogus"]],
)
def test_argparse_errors_are_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(args, capsys)
    assert_one_line_error(status, err, "--help")


def test_missing_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["render", str(tmp_path / "nope.py"), "--var", "x", "-o", str(tmp_path / "o.svg")],
                              capsys)
    assert_one_line_error(status, err, "no such script")


def test_bad_backend_variable(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIZ_GRAPHVIZ_BACKEND", "cairo")
    for args in (["render", str(script), "--var", "loss", "-o", str(tmp_path / "o.svg")],
                 ["gallery", "-o", str(tmp_path / "g")],
                 ["step", str(script), "--var", "loss", "-o", str(tmp_path / "o.html")]):
        status, _, err = run_main(args, capsys)
        assert_one_line_error(status, err, "VIZ_GRAPHVIZ_BACKEND", "'cairo'")
    assert not (tmp_path / "o.svg").exists()


def test_native_backend_without_dot(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", str(tmp_path / "o.svg"),
                               "--backend", "native"], capsys)
    assert_one_line_error(status, err, "--backend native", "`dot`", "--backend wasm")
    assert "save as .svg" not in err
    monkeypatch.setenv("VIZ_GRAPHVIZ_BACKEND", "native")
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", str(tmp_path / "o.svg")], capsys)
    assert_one_line_error(status, err, "VIZ_GRAPHVIZ_BACKEND=native")


def test_wasm_backend_cannot_write_png(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["render", str(script), "--var", "loss", "-o", str(tmp_path / "o.png"),
                               "--backend", "wasm"], capsys)
    assert_one_line_error(status, err, "PNG")


def test_gallery_into_a_file_or_a_missing_parent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for out in (tmp_path / "file", tmp_path / "no" / "such", "-"):
        status, _, err = run_main(["gallery", "-o", str(out)], capsys)
        assert_one_line_error(status, err)


def test_a_failing_script_shows_its_own_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import minigrad\nx = 1\nraise ValueError('boom in the script')\n", encoding="utf-8")
    done = run_viz("render", str(bad), "--var", "x", "-o", str(tmp_path / "o.svg"))
    assert done.returncode == 2
    assert "ValueError: boom in the script" in done.stderr
    assert "runpy" not in done.stderr
    assert "__main__.py" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("bad.py raised ValueError (traceback above)")


def test_render_runs_the_script_as_main(tmp_path: Path) -> None:
    prog = tmp_path / "main.py"
    prog.write_text(SCRIPT + "if __name__ == '__main__':\n    loss = loss * 2\n    print('ran as main')\n",
                    encoding="utf-8")
    done = run_viz("render", str(prog), "--var", "loss", "-o", str(tmp_path / "o.dot"))
    assert done.returncode == 0, done.stderr
    assert "ran as main" in done.stdout
    assert "MulBackward0" in (tmp_path / "o.dot").read_text(encoding="utf-8")


# ---------------------------------------------------------------- help, version, step, info

def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    for args in ([], ["render"], ["step"], ["gallery"], ["info"]):
        status, out, _ = run_main([*args, "--help"], capsys)
        assert status == 0
        assert "``" not in out
        assert ":class:" not in out
        assert ":func:" not in out
        assert out.startswith("usage: ")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import minigrad
    import viz

    status, out, _ = run_main(["--version"], capsys)
    assert status == 0
    assert out.strip() == f"minigrad-viz {minigrad.__version__}"
    assert viz.__version__ == minigrad.__version__


def test_step_writes_an_offline_page(script: Path, tmp_path: Path) -> None:
    out = tmp_path / "backward.html"
    done = run_viz("step", str(script), "--var", "loss", "-o", str(out), env={"VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html")
    assert "MulBackward0" in page


def test_step_wants_html(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["step", str(script), "--var", "loss", "-o", str(tmp_path / "o.svg")], capsys)
    assert_one_line_error(status, err, ".html")


def test_info(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(["info"], capsys)
    assert status == 0
    assert out.startswith("minigrad-viz ")
    assert "numpy" in out
    assert "dot" in out


def test_the_installed_command_is_declared() -> None:
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"minigrad-viz": "viz.__main__:main"}


def test_png_under_the_wasm_variable_needs_dot(script: Path, tmp_path: Path) -> None:
    # VIZ_GRAPHVIZ_BACKEND=wasm picks the layout for SVG; PNG still needs (and names) native Graphviz.
    done = run_viz("render", str(script), "--var", "loss", "-o", str(tmp_path / "o.png"),
                   env={"PATH": str(Path(sys.executable).parent), "VIZ_GRAPHVIZ_BACKEND": "wasm"})
    assert done.returncode == 1
    assert "apt-get install graphviz" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
