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
pinInput.addEventListener("change", () => {
  sessionStorage.setItem("pin", pinInput.value);
  showPhoneLink();
});

// How a phone connects: the address with the PIN and its QR code, for whoever has the PIN.
async function showPhoneLink() {
  const section = $("phone");
  if (!pinInput.value) { section.hidden = true; return; }
  const response = await fetch("/api/phone", { headers: { "X-Pin": pinInput.value } });
  if (!response.ok) { section.hidden = true; return; }
  const phone = await response.json();
  section.hidden = false;
  const link = $("phone-link");
  link.textContent = phone.url || "";
  link.href = phone.url || "#";
  link.parentElement.hidden = !phone.url;
  $("phone-qr").innerHTML = phone.qr || "";  // SVG made by the board itself
  $("phone-why").textContent = phone.url ? "" : phone.why_not;
}
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
    const [lx, ly] = labelOffset(p, board, byName);
    const label = el("text", { class: "label", x: lx, y: ly, "text-anchor": "middle",
                               "dominant-baseline": "central" }, g);
    label.textContent = p.name;
    el("circle", { class: "hit", r: 0.45 }, g);
  }
  drawnBoard = board.name + ":" + board.points.length;
}

// A point's name goes where it stays clearest of every line of the board: of eight places
// around the point, the one farthest from the nearest line or pebble (below right if free).
function labelOffset(p, board, byName) {
  const [x, y] = pointXY(p);
  const segments = [];
  for (const line of board.lines) {
    for (let i = 0; i + 1 < line.length; i++) {
      segments.push([pointXY(byName[line[i]]), pointXY(byName[line[i + 1]])]);
    }
  }
  const distance = (px, py, [[ax, ay], [bx, by]]) => {
    const dx = bx - ax, dy = by - ay;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
    return Math.hypot(px - ax - t * dx, py - ay - t * dy);
  };
  let best = [0.3, 0.5], bestGap = -1;
  for (const deg of [45, 135, -45, -135, 90, 0, 180, -90]) {
    const a = (deg * Math.PI) / 180;
    const [ox, oy] = [0.56 * Math.cos(a), 0.56 * Math.sin(a)];
    const gap = Math.min(10, ...segments.map((s) => distance(x + ox, y + oy, s)),
      ...board.points.filter((q) => q !== p).map((q) => {  // and clear of other pebbles
        const [qx, qy] = pointXY(q);
        return Math.hypot(x + ox - qx, y + oy - qy) - 0.3;
      }));
    if (gap > bestGap + 0.05) {
      bestGap = gap;
      best = [ox, oy];
    }
  }
  return best;
}

function playerName(spec) {
  if (spec === "hand") return "played on the board";
  if (spec === "remote") return "played from a page";
  return spec.replace("computer:", "computer, level ");
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
  $("notice").hidden = !state.notice;
  $("notice").textContent = state.notice || "";
  // While the board's menu is lit no game is in play: the facts are the menu's step and what
  // has been chosen so far, not the last game's.
  const menu = state.menu;
  document.body.toggleAttribute("data-menu", !!menu);
  $("variant").textContent = menu ? menu.variant : state.variant;
  $("turn").textContent = menu || state.outcome ? "—" : state.turn;
  $("banner").textContent = menu ? state.status.text
    : state.outcome ? state.outcome.text : `${state.turn} to act · ${state.status.text}`;
  $("phase").textContent = menu ? menu.step : state.phase;
  for (const side of ["white", "black"]) {
    const c = state.counts[side];
    $(side + "-count").textContent = menu ? menu[side] :
      `${c.board} on the board, ${c.hand} to place, ${c.taken} taken · ${playerName(state.players[side])}`;
  }
  $("status").textContent = state.problem ? `${state.status.text}: ${state.problem}` : state.status.text;
  $("status").setAttribute("data-kind", state.status.kind);
  // The status already says how the game ended; the outcome line only adds what it does not.
  $("outcome").textContent = state.outcome && !menu && !state.status.text.includes(state.outcome.text)
    ? state.outcome.text : "";
  $("colours").textContent = (state.wrong_colour || []).map((w) =>
    `${w.point} holds a ${w.is} pebble where a ${w.belongs} one belongs: lift it and set down a ${w.belongs} one`
  ).join("; ");
  const moves = $("moves");
  moves.replaceChildren(...(menu ? [] : state.moves).map((m, i) => {
    const li = document.createElement("li");
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${i + 1}.`;
    li.append(number, m);
    li.dataset.ply = String(i + 1);
    li.dataset.action = m;
    li.title = "take back to the position after this action";
    return li;
  }));
  moves.scrollTop = moves.scrollHeight;
  const hand = $("hand");
  hand.hidden = !state.sim;
  hand.setAttribute("data-holding", state.hand || "");
  $("drop").disabled = !state.hand;
  $("remote-move").hidden = !!menu || !!state.outcome || state.players[state.turn] !== "remote";
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
    await send("/api/hand", { op: "place", point: to, colour: placeColour() });
  }
});

// The colour a click sets down: the side to act, or one chosen by hand (setting up an army).
function placeColour() {
  const chosen = document.querySelector('input[name="place-colour"]:checked');
  return chosen && chosen.value !== "turn" ? chosen.value : state.turn;
}

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
  if (li && confirm(`Take back to the position after action ${li.dataset.ply}, ${li.dataset.action}?`)) {
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
showPhoneLink();
