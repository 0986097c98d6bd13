// Live graph widget: shows the latest SVG that Python drew of the growing graph.
//
// Python redraws (debounced: once per notebook cell that recorded operations, laid out in a
// thread) and sets the `svg` trait; this module only swaps the picture in, sanitised, and
// shows `status`.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Parse an SVG string safely: no scripts, no event handlers, no javascript: links. */
function parseSvg(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") return document.createElementNS(SVG_NS, "svg");
  svg.querySelectorAll("script, foreignObject").forEach((el) => el.remove());
  for (const el of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || (name.endsWith("href") && attr.value.trim().toLowerCase().startsWith("javascript:"))) {
        el.removeAttribute(attr.name);
      }
    }
  }
  return document.importNode(svg, true);
}

/** Hide the static picture displayed before this widget (viz.export.display_with_widget). */
function hideStatic(tag) {
  if (!tag) return;
  document.querySelectorAll(`.viz-static[data-viz-static="${CSS.escape(tag)}"]`).forEach((el) => { el.style.display = "none"; });
}

function render({ model, el }) {
  hideStatic(model.get("static_id"));
  // Python pauses while no view is shown (NOTE [one watcher per kernel] in viz/live_graph.py)
  model.send({ type: "view", attached: true });
  const root = document.createElement("div");
  root.className = "mg-stepper mg-live";
  const status = document.createElement("div");
  status.className = "mg-toolbar mg-counter";
  const pane = document.createElement("div");
  pane.className = "mg-graph";
  root.append(status, pane);
  el.appendChild(root);

  const draw = () => {
    const text = model.get("svg");
    pane.replaceChildren(...(text ? [parseSvg(text)] : []));
    const svg = pane.querySelector("svg");
    if (svg) svg.classList.add("mg-svg");
  };
  const showStatus = () => { status.textContent = model.get("status") || ""; };
  const showMode = () => {
    root.classList.remove("mg-mode-normal", "mg-mode-presentation", "mg-mode-compact");
    root.classList.add(`mg-mode-${model.get("mode") || "normal"}`);
  };
  model.on("change:svg", draw);
  model.on("change:status", showStatus);
  model.on("change:mode", showMode);
  draw();
  showStatus();
  showMode();
  return () => {
    model.off("change:svg", draw);
    model.off("change:status", showStatus);
    model.off("change:mode", showMode);
    root.remove();
    model.send({ type: "view", attached: false });
  };
}

export default { render };
