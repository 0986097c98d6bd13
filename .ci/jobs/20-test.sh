# The README's test command, on the system Python (the floor, 3.11), from the lock, with torch
# 2.13.0: pytest over tests/ (browser and torch tests required under CI), the doctests and the
# parity harness.
job_test() {
    if command -v make >/dev/null; then
        run "make test" timeout -k 30 3000 make test
    else
        notice "make is missing; running the script behind it (bash dev test)"
        run "bash dev test" timeout -k 30 3000 bash ./dev test
    fi
}
ci_job test "make test: the full suite on the system Python, torch 2.13.0, locked versions" job_test 3000
