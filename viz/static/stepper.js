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
//   graph      {nodes: {id: {name, label, details}}, roots, passes, formulas, flow_range}
//   step       how many steps have been applied (0 … steps.length); synced both ways
//   mode       "normal" | "presentation" | "compact";  theme: the drawing theme's name
//   error      text of the last failed backward ("" if none)
//   selected   id of the clicked node ("" if none);  inspect: {node_id, details} from Python
//   grad_flow  colour and thicken the edges by gradient magnitude
//   can_rerun  show the "backward again" button (only with a live kernel)
//
// Every user-provided string goes into the page with textContent, never innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";
const SPEEDS = [0.5, 1, 2, 4, 8];  // steps per second for "play"
const LABEL_AT = 0.35;  // where a gradient label sits along its edge (0: the input's end)
const WRITES_PER_FRAME = 200;  // elements restyled per animation frame (NOTE [incremental frames])
const MIN_FONT_PX = 10;  // show the whole graph when its text stays at least this large
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

/** The line under the graph that says what the node outlines mean. */
function stateKey() {
  const key = h("div", "mg-key");
  for (const [cls, text] of [["mg-current", "running now"], ["mg-waiting", "gradient arrived, waiting"],
    ["mg-done", "done"], ["mg-pending", "not reached yet"], ["mg-freed", "saved buffers freed"]]) {
    const item = h("span", "mg-key-item");
    item.append(h("span", `mg-key-swatch ${cls}`), document.createTextNode(text));
    key.appendChild(item);
  }
  return key;
}

/** Replace the children of `el` by `children`. */
function fill(el, ...children) {
  el.replaceChildren(...children.filter((c) => c));
  return el;
}

// ---- the plan: everything derived once from steps and graph --------------------------------

/** Append `value` to the list at `map[key]`. */
function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

/** The SVG's node groups by id, and its edge groups by id and by "tail->head". */
function indexSvg(svgEl) {
  const nodes = new Map();
  svgEl.querySelectorAll("g.node[id]").forEach((g) => nodes.set(g.id, g));
  const edgeById = new Map();
  const edgesByEnds = new Map();  // for SVGs without edge ids, and for create_graph's late edges
  svgEl.querySelectorAll("g.edge").forEach((g) => {
    if (g.id) edgeById.set(g.id, g);
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

/** The "grad: …" line of each leaf box, with the text it shows after each of its steps. */
function leafGradTexts(steps, nodes) {
  const texts = new Map();  // node id -> {el, original, history: [[step index, text]]}
  steps.forEach((step, i) => {
    if (!step.is_accumulate || !nodes.has(step.node_id)) return;
    if (!texts.has(step.node_id)) {
      const el = Array.from(nodes.get(step.node_id).querySelectorAll("text")).find((t) => t.textContent.startsWith("grad:"));
      if (!el) return;
      texts.set(step.node_id, { el, original: el.textContent, history: [] });
    }
    const after = step.grad_after;
    texts.get(step.node_id).history.push([i, `grad: ${after ? after.short : "None"}`]);
  });
  return texts;
}

/** Label anchors at LABEL_AT of each edge that carries a gradient, measured once (measuring
 *  per step would force a layout of the whole SVG).  Edges run input -> consumer, and the
 *  inputs of one node are apart where their edges start. */
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

/** Every element whose look can change ("slots"), with the first step that changes it. */
function makeSlots(plan, nodes) {
  const slots = { node: new Map(), edge: new Map(), text: new Map() };
  const first = (list) => (list && list.length ? list[0] : plan.total);
  nodes.forEach((el, id) => slots.node.set(id, {
    type: "node", id, el, order: Math.min(first(plan.runs.get(id)), first(plan.fed.get(id))) }));
  plan.edgeFlows.forEach((list, el) => slots.edge.set(el, { type: "edge", el, order: list[0].i }));
  plan.edgeEnds.forEach((ends, el) => {
    if (!slots.edge.has(el)) slots.edge.set(el, { type: "edge", el, order: plan.total });
  });
  plan.gradTexts.forEach((entry, id) => slots.text.set(id, { type: "text", id, entry, order: entry.history[0][0] }));
  return slots;
}

/** Per step, the slots whose look changes when a frame passes it: its node, the nodes and
 *  edges it feeds, a leaf's .grad text, and what it built (create_graph). */
function stepTouches(plan, steps) {
  const { slots } = plan;
  const bornAt = new Map();
  Object.entries(plan.born).forEach(([id, i]) => push(bornAt, i, id));
  return steps.map((step, i) => {
    const out = new Set();
    const add = (slot) => slot && out.add(slot);
    add(slots.node.get(step.node_id));
    add(slots.text.get(step.node_id));
    plan.flows[i].forEach((f) => {
      add(slots.node.get(f.target));
      if (f.edge) add(slots.edge.get(f.edge));
    });
    (bornAt.get(i) || []).forEach((id) => {
      add(slots.node.get(id));
      plan.edgeEnds.forEach((ends, el) => { if (ends.includes(id)) add(slots.edge.get(el)); });
    });
    return out;
  });
}

/**
 * Precompute what each step touches, so that going from frame k0 to frame k1 only
 * visits the steps in between (see NOTE [incremental frames]).
 * Runs once per (svg, steps, graph).
 */
function makePlan(svgEl, steps, graph) {
  const svg = indexSvg(svgEl);
  const flows = stepFlows(steps, svg);
  const passes = (graph.passes && graph.passes.length) ? graph.passes : [{ start: 0, stop: steps.length, released: [] }];
  const passOf = steps.map((s, i) => Math.max(0, passes.findIndex((q) => i >= q.start && i < q.stop)));
  // per node: the steps that run it and that send it a gradient; per edge: the steps using it
  const runs = new Map(), fed = new Map(), edgeFlows = new Map();
  flows.forEach((list, i) => {
    push(runs, steps[i].node_id, i);
    list.forEach((f) => {
      push(fed, f.target, i);
      if (f.edge) push(edgeFlows, f.edge, { i, norm: f.grad ? f.grad.norm : 0 });
    });
  });
  const freedIn = new Map(), errorIn = new Map();  // node id -> [pass index]
  passes.forEach((p, q) => {
    (p.released || []).forEach((id) => push(freedIn, id, q));
    (p.error_nodes || []).forEach((id) => push(errorIn, id, q));
  });
  // create_graph=True: nodes built during backward appear at the step that built them
  const born = graph.born || {};
  const edgeEnds = new Map();  // edge <g> -> [tail, head], only when something is born
  if (Object.keys(born).length) svg.edgesByEnds.forEach((list, key) => list.forEach((g) => edgeEnds.set(g, key.split("->"))));

  const plan = { nodes: svg.nodes, flows, passes, passOf, runs, fed, edgeFlows, freedIn, errorIn, born, edgeEnds,
                 roots: new Set(graph.roots || []), gradTexts: leafGradTexts(steps, svg.nodes),
                 middles: labelAnchors(flows), total: steps.length };
  plan.slots = makeSlots(plan, svg.nodes);
  plan.touches = stepTouches(plan, steps);
  // what changes at the end of a pass (freed buffers, error) and before the first step (roots)
  const nodeSlots = (ids) => ids.map((id) => plan.slots.node.get(id)).filter((s) => s);
  plan.passTouches = passes.map((p) => new Set(nodeSlots([...(p.released || []), ...(p.error_nodes || [])])));
  plan.rootSlots = nodeSlots([...plan.roots]);
  return plan;
}

/** The pass shown at frame k (k steps applied). */
function passAt(plan, k) {
  if (k > 0) return plan.passOf[k - 1];
  return 0;
}

// ---- the look of one element at frame k (pure functions of the plan) -----------------------
//
// NOTE [incremental frames]: the look of a node at frame k depends only on the steps of its
// pass that ran it or fed it (before k or not), on the pass ends, and on when it was born.
// So from frame k0 to k1 only the elements touched by steps between them, the pass ends
// between them and the roots (at k = 0) can change: a jump costs what it changes, and the
// browser restyles only those elements.  `frame()` in viz/stepper.py computes the same looks.

/** Space-separated state classes of node `id` at frame k. */
function nodeLook(plan, id, k, selected) {
  const pass = plan.passes[passAt(plan, k)];
  const inPass = (i) => i >= pass.start && i < pass.stop;
  // a node of a folded loop body (viz/fold.py) runs once per iteration: its last run so far counts
  const runs = (plan.runs.get(id) || []).filter(inPass);
  const ran = runs.filter((i) => i < k);
  let base = "";
  if (ran.length) base = ran[ran.length - 1] === k - 1 ? "mg-current" : "mg-done";
  else if ((plan.fed.get(id) || []).some((i) => inPass(i) && i < k)) base = "mg-waiting";
  else if (k === pass.start && plan.roots.has(id)) base = "mg-waiting";
  else if (runs.length) base = "mg-pending";   // runs later in this pass: dimmed
  const P = plan.passes;
  const freed = (plan.freedIn.get(id) || []).some((q) => k >= P[q].stop && (P[q].stop > P[q].start || k === P[q].stop));
  const error = (plan.errorIn.get(id) || []).some((q) => k === P[q].stop);
  const unborn = plan.born[id] !== undefined && plan.born[id] > k - 1;
  return [base, freed ? "mg-freed" : "", error ? "mg-error-node" : "", unborn ? "mg-unborn" : "",
          id === selected ? "mg-selected" : ""].filter((c) => c).join(" ");
}

/** {cls, norm} of an edge at frame k: the last flow through it so far in this pass. */
function edgeLook(plan, el, k, flowOn) {
  const pass = plan.passes[passAt(plan, k)];
  let last = null;
  for (const f of plan.edgeFlows.get(el) || []) if (f.i >= pass.start && f.i < k) last = f;
  const flow = last ? (last.i === k - 1 ? "mg-flow" : "mg-flowed") : "";
  const ends = plan.edgeEnds.get(el) || [];
  const unborn = ends.some((id) => plan.born[id] !== undefined && plan.born[id] > k - 1);
  const cls = [flow, flow && flowOn ? "mg-gradflow" : "", unborn ? "mg-unborn" : ""].filter((c) => c).join(" ");
  return { cls, norm: flow && flowOn ? last.norm : null };
}

/** The "grad: …" text of a leaf box at frame k. */
function gradTextAt(entry, k) {
  let text = entry.original;
  for (const [i, t] of entry.history) if (i <= k - 1) text = t;
  return text;
}

/** The elements whose look may differ between frames k0 and k1 (all of them when k0 is null). */
function changedSlots(plan, k0, k1) {
  const all = () => [...plan.slots.node.values(), ...plan.slots.edge.values(), ...plan.slots.text.values()];
  if (k0 === null || passAt(plan, k0) !== passAt(plan, k1)) return new Set(all());
  const lo = Math.min(k0, k1), hi = Math.max(k0, k1);
  const out = new Set();
  for (let i = Math.max(0, lo - 1); i < hi; i++) plan.touches[i].forEach((s) => out.add(s));
  plan.passes.forEach((p, q) => { if (p.stop >= lo && p.stop <= hi) plan.passTouches[q].forEach((s) => out.add(s)); });
  if (lo === 0) plan.rootSlots.forEach((s) => out.add(s));
  return out;
}

/** Map a gradient norm to [0, 1] on a log scale between the graph's smallest and largest. */
function flowLevel(norm, range) {
  if (!(norm > 0) || !range) return 0;
  const [lo, hi] = range;
  if (hi <= lo) return 1;
  return Math.min(1, Math.max(0, (Math.log10(norm) - lo) / (hi - lo)));
}

function flowColour(t) {
  // light blue (tiny gradients) → dark red (large ones)
  const a = [165, 216, 255], b = [201, 42, 42];
  const c = a.map((x, i) => Math.round(x + (b[i] - x) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
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
  const root = h("div", "mg-stepper");
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: our keys are ours
  root.setAttribute("role", "application");
  root.setAttribute("aria-label", "backward stepper");

  // toolbar
  const toolbar = h("div", "mg-toolbar");
  const button = (label, title, cls) => {
    const b = h("button", cls, label);
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", title);
    return b;
  };
  const firstBtn = button("|◀", "first step (Home)", "mg-first");
  const prevBtn = button("◀", "previous step (←)", "mg-prev");
  const playBtn = button("▶ play", "play / pause (space)", "mg-play");
  const nextBtn = button("▶", "next step (→)", "mg-next");
  const lastBtn = button("▶|", "last step (End)", "mg-last");
  const slider = h("input", "mg-slider");
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  slider.setAttribute("aria-label", "step");
  const speed = h("select", "mg-speed");
  speed.title = "speed (steps per second)";
  SPEEDS.forEach((s) => {
    const o = h("option", null, `${s}×/s`);
    o.value = String(s);
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  });
  const counter = h("span", "mg-counter");
  const rerunBtn = button("backward again", "call backward() once more on the same root", "mg-rerun");
  const fitBtn = button("fit", "fit the graph in the pane / show it at its natural size", "mg-fit");
  toolbar.append(firstBtn, prevBtn, playBtn, nextBtn, lastBtn, slider, speed, counter, fitBtn, rerunBtn);

  const body = h("div", "mg-body");
  const graphPane = h("div", "mg-graph");
  const panel = h("div", "mg-panel");
  panel.setAttribute("aria-live", "polite");
  body.append(graphPane, panel);
  root.append(toolbar, body, stateKey());
  el.appendChild(root);

  let svgEl = null;
  let labels = null;  // <g> holding the gradient labels of the current step
  let plan = null;
  let timer = null;

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
  // A big jump on a big graph changes many elements; the nearest to the current step are
  // written at once and the rest in the next animation frames, WRITES_PER_FRAME at a time,
  // so no frame is blocked for long.  `data-settled` on the root says when all are written.
  const applied = new Map();  // slot -> the look written into the page
  let queue = [];             // [{slot, look, far}] still to write, nearest steps first
  let shownK = null;          // the frame that `applied` + `queue` lead to (null: none yet)
  let frameId = null;
  let shownSelected = "";
  let scrollFrame = null, scrollTarget = null;  // keepInView()

  const initialLook = (slot) => (slot.type === "text" ? slot.entry.original : slot.type === "edge" ? "|" : "");

  function lookOf(slot, k) {
    if (slot.type === "node") return nodeLook(plan, slot.id, k, model.get("selected"));
    if (slot.type === "text") return gradTextAt(slot.entry, k);
    const look = edgeLook(plan, slot.el, k, !!model.get("grad_flow"));
    return `${look.cls}|${look.norm === null ? "" : look.norm}`;
  }

  function write(slot, look) {
    const before = applied.has(slot) ? applied.get(slot) : initialLook(slot);
    if (slot.base === undefined && slot.type !== "text") slot.base = slot.el.getAttribute("class") || "";
    if (slot.type === "text") {
      slot.entry.el.textContent = look;
    } else if (slot.type === "node") {
      slot.el.setAttribute("class", look ? `${slot.base} ${look}` : slot.base);  // one write, not remove + add
    } else {
      const [cls, norm] = look.split("|");
      slot.el.setAttribute("class", cls ? `${slot.base} ${cls}` : slot.base);
      if (norm !== "" || before.split("|")[1] !== "") styleFlow(slot.el, norm === "" ? null : Number(norm));
    }
    applied.set(slot, look);
  }

  function paint(k, extra = []) {
    const candidates = changedSlots(plan, shownK, k);
    queue.forEach(({ slot }) => candidates.add(slot));
    extra.forEach((slot) => slot && candidates.add(slot));
    queue = [];
    candidates.forEach((slot) => {
      const look = lookOf(slot, k);
      const now = applied.has(slot) ? applied.get(slot) : initialLook(slot);
      if (look !== now) queue.push({ slot, look, far: Math.abs(slot.order - (k - 1)) });
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
    if (scrollFrame !== null) cancelAnimationFrame(scrollFrame);
    scrollFrame = null;
  }

  // -- build: once per svg / steps / graph --------------------------------------------------
  function build() {
    svgEl = parseSvg(model.get("svg"));
    svgEl.classList.add("mg-svg");
    if (model.get("mode") === "presentation") svgEl.classList.add("mg-presentation");
    labels = document.createElementNS(SVG_NS, "g");
    labels.setAttribute("class", "mg-grad-labels");
    (svgEl.querySelector("g.graph") || svgEl).appendChild(labels);
    fill(graphPane, svgEl);
    plan = makePlan(svgEl, steps(), graph());
    resetPaint();
    sizeGraph();
    plan.nodes.forEach((g, id) => g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      model.set("selected", model.get("selected") === id ? "" : id);
      model.save_changes();
    }));
    slider.max = String(total());
    apply();
  }

  // -- apply: per step, only changed classes, a few inline styles, the labels and the panel --
  function apply(extra = []) {
    if (!plan) return;
    const all = steps();
    const k = clamp(model.get("step") || 0);
    const pass = plan.passes[passAt(plan, k)] || { start: 0, stop: all.length, released: [] };
    const current = k > 0 ? all[k - 1] : null;
    paint(k, extra);
    drawLabels(current ? plan.flows[k - 1] : []);

    slider.value = String(k);
    counter.textContent = `step ${k} / ${all.length}${current ? ` · ${current.name}` : ""}`;
    firstBtn.disabled = prevBtn.disabled = k === 0;
    nextBtn.disabled = lastBtn.disabled = k >= all.length;
    root.dataset.step = String(k);
    root.dataset.current = current ? current.node_id : "";
    renderPanel(k, current, pass);
    keepInView(current ? current.node_id : (graph().roots || [])[0]);  // before step 1: where it starts
  }

  /**
   * Size the graph: all of it in the pane when its text stays readable (MIN_FONT_PX; not in
   * presentation mode, whose point is large text), else the pane's width, and
   * keepInView() scrolls to the running node.  "fit" toggles the natural size.
   */
  function sizeGraph() {
    const box = svgEl && svgEl.viewBox && svgEl.viewBox.baseVal;
    const width = graphPane.clientWidth;
    if (!box || !box.width || !width) return;  // not laid out yet: the ResizeObserver calls again
    if (graphPane.classList.contains("mg-natural")) {
      svgEl.style.removeProperty("width");
      return;
    }
    const natural = { w: (box.width * 4) / 3, h: (box.height * 4) / 3 };  // Graphviz sizes are in pt
    const maxHeight = parseFloat(getComputedStyle(graphPane).maxHeight) || Infinity;
    const text = svgEl.querySelector("g.node text");
    const fontPx = ((Number(text && text.getAttribute("font-size")) || 11) * 4) / 3;
    let scale = Math.min(1, (width - 16) / natural.w);
    const whole = Math.min(scale, (maxHeight - 16) / natural.h);
    if (model.get("mode") !== "presentation" && whole * fontPx >= MIN_FONT_PX) scale = whole;
    svgEl.style.width = `${Math.floor(natural.w * scale)}px`;
  }
  let paneWidth = 0;
  const resizes = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    if (graphPane.clientWidth !== paneWidth) {
      paneWidth = graphPane.clientWidth;
      sizeGraph();
    }
  });
  if (resizes) resizes.observe(graphPane);

  /** Scroll the graph pane (not the page) so the running node is in view, after this frame's layout. */
  function keepInView(id) {
    scrollTarget = id;
    if (scrollFrame !== null) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = null;
      const g = plan && plan.nodes.get(scrollTarget);
      const scrolls = graphPane.scrollHeight > graphPane.clientHeight || graphPane.scrollWidth > graphPane.clientWidth;
      if (!g || !scrolls) return;
      const box = g.getBoundingClientRect(), pane = graphPane.getBoundingClientRect();
      const margin = 16;
      if (box.top < pane.top + margin || box.bottom > pane.bottom - margin) {
        graphPane.scrollTop += box.top - pane.top - (pane.height - box.height) / 2;
      }
      if (box.left < pane.left + margin || box.right > pane.right - margin) {
        graphPane.scrollLeft += box.left - pane.left - (pane.width - box.width) / 2;
      }
    });
  }

  /** The selection changed: repaint the node that lost it and the one that got it. */
  function onSelected() {
    if (!plan) return;
    const selected = model.get("selected") || "";
    const extra = [plan.slots.node.get(shownSelected), plan.slots.node.get(selected)];
    shownSelected = selected;
    apply(extra);
  }

  /** Colour and width by gradient magnitude (grad_flow option); a null norm clears. */
  function styleFlow(edge, norm) {
    const path = edge.querySelector("path");
    const head = edge.querySelector("polygon");
    if (norm === null) {
      [path, head].forEach((e) => e && e.style.removeProperty("stroke"));
      if (path) path.style.removeProperty("stroke-width");
      if (head) head.style.removeProperty("fill");
      return;
    }
    const t = flowLevel(norm, graph().flow_range || null);
    const colour = norm > 0 ? flowColour(t) : "#adb5bd";
    if (path) {
      path.style.setProperty("stroke", colour);
      path.style.setProperty("stroke-width", `${(1 + 6 * t).toFixed(2)}px`);
    }
    if (head) {
      head.style.setProperty("stroke", colour);
      head.style.setProperty("fill", colour);
    }
  }

  /** Put the value of each outgoing gradient on its edge. */
  function drawLabels(flows) {
    labels.replaceChildren();
    const big = model.get("mode") === "presentation";
    // boxes are sized from the text length (monospace), not measured: no forced layout
    const charWidth = big ? 10.5 : 7.2;
    const height = big ? 21 : 15;
    const placed = [];
    for (const f of flows) {
      if (!f.edge || !f.grad) continue;
      const point = plan.middles.get(f.edge);
      if (!point) continue;
      const label = f.grad.short || f.grad.text;
      const box = { x: point.x + 3, y: point.y + 4 - height * 0.8, w: charWidth * label.length + 8, h: height };
      // move right past any label already placed that it would cover (moving down would
      // cover the node the edges lead to, when they are short)
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
  function tensorCell(t, note) {
    const td = h("td");
    if (!t) {
      td.appendChild(h("span", "mg-none", note ? `None (${note})` : "None"));
      return td;
    }
    if (note) td.appendChild(h("div", "mg-note", note));
    td.appendChild(h("div", "mg-value", t.text));
    if (t.shape && t.shape.length) td.appendChild(h("div", "mg-shape", `shape (${t.shape.join(", ")})${t.dtype ? ` · ${t.dtype}` : ""}`));
    return td;
  }

  function gradTable(rows) {
    const table = h("table");
    for (const [slot, t, extra] of rows) {
      const tr = h("tr");
      tr.append(h("td", "mg-slot", slot), tensorCell(t, extra));
      table.appendChild(tr);
    }
    return table;
  }

  function nodeLabel(id) {
    const n = (graph().nodes || {})[id];
    return n ? (n.label || n.name || id) : (id || "None");
  }

  function formulaBlock(name) {
    const formulas = graph().formulas || {};
    const entry = formulas[name] || formulas._generic || null;
    const box = h("div", "mg-derivative");
    if (!entry) return box;
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
    const shown = new Set();
    const blocks = [];
    const add = (text, extra) => {
      if (!text || shown.has(text)) return;
      shown.add(text);
      const box = h("div", "mg-errorbox", text);
      blocks.push(box);
      if (extra) blocks.push(h("div", "mg-note", extra));
    };
    (plan ? plan.passes : []).forEach((p) => {
      if (k === p.stop && p.error) add(p.error, p.error_hint);
    });
    add(model.get("error"));
    return blocks;
  }

  /** "… and 12 more nodes" under a list cut at MAX_LISTED items (null when nothing was cut). */
  function moreNote(count, what) {
    return count > MAX_LISTED ? h("div", "mg-note", `… and ${count - MAX_LISTED} more ${what}`) : null;
  }

  function renderPanel(k, step, pass) {
    const parts = [];
    const g = graph();
    if (!step) {
      parts.push(h("h3", null, "Before backward()"));
      const rootName = (id) => ((g.nodes || {})[id] || {}).name || id;
      const roots = (g.roots || []).map(rootName).join(", ") || "the root";
      parts.push(h("div", "mg-words", `backward() starts at ${roots}, seeded with the gradient below. Press ▶ (or →) to run one node.`));
      if (pass && pass.seed && pass.seed.length) {
        parts.push(h("h4", null, "seed gradient"));
        parts.push(gradTable(pass.seed.map((t, i) => [(g.roots || [])[i] ? rootName(g.roots[i]) : `root ${i}`, t])));
      }
    } else {
      const title = h("h3");
      title.append(document.createTextNode(`${step.name} `), h("span", "mg-shape", `(${step.node_id}, step ${k} of ${total()})`));
      parts.push(title);
      const label = nodeLabel(step.node_id);
      if (label && label !== step.name) parts.push(h("div", "mg-note", label));
      parts.push(h("h4", null, "local derivative"));
      parts.push(formulaBlock(step.name));
      parts.push(h("h4", null, "incoming gradient (grad_outputs)"));
      parts.push(gradTable((step.grad_outputs || []).map((t, i) => [`[${i}]`, t])));
      if (step.is_accumulate) {
        parts.push(h("h4", null, ".grad before → after"));
        parts.push(gradTable([["before", step.grad_before, step.grad_before ? null : "not computed yet"], ["after", step.grad_after]]));
      } else {
        parts.push(h("h4", null, "outgoing gradients (grad_inputs)"));
        parts.push(gradTable((step.grad_inputs || []).map((t, i) => {
          const target = (step.targets || [])[i];
          return [`[${i}]`, t, target ? `→ ${nodeLabel(target)}` : "→ (no grad needed)"];
        })));
      }
      if (step.events && step.events.length) {
        parts.push(h("h4", null, "events at this step"));
        parts.push(eventsBlock(step.events));
      }
    }
    if (pass && k === pass.stop && k > 0 && pass.released && pass.released.length) {
      parts.push(h("h4", null, "freed buffers"));
      parts.push(h("div", "mg-note", "backward() without retain_graph freed the saved tensors of:"));
      const ul = h("ul", "mg-freed");
      pass.released.slice(0, MAX_LISTED).forEach((id) => ul.appendChild(h("li", null, `${nodeLabel(id)} (${id})`)));
      parts.push(ul, moreNote(pass.released.length, "nodes (dashed in the graph)"));
    }
    if (pass && k === pass.stop && pass.final && pass.final.length) {
      parts.push(h("h4", null, "result: .grad of the leaves"));
      parts.push(gradTable(pass.final.slice(0, MAX_LISTED).map((r) => [nodeLabel(r.node_id), r.grad])));
      parts.push(moreNote(pass.final.length, "leaves (click one to inspect it)"));
    }
    parts.push(...errorBlocks(k));
    parts.push(...inspectBlock());
    fill(panel, ...parts);
  }

  function inspectBlock() {
    const id = model.get("selected");
    if (!id) return [];
    const live = model.get("inspect") || {};
    const node = (graph().nodes || {})[id] || {};
    const details = live.node_id === id && live.details ? live.details : node.details;
    const out = [h("h4", null, `inspect ${nodeLabel(id)} (${id})`)];
    if (!details) {
      out.push(h("div", "mg-note", "no details recorded"));
      return out;
    }
    if (!(live.node_id === id && live.details)) out.push(h("div", "mg-note", "as recorded when the stepper was made"));
    const table = h("table", "mg-inspect");
    (details.rows || []).forEach(([k, v]) => {
      const tr = h("tr");
      tr.append(h("td", "mg-slot", k), h("td", "mg-value", v));
      table.appendChild(tr);
    });
    out.push(table);
    return out;
  }

  // -- controls -----------------------------------------------------------------------------
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.classList.remove("mg-playing");
    playBtn.textContent = "▶ play";
  }
  function play() {
    if (timer) return stop();
    if ((model.get("step") || 0) >= total()) setStep(0);
    playBtn.classList.add("mg-playing");
    playBtn.textContent = "❚❚ pause";
    timer = setInterval(() => {
      const k = (model.get("step") || 0) + 1;
      setStep(k);
      if (k >= total()) stop();
    }, 1000 / Number(speed.value || 1));
  }
  const restartIfPlaying = () => { if (timer) { stop(); play(); } };

  firstBtn.addEventListener("click", () => { stop(); setStep(0); });
  prevBtn.addEventListener("click", () => { stop(); setStep((model.get("step") || 0) - 1); });
  nextBtn.addEventListener("click", () => { stop(); setStep((model.get("step") || 0) + 1); });
  lastBtn.addEventListener("click", () => { stop(); setStep(total()); });
  playBtn.addEventListener("click", play);
  speed.addEventListener("change", restartIfPlaying);
  slider.addEventListener("input", () => { stop(); setStep(Number(slider.value)); });
  fitBtn.addEventListener("click", () => {
    graphPane.classList.toggle("mg-natural");
    sizeGraph();
  });
  rerunBtn.addEventListener("click", () => model.send({ type: "backward_again" }));

  function onKey(ev) {
    if (ev.target && ev.target.tagName === "INPUT" && ev.target.type === "range") return;
    if (ev.target && (ev.target.tagName === "SELECT" || ev.target.tagName === "TEXTAREA")) return;
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
    if (svgEl) svgEl.classList.toggle("mg-presentation", model.get("mode") === "presentation");
    sizeGraph();
    apply();
  };
  const onRerun = () => { rerunBtn.style.display = model.get("can_rerun") ? "" : "none"; };
  const onStepsOrGraph = () => { stop(); build(); };
  const repaintAll = () => { shownK = null; apply(); };
  // (anywidget calls handlers with arguments: wrap those that take none)
  const handlers = [
    ["change:svg", () => build()],
    ["change:steps", onStepsOrGraph],
    ["change:graph", onStepsOrGraph],
    ["change:step", () => apply()],
    ["change:selected", onSelected],
    ["change:inspect", () => apply()],
    ["change:error", () => apply()],
    ["change:grad_flow", repaintAll],
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
