# minigrad's tests on the oldest supported versions: the Python floor (requires-python) and the
# dependency floors pinned in requirements/oldest.txt (numpy; the viz extra's floors are not yet
# verified, so viz's tests are left out here until they are pinned there).
job_oldest() {
    local found version python
    found="$(find_python "$MIN_PYTHON" "$MIN_PYTHON")"
    if [ -z "$found" ]; then fail "no Python $MIN_PYTHON with venv found (requires-python's floor)"; return; fi
    read -r version python <<<"$found"
    echo "oldest Python: $version ($python)"
    MATRIX_TESTS=(tests/minigrad tests/nn tests/test_layering.py tests/test_packaging.py)
    matrix_tests .venv-oldest "$python" "Python $version, oldest dependencies" requirements/oldest.txt
    local numpy
    numpy="$(.venv-oldest/bin/python -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
    local want
    want="$(sed -n 's/^numpy==//p' requirements/oldest.txt)"
    [ "$numpy" = "$want" ] || fail "the oldest job ran numpy $numpy, not the floor $want"
}
ci_job oldest "minigrad's tests on the oldest Python and numpy (requirements/oldest.txt)" job_oldest 2400
