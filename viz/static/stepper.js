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

/** Replace the children of `el` by `children`. */
function fill(el, ...children) {
  el.replaceChildren(...children.filter((c) => c));
  return el;
}

// ---- the plan: everything derived once from steps and graph --------------------------------

/**
 * Precompute, per step, which SVG edges carry which gradient, and per pass its range.
 * Runs once per (svg, steps, graph); applying a step then only reads these arrays.
 */
function makePlan(svgEl, steps, graph) {
  const nodes = new Map();
  svgEl.querySelectorAll("g.node[id]").forEach((g) => nodes.set(g.id, g));
  const edges = new Map();  // "tail->head" -> [g, …] in document order
  svgEl.querySelectorAll("g.edge").forEach((g) => {
    const key = edgeKey(g);
    if (!key) return;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(g);
  });
  const flows = steps.map((step) => {
    const seen = new Map();  // the k-th flow to the same target takes the k-th parallel edge
    return (step.targets || []).map((target, slot) => {
      if (!target) return null;
      const rank = seen.get(target) || 0;
      seen.set(target, rank + 1);
      const list = edges.get(`${target}->${step.node_id}`) || edges.get(`${step.node_id}->${target}`) || [];
      const grad = (step.grad_inputs || [])[slot] || null;
      return { slot, target, edge: list[Math.min(rank, list.length - 1)] || null, grad };
    }).filter((f) => f);
  });
  // the "grad: …" line of each leaf box, rewritten as its .grad accumulates
  const gradTexts = new Map();  // node id -> {el, original, history: [[step index, text]]}
  steps.forEach((step, i) => {
    if (!step.is_accumulate || !nodes.has(step.node_id)) return;
    if (!gradTexts.has(step.node_id)) {
      const el = Array.from(nodes.get(step.node_id).querySelectorAll("text")).find((t) => t.textContent.startsWith("grad:"));
      if (!el) return;
      gradTexts.set(step.node_id, { el, original: el.textContent, history: [] });
    }
    const after = step.grad_after;
    gradTexts.get(step.node_id).history.push([i, `grad: ${after ? after.short : "None"}`]);
  });
  // create_graph=True: nodes built during backward appear at the step that built them
  const born = graph.born || {};
  const edgeEnds = Object.keys(born).length ? Array.from(edges.entries()).flatMap(([key, list]) => {
    const [tail, head] = key.split("->");
    return list.map((g) => ({ g, tail, head }));
  }) : [];
  const passes = (graph.passes && graph.passes.length) ? graph.passes : [{ start: 0, stop: steps.length, released: [] }];
  const passOf = steps.map((s, i) => {
    const p = passes.findIndex((q) => i >= q.start && i < q.stop);
    return p < 0 ? 0 : p;
  });
  // label anchors on each edge that carries a gradient, measured once here (measuring per
  // step would force a layout of the whole SVG). Edges run input -> consumer, and the
  // inputs of one node are apart where the edges start, so the label sits at 35% of the path.
  const middles = new Map();
  flows.flat().forEach((f) => {
    if (!f.edge || middles.has(f.edge)) return;
    const path = f.edge.querySelector("path");
    try {
      const p = path.getPointAtLength(path.getTotalLength() * LABEL_AT);
      middles.set(f.edge, { x: p.x, y: p.y });
    } catch (e) {
      middles.set(f.edge, null);
    }
  });
  return { nodes, edges, flows, passes, passOf, gradTexts, born, edgeEnds, middles };
}

/** The pass shown at frame k (k steps applied). */
function passAt(plan, k) {
  if (k > 0) return plan.passOf[k - 1];
  return 0;
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
  const fitBtn = button("fit", "fit the graph to the width / natural size", "mg-fit");
  toolbar.append(firstBtn, prevBtn, playBtn, nextBtn, lastBtn, slider, speed, counter, fitBtn, rerunBtn);

  const body = h("div", "mg-body");
  const graphPane = h("div", "mg-graph");
  const panel = h("div", "mg-panel");
  panel.setAttribute("aria-live", "polite");
  body.append(graphPane, panel);
  root.append(toolbar, body);
  el.appendChild(root);

  let svgEl = null;
  let labels = null;  // <g> holding the gradient labels of the current step
  let plan = null;
  let timer = null;
  const nodeClass = new Map();  // id -> last applied state class string (to touch only changes)
  const edgeClass = new Map();  // <g> -> last applied class string

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
    nodeClass.clear();
    edgeClass.clear();
    plan.nodes.forEach((g, id) => g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      model.set("selected", model.get("selected") === id ? "" : id);
      model.save_changes();
    }));
    slider.max = String(total());
    apply();
  }

  // -- apply: per step, only classes, a few inline styles and the labels change --------------
  function apply() {
    if (!plan) return;
    const all = steps();
    const k = clamp(model.get("step") || 0);
    const pass = plan.passes[passAt(plan, k)] || { start: 0, stop: all.length, released: [] };
    const current = k > 0 ? all[k - 1] : null;
    const state = new Map();   // node id -> class
    const edgeState = new Map();  // edge <g> -> {cls, norm}
    const g = graph();
    const flowOn = !!model.get("grad_flow");

    // nodes that run later in this pass are dimmed until their gradient arrives
    for (let i = Math.max(k, pass.start); i < pass.stop; i++) state.set(all[i].node_id, "mg-pending");
    if (k === pass.start) (g.roots || []).forEach((id) => state.set(id, "mg-waiting"));
    for (let i = pass.start; i < k; i++) {
      const isCurrent = i === k - 1;
      state.set(all[i].node_id, isCurrent ? "mg-current" : "mg-done");
      for (const f of plan.flows[i]) {
        if (state.get(f.target) !== "mg-done" && state.get(f.target) !== "mg-current") state.set(f.target, "mg-waiting");
        if (f.edge) edgeState.set(f.edge, { cls: isCurrent ? "mg-flow" : "mg-flowed", norm: f.grad ? f.grad.norm : 0 });
      }
    }
    if (current) state.set(current.node_id, "mg-current");
    // after the last step of a pass: its freed buffers and the node an error points at
    plan.passes.forEach((p) => {
      if (k >= p.stop && (p.stop > p.start || k === p.stop)) {
        (p.released || []).forEach((id) => state.set(id, `${state.get(id) || ""} mg-freed`.trim()));
      }
      if (k === p.stop) (p.error_nodes || []).forEach((id) => state.set(id, `${state.get(id) || ""} mg-error-node`.trim()));
    });
    const unborn = new Set(Object.entries(plan.born).filter(([, i]) => i > k - 1).map(([id]) => id));
    unborn.forEach((id) => state.set(id, `${state.get(id) || ""} mg-unborn`.trim()));
    plan.edgeEnds.forEach(({ g: edge, tail, head }) => edge.classList.toggle("mg-unborn", unborn.has(tail) || unborn.has(head)));
    plan.gradTexts.forEach((entry) => {
      let text = entry.original;
      for (const [i, t] of entry.history) if (i <= k - 1) text = t;
      if (entry.el.textContent !== text) entry.el.textContent = text;
    });
    const selected = model.get("selected");
    if (selected) state.set(selected, `${state.get(selected) || ""} mg-selected`.trim());

    plan.nodes.forEach((node, id) => {
      const cls = state.get(id) || "";
      if (nodeClass.get(id) === cls) return;
      const prev = nodeClass.get(id);
      if (prev) node.classList.remove(...prev.split(" "));
      if (cls) node.classList.add(...cls.split(" "));
      nodeClass.set(id, cls);
    });
    const range = g.flow_range || null;
    const touched = new Set([...edgeClass.keys(), ...edgeState.keys()]);
    touched.forEach((edge) => {
      const st = edgeState.get(edge);
      const cls = st ? `${st.cls}${flowOn ? " mg-gradflow" : ""}` : "";
      const key = st ? `${cls}|${flowOn ? st.norm : ""}` : "";
      if (edgeClass.get(edge) === key) return;
      edge.classList.remove("mg-flow", "mg-flowed", "mg-gradflow");
      if (cls) edge.classList.add(...cls.split(" "));
      styleFlow(edge, st && flowOn ? flowLevel(st.norm, range) : null, st);
      if (key) edgeClass.set(edge, key); else edgeClass.delete(edge);
    });
    drawLabels(current ? plan.flows[k - 1] : []);

    slider.value = String(k);
    counter.textContent = `step ${k} / ${all.length}${current ? ` · ${current.name}` : ""}`;
    firstBtn.disabled = prevBtn.disabled = k === 0;
    nextBtn.disabled = lastBtn.disabled = k >= all.length;
    root.dataset.step = String(k);
    root.dataset.current = current ? current.node_id : "";
    renderPanel(k, current, pass);
  }

  /** Colour and width by gradient magnitude (grad_flow option); null clears. */
  function styleFlow(edge, t, st) {
    const path = edge.querySelector("path");
    const head = edge.querySelector("polygon");
    if (t === null) {
      [path, head].forEach((e) => e && e.style.removeProperty("stroke"));
      if (path) path.style.removeProperty("stroke-width");
      if (head) head.style.removeProperty("fill");
      return;
    }
    const colour = st.norm > 0 ? flowColour(t) : "#adb5bd";
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
      // move down past any label already placed that it would cover
      for (let moved = true; moved;) {
        moved = false;
        for (const other of placed) {
          const overlaps = box.x < other.x + other.w && other.x < box.x + box.w
            && box.y < other.y + other.h && other.y < box.y + box.h;
          if (overlaps) {
            box.y = other.y + other.h + 2;
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
    if (note) td.appendChild(h("div", "mg-note", note));
    if (!t) {
      td.appendChild(h("span", "mg-none", "None"));
      return td;
    }
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

  function renderPanel(k, step, pass) {
    const parts = [];
    const g = graph();
    if (!step) {
      parts.push(h("h3", null, "Before backward()"));
      const roots = (g.roots || []).map(nodeLabel).join(", ") || "the root";
      parts.push(h("div", "mg-words", `backward() starts at ${roots}, seeded with the gradient below. Press ▶ (or →) to run one node.`));
      if (pass && pass.seed && pass.seed.length) {
        parts.push(h("h4", null, "seed gradient"));
        parts.push(gradTable(pass.seed.map((t, i) => [`root ${i}`, t])));
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
      pass.released.forEach((id) => ul.appendChild(h("li", null, `${nodeLabel(id)} (${id})`)));
      parts.push(ul);
    }
    if (pass && k === pass.stop && pass.final && pass.final.length) {
      parts.push(h("h4", null, "result: .grad of the leaves"));
      parts.push(gradTable(pass.final.map((r) => [nodeLabel(r.node_id), r.grad])));
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
  fitBtn.addEventListener("click", () => graphPane.classList.toggle("mg-natural"));
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
    apply();
  };
  const onRerun = () => { rerunBtn.style.display = model.get("can_rerun") ? "" : "none"; };
  const onStepsOrGraph = () => { stop(); build(); };
  const handlers = [
    ["change:svg", build],
    ["change:steps", onStepsOrGraph],
    ["change:graph", onStepsOrGraph],
    ["change:step", apply],
    ["change:selected", apply],
    ["change:inspect", apply],
    ["change:error", apply],
    ["change:grad_flow", apply],
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

// anywidget entry point
export default {
  render({ model, el }) {
    return createStepper(el, model);
  },
};
