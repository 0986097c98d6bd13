job_typecheck() {
    run "make typecheck" timeout -k 30 1200 bash ./dev typecheck
}
ci_job typecheck "pyright on minigrad and viz ([tool.pyright] in pyproject.toml)" job_typecheck 1200
