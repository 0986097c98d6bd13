job_lint() {
    run "make lint" timeout -k 30 600 bash ./dev lint
}
ci_job lint "ruff check (configured in pyproject.toml)" job_lint 600
