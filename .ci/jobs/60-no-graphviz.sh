# The path of a user with no system Graphviz: native Graphviz hidden from PATH,
# VIZ_GRAPHVIZ_BACKEND=wasm, viz and notebook tests and the gallery again.
job_no_graphviz() {
    local hidden
    hidden="$(hidden_graphviz_path)"
    if PATH="$hidden" command -v dot >/dev/null; then
        fail "could not hide dot: $(PATH="$hidden" command -v dot)"
        return
    fi
    bash ./dev setup viz notebooks @test >/dev/null || { fail "set-up of $VENV"; return; }
    echo "dot on the hidden PATH: none"
    local subset=() dir
    for dir in tests/viz tests/notebooks; do [ -d "$dir" ] && subset+=("$dir"); done
    if [ "${#subset[@]}" -eq 0 ]; then
        notice "neither tests/viz nor tests/notebooks exists yet; nothing to run"
    else
        run "pytest ${subset[*]} (Graphviz hidden)" \
            env PATH="$hidden" VIZ_GRAPHVIZ_BACKEND=wasm \
            timeout -k 30 1200 "$VENV/bin/python" -m pytest "${subset[@]}" -m "not torch"
    fi
    local gallery_dir svgs
    gallery_dir="$(mktemp -d "${TMPDIR:-/tmp}/gallery.XXXXXX")"
    run "make gallery (Graphviz hidden)" \
        env PATH="$hidden" VIZ_GRAPHVIZ_BACKEND=wasm timeout -k 30 600 bash ./dev gallery -o "$gallery_dir"
    svgs="$(find "$gallery_dir" -name '*.svg' | wc -l)"
    echo "gallery: $svgs SVG files in $gallery_dir"
    [ "$svgs" -gt 0 ] || fail "make gallery wrote no SVG"
}
ci_job no-graphviz "viz + notebook tests and the gallery with native Graphviz hidden (WebAssembly)" job_no_graphviz 1800
