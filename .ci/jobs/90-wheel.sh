# The built wheel, installed into fresh venvs outside the checkout on the oldest and newest
# Python: `minigrad-viz --version` and an SVG render with no native Graphviz on PATH.
job_wheel() {
    local dist work hidden
    dist="$(mktemp -d "${TMPDIR:-/tmp}/dist.XXXXXX")"
    work="$(mktemp -d "${TMPDIR:-/tmp}/wheel-check.XXXXXX")"
    [ -x "$VENV/bin/python" ] || run "set-up of $VENV" bash ./dev setup
    run "build the wheel" timeout -k 30 600 "$VENV/bin/python" -m pip wheel --quiet --no-deps -w "$dist" .
    local wheel
    wheel="$(ls "$dist"/minigrad_viz-*.whl 2>/dev/null | head -n1)"
    [ -n "$wheel" ] || { fail "no wheel built"; return; }
    echo "wheel: ${wheel##*/}"
    run "wheel has LICENSE and THIRD_PARTY_NOTICES" "$VENV/bin/python" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
text = zipfile.ZipFile(sys.argv[1]).read(meta).decode()
assert "License-Expression: BSD-3-Clause" in text, "no License-Expression"
for f in ("LICENSE", "THIRD_PARTY_NOTICES"):
    assert any(n.endswith("/licenses/" + f) for n in names), f
print("metadata:", [l for l in text.splitlines() if l.startswith(("License", "Requires-Python"))])
PY
    hidden="$(hidden_graphviz_path)"
    cat >"$work/prog.py" <<'PY'
import minigrad as torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x * x).sum()
PY
    local which found version python
    for which in oldest newest; do
        if [ "$which" = oldest ]; then found="$(find_python "$MIN_PYTHON" "$MIN_PYTHON")"; else found="$(find_python "$MIN_PYTHON")"; fi
        [ -n "$found" ] || { fail "no Python for the $which wheel check"; continue; }
        read -r version python <<<"$found"
        local venv="$work/venv-$version"
        rm -rf "$venv"
        run "venv ($version)" "$python" -m venv "$venv"
        run "pip install the wheel[viz] ($version)" timeout -k 30 900 "$venv/bin/python" -m pip install --quiet \
            --upgrade pip "$wheel[viz]"
        (
            cd "$work" || exit 1
            run "minigrad-viz --version ($version)" "$venv/bin/minigrad-viz" --version
            run "minigrad-viz render, no dot ($version)" env PATH="$venv/bin:$hidden" \
                "$venv/bin/minigrad-viz" render prog.py --var loss -o "loss-$version.svg"
            grep -q '<svg' "loss-$version.svg" 2>/dev/null || fail "no SVG written on $version"
            [ "${#JOB_FAILURES[@]}" -eq 0 ]
        ) || fail "the wheel on Python $version"
    done
}
ci_job wheel "the wheel in fresh venvs on the oldest and newest Python: --version, SVG without dot" job_wheel 1800
