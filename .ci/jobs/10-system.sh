# System packages: Chromium (browser tests), Graphviz (the native path), make, Python's venv.
job_system() {
    if [ "$(id -u)" -eq 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        run "apt-get update" apt-get update -q
        # fonts-liberation2: what Graphviz recommends, so text is measured with a real font.
        run "apt-get install" apt-get install -y -q --no-install-recommends \
            chromium graphviz make python3 python3-venv fonts-liberation2 ca-certificates
    else
        notice "not root: skipping apt-get; chromium, graphviz, make and python3-venv must already be installed"
    fi
    local tool
    for tool in chromium dot make python3; do
        printf '%-9s %s\n' "$tool" "$(command -v "$tool" || echo MISSING)"
    done
    printf 'python3   %s\n' "$(python3 -V 2>&1)"
}
ci_job system "apt: Chromium, Graphviz, make, python3-venv" job_system 900
