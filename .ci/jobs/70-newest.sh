# minigrad's and viz's tests on the newest Python this machine has (python3.X on PATH or
# pyenv's versions) with the newest numpy and viz dependencies: no lock (LOCK=0), a venv of
# its own. torch 2.13.0 has no wheel here for Pythons past 3.11, so the torch tests are left
# out (the full suite compares with torch in the `test` job).
job_newest() {
    local found version python
    found="$(find_python "$MIN_PYTHON")"
    if [ -z "$found" ]; then fail "no Python >= $MIN_PYTHON with venv found"; return; fi
    read -r version python <<<"$found"
    if [ "$version" = "$MIN_PYTHON" ]; then
        notice "no Python newer than $MIN_PYTHON on this machine (python3.X on PATH, ${PYENV_ROOT:-$HOME/.pyenv}/versions);" \
            "this job runs $python with the newest numpy only"
    fi
    echo "newest Python: $version ($python)"
    matrix_tests .venv-newest "$python" "Python $version, newest numpy"
}
ci_job newest "core + viz tests on the newest Python with the newest numpy" job_newest 2400
