job_docs() {
    run "make docs" timeout -k 30 1200 bash ./dev docs
    [ -f docs/_build/html/api/tensor.html ] || fail "make docs wrote no docs/_build/html/api/tensor.html"
}
ci_job docs "the API reference (Sphinx + numpydoc), warnings as errors" job_docs 1200
