job_typecheck() {
    run "make typecheck" timeout -k 30 1200 bash ./dev typecheck
}
ci_job typecheck "mypy on minigrad and viz ([tool.mypy] in pyproject.toml); pyright --verifytypes >= 90 %" job_typecheck 1200
