# float32 numbers must not depend on the CPU (issue 11: on an AVX-512 machine numpy's float32 log10
# printed log10(100) as 2.0000). This job runs the tests that compare printed or exact float32
# values again with the lowest kernels forced: numpy's baseline (every dispatched SIMD target off:
# NPY_DISABLE_CPU_FEATURES), glibc's SSE2 maths (no FMA: GLIBC_TUNABLES) and OpenBLAS's Prescott GEMM
# (OPENBLAS_CORETYPE). `make test` already compares every float32 op bit for bit across these
# settings (tests/minigrad/test_cpu_independence.py); here the minigrad, nn and viz suites (viz prints
# values into its graphs), the doctests and the parity cases must pass with them too.
job_kernels() {
    local extras=(viz notebooks @test)      # what `make test` installs: the set-up is already done
    if [ "${WITH_TORCH:-1}" != 0 ]; then extras+=(@torch); fi
    bash ./dev setup "${extras[@]}" >/dev/null || { fail "set-up of $VENV"; return; }
    local py="$VENV/bin/python" disabled
    disabled="$("$py" -c 'from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f
print(" ".join(x for x in d if f.get(x)))')"
    local -a lowest=(env NPY_DISABLE_CPU_FEATURES="$disabled" GLIBC_TUNABLES="glibc.cpu.hwcaps=-AVX2,-FMA,-AVX2_Usable,-FMA_Usable"
                     OPENBLAS_CORETYPE=Prescott)
    echo "lowest kernels: ${lowest[*]:1}"
    echo "numpy's dispatched targets with them: [$("${lowest[@]}" "$py" -c 'from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f
print(" ".join(x for x in d if f.get(x)))')] (empty: the baseline)"
    run "pytest tests/minigrad tests/nn tests/viz (lowest kernels)" "${lowest[@]}" timeout -k 30 1800 \
        "$py" -m pytest tests/minigrad tests/nn tests/viz -m "not browser" -q -p no:cacheprovider
    run "doctests (lowest kernels)" "${lowest[@]}" timeout -k 30 600 \
        "$py" -m pytest --doctest-modules minigrad -q -p no:cacheprovider
    local shared="${SHARED_PARITY:-../shared/parity}"
    if [ -f "$shared/run.py" ]; then
        run "shared parity (lowest kernels)" "${lowest[@]}" timeout -k 30 600 \
            "$py" "$shared/run.py" check --backend minigrad "$shared/cases" "$shared/expected"
        if compgen -G "tests/parity/cases/*.py" >/dev/null && [ -d tests/parity/expected ]; then
            run "project parity (lowest kernels)" "${lowest[@]}" timeout -k 30 600 \
                "$py" "$shared/run.py" check --backend minigrad tests/parity/cases tests/parity/expected
        fi
    else
        notice "$shared/run.py not found; skipping the shared parity cases"
    fi
}
ci_job kernels "minigrad's tests, doctests and parity with numpy's, glibc's and OpenBLAS's lowest CPU kernels" job_kernels 2400
