// Backward stepper: lays the graph out once (the SVG from Python), then each step only restyles it.
//
// One ES module, no build step. The core, `createStepper(el, model)`, needs a tiny
// model interface — `get(name)`, `set(name, value)`, `save_changes()`, `on(event, cb)`,
// `off(event, cb)` and optionally `send(msg)` — so anywidget's model (in Jupyter) and
// `createPlainModel(state)` (in the offline HTML export) both fit.
//
// State (model keys, mirrored by the Python traits of viz.widget.StepperWidget):
//   svg        the laid-out graph; node <g> ids are "n0", "n1", … (DOT ids)
//   steps      one item per executed node: {index, node_id, name, pass, grad_outputs,
//              grad_inputs, targets, is_accumulate, grad_before, grad_after, events}
//   graph      {nodes: {id: {name, label, learner, data, saved, details}}, roots, passes, formulas,
//              looks: the per-step look of every element, computed in Python (NOTE [per-step look]
//              in viz/stepper.py): {nodes: {id: [[k, classes]]}, edges: {id: [[k, classes, flow]]},
//              texts: {id: [[k, "grad: …"]]}}; an element shows its last entry with k ≤ the step}
//   step       how many steps have been applied (0 … steps.length); synced both ways
//   mode       "normal" | "presentation" | "compact";  theme: the drawing theme's name
//   error      text of the last failed backward ("" if none)
//   selected   id of the clicked node ("" if none);  inspect: {node_id, details} from Python
//   grad_flow  colour and thicken the edges by gradient magnitude
//   can_rerun  show the "backward again" button (only with a live kernel)
//   predict    predict mode: outgoing gradients stay hidden until typed in or revealed
//   strings    every text shown, in the chosen language (viz/i18n.py)
//
// Every user-provided string goes into the page with textContent, never innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";
const SPEEDS = [0.5, 1, 2, 4, 8];  // steps per second for "play"
const LABEL_AT = 0.35;  // where a gradient label sits along its edge (0: the input's end)
const WRITES_PER_FRAME = 200;  // elements restyled per animation frame (NOTE [incremental frames])
const MIN_FONT_PX = 11;  // normal mode: show the whole graph when its text stays at least this large
const PROJECTOR_FONT_PX = 22;
const WIDE_PX = 1200;
const NARROW_PX = 760;  // below this width the toolbar drops the speed menu and shortens its labels  // presentation mode: from this width on, the panel sits beside the graph  // presentation mode: the text at the running node is at least this large
const MAX_LISTED = 8;  // longer lists in the panel (freed nodes, leaves' grads) end in "… and N more"

// ---- model ------------------------------------------------------------------------------

/**
 * A plain in-page model with the same surface as anywidget's (for the offline HTML).
 * @param {object} state initial values
 * @returns {{get, set, save_changes, on, off, send}}
 */
export function createPlainModel(state) {
  const data = Object.assign({}, state);
  const listeners = new Map();
  const emit = (event) => (listeners.get(event) || []).slice().forEach((cb) => cb());
  return {
    get: (key) => data[key],
    set(key, value) {
      const old = data[key];
      data[key] = value;
      if (old !== value) emit(`change:${key}`);
    },
    save_changes() {},
    on(event, cb) {
      if (!listeners.has(event)) listeners.set(event, []);
      listeners.get(event).push(cb);
    },
    off(event, cb) {
      const list = listeners.get(event) || [];
      const i = list.indexOf(cb);
      if (i >= 0) list.splice(i, 1);
    },
    send() {},  // no kernel: nothing to talk to
  };
}

// ---- small DOM helpers --------------------------------------------------------------------

/** Create an element with a class and (escaped) text. */
function h(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined && text !== null) el.textContent = String(text);
  return el;
}

/** Parse an SVG string safely: no scripts, no event handlers, no javascript: links. */
export function parseSvg(svgText) {
  const doc = new DOMParser().parseFromString(svgText || "<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") return document.createElementNS(SVG_NS, "svg");
  svg.querySelectorAll("script, foreignObject").forEach((el) => el.remove());
  for (const el of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim().toLowerCase();
      if (name.startsWith("on") || (name.endsWith("href") && value.startsWith("javascript:"))) {
        el.removeAttribute(attr.name);
      }
    }
  }
  return document.importNode(svg, true);
}

/** "n3->n1" for an edge <g>, from its Graphviz <title> (ports stripped). */
function edgeKey(g) {
  const title = g.querySelector("title");
  if (!title) return null;
  const parts = title.textContent.split(/->|--/);
  if (parts.length !== 2) return null;
  const strip = (s) => s.trim().split(":")[0];
  return `${strip(parts[0])}->${strip(parts[1])}`;
}

/** `strings[key]` with `{name}` placeholders filled (the table comes from viz/i18n.py). */
function say(strings, key, vars) {
  let text = (strings && strings[key]) || key;
  for (const [name, value] of Object.entries(vars || {})) text = text.split(`{${name}}`).join(String(value));
  return text;
}

/** The line under the graph that says what the node outlines mean. */
function stateKey(S) {
  const key = h("div", "mg-key");
  for (const [cls, text] of [["mg-current", "key_current"], ["mg-waiting", "key_waiting"],
    ["mg-done", "key_done"], ["mg-pending", "key_pending"], ["mg-freed", "key_freed"]]) {
    const item = h("span", "mg-key-item");
    item.append(h("span", `mg-key-swatch ${cls}`), document.createTextNode(S(text)));
    key.appendChild(item);
  }
  return key;
}

/** Replace the children of `el` by `children`. */
function fill(el, ...children) {
  el.replaceChildren(...children.filter((c) => c));
  return el;
}

/** Append `value` to the list at `map[key]`. */
function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

// ---- the plan: the SVG's elements and their looks per step (computed in Python) -------------

/** The SVG's node groups by id, and its edge groups by id and by "tail->head". */
function indexSvg(svgEl) {
  const nodes = new Map();
  // ids are the graph's own (data-id: see uniqueIds), the page ids carry a per-stepper prefix
  const own = (g) => g.getAttribute("data-id") || g.id;
  svgEl.querySelectorAll("g.node[id]").forEach((g) => nodes.set(own(g), g));
  const edgeById = new Map();
  const edgesByEnds = new Map();
  svgEl.querySelectorAll("g.edge").forEach((g) => {
    if (g.id) edgeById.set(own(g), g);
    const key = edgeKey(g);
    if (key) push(edgesByEnds, key, g);
  });
  return { nodes, edgeById, edgesByEnds };
}

/** Per step, the gradients it sends: [{slot, target node id, edge <g>, grad}]. */
function stepFlows(steps, svg) {
  return steps.map((step) => {
    const seen = new Map();  // without ids: the k-th flow to the same target takes the k-th parallel edge
    return (step.targets || []).map((target, slot) => {
      if (!target) return null;
      const rank = seen.get(target) || 0;
      seen.set(target, rank + 1);
      const list = svg.edgesByEnds.get(`${target}->${step.node_id}`) || [];
      const edge = svg.edgeById.get((step.edges || [])[slot]) || list[Math.min(rank, list.length - 1)] || null;
      return { slot, target, edge, grad: (step.grad_inputs || [])[slot] || null };
    }).filter((f) => f);
  });
}

/** Label anchors at LABEL_AT of each edge that carries a gradient, measured once. */
function labelAnchors(flows) {
  const anchors = new Map();
  flows.flat().forEach((f) => {
    if (!f.edge || anchors.has(f.edge)) return;
    const path = f.edge.querySelector("path");
    try {
      const p = path.getPointAtLength(path.getTotalLength() * LABEL_AT);
      anchors.set(f.edge, { x: p.x, y: p.y });
    } catch (e) {
      anchors.set(f.edge, null);
    }
  });
  return anchors;
}

// NOTE [incremental frames]: Python decides the look of every element at every frame (NOTE
// [per-step look] in viz/stepper.py) and sends it as per-element histories: [[k, look], ...],
// an element showing its last entry with k ≤ the frame.  So from frame k0 to k1 only the
// elements with an entry between them can change: a jump costs what it changes, and the
// browser restyles only those elements.  This file never decides a look, it only writes it.

/**
 * The plan: every element whose look changes ("slots") with its history from Python, and per
 * frame the slots that change there, so going from frame k0 to k1 only visits what changes
 * in between (NOTE [incremental frames]).  Runs once per (svg, steps, graph).
 */
function makePlan(svgEl, steps, graph) {
  const svg = indexSvg(svgEl);
  const flows = stepFlows(steps, svg);
  const passes = (graph.passes && graph.passes.length) ? graph.passes : [{ start: 0, stop: steps.length, released: [] }];
  const passOf = steps.map((s, i) => Math.max(0, passes.findIndex((q) => i >= q.start && i < q.stop)));
  const looks = graph.looks || { nodes: {}, edges: {}, texts: {} };
  const slots = [];
  const changesAt = Array.from({ length: steps.length + 1 }, () => []);
  const add = (slot) => {
    slot.history.forEach((entry) => { if (entry[0] <= steps.length) changesAt[entry[0]].push(slot); });
    slot.order = slot.history.length ? slot.history[0][0] : steps.length;
    slots.push(slot);
    return slot;
  };
  const nodeSlots = new Map();
  Object.entries(looks.nodes || {}).forEach(([id, history]) => {
    const el = svg.nodes.get(id);
    if (el) nodeSlots.set(id, add({ type: "node", id, el, history }));
  });
  svg.nodes.forEach((el, id) => { if (!nodeSlots.has(id)) nodeSlots.set(id, { type: "node", id, el, history: [], order: steps.length }); });
  Object.entries(looks.edges || {}).forEach(([id, history]) => {
    const el = svg.edgeById.get(id);
    if (el) add({ type: "edge", id, el, history });
  });
  Object.entries(looks.texts || {}).forEach(([id, history]) => {
    const g = svg.nodes.get(id);
    const el = g && Array.from(g.querySelectorAll("text")).find((t) => t.textContent.startsWith("grad:"));
    if (el) add({ type: "text", id, el, history, original: el.textContent });
  });
  return { nodes: svg.nodes, nodeSlots, flows, passes, passOf, slots, changesAt, middles: labelAnchors(flows),
           total: steps.length };
}

/** The pass shown at frame k (k steps applied). */
function passAt(plan, k) {
  return k > 0 ? plan.passOf[k - 1] : 0;
}

/** A slot's history entry in force at frame k (null: as drawn). */
function entryAt(slot, k) {
  let found = null;
  for (const entry of slot.history) {
    if (entry[0] > k) break;
    found = entry;
  }
  return found;
}

/** The slots whose look may differ between frames k0 and k1 (all of them when k0 is null). */
function changedSlots(plan, k0, k1) {
  if (k0 === null) return new Set(plan.slots);
  const lo = Math.min(k0, k1), hi = Math.max(k0, k1);
  const out = new Set();
  for (let k = lo + 1; k <= hi; k++) plan.changesAt[k].forEach((s) => out.add(s));
  return out;
}

// ---- numbers: predict-mode checks and heatmaps ------------------------------------------------

/** Numbers typed by a learner: "−2", "[1, -2.5]", "1 2" (null if not numbers). */
export function parseNumbers(text) {
  const cleaned = String(text || "").replace(/[−–]/g, "-").replace(/[[\]()]/g, " ").trim();
  if (!cleaned) return null;
  const parts = cleaned.split(/[\s,;]+/).filter((p) => p);
  const values = parts.map(Number);
  return values.every((v) => Number.isFinite(v)) ? values : null;
}

/** Compare a guess with the true values: "right", "sign", "count" or "wrong" (tolerance: 1e-3 + 1%). */
export function checkGuess(guess, truth) {
  if (guess.length !== truth.length) return "count";
  const close = (a, b) => Math.abs(a - b) <= 1e-3 + 1e-2 * Math.abs(b);
  if (guess.every((g, i) => close(g, truth[i]))) return "right";
  if (truth.some((t) => t !== 0) && guess.every((g, i) => close(-g, truth[i]))) return "sign";
  return "wrong";
}

function heatColour(v, scale) {
  const t = scale > 0 ? Math.max(-1, Math.min(1, v / scale)) : 0;
  const [r, g, b] = t >= 0 ? [255, Math.round(255 - 170 * t), Math.round(255 - 200 * t)]
    : [Math.round(255 + 200 * t), Math.round(255 + 120 * t), 255];
  return `rgb(${r},${g},${b})`;
}

// ---- the stepper ------------------------------------------------------------------------

/**
 * Mount a stepper in `el`, driven by `model`.
 * @param {HTMLElement} el
 * @param {object} model anywidget model or createPlainModel(...)
 * @param {{globalKeys?: boolean}} options globalKeys: also listen to keys on the document
 * @returns {() => void} cleanup function
 */
export function createStepper(el, model, options = {}) {
  const S = (key, vars) => say(model.get("strings"), key, vars);
  const root = h("div", "mg-stepper");
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: our keys are ours
  root.setAttribute("role", "application");
  root.setAttribute("aria-label", S("aria_stepper"));

  // toolbar (one row: short labels, the slider takes what is left)
  const toolbar = h("div", "mg-toolbar");
  const button = (label, title, cls) => {
    const b = h("button", cls, label);
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", title);
    return b;
  };
  const firstBtn = button("|◀", S("first"), "mg-first");
  const prevBtn = button("◀", S("previous"), "mg-prev");
  const playBtn = button(S("play"), S("play_title"), "mg-play");
  const nextBtn = button("▶", S("next"), "mg-next");
  const lastBtn = button("▶|", S("last"), "mg-last");
  const slider = h("input", "mg-slider");
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  slider.setAttribute("aria-label", S("slider"));
  const speed = h("select", "mg-speed");
  speed.title = S("speed");
  SPEEDS.forEach((s) => {
    const o = h("option", null, `${s}×/s`);
    o.value = String(s);
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  });
  const counter = h("span", "mg-counter");
  const rerunBtn = button(S("rerun"), S("rerun_title"), "mg-rerun");
  const fitBtn = button(S("fit"), S("fit_title"), "mg-fit");
  const panelBtn = button(S("panel"), S("panel_title"), "mg-panel-toggle");
  toolbar.append(firstBtn, prevBtn, playBtn, nextBtn, lastBtn, slider, speed, counter, fitBtn, panelBtn, rerunBtn);

  const body = h("div", "mg-body");
  const graphPane = h("div", "mg-graph");
  const inspector = h("div", "mg-inspector");
  inspector.hidden = true;
  const graphWrap = h("div", "mg-graph-wrap");
  graphWrap.append(graphPane, inspector);
  const panel = h("div", "mg-panel");
  panel.setAttribute("aria-live", "polite");
  body.append(graphWrap, panel);
  root.append(toolbar, body, stateKey(S));
  el.appendChild(root);

  let svgEl = null;
  let labels = null;  // <g> holding the gradient labels of the current step
  let plan = null;
  let timer = null;
  // predict mode: "step:slot" -> {state: "right" | "wrong" | "revealed", guess, tries}
  const predictions = new Map();

  const steps = () => model.get("steps") || [];
  const graph = () => model.get("graph") || {};
  const total = () => steps().length;
  const clamp = (k) => Math.max(0, Math.min(total(), k | 0));

  function setStep(k) {
    k = clamp(k);
    if (k === model.get("step")) return;
    model.set("step", k);
    model.save_changes();
  }

  // -- painting: only the elements whose look changed (NOTE [incremental frames]) ------------
  // The looks come from Python (graph.looks); this code only writes them.  A big jump on a big
  // graph changes many elements; the nearest to the current step are written at once and the
  // rest in the next animation frames, WRITES_PER_FRAME at a time.  `data-settled` on the root
  // says when all are written.
  const applied = new Map();  // slot -> the look written into the page
  let queue = [];
  let shownK = null;
  let frameId = null;
  let shownSelected = "";

  function lookOf(slot, k) {
    const entry = entryAt(slot, k);
    if (slot.type === "text") return entry ? entry[1] : slot.original;
    const selected = slot.type === "node" && slot.id === model.get("selected") ? " mg-selected" : "";
    if (slot.type === "node") return `${entry ? entry[1] : ""}${selected}`.trim();
    return `${entry ? entry[1] : ""}|${entry && model.get("grad_flow") ? entry[2] || "" : ""}`;
  }

  const initialLook = (slot) => (slot.type === "text" ? slot.original : slot.type === "edge" ? "|" : "");

  function write(slot, look) {
    if (slot.base === undefined && slot.type !== "text") slot.base = slot.el.getAttribute("class") || "";
    if (slot.type === "text") {
      slot.el.textContent = look;
    } else if (slot.type === "node") {
      slot.el.setAttribute("class", look ? `${slot.base} ${look}` : slot.base);
    } else {
      const [cls, flow] = look.split("|");
      slot.el.setAttribute("class", cls ? `${slot.base} ${cls}` : slot.base);
      styleFlow(slot.el, flow);
    }
    applied.set(slot, look);
  }

  /** How far from frame k the nearest change of a slot is (the running node's is 0: written first). */
  function distance(slot, k) {
    let best = plan.total + 1;
    for (const entry of slot.history) best = Math.min(best, Math.abs(entry[0] - k));
    return best;
  }

  function paint(k, extra = []) {
    const candidates = changedSlots(plan, shownK, k);
    queue.forEach(({ slot }) => candidates.add(slot));
    extra.forEach((slot) => slot && candidates.add(slot));
    queue = [];
    candidates.forEach((slot) => {
      const look = lookOf(slot, k);
      const now = applied.has(slot) ? applied.get(slot) : initialLook(slot);
      if (look !== now) queue.push({ slot, look, far: distance(slot, k) });
    });
    queue.sort((a, b) => a.far - b.far);
    shownK = k;
    drain(false);
  }

  function drain(fromFrame) {
    if (fromFrame) frameId = null;
    queue.splice(0, WRITES_PER_FRAME).forEach(({ slot, look }) => write(slot, look));
    root.dataset.settled = queue.length ? "false" : "true";
    if (queue.length && frameId === null) frameId = requestAnimationFrame(() => drain(true));
  }

  root.mgFlush = () => { drain(false); return queue.length; };  // benchmarks: write the next batch now

  function resetPaint() {
    applied.clear();
    queue = [];
    shownK = null;
    if (frameId !== null) cancelAnimationFrame(frameId);
    frameId = null;
  }

  /** An edge's grad_flow look from Python ("colour|width"), or "" to clear it. */
  function styleFlow(edge, flow) {
    const path = edge.querySelector("path");
    const head = edge.querySelector("polygon");
    const [colour, width] = (flow || "").split("|");
    for (const e of [path, head]) {
      if (!e) continue;
      if (flow) e.style.setProperty("stroke", colour); else e.style.removeProperty("stroke");
    }
    if (path) { if (flow) path.style.setProperty("stroke-width", `${width}px`); else path.style.removeProperty("stroke-width"); }
    if (head) { if (flow) head.style.setProperty("fill", colour); else head.style.removeProperty("fill"); }
  }

  // -- the camera: the SVG's viewBox, zoomed to the running node --------------------------------
  // NOTE [camera]: the graph pane shows a window (viewBox) of the laid-out graph.  In normal mode
  // the whole graph when its text stays readable (MIN_FONT_PX), in presentation mode the running
  // node and the nodes it feeds with the text at least PROJECTOR_FONT_PX on screen; each step
  // re-centres on the running node.  Wheel (with Ctrl, or once the stepper has focus) zooms,
  // drag pans, "fit" goes back to the automatic view.
  let full = null;       // the whole graph's viewBox
  let view = null;       // the current viewBox {x, y, w, h}
  let zoom = 1;          // screen px per SVG unit
  let manualZoom = null; // zoom chosen with the wheel (null: automatic)
  let panned = false;    // moved by hand since the last step

  function fontUnits() {
    const text = svgEl && svgEl.querySelector("g.node text");
    return Number(text && text.getAttribute("font-size")) || 14;
  }

  function presentation() { return model.get("mode") === "presentation"; }

  /** A node's box in SVG units (the viewBox's coordinates); measured once per node (the layout
   *  never changes), so following the running node costs no forced layout per step. */
  const boxes = new Map();
  function nodeBox(id) {
    if (!boxes.has(id)) boxes.set(id, measureBox(id));
    return boxes.get(id);
  }
  function measureBox(id) {
    const g = plan && plan.nodes.get(id);
    if (!g || !g.getBBox) return null;
    const b = g.getBBox();
    const m = svgEl.getScreenCTM && g.getScreenCTM && svgEl.getScreenCTM() && g.getScreenCTM()
      ? svgEl.getScreenCTM().inverse().multiply(g.getScreenCTM()) : null;
    if (!m) return { x: b.x, y: b.y, w: b.width, h: b.height };
    const p = (x, y) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f });
    const a = p(b.x, b.y), c = p(b.x + b.width, b.y + b.height);
    return { x: Math.min(a.x, c.x), y: Math.min(a.y, c.y), w: Math.abs(c.x - a.x), h: Math.abs(c.y - a.y) };
  }

  function setView(v) {
    view = v;
    svgEl.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  /** Size the pane and point the camera at `focus` (node ids: the running node first). */
  function camera(focus) {
    if (!svgEl || !full) return;
    const width = graphPane.clientWidth;
    if (!width) return;  // not laid out yet: the ResizeObserver calls again
    const pres = presentation();
    const beside = !pres || root.classList.contains("mg-wide") || root.classList.contains("mg-panel-hidden");
    const maxHeight = pres ? Math.max(260, window.innerHeight * (beside ? 0.8 : 0.6)) : Math.min(720, window.innerHeight * 0.8);
    const fitZoom = Math.min(width / full.w, maxHeight / full.h);
    const readable = (pres ? PROJECTOR_FONT_PX : MIN_FONT_PX) / fontUnits();
    const auto = fitZoom >= readable ? Math.min(fitZoom, pres ? 2.5 : 4 / 3) : readable;
    zoom = manualZoom || auto;
    const whole = zoom <= fitZoom + 1e-9;
    const height = Math.max(120, Math.min(maxHeight, full.h * zoom));
    if (svgEl.style.width !== `${width}px`) svgEl.style.width = `${width}px`;
    if (svgEl.style.height !== `${height}px`) svgEl.style.height = `${height}px`;
    const w = width / zoom, hh = height / zoom;
    let cx = full.x + full.w / 2, cy = full.y + full.h / 2;
    if (!whole) {
      const near = focus.map(nodeBox).filter((b) => b);
      if (near.length) {
        let x0 = Math.min(...near.map((b) => b.x)), y0 = Math.min(...near.map((b) => b.y));
        let x1 = Math.max(...near.map((b) => b.x + b.w)), y1 = Math.max(...near.map((b) => b.y + b.h));
        if (x1 - x0 > w * 0.9 || y1 - y0 > hh * 0.9) {  // the neighbourhood does not fit: the node itself
          [x0, y0, x1, y1] = [near[0].x, near[0].y, near[0].x + near[0].w, near[0].y + near[0].h];
        }
        cx = (x0 + x1) / 2;
        cy = (y0 + y1) / 2;
      }
      // stay inside the picture where it is larger than the window, centre it where it is not
      cx = full.w > w ? Math.max(full.x + w / 2, Math.min(full.x + full.w - w / 2, cx)) : full.x + full.w / 2;
      cy = full.h > hh ? Math.max(full.y + hh / 2, Math.min(full.y + full.h - hh / 2, cy)) : full.y + full.h / 2;
    }
    setView({ x: cx - w / 2, y: cy - hh / 2, w, h: hh });
    root.dataset.zoom = zoom.toFixed(3);
  }

  function focusIds(k) {
    const all = steps();
    if (k === 0) return (graph().roots || []).slice(0, 1);
    const step = all[k - 1];
    return [step.node_id, ...(step.targets || []).filter((t) => t)];
  }

  let paneWidth = 0;
  const resizes = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    // presentation on a wide screen (≥ WIDE_PX): the panel beside the graph, else below it
    const wide = root.clientWidth >= WIDE_PX;
    if (wide !== root.classList.contains("mg-wide")) root.classList.toggle("mg-wide", wide);
    // a narrow output area (JupyterLab with its side bar on a 1024 px projector): a shorter toolbar
    const narrow = root.clientWidth < NARROW_PX;
    if (narrow !== root.classList.contains("mg-narrow")) root.classList.toggle("mg-narrow", narrow);
    if (graphPane.clientWidth !== paneWidth) {
      paneWidth = graphPane.clientWidth;
      camera(focusIds(clamp(model.get("step") || 0)));
    }
  });
  if (resizes) { resizes.observe(graphPane); resizes.observe(root); }

  // wheel zoom (around the pointer) and drag to pan
  graphPane.addEventListener("wheel", (ev) => {
    if (!view || !(ev.ctrlKey || ev.metaKey || root.contains(document.activeElement))) return;
    ev.preventDefault();
    const rect = svgEl.getBoundingClientRect();
    const factor = Math.exp(-ev.deltaY * 0.0015);
    const px = view.x + ((ev.clientX - rect.left) / rect.width) * view.w;
    const py = view.y + ((ev.clientY - rect.top) / rect.height) * view.h;
    zoom = Math.max(0.05, Math.min(20, zoom * factor));
    manualZoom = zoom;
    const w = rect.width / zoom, hh = rect.height / zoom;
    setView({ x: px - ((ev.clientX - rect.left) / rect.width) * w, y: py - ((ev.clientY - rect.top) / rect.height) * hh, w, h: hh });
    root.dataset.zoom = zoom.toFixed(3);
  }, { passive: false });
  let drag = null, dragged = false;
  graphPane.addEventListener("pointerdown", (ev) => {
    if (!view || ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, view: { ...view } };
    dragged = false;
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 4) return;
    dragged = true;
    panned = true;
    setView({ ...drag.view, x: drag.view.x - dx / zoom, y: drag.view.y - dy / zoom });
  });
  window.addEventListener("pointerup", () => { drag = null; });

  // -- build: once per svg / steps / graph --------------------------------------------------
  function build() {
    svgEl = parseSvg(model.get("svg"));
    svgEl.classList.add("mg-svg");
    if (presentation()) svgEl.classList.add("mg-presentation");
    uniqueIds(svgEl);
    labels = document.createElementNS(SVG_NS, "g");
    labels.setAttribute("class", "mg-grad-labels");
    (svgEl.querySelector("g.graph") || svgEl).appendChild(labels);
    const box = svgEl.viewBox && svgEl.viewBox.baseVal;
    full = box && box.width ? { x: box.x, y: box.y, w: box.width, h: box.height } : null;
    svgEl.removeAttribute("width");
    svgEl.removeAttribute("height");
    svgEl.setAttribute("preserveAspectRatio", "xMidYMid meet");
    fill(graphPane, svgEl);
    plan = makePlan(svgEl, steps(), graph());
    boxes.clear();
    learnerTitles();
    resetPaint();
    plan.nodes.forEach((g, id) => g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (dragged) return;
      model.set("selected", model.get("selected") === id ? "" : id);
      model.save_changes();
    }));
    slider.max = String(total());
    manualZoom = null;
    apply();
  }

  /** Tooltips (SVG <title>) in the learner's words: "MulBackward0 (e)", "a → MulBackward0 (e)";
   *  Graphviz writes the internal ids there ("n2", "n3->n1"). */
  function learnerTitles() {
    plan.nodes.forEach((g, id) => {
      const title = g.querySelector(":scope > title");
      if (title) title.textContent = nodeLabel(id);
    });
    svgEl.querySelectorAll("g.edge").forEach((g) => {
      const title = g.querySelector(":scope > title");
      const key = edgeKey(g);
      if (!title || !key) return;
      const [tail, head] = key.split("->");
      title.textContent = `${nodeLabel(tail)} → ${nodeLabel(head)}`;
    });
    const top = svgEl.querySelector(":scope > g > title");
    if (top) top.textContent = S("aria_stepper");
  }

  /** Element ids unique on the page: a second stepper (or diagram) of the same graph has the
   *  same Graphviz ids, so ours get a per-stepper prefix; `data-id` keeps the graph's id. */
  function uniqueIds(svg) {
    const prefix = `mg${Math.random().toString(36).slice(2, 8)}-`;
    svg.querySelectorAll("[id]").forEach((e) => {
      e.setAttribute("data-id", e.id);
      e.id = prefix + e.id;
    });
    svg.dataset.prefix = prefix;
  }

  // -- apply: per step, the changed looks, the labels, the panel and the camera ----------------
  function apply(extra = []) {
    if (!plan) return;
    const all = steps();
    const k = clamp(model.get("step") || 0);
    const pass = plan.passes[passAt(plan, k)] || { start: 0, stop: all.length, released: [] };
    const current = k > 0 ? all[k - 1] : null;
    paint(k, extra);
    drawLabels(current ? plan.flows[k - 1] : [], k);
    slider.value = String(k);
    counter.textContent = S("counter", { k, n: all.length });
    firstBtn.disabled = prevBtn.disabled = k === 0;
    nextBtn.disabled = lastBtn.disabled = k >= all.length;
    root.dataset.step = String(k);
    root.dataset.current = current ? current.node_id : "";
    renderPanel(k, current, pass);
    renderInspector(k);
    if (shownCameraK !== k || !view) {
      shownCameraK = k;
      panned = false;
      camera(focusIds(k));
    }
  }
  let shownCameraK = null;

  /** The selection changed: repaint the node that lost it and the one that got it. */
  function onSelected() {
    if (!plan) return;
    const selected = model.get("selected") || "";
    const extra = [plan.nodeSlots.get(shownSelected), plan.nodeSlots.get(selected)];
    shownSelected = selected;
    apply(extra);
  }

  // -- predict mode ---------------------------------------------------------------------------
  const predictKey = (k, slot) => `${k}:${slot}`;
  const predicting = () => !!model.get("predict");
  /** Whether the gradient step k sends through `slot` is shown yet. */
  function shown(k, slot) {
    if (!predicting()) return true;
    const step = steps()[k - 1];
    const grad = step && (step.grad_inputs || [])[slot];
    if (!grad || !grad.values || !(step.chain_rule || [])[slot]) return true;  // nothing to type (or too big)
    const p = predictions.get(predictKey(k, slot));
    return !!p && (p.state === "right" || p.state === "revealed");
  }

  function score() {
    let right = 0, revealed = 0;
    predictions.forEach((p) => { if (p.state === "right") right += 1; else if (p.state === "revealed") revealed += 1; });
    let asked = 0;
    steps().forEach((step, i) => (step.grad_inputs || []).forEach((g, slot) => {
      if (g && g.values && (step.chain_rule || [])[slot]) asked += 1;
    }));
    return { right, revealed, asked };
  }

  function predictRow(k, slot, line, grad) {
    const box = h("div", "mg-predict");
    const key = predictKey(k, slot);
    const p = predictions.get(key) || { state: "", guess: "", tries: 0 };
    const lhs = line.split(" = ")[0];
    box.appendChild(h("span", "mg-chain mg-lhs", `${lhs} = `));
    const input = h("input", "mg-guess");
    input.type = "text";
    input.placeholder = S("predict_prompt");
    input.value = p.guess || "";
    input.setAttribute("aria-label", `${S("predict_prompt")}: ${lhs}`);
    const check = button(S("check"), S("check"), "mg-check");
    const reveal = button(S("reveal"), S("reveal"), "mg-reveal");
    const feedback = h("div", "mg-feedback");
    if (p.feedback) {
      feedback.textContent = p.feedback;
      feedback.classList.add("mg-wrong");
    }
    const submit = () => {
      const guess = parseNumbers(input.value);
      const entry = { ...p, guess: input.value, tries: p.tries + 1 };
      if (!guess) {
        entry.feedback = S("not_a_number");
        entry.tries = p.tries;
      } else {
        const verdict = checkGuess(guess, grad.values);
        if (verdict === "right") {
          entry.state = "right";
          entry.feedback = S("right", { value: grad.plain || grad.text });
        } else {
          entry.state = "wrong";
          entry.feedback = verdict === "sign" ? S("wrong_sign", { guess: input.value })
            : verdict === "count" ? S("wrong_count", { n: grad.values.length, m: guess.length })
              : S("wrong", { guess: input.value });
        }
      }
      predictions.set(key, entry);
      apply();
      const again = panel.querySelector(`input.mg-guess[data-key="${key}"]`);
      if (again) again.focus();
      else root.focus({ preventScroll: true });
    };
    input.dataset.key = key;
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); ev.stopPropagation(); submit(); }
    });
    check.addEventListener("click", submit);
    reveal.addEventListener("click", () => {
      predictions.set(key, { ...p, state: "revealed", feedback: "" });
      apply();
      root.focus({ preventScroll: true });
    });
    box.append(input, check, reveal, feedback);
    return box;
  }

  // -- labels on the edges ----------------------------------------------------------------------
  function drawLabels(flows, k) {
    labels.replaceChildren();
    const big = presentation();
    const charWidth = big ? 10.5 : 7.2;
    const height = big ? 21 : 15;
    const placed = [];
    for (const f of flows) {
      if (!f.edge || !f.grad) continue;
      const point = plan.middles.get(f.edge);
      if (!point) continue;
      const label = shown(k, f.slot) ? (f.grad.short || f.grad.text) : "?";
      const box = { x: point.x + 3, y: point.y + 4 - height * 0.8, w: charWidth * label.length + 8, h: height };
      for (let moved = true; moved;) {
        moved = false;
        for (const other of placed) {
          const overlaps = box.x < other.x + other.w && other.x < box.x + box.w
            && box.y < other.y + other.h && other.y < box.y + box.h;
          if (overlaps) {
            box.x = other.x + other.w + 3;
            moved = true;
          }
        }
      }
      placed.push(box);
      const group = document.createElementNS(SVG_NS, "g");
      group.setAttribute("class", "mg-grad-label");
      group.setAttribute("data-slot", String(f.slot));
      group.setAttribute("data-target", f.target);
      const rect = document.createElementNS(SVG_NS, "rect");
      rect.setAttribute("x", String(box.x));
      rect.setAttribute("y", String(box.y));
      rect.setAttribute("width", String(box.w));
      rect.setAttribute("height", String(box.h));
      rect.setAttribute("rx", "3");
      const text = document.createElementNS(SVG_NS, "text");
      text.textContent = label;
      text.setAttribute("x", String(box.x + 4));
      text.setAttribute("y", String(box.y + box.h * 0.78));
      group.append(rect, text);
      labels.appendChild(group);
    }
  }

  // -- the side panel -----------------------------------------------------------------------
  function heatmap(t) {
    const heat = t.heat;
    const grid = h("div", "mg-heat");
    grid.style.gridTemplateColumns = `repeat(${heat.cols}, auto)`;
    const [rs, cs] = heat.every || [1, 1];
    heat.values.forEach((v, i) => {
      const cell = h("span", "mg-heat-cell");
      cell.style.background = heatColour(v, heat.scale);
      const r = Math.floor(i / heat.cols) * rs, c = (i % heat.cols) * cs;
      cell.title = `[${r}, ${c}] ${Number(v.toPrecision(4))}`;
      grid.appendChild(cell);
    });
    return grid;
  }

  function tensorCell(t, note) {
    const td = h("td");
    if (!t) {
      td.appendChild(h("span", "mg-none", note ? `${S("none")} (${note})` : S("none")));
      return td;
    }
    if (note) td.appendChild(h("div", "mg-note", note));
    if (t.heat) {
      td.appendChild(heatmap(t));
      td.appendChild(h("div", "mg-shape", S("heatmap", { shape: `(${t.shape.join(", ")})` })));
      td.appendChild(h("div", "mg-value mg-summary", t.text));
      return td;
    }
    td.appendChild(h("div", "mg-value", t.text));
    if (t.shape && t.shape.length) td.appendChild(h("div", "mg-shape", `${S("shape", { shape: `(${t.shape.join(", ")})` })}${t.dtype ? ` · ${t.dtype}` : ""}`));
    return td;
  }

  function gradTable(rows) {
    const table = h("table");
    for (const [slot, t, extra, hidden] of rows) {
      const tr = h("tr");
      if (hidden) {
        const td = h("td");
        td.append(h("div", "mg-note", extra), h("span", "mg-none", S("hidden")));
        tr.append(h("td", "mg-slot", slot), td);
      } else {
        tr.append(h("td", "mg-slot", slot), tensorCell(t, extra));
      }
      table.appendChild(tr);
    }
    return table;
  }

  const nodeInfo = (id) => (graph().nodes || {})[id] || {};
  /** A node for a learner: "MulBackward0 (e)", "AccumulateGrad (a)", "L" — never an internal id. */
  function nodeLabel(id) {
    const n = nodeInfo(id);
    if (!n.name) return S("node");
    if (n.kind === "tensor") return n.learner || n.name;
    return n.learner ? `${n.name} (${n.learner})` : n.name;
  }

  function formulaBlock(name) {
    const entry = (graph().formulas || {})[name];
    const box = h("div", "mg-derivative");
    if (!entry) return null;
    box.appendChild(h("div", "mg-words", entry.words));
    (entry.formulas || []).forEach((f) => box.appendChild(h("div", "mg-formula", f)));
    return box;
  }

  function eventsBlock(events) {
    const list = h("ul", "mg-events");
    for (const ev of events) {
      const li = h("li");
      li.appendChild(h("span", "mg-event-kind", ev.kind));
      li.appendChild(document.createTextNode(` ${ev.text || ev.detail || ""}`));
      list.appendChild(li);
    }
    return list;
  }

  function errorBlocks(k) {
    const seen = new Set();
    const blocks = [];
    const add = (text, extra) => {
      if (!text || seen.has(text)) return;
      seen.add(text);
      if (extra) blocks.push(h("div", "mg-hint", extra));
      blocks.push(h("div", "mg-errorbox", text));
    };
    (plan ? plan.passes : []).forEach((p) => {
      if (k === p.stop && p.error) add(p.error, p.error_hint);
    });
    add(model.get("error"));
    return blocks;
  }

  function moreNote(count) {
    return count > MAX_LISTED ? h("div", "mg-note", S("more", { n: count - MAX_LISTED })) : null;
  }

  function chainBlock(k, step) {
    const lines = step.chain_rule || [];
    if (!lines.some((l) => l)) return [];
    const out = [h("h4", null, S("chain_rule"))];
    if (predicting()) out.push(h("div", "mg-note", S("predict_mode")));
    lines.forEach((line, slot) => {
      if (!line) return;
      const grad = (step.grad_inputs || [])[slot];
      if (shown(k, slot)) {
        const row = h("div", "mg-chain", line);
        const p = predictions.get(predictKey(k, slot));
        if (predicting() && p) row.appendChild(h("span", p.state === "right" ? "mg-right" : "mg-note", p.state === "right" ? "  ✓" : `  (${S("reveal")})`));
        out.push(row);
        if (predicting() && grad && !grad.values) out.push(h("div", "mg-note", S("too_big_to_predict")));
        if (grad && grad.heat) out.push(heatmap(grad));
      } else {
        out.push(predictRow(k, slot, line, grad));
      }
    });
    return out;
  }

  function renderPanel(k, step, pass) {
    const parts = [];
    const g = graph();
    const rootName = (id) => nodeInfo(id).learner || nodeInfo(id).name || S("node");
    if (!step) {
      parts.push(h("h3", null, S("before_backward")));
      const roots = (g.roots || []).map(rootName).join(", ");
      parts.push(h("div", "mg-words", S("starts_at", { roots })));
      if (pass && pass.seed && pass.seed.length) {
        parts.push(h("h4", null, S("seed_gradient")));
        parts.push(gradTable(pass.seed.map((t, i) => [(g.roots || [])[i] ? rootName(g.roots[i]) : `${i}`, t])));
      }
    } else {
      const title = h("h3");
      title.append(document.createTextNode(`${step.name} `), h("span", "mg-shape", `(${S("step_of", { k, n: total() })})`));
      parts.push(title);
      if (step.out_name && !step.is_accumulate) parts.push(h("div", "mg-note", S("makes", { name: step.out_name })));
      parts.push(...chainBlock(k, step));
      const formula = formulaBlock(step.name);
      if (formula) parts.push(h("h4", null, S("local_derivative")), formula);
      parts.push(h("h4", null, S("incoming")));
      parts.push(gradTable((step.grad_outputs || []).map((t, i) => [`[${i}]`, t])));
      if (step.is_accumulate) {
        const who = nodeInfo(step.node_id).learner || "";
        const after = step.grad_after ? (step.grad_after.plain || step.grad_after.text) : S("none");
        const gIn = (step.grad_outputs || [])[0];
        const text = step.grad_before
          ? S("accumulates", { name: who, before: step.grad_before.plain || step.grad_before.text, g: gIn ? (gIn.plain || gIn.text) : "", after })
          : S("first_grad", { name: who, after });
        parts.push(h("div", "mg-chain", text));
        parts.push(h("h4", null, S("grad_before_after")));
        parts.push(gradTable([[S("before"), step.grad_before, step.grad_before ? null : S("not_computed")], [S("after"), step.grad_after]]));
      } else {
        parts.push(h("h4", null, S("outgoing")));
        parts.push(gradTable((step.grad_inputs || []).map((t, i) => {
          const target = (step.targets || [])[i];
          const name = (step.target_names || [])[i] || (target ? nodeLabel(target) : "");
          return [`[${i}]`, t, target ? S("to", { name }) : S("no_grad_needed"), t && !shown(k, i)];
        })));
      }
      if (step.events && step.events.length) {
        parts.push(h("h4", null, S("events")));
        parts.push(eventsBlock(step.events));
      }
    }
    if (pass && k === pass.stop && k > 0 && pass.released && pass.released.length) {
      parts.push(h("h4", null, S("freed_buffers")));
      parts.push(h("div", "mg-note", S("freed_text")));
      const ul = h("ul", "mg-freed");
      pass.released.slice(0, MAX_LISTED).forEach((id) => ul.appendChild(h("li", null, nodeLabel(id))));
      parts.push(ul, moreNote(pass.released.length));
    }
    if (pass && k === pass.stop && pass.final && pass.final.length) {
      parts.push(h("h4", null, S("result")));
      parts.push(gradTable(pass.final.slice(0, MAX_LISTED).map((r) => [nodeInfo(r.node_id).learner || nodeLabel(r.node_id), r.grad])));
      parts.push(moreNote(pass.final.length));
    }
    if (predicting() && k === total() && k > 0) {
      const sc = score();
      parts.push(h("div", "mg-score", S("score", sc)));
    }
    parts.push(...errorBlocks(k));
    const keep = panel.contains(document.activeElement) && document.activeElement.classList.contains("mg-guess")
      ? document.activeElement.dataset.key : null;
    fill(panel, ...parts);
    if (keep) {
      const again = panel.querySelector(`input.mg-guess[data-key="${keep}"]`);
      if (again) again.focus();
    }
  }

  // -- the inspector: what a clicked node holds at this step --------------------------------------
  /** The state of node `id` at frame k, from the recorded steps (so it agrees with the graph). */
  function nodeAt(id, k) {
    const all = steps();
    let ran = null, lastAcc = null, firstAcc = null;
    for (let i = 0; i < all.length; i++) {
      if (all[i].node_id !== id) continue;
      if (all[i].is_accumulate && firstAcc === null) firstAcc = all[i];
      if (i < k) {
        ran = i;
        if (all[i].is_accumulate) lastAcc = all[i];
      }
    }
    return { ran, lastAcc, firstAcc };
  }

  function renderInspector(k) {
    const id = model.get("selected");
    if (!id) {
      inspector.hidden = true;
      inspector.replaceChildren();
      return;
    }
    const n = nodeInfo(id);
    const out = [];
    const head = h("div", "mg-inspector-head");
    const close = button("×", S("close"), "mg-close");
    close.addEventListener("click", () => { model.set("selected", ""); model.save_changes(); root.focus({ preventScroll: true }); });
    head.append(h("h4", null, S("inspect", { name: nodeLabel(id) })), close);
    out.push(head);
    const rows = [];
    const { ran, lastAcc, firstAcc } = nodeAt(id, k);
    const all = steps();
    if (n.kind === "acc" || n.kind === "tensor") {
      if (n.data) rows.push([S("data"), n.data]);
      if (n.shape) rows.push([S("shape", { shape: "" }).trim(), n.shape]);
      if (n.kind === "acc") {
        const grad = lastAcc ? lastAcc.grad_after : firstAcc && firstAcc.grad_before;
        rows.push([S("grad_at_step"), grad ? (grad.plain || grad.text) : S("not_computed")]);
      }
    } else if (n.kind === "fn") {
      rows.push([S("node"), n.name]);
      const status = ran === null ? S("not_run") : S("runs_at", { k: ran + 1 });
      rows.push(["", status]);
      const saved = n.saved || [];
      const pass = ran !== null ? plan.passes[plan.passOf[ran]] : null;
      const freedNow = pass && (pass.released || []).includes(id);
      let note = "";
      if (n.freed_before) note = S("freed_already");
      else if (freedNow && ran === k - 1) note = S("freed_after");
      else if (freedNow && ran < k - 1) note = S("key_freed");
      out.push(h("div", "mg-note", saved.length ? S("saved_when_ran") : S("saved_nothing")));
      saved.forEach(([name, value]) => rows.push([name, value]));
      if (note) rows.push(["", note]);
      if (ran !== null) (all[ran].chain_rule || []).forEach((line, slot) => { if (line && shown(ran + 1, slot)) rows.push(["", line]); });
    }
    const table = h("table", "mg-inspect");
    rows.forEach(([key, value]) => {
      const tr = h("tr");
      tr.append(h("td", "mg-slot", key), h("td", "mg-value", value));
      table.appendChild(tr);
    });
    out.push(table);
    // the kernel's live answer, only where it agrees with the graph: after the last step
    const live = model.get("inspect") || {};
    const details = live.node_id === id && live.details ? live.details : null;
    if (details && k === total()) {
      out.push(h("div", "mg-note", S("live_now")));
      const t2 = h("table", "mg-inspect mg-live");
      (details.rows || []).forEach(([key, value]) => {
        const tr = h("tr");
        tr.append(h("td", "mg-slot", key), h("td", "mg-value", value));
        t2.appendChild(tr);
      });
      out.push(t2);
    } else if (!n.name) {
      out.push(h("div", "mg-note", S("no_details")));
    }
    fill(inspector, ...out);
    inspector.hidden = false;
  }

  // -- controls -----------------------------------------------------------------------------
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.classList.remove("mg-playing");
    playBtn.textContent = S("play");
  }
  function play() {
    if (timer) return stop();
    if ((model.get("step") || 0) >= total()) setStep(0);
    playBtn.classList.add("mg-playing");
    playBtn.textContent = S("pause");
    timer = setInterval(() => {
      const k = (model.get("step") || 0) + 1;
      setStep(k);
      if (k >= total()) stop();
    }, 1000 / Number(speed.value || 1));
  }
  const restartIfPlaying = () => { if (timer) { stop(); play(); } };

  // Buttons hand the focus back to the stepper, so the arrow keys keep stepping (Notebook 7
  // moves the focus to the cell otherwise).
  const refocus = () => root.focus({ preventScroll: true });
  firstBtn.addEventListener("click", () => { stop(); setStep(0); refocus(); });
  prevBtn.addEventListener("click", () => { stop(); setStep((model.get("step") || 0) - 1); refocus(); });
  nextBtn.addEventListener("click", () => { stop(); setStep((model.get("step") || 0) + 1); refocus(); });
  lastBtn.addEventListener("click", () => { stop(); setStep(total()); refocus(); });
  playBtn.addEventListener("click", () => { play(); refocus(); });
  speed.addEventListener("change", restartIfPlaying);
  slider.addEventListener("input", () => { stop(); setStep(Number(slider.value)); });
  fitBtn.addEventListener("click", () => {
    manualZoom = null;
    camera(focusIds(clamp(model.get("step") || 0)));
    refocus();
  });
  panelBtn.addEventListener("click", () => {
    root.classList.toggle("mg-panel-hidden");
    camera(focusIds(clamp(model.get("step") || 0)));
    refocus();
  });
  rerunBtn.addEventListener("click", () => { model.send({ type: "backward_again" }); refocus(); });

  function onKey(ev) {
    const target = ev.target;
    if (target && target.tagName === "INPUT" && target.type === "range") return;
    if (target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type === "text"))) return;
    const k = model.get("step") || 0;
    const actions = {
      ArrowRight: () => { stop(); setStep(k + 1); },
      ArrowLeft: () => { stop(); setStep(k - 1); },
      " ": play,
      Home: () => { stop(); setStep(0); },
      End: () => { stop(); setStep(total()); },
    };
    const action = actions[ev.key];
    if (!action) return;
    ev.preventDefault();
    ev.stopPropagation();
    action();
  }
  root.addEventListener("keydown", onKey);
  if (options.globalKeys) document.addEventListener("keydown", onKey);

  // -- model events -------------------------------------------------------------------------
  const onMode = () => {
    root.classList.remove("mg-mode-normal", "mg-mode-presentation", "mg-mode-compact");
    root.classList.add(`mg-mode-${model.get("mode") || "normal"}`);
    root.dataset.theme = model.get("theme") || "";
    if (svgEl) svgEl.classList.toggle("mg-presentation", presentation());
    manualZoom = null;
    shownCameraK = null;
    apply();
  };
  const onRerun = () => { rerunBtn.style.display = model.get("can_rerun") ? "" : "none"; };
  const onStepsOrGraph = () => { stop(); build(); };
  const repaintAll = () => { shownK = null; apply(); };
  const handlers = [
    ["change:svg", () => build()],
    ["change:steps", onStepsOrGraph],
    ["change:graph", onStepsOrGraph],
    ["change:step", () => apply()],
    ["change:selected", onSelected],
    ["change:inspect", () => apply()],
    ["change:error", () => apply()],
    ["change:grad_flow", repaintAll],
    ["change:predict", () => apply()],
    ["change:strings", () => apply()],
    ["change:mode", onMode],
    ["change:theme", onMode],
    ["change:can_rerun", onRerun],
  ];
  handlers.forEach(([ev, cb]) => model.on(ev, cb));
  onRerun();
  root.classList.add(`mg-mode-${model.get("mode") || "normal"}`);
  root.dataset.theme = model.get("theme") || "";
  build();

  return () => {
    stop();
    resetPaint();
    if (resizes) resizes.disconnect();
    handlers.forEach(([ev, cb]) => model.off(ev, cb));
    if (options.globalKeys) document.removeEventListener("keydown", onKey);
    root.remove();
  };
}

/** Mount a stepper on a page with no kernel (the offline HTML export). */
export function mountStandalone(el, state) {
  const model = createPlainModel(state);
  const cleanup = createStepper(el, model, { globalKeys: true });
  return { model, cleanup };
}

/** Apply `k` steps and return how long it took in milliseconds (benchmarks). */
export function timeStep(model, k) {
  const t0 = performance.now();
  model.set("step", k);
  return performance.now() - t0;
}

/** Hide the static first frame displayed before this widget (viz.export.display_with_widget). */
function hideStatic(tag) {
  if (!tag) return;
  document.querySelectorAll(`.viz-static[data-viz-static="${CSS.escape(tag)}"]`).forEach((el) => { el.style.display = "none"; });
}

// anywidget entry point
export default {
  render({ model, el }) {
    hideStatic(model.get("static_id"));
    return createStepper(el, model);
  },
};
