// The board page: draws the board, the pebbles where they are and each point's LED, and
// (on the simulated board) lets the mouse do what hands do. State arrives over a websocket;
// changes go out as POST requests carrying the PIN.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
let state = null;
let drawnBoard = null;
let drag = null;

// -- PIN: from the address (#pin=...) when the simulator opened the page, else typed --------
const pinInput = $("pin");
const hashPin = new URLSearchParams(location.hash.slice(1)).get("pin");
if (hashPin) sessionStorage.setItem("pin", hashPin);
pinInput.value = sessionStorage.getItem("pin") || "";
pinInput.addEventListener("change", () => sessionStorage.setItem("pin", pinInput.value));
$("pin-form").addEventListener("submit", (e) => e.preventDefault());

async function send(path, body) {
  $("message").textContent = "";
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Pin": pinInput.value },
    body: JSON.stringify(body || {}),
  });
  if (!response.ok) {
    let text = response.statusText;
    try { text = (await response.json()).error || text; } catch (e) { /* not JSON */ }
    $("message").textContent = text;
    return null;
  }
  return response.json();
}

// -- drawing ----------------------------------------------------------------------------
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function pointXY(p) { return [p.x, 6 - p.y]; }

function drawBoard(board) {
  svg.replaceChildren();
  const byName = Object.fromEntries(board.points.map((p) => [p.name, p]));
  const lines = el("g", { class: "lines" }, svg);
  for (const line of board.lines) {
    for (let i = 0; i + 1 < line.length; i++) {
      const [x1, y1] = pointXY(byName[line[i]]);
      const [x2, y2] = pointXY(byName[line[i + 1]]);
      el("line", { x1, y1, x2, y2 }, lines);
    }
  }
  const points = el("g", { class: "points" }, svg);
  for (const p of board.points) {
    const [x, y] = pointXY(p);
    const g = el("g", { class: "point", id: "point-" + p.name, "data-point": p.name,
                        "data-led": "#000000", transform: `translate(${x} ${y})` }, points);
    el("circle", { class: "socket", r: 0.42 }, g);  // the LED's hole: dark when it is off
    el("circle", { class: "led", r: 0.42 }, g);
    el("circle", { class: "spot", r: 0.1 }, g);
    el("circle", { class: "pebble", r: 0.3, visibility: "hidden" }, g);
    const label = el("text", { class: "label", x: 0.3, y: 0.5 }, g);
    label.textContent = p.name;
    el("circle", { class: "hit", r: 0.45 }, g);
  }
  drawnBoard = board.name + ":" + board.points.length;
}

function hex(rgb) {
  return "#" + rgb.map((c) => Math.max(0, Math.min(255, c)).toString(16).padStart(2, "0")).join("");
}

function render() {
  if (!state) return;
  if (drawnBoard !== state.board.name + ":" + state.board.points.length) drawBoard(state.board);
  for (const p of state.board.points) {
    const g = document.getElementById("point-" + p.name);
    const colour = state.pebbles[p.name] || "";
    const pebble = g.querySelector(".pebble");
    pebble.setAttribute("class", "pebble " + colour);
    pebble.setAttribute("visibility", colour ? "visible" : "hidden");
    g.setAttribute("data-pebble", colour);
    // data-led: what the LED is sent (after gamma and the brightness cap); the ring is
    // drawn in the screen colour of the light it emits (hal/leds.py on_screen).
    g.setAttribute("data-led", hex(state.leds[p.name] || [0, 0, 0]));
    const screen = state.screen[p.name] || "";
    const ring = g.querySelector(".led");
    ring.style.stroke = screen || "transparent";
    ring.style.filter = screen ? `drop-shadow(0 0 0.12px ${screen})` : "";
  }
  $("variant").textContent = state.variant;
  $("turn").textContent = state.outcome ? "—" : state.turn;
  $("phase").textContent = state.phase;
  for (const side of ["white", "black"]) {
    const c = state.counts[side];
    $(side + "-count").textContent =
      `${c.board} on the board, ${c.hand} in hand, ${c.taken} taken · ${state.players[side]}`;
  }
  $("status").textContent = state.problem ? `${state.status.text}: ${state.problem}` : state.status.text;
  $("status").setAttribute("data-kind", state.status.kind);
  $("outcome").textContent = state.outcome ? state.outcome.text : "";
  const moves = $("moves");
  moves.replaceChildren(...state.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = String(i + 1);
    li.title = "take back to the position after this action";
    return li;
  }));
  moves.scrollTop = moves.scrollHeight;
  const hand = $("hand");
  hand.hidden = !state.sim;
  hand.setAttribute("data-holding", state.hand || "");
  $("drop").disabled = !state.hand;
  $("remote-move").hidden = !!state.outcome || state.players[state.turn] !== "remote";
  fillSelectors();
}

function fillSelectors() {
  const select = $("variant-select");
  if (select.options.length === 0) {
    for (const v of state.variants) select.add(new Option(v, v, false, v === state.variant));
    for (const s of document.querySelectorAll("select.player")) {
      s.add(new Option("hand on the board", "hand"));
      for (const level of state.levels) s.add(new Option(`computer, level ${level}`, `computer:${level}`));
      const current = state.players[s.name] || "hand";
      if (![...s.options].some((o) => o.value === current)) s.add(new Option(current, current));
      s.value = current;
    }
  }
}

// -- hands on the simulated board -------------------------------------------------------------
function pointAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  const g = node && node.closest(".point");
  return g ? g.getAttribute("data-point") : null;
}

svg.addEventListener("pointerdown", (event) => {
  if (!state || !state.sim) return;
  const point = pointAt(event);
  if (!point) return;
  drag = { from: point };
  event.preventDefault();
});

svg.addEventListener("pointerup", async (event) => {
  if (!state || !state.sim || !drag) return;
  const from = drag.from;
  drag = null;
  const to = pointAt(event);
  if (!to) return;
  if (to !== from) {
    if (state.pebbles[from] && !state.pebbles[to]) await send("/api/hand", { op: "move", from, to });
    return;
  }
  if (state.hand) {
    if (!state.pebbles[to]) await send("/api/hand", { op: "put", point: to });
  } else if (state.pebbles[to]) {
    await send("/api/hand", { op: "lift", point: to });
  } else {
    await send("/api/hand", { op: "place", point: to, colour: state.turn });
  }
});

$("drop").addEventListener("click", () => send("/api/hand", { op: "drop" }));
$("setup").addEventListener("click", () => send("/api/hand", { op: "setup" }));
$("clear").addEventListener("click", () => send("/api/hand", { op: "clear" }));

// -- controls -----------------------------------------------------------------------------
$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  await send("/api/new-game", {
    variant: form.get("variant"), white: form.get("white"), black: form.get("black"),
  });
});
$("remote-move").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (await send("/api/move", { action: $("remote-action").value })) $("remote-action").value = "";
});
$("moves").addEventListener("click", (event) => {
  const li = event.target.closest("li");
  if (li && confirm(`Take back to the position after ${li.textContent}?`)) {
    send("/api/takeback", { to: Number(li.dataset.ply) });
  }
});
$("takeback").addEventListener("click", () => send("/api/takeback", {}));

// -- live updates ---------------------------------------------------------------------------
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.addEventListener("open", () => {
    $("connection").textContent = "live";
    $("connection").setAttribute("data-state", "open");
  });
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      render();
      document.body.setAttribute("data-version", String(message.version));
    }
  });
  ws.addEventListener("close", () => {
    $("connection").textContent = "reconnecting…";
    $("connection").setAttribute("data-state", "closed");
    setTimeout(connect, 1000);
  });
}
connect();
