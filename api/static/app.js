// The graph inspector: search a namespace through the REST API, draw the recalled events and
// their neighbourhood with ForceLayout (force.js), and show a clicked node's properties.
// All text from the store is inserted with textContent, never as HTML.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const NODE_RADIUS = { event: 8, entity: 9, topic: 8, day: 6 };
const NODE_KINDS = ["event", "entity", "topic", "day"];
const EDGE_KINDS = ["NEXT", "CAUSES", "SUPERSEDES", "CONTRADICTS", "MENTIONS", "IN_TOPIC", "ON", "DUE", "ALIAS_OF"];

const $ = (selector) => document.querySelector(selector);
const view = { scale: 1, tx: 0, ty: 0 };
let layout = null;
let animation = null;
let selectedId = null;

// ---- API -------------------------------------------------------------------------------------
async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json" };
  const key = localStorage.getItem("simplemem-api-key");
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(path, { ...options, headers });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const message = body?.error?.message ?? response.statusText;
    throw new Error(`${response.status}: ${message}`);
  }
  return body;
}

const namespacePath = (suffix) => `/v1/namespaces/${encodeURIComponent($("#ns-select").value)}${suffix}`;

function setStatus(text, isError = false) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

async function loadNamespaces() {
  try {
    const page = await api("/v1/namespaces?limit=1000");
    const select = $("#ns-select");
    select.replaceChildren();
    const wanted = new URLSearchParams(location.search).get("ns");
    for (const ns of page.items) {
      const option = new Option(ns, ns, false, ns === wanted);
      select.append(option);
    }
    if (!page.items.length) setStatus("No namespace holds any memory yet.");
    else loadHigherMemories();
  } catch (error) {
    setStatus(`Could not list namespaces (${error.message}). Set the API key?`, true);
  }
}

async function search(event) {
  event.preventDefault();
  const query = $("#query").value.trim();
  if (!query || !$("#ns-select").value) return;
  setStatus("Searching…");
  try {
    const result = await api(namespacePath("/search"), { method: "POST", body: JSON.stringify({ query }) });
    renderResults(result);
    loadHigherMemories(result.patterns ?? []);
    if (!result.results.length) {
      drawGraph({ nodes: [], edges: [] });
      setStatus("No memory matches.");
      return;
    }
    const ids = result.results.map((r) => encodeURIComponent(r.id)).join(",");
    const graph = await api(namespacePath(`/graph?event_ids=${ids}&hops=${$("#hops").value}`));
    drawGraph(graph);
    setStatus(
      `${result.results.length} memories in ${result.took_ms.toFixed(0)} ms; ` +
        `${graph.nodes.length} nodes, ${graph.edges.length} edges${graph.truncated ? " (truncated)" : ""}`,
    );
  } catch (error) {
    setStatus(error.message, true);
  }
}

function renderResults(result) {
  const list = $("#results");
  list.replaceChildren();
  for (const hit of result.results) {
    const item = document.createElement("li");
    item.dataset.id = hit.id;
    const text = document.createElement("div");
    text.textContent = hit.text;
    const meta = document.createElement("small");
    meta.textContent = `${hit.time.slice(0, 10)} · score ${hit.score.toFixed(3)} · ${hit.path.join(" → ")}`;
    item.append(text, meta);
    item.addEventListener("click", () => selectNode(hit.id));
    list.append(item);
  }
}

// ---- memory above the event: patterns with evidence, open questions (issue 14) ----------------
function emptyItem(text) {
  const item = document.createElement("li");
  item.className = "muted";
  item.textContent = text;
  return item;
}

async function loadHigherMemories(matched = []) {
  if (!$("#ns-select").value) return;
  const matchedIds = new Set(matched.map((p) => p.id));
  try {
    const [patterns, questions] = await Promise.all([
      api(namespacePath("/patterns?limit=50")),
      api(namespacePath("/questions?limit=20")),
    ]);
    renderPatterns(patterns.items, matchedIds);
    renderQuestions(questions.items);
  } catch (error) {
    $("#patterns").replaceChildren(emptyItem(`could not load (${error.message})`));
  }
}

function renderPatterns(patterns, matchedIds) {
  const list = $("#patterns");
  list.replaceChildren();
  if (!patterns.length) list.append(emptyItem("none yet (the global pass mines them)"));
  for (const pattern of patterns) {
    const item = document.createElement("li");
    item.className = "pattern";
    item.dataset.id = pattern.id;
    item.classList.toggle("matched", matchedIds.has(pattern.id));
    const box = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = pattern.text;
    const meta = document.createElement("small");
    meta.textContent = `${pattern.kind} · ${pattern.support} of ${pattern.total} (rate ${pattern.rate.toFixed(2)})`;
    const evidence = document.createElement("ol");
    evidence.className = "evidence";
    for (const event of pattern.evidence) {
      const line = document.createElement("li");
      line.dataset.id = event.id;
      line.textContent = `${event.time.slice(0, 10)} ${event.text}`;
      line.addEventListener("click", () => selectNode(event.id));
      evidence.append(line);
    }
    box.append(summary, meta, evidence);
    item.append(box);
    list.append(item);
  }
}

function renderQuestions(questions) {
  const list = $("#questions");
  list.replaceChildren();
  if (!questions.length) list.append(emptyItem("none"));
  for (const question of questions) {
    const item = document.createElement("li");
    item.className = "question";
    item.dataset.slot = question.slot;
    const ask = document.createElement("div");
    ask.textContent = question.question;
    const about = document.createElement("small");
    about.textContent = `${question.slot} · ${question.event.text} · ${question.source_ids.join(", ")}`;
    item.append(ask, about);
    item.addEventListener("click", () => selectNode(question.event.id));
    list.append(item);
  }
}

// ---- drawing ---------------------------------------------------------------------------------
function svgElement(tag, attributes) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

function drawGraph(graph) {
  cancelAnimationFrame(animation);
  const svg = $("#graph");
  const { width, height } = svg.getBoundingClientRect();
  const edgeLayer = $("#edges");
  const nodeLayer = $("#nodes");
  edgeLayer.replaceChildren();
  nodeLayer.replaceChildren();
  const nodes = graph.nodes.map((n) => ({ ...n }));
  layout = new ForceLayout(nodes, graph.edges, { width, height });

  for (const link of layout.links) {
    const kind = link.kind;
    link.element = svgElement("line", { class: `edge edge-${kind}`, "marker-end": "url(#arrow)" });
    const title = svgElement("title", {});
    title.textContent = kind;
    link.element.append(title);
    edgeLayer.append(link.element);
  }
  for (const node of nodes) {
    const group = svgElement("g", { class: `node-group kind-${node.kind}${node.seed ? " seed" : ""}` });
    const circle = svgElement("circle", {
      class: "node",
      r: NODE_RADIUS[node.kind] + (node.seed ? 3 : 0),
      "data-id": node.id,
      "data-kind": node.kind,
    });
    const label = svgElement("text", { class: "label", dx: 12, dy: 4 });
    label.textContent = node.label.length > 32 ? `${node.label.slice(0, 31)}…` : node.label;
    group.append(circle, label);
    node.element = group;
    enableDrag(circle, node);
    nodeLayer.append(group);
  }
  animate();
}

function animate() {
  const running = layout.tick();
  render();
  animation = running ? requestAnimationFrame(animate) : null;
}

function render() {
  for (const link of layout.links) {
    link.element.setAttribute("x1", link.source.x);
    link.element.setAttribute("y1", link.source.y);
    link.element.setAttribute("x2", link.target.x);
    link.element.setAttribute("y2", link.target.y);
  }
  for (const node of layout.nodes) node.element.setAttribute("transform", `translate(${node.x},${node.y})`);
}

function applyView() {
  $("#viewport").setAttribute("transform", `translate(${view.tx},${view.ty}) scale(${view.scale})`);
}

// Screen (client) coordinates -> graph coordinates, undoing pan and zoom.
function toGraph(clientX, clientY) {
  const box = $("#graph").getBoundingClientRect();
  return { x: (clientX - box.left - view.tx) / view.scale, y: (clientY - box.top - view.ty) / view.scale };
}

function enableDrag(circle, node) {
  circle.addEventListener("pointerdown", (down) => {
    down.stopPropagation();
    circle.setPointerCapture(down.pointerId);
    node.fixed = true;
    let moved = false;
    const move = (event) => {
      const point = toGraph(event.clientX, event.clientY);
      moved = moved || Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) > 3;
      node.x = point.x;
      node.y = point.y;
      layout.reheat();
      if (!animation) animate();
      else render();
    };
    const up = () => {
      node.fixed = false;
      circle.removeEventListener("pointermove", move);
      circle.removeEventListener("pointerup", up);
      if (!moved) selectNode(node.id);
    };
    circle.addEventListener("pointermove", move);
    circle.addEventListener("pointerup", up);
  });
}

function enablePanZoom() {
  const svg = $("#graph");
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const factor = Math.exp(-event.deltaY * 0.0015);
    const scale = Math.min(6, Math.max(0.2, view.scale * factor));
    const px = event.clientX - box.left;
    const py = event.clientY - box.top;
    // Zoom about the pointer: the graph point under it stays put.
    view.tx = px - ((px - view.tx) * scale) / view.scale;
    view.ty = py - ((py - view.ty) * scale) / view.scale;
    view.scale = scale;
    applyView();
  }, { passive: false });
  svg.addEventListener("pointerdown", (down) => {
    const start = { tx: view.tx, ty: view.ty };
    const move = (event) => {
      view.tx = start.tx + event.clientX - down.clientX;
      view.ty = start.ty + event.clientY - down.clientY;
      applyView();
    };
    const up = () => {
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
    };
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
  });
}

// ---- details ---------------------------------------------------------------------------------
function selectNode(id) {
  const node = layout?.nodes.find((n) => n.id === id);
  if (!node) return;
  selectedId = id;
  for (const other of layout.nodes) other.element.classList.toggle("selected", other.id === selectedId);
  for (const item of $("#results").children) item.classList.toggle("selected", item.dataset.id === id);
  showDetails(node);
}

function showDetails(node) {
  const panel = $("#details");
  panel.replaceChildren();
  const heading = document.createElement("h2");
  heading.textContent = `${node.kind}: ${node.label}`;
  const table = document.createElement("dl");
  table.id = "props";
  const rows = { id: node.id, ...node.props };
  delete rows.source_turns;
  for (const [name, value] of Object.entries(rows)) {
    if (value === null || value === undefined || (Array.isArray(value) && !value.length)) continue;
    const term = document.createElement("dt");
    term.textContent = name;
    const description = document.createElement("dd");
    description.textContent = typeof value === "object" ? JSON.stringify(value) : String(value);
    table.append(term, description);
  }
  panel.append(heading, table);
  const turns = node.props.source_turns ?? [];
  if (turns.length) {
    const title = document.createElement("h3");
    title.textContent = "Source turns";
    const list = document.createElement("ul");
    list.id = "source-turns";
    for (const turn of turns) {
      const item = document.createElement("li");
      const who = document.createElement("strong");
      who.textContent = `${turn.speaker} · ${turn.time.slice(0, 16).replace("T", " ")} · ${turn.id}`;
      const said = document.createElement("p");
      said.textContent = turn.text;
      item.append(who, said);
      list.append(item);
    }
    panel.append(title, list);
  }
}

function drawLegend() {
  const legend = $("#legend");
  for (const kind of NODE_KINDS) {
    const entry = document.createElement("span");
    entry.className = `legend-node kind-${kind}`;
    entry.textContent = kind;
    legend.append(entry);
  }
  for (const kind of EDGE_KINDS) {
    const entry = document.createElement("span");
    entry.className = `legend-edge edge-${kind}`;
    entry.textContent = kind;
    legend.append(entry);
  }
}

// ---- start -----------------------------------------------------------------------------------
function start() {
  const keyInput = $("#api-key");
  keyInput.value = localStorage.getItem("simplemem-api-key") ?? "";
  keyInput.addEventListener("change", () => {
    localStorage.setItem("simplemem-api-key", keyInput.value.trim());
    loadNamespaces();
  });
  $("#search-form").addEventListener("submit", search);
  $("#ns-select").addEventListener("change", () => loadHigherMemories());
  enablePanZoom();
  drawLegend();
  loadNamespaces();
}

start();
