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
let reviewing = null;  // while the page steps through a game: its frames and the one shown

// -- words: the catalog of the viewer's language, served by the board (/api/i18n) ----------
const { _, ngettext, fmt } = NavakankariWords;
async function loadWords() {
  const chosen = localStorage.getItem("language") || "";
  try {
    const response = await fetch("/api/i18n" + (chosen ? `?lang=${encodeURIComponent(chosen)}` : ""));
    if (response.ok) NavakankariWords.use(await response.json());
  } catch (e) { /* the page speaks English */ }
  NavakankariWords.translatePage();
  const catalog = NavakankariWords.catalog;
  const select = $("language");
  select.replaceChildren(...Object.entries(catalog.languages).map(([code, name]) => new Option(name, code)));
  select.value = catalog.language;
}

// -- PIN: from the address (#pin=...) when the simulator opened the page, else typed --------
const pinInput = $("pin");
// Read again whenever the hash changes: a restarted simulator's new address differs from the
// old one only there, and opening it in the same tab does not reload the page.
function readHashPin() {
  const hashPin = new URLSearchParams(location.hash.slice(1)).get("pin");
  if (hashPin) sessionStorage.setItem("pin", hashPin);
  pinInput.value = sessionStorage.getItem("pin") || "";
}
readHashPin();
window.addEventListener("hashchange", () => {
  readHashPin();
  showPhoneLink();
});
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
// Starting another game (a new one, or one with a board far away) ends the one in progress:
// asked first, so no game is given up without a word. True when the person keeps playing.
function keepsPlaying(instead) {
  const plies = state && !state.menu && !state.outcome ? state.actions.length : 0;
  if (plies && !confirm(fmt(ngettext("End the game in progress ({n} action) and {instead}?",
    "End the game in progress ({n} actions) and {instead}?", plies), { n: plies, instead }))) {
    refuse(_("the game in progress goes on"));
    return true;
  }
  return false;
}

$("online-invite").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (keepsPlaying(_("invite a player far away"))) return;
  const form = new FormData(e.target);
  const answer = await send("/api/online/invite", Object.fromEntries(form.entries()));
  if (answer) note(fmt(_("game code {code}: the other player joins with it"), { code: answer.code }));
});
$("online-join").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (keepsPlaying(_("join a game far away"))) return;
  if (await send("/api/online/join", { code: $("online-join-code").value })) {
    $("online-join-code").value = "";
  }
});

$("online-game-controls").addEventListener("click", async (e) => {
  const what = e.target.dataset && e.target.dataset.ask;
  if (!what) return;
  if (what === "resign" && !confirm(_("Resign this game? It ends for both boards."))) return;
  await send("/api/online/request", { what });
});
// A fork: the two ways on, as the browser player offers them (a takeback goes back to the
// last move both games hold; the board asks the other for it).
$("online-fork-takeback").addEventListener("click", () => send("/api/online/request", { what: "takeback" }));
$("online-fork-end").addEventListener("click", async () => {
  if (confirm(_("Resign this game? It ends for both boards."))) await send("/api/online/request", { what: "resign" });
});
$("online-accept").addEventListener("click", () => send("/api/online/answer", { accept: true }));
$("online-decline").addEventListener("click", () => send("/api/online/answer", { accept: false }));

// Good news in the message line, shown apart from the refusals and errors it also carries.
function note(text) {
  $("message").textContent = text;
  $("message").classList.add("note");
}

// A request in the page's language: the board words its refusals and notes in it.
function inLanguage(path) {
  const code = NavakankariWords.catalog.language;
  return code ? path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(code) : path;
}

async function send(path, body) {
  $("message").textContent = "";
  $("message").classList.remove("note");
  const response = await fetch(inLanguage(path), {
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
  const placed = [];
  for (const p of board.points) {
    const [x, y] = pointXY(p);
    const g = el("g", { class: "point", id: "point-" + p.name, "data-point": p.name,
                        "data-led": "#000000", transform: `translate(${x} ${y})` }, points);
    el("circle", { class: "socket", r: 0.42 }, g);  // the LED's hole: dark when it is off
    el("circle", { class: "led", r: 0.42 }, g);
    el("circle", { class: "spot", r: 0.1 }, g);
    el("circle", { class: "pebble", r: 0.3, visibility: "hidden" }, g);
    const [lx, ly] = labelOffset(p, board, byName, placed);
    const label = el("text", { class: "label", x: lx, y: ly, "text-anchor": "middle",
                               "dominant-baseline": "central" }, g);
    label.textContent = p.name;
    el("circle", { class: "hit", r: 0.45 }, g);
  }
  drawnBoard = board.name + ":" + board.points.length;
}

// A point's name goes beside its own point, never between two: of sixteen places around the
// point, the one farthest from every other point (and from an empty centre) relative to its
// own, at least half as far again where the board allows (a diagonal where four neighbours
// close it in); then clear of the lines and of the names already placed (`placed`).
function boardCentre(board) {
  const xy = board.points.map(pointXY);
  const mid = (k) => (Math.min(...xy.map((q) => q[k])) + Math.max(...xy.map((q) => q[k]))) / 2;
  return [mid(0), mid(1)];
}

const LABEL_RADIUS = 0.56;
const LABEL_CLEAR = 1.5;
function labelOffset(p, board, byName, placed) {
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
  const others = board.points.filter((q) => q !== p).map(pointXY);
  const centre = boardCentre(board);
  if (!board.points.some((q) => Math.hypot(...pointXY(q).map((v, i) => v - centre[i])) < 0.1)) {
    others.push(centre);  // an empty centre counts as a point: a name there is between two
  }
  const degrees = [45, 135, -45, -135, 22.5, 157.5, -22.5, -157.5, 67.5, 112.5, -67.5, -112.5,
                   90, 0, 180, -90];
  let best = [0.3, 0.5], bestScore = -Infinity;
  for (const deg of degrees) {
    const a = (deg * Math.PI) / 180;
    const [lx, ly] = [x + LABEL_RADIUS * Math.cos(a), y + LABEL_RADIUS * Math.sin(a)];
    const nearest = Math.min(10, ...others.map(([qx, qy]) => Math.hypot(lx - qx, ly - qy)));
    const gap = Math.min(0.5, ...segments.map((s) => distance(lx, ly, s)));
    const apart = Math.min(0.8, ...placed.map(([qx, qy]) => Math.hypot(lx - qx, ly - qy)));
    const score = 10 * Math.min(LABEL_CLEAR, nearest / LABEL_RADIUS) + gap + apart;
    if (score > bestScore + 0.01) {
      bestScore = score;
      best = [lx - x, ly - y];
    }
  }
  placed.push([x + best[0], y + best[1]]);
  return best;
}

// `level`: the level an adaptive computer plays at now (the game in play's, not a stored one's).
function playerName(spec, level) {
  if (spec === "hand") return _("played on the board");
  if (spec.startsWith("hand:")) return fmt(_("played on the board, help {level}"), { level: spec.slice(5) });
  if (spec === "remote") return _("played from a page");
  if (spec === "computer:adaptive") {
    return level ? fmt(_("computer, adapting, now level {level}"), { level }) : _("computer, adapting to you");
  }
  if (spec.startsWith("computer:")) return fmt(_("computer, level {level}"), { level: spec.slice(9) });
  return spec;
}
// A variant as the players call it in the page's language (the board names them all).
function variantName(name) {
  return (state && state.variant_names && state.variant_names[name]) || name;
}
function sideName(side) {
  return side === "white" ? _("white") : side === "black" ? _("black") : side;
}

function hex(rgb) {
  return "#" + rgb.map((c) => Math.max(0, Math.min(255, c)).toString(16).padStart(2, "0")).join("");
}

function render() {
  if (!state) return;
  if (drawnBoard !== state.board.name + ":" + state.board.points.length) drawBoard(state.board);
  const frame = reviewFrame();
  const shown = frame ? Object.fromEntries([...frame.white.map((p) => [p, "white"]),
    ...frame.black.map((p) => [p, "black"])]) : state.pebbles;
  for (const p of state.board.points) {
    const g = document.getElementById("point-" + p.name);
    const colour = shown[p.name] || "";
    g.toggleAttribute("data-touched", !!frame && frame.touched.includes(p.name));
    const pebble = g.querySelector(".pebble");
    pebble.setAttribute("class", "pebble " + colour);
    pebble.setAttribute("visibility", colour ? "visible" : "hidden");
    g.setAttribute("data-pebble", colour);
    // data-led: what the LED is sent (after gamma and the brightness cap); the ring is
    // drawn in the screen colour of the light it emits (hal/leds.py on_screen).
    g.setAttribute("data-led", hex(state.leds[p.name] || [0, 0, 0]));
    const screen = frame ? "" : state.screen[p.name] || "";  // a review shows no lights
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
  $("variant").textContent = menu ? menu.variant : variantName(state.variant);
  $("turn").textContent = menu || state.outcome ? "—" : sideName(state.turn);
  // Above the board on a narrow page: the status, led by whose turn it is unless it already
  // begins with it ("white to move a pebble").
  const text = state.status.text;
  $("banner").textContent = menu || state.outcome || text.startsWith(sideName(state.turn) + " ") ? text
    : fmt(_("{side} to act · {status}"), { side: sideName(state.turn), status: text });
  $("phase").textContent = menu ? menu.step : phaseName(state.phase);
  for (const side of ["white", "black"]) {
    const c = state.counts[side];
    $(side + "-count").textContent = menu ? menu[side] :
      fmt(state.first === side ? _("{board} on the board, {hand} to place, {taken} taken · first to move · {player}")
        : _("{board} on the board, {hand} to place, {taken} taken · {player}"),
        { board: c.board, hand: c.hand, taken: c.taken, player: playerName(state.players[side], state.adaptive_level) });
  }
  if (frame) {  // the facts of the game reviewed, not of the board's
    $("variant").textContent = variantName(reviewing.data.variant);
    $("turn").textContent = "—";
    $("phase").textContent = _("review");
    for (const side of ["white", "black"]) {
      $(side + "-count").textContent =
        fmt(_("{board} on the board · {player}"), { board: frame[side].length, player: playerName(reviewing.data[side]) });
    }
  }
  $("status").textContent = state.problem ? `${state.status.text}: ${state.problem}` : state.status.text;
  $("status").setAttribute("data-kind", state.status.kind);
  // The status already says how the game ended; the outcome line only adds what it does not.
  $("outcome").textContent = state.outcome && !menu && !state.status.text.includes(state.outcome.text)
    ? state.outcome.text : "";
  $("colours").textContent = (state.wrong_colour || []).map((w) =>
    fmt(w.is === "white" ? _("{point} holds a white pebble where a black one belongs: lift it and set down a black one")
      : _("{point} holds a black pebble where a white one belongs: lift it and set down a white one"), { point: w.point })
  ).join("; ");
  renderMoves(reviewing ? reviewing.data.turns : menu ? [] : state.turns);
  renderReview();
  const hand = $("hand");
  hand.hidden = !state.sim;
  hand.setAttribute("data-holding", state.hand || "");
  $("drop").disabled = !state.hand;
  $("remote-move").hidden = !!menu || !!state.outcome || state.players[state.turn] !== "remote";
  renderAssist(menu);
  renderSpeech();
  fillSelectors();
  renderOnline();
}

const onlineSecret = { game: "", code: "", link: "", qr: "", asking: "" };

async function fetchOnlineSecret(game) {
  onlineSecret.asking = game;
  try {
    const headers = { "X-Pin": pinInput.value };
    const response = await fetch("/api/state", { headers });
    const online = response.ok ? ((await response.json()).online || {}) : {};
    if (online.game !== game) return;
    const qr = await fetch("/api/online/qr.svg", { headers });
    if (onlineSecret.qr) URL.revokeObjectURL(onlineSecret.qr);
    Object.assign(onlineSecret, { game, code: online.code || "", link: online.link || "",
      qr: qr.ok ? URL.createObjectURL(await qr.blob()) : "" });
    renderOnline();
  } finally {
    onlineSecret.asking = "";
  }
}

// Assistance: the words of the lights (threats, a blunder and why, the best move asked for),
// the takeback a blunder offers, the best-move button (level 4) and each hand side's level.
function renderAssist(menu) {
  const words = menu ? "" : (state.status.advice || "");
  $("advice").textContent = words;
  const warned = !menu && (state.status.blunder || []).length > 0;
  $("advice").toggleAttribute("data-blunder", warned);
  // Online, a takeback is asked of the other player (the online section's button).
  const online = Object.values(state.players).includes("online");
  $("advice-takeback").hidden = !warned || online;
  $("hint").hidden = !state.hint_offered;
  for (const side of ["white", "black"]) {
    const select = $("assist-" + side);
    if (select.options.length !== state.assist_levels.length) {
      select.replaceChildren(...state.assist_levels.map((name, level) =>
        new Option(`${level}: ${name}`, String(level))));
    }
    const hand = (state.players[side] || "").startsWith("hand");
    select.disabled = !!menu || !hand;
    if (document.activeElement !== select) select.value = String(state.assistance[side] || 0);
  }
}

// Speech: the board says what happens, off until turned on here, in its menu or its
// configuration. A board says it on its own speaker; in the simulator this page says it,
// with the browser's own voice where it has one for the language, else the WAV the daemon
// makes. A sentence marked `interrupt` cuts short the one being said (the hands acted
// since); one with `repeat` (the computer's move) is said again after that many seconds of
// silence until a newer one comes, as the board does.
const speaking = { heard: null, queue: [], audio: null, timer: null, busy: false, current: null };

function renderSpeech() {
  const s = state.speech;
  const box = $("speech");
  box.disabled = !s;
  if (!s) return;
  if (document.activeElement !== box) box.checked = s.enabled;
  $("speech-problem").textContent = s.problem || "";
  if (speaking.heard === null) {  // a page just opened says nothing said before it
    speaking.heard = s.number;
    return;
  }
  const fresh = s.recent.filter((u) => u.number > speaking.heard);
  speaking.heard = Math.max(speaking.heard, s.number);
  if (s.aloud || !s.enabled) return;
  for (const u of fresh) {
    if (u.interrupt) {
      speaking.queue = [];
      stopSpeaking();
    }
    speaking.queue.push(u);
  }
  if (!speaking.busy) sayNext();
}

function stopSpeaking() {
  clearTimeout(speaking.timer);
  if (speaking.audio) speaking.audio.pause();
  speaking.audio = null;
  if (window.speechSynthesis) window.speechSynthesis.cancel();
  speaking.busy = false;
}

function sayNext() {
  const u = speaking.queue.shift();
  if (!u) return;
  speaking.busy = true;
  const done = () => {
    if (speaking.current !== u) return;  // cut short: the newer one goes on
    speaking.busy = false;
    if (speaking.queue.length) sayNext();
    else if (u.repeat > 0) {
      speaking.timer = setTimeout(() => {
        if (speaking.current === u && !speaking.busy) { speaking.queue.push(u); sayNext(); }
      }, u.repeat * 1000);
    }
  };
  speaking.current = u;
  const synth = window.speechSynthesis;
  const voice = synth && synth.getVoices().find((v) => v.lang.toLowerCase().split("-")[0] === u.language);
  if (voice) {
    const utterance = new SpeechSynthesisUtterance(u.text);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    utterance.onend = done;
    utterance.onerror = done;
    synth.speak(utterance);
    return;
  }
  const audio = speaking.audio = new Audio(`/api/speech.wav?n=${u.number}`);
  audio.onended = done;
  audio.onerror = done;
  audio.play().catch(done);  // a browser that will not play before a click: go on
}

$("speech").addEventListener("change", (event) => {
  if (!event.target.checked) stopSpeaking();
  send("/api/speech", { on: event.target.checked });
});

// Online play: shown where the board has a broker configured. The code is for reading aloud;
// the link's facts say whether the other board is there.
function renderOnline() {
  const section = $("online");
  section.hidden = !state.online_enabled;
  if (section.hidden) return;
  const o = state.online;
  const select = $("online-variant");
  if (select.options.length !== state.variants.length) {
    select.replaceChildren(...state.variants.map((v) => new Option(variantName(v), v)));
    select.value = state.variant;
  }
  // The code carries the game's secret: the board gives it (and its QR code) only with the
  // PIN, fetched once per game.
  const game = (o && o.game) || "";
  if (game && onlineSecret.game !== game && onlineSecret.asking !== game && pinInput.value) {
    fetchOnlineSecret(game);
  }
  const known = game && onlineSecret.game === game;
  $("online-code").hidden = !game;
  $("online-code-text").textContent = known ? onlineSecret.code
    : pinInput.value ? "…" : fmt(_("game {game}: the PIN shows its code"), { game });
  const link = known ? onlineSecret.link : "";
  $("online-link").hidden = !link.includes("#");
  if (link.includes("#")) $("online-link").href = link;
  $("online-qr").hidden = !(known && onlineSecret.qr);
  if (known && onlineSecret.qr && $("online-qr").src !== onlineSecret.qr) {
    $("online-qr").src = onlineSecret.qr;
  }
  let words = _("no online game");
  if (o && o.waiting) words = _("waiting for the other player to join");
  if (o && o.opponent) {
    // Offline "since" the last word from the other board, in this page's clock.
    const since = o.seconds_since_heard == null ? "" : new Date(
      Date.now() - o.seconds_since_heard * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    words = [fmt(_("playing {opponent} (this board {side})"), { opponent: o.opponent, side: sideName(o.side) }),
      o.connected ? _("connected") : _("not connected"),
      o.opponent_online ? _("their board is connected")
        : since ? fmt(_("their board is offline since {time}"), { time: since }) : _("their board is offline"),
      fmt(_("move {n}"), { n: o.sequence })].join(" · ");
  }
  if (o && o.problem) words += ` · ${o.problem}`;
  if (o && o.ended) words += ` · ${o.ended}`;
  $("online-status").textContent = words;
  const asked = o && o.request;
  const theirs = { takeback: _("{opponent} asks to take back"), "new-game": _("{opponent} asks for a new game"),
    resign: _("{opponent} asks to resign") };
  const ours = { takeback: _("asked {opponent} to take back; waiting for the answer"),
    "new-game": _("asked {opponent} for a new game; waiting for the answer"),
    resign: _("asked {opponent} to resign; waiting for the answer") };
  $("online-request").hidden = !asked;
  if (asked) {
    $("online-request-text").textContent = fmt((asked.from === "there" ? theirs : ours)[asked.what] || asked.what,
      { opponent: o.opponent });
    $("online-accept").hidden = $("online-decline").hidden = asked.from !== "there";
  }
  $("online-game-controls").hidden = !(o && o.opponent);
  const fork = Boolean(o && o.fork && !o.ended);
  $("online-fork").hidden = !fork;
  if (fork) {
    $("online-fork-takeback").textContent = o.common
      ? fmt(_("Take back to move {n}"), { n: o.common }) : _("Take back every move");
    $("online-fork-takeback").disabled = Boolean(asked);
  }
}

// The move list by turn (an action and the removals it earned on one line), white's turns in
// the left column and black's in the right. Only what changed is redrawn, and the list is
// scrolled to its end only when it grew: the page is pushed many times a second while lights
// pulse, and an item rebuilt under a finger would swallow the tap.
function renderMoves(turns) {
  const list = $("moves");
  let ply = 0;
  const grew = turns.length > list.children.length;
  turns.forEach((turn, i) => {
    const key = turn.side + ":" + turn.actions.join(" ");
    let li = list.children[i];
    if (!li || li.dataset.key !== key) {
      const fresh = document.createElement("li");
      fresh.dataset.key = key;
      fresh.dataset.side = turn.side;
      // One number for white's turn and black's, as a game record numbers them.
      const number = document.createElement("span");
      number.className = "turn";
      number.textContent = turn.side === "white" ? `${Math.floor(i / 2) + 1}.`
        : i === 0 ? "1..." : "";
      fresh.append(number);
      turn.actions.forEach((action, k) => {
        const span = document.createElement("span");
        span.className = "action";
        span.dataset.ply = String(ply + k + 1);
        span.dataset.action = action;
        span.title = _("look at the position after this action");
        span.textContent = action;
        fresh.append(span);
      });
      if (li) li.replaceWith(fresh); else list.append(fresh);
      li = fresh;
    }
    ply += turn.actions.length;
  });
  while (list.children.length > turns.length) list.lastElementChild.remove();
  if (grew) list.scrollTop = list.scrollHeight;
}

// The new-game form shows the game in play (its variant and players) until it is changed by
// hand; the next game in play fills it afresh.
let formShows = null;
let formTouched = false;
$("new-game").addEventListener("input", () => { formTouched = true; });

function fillSelectors() {
  const select = $("variant-select");
  if (select.options.length === 0) {
    for (const v of state.variants) select.add(new Option(variantName(v), v));
    for (const s of document.querySelectorAll("select.player")) {
      s.add(new Option(_("hand on the board"), "hand"));
      for (const level of state.levels) s.add(new Option(fmt(_("computer, level {level}"), { level }), `computer:${level}`));
      s.add(new Option(_("computer, adapting to you"), "computer:adaptive"));
    }
  }
  if (state.menu) return;  // no game in play: the form keeps what it shows
  const shows = [state.variant, state.players.white, state.players.black, state.first].join(" ");
  if (shows === formShows) return;
  formShows = shows;
  formTouched = false;
  select.value = state.variant;
  $("first-select").value = state.first;
  for (const s of document.querySelectorAll("select.player")) {
    const current = state.players[s.name] || "hand";
    if (![...s.options].some((o) => o.value === current)) s.add(new Option(playerName(current), current));
    s.value = current;
  }
}

// -- hands on the simulated board -------------------------------------------------------------
function pointAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  const g = node && node.closest(".point");
  return g ? g.getAttribute("data-point") : null;
}

// A click or a slide that does nothing says why, in the message line.
function refuse(why) {
  $("message").textContent = why;
  $("message").classList.remove("note");
}

svg.addEventListener("pointerdown", (event) => {
  if (reviewing) {
    refuse(_("this is a review: back to the board to play"));
    return;
  }
  const point = pointAt(event);
  if (!point) return;
  if (!state) return refuse(_("not connected to the board yet"));
  if (!state.sim) return refuse(_("this is a real board: its pebbles are moved by hand"));
  drag = { from: point };
  event.preventDefault();
});

svg.addEventListener("pointerup", async (event) => {
  if (!state || !state.sim || !drag) return;
  const from = drag.from;
  drag = null;
  const to = pointAt(event);
  if (!to) return refuse(_("let go over a point of the board"));
  if (to !== from) {
    if (!state.pebbles[from]) return refuse(fmt(_("there is no pebble on {point} to slide"), { point: from }));
    if (state.pebbles[to]) return refuse(fmt(_("{point} already holds a pebble: slide onto a free point"), { point: to }));
    await send("/api/hand", { op: "move", from, to });
    return;
  }
  if (state.hand) {
    if (state.pebbles[to]) {
      return refuse(fmt(state.hand === "white"
        ? _("the hand holds a white pebble: put it on a free point, or aside, before lifting the one on {point}")
        : _("the hand holds a black pebble: put it on a free point, or aside, before lifting the one on {point}"),
      { point: to }));
    }
    await send("/api/hand", { op: "put", point: to });
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
  if (keepsPlaying(_("start a new one"))) return;
  await send("/api/new-game", {
    variant: form.get("variant"), white: form.get("white"), black: form.get("black"),
    first: form.get("first"),
  });
});
$("remote-move").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (await send("/api/move", { action: $("remote-action").value })) $("remote-action").value = "";
});
$("moves").addEventListener("click", (event) => {
  const item = event.target.closest("[data-ply]");
  if (!item) return;
  const ply = Number(item.dataset.ply);
  if (reviewing) showPly(ply); else openReview("", ply);
});

// -- reviewing: stepping through a game (the one in play, a stored one, a loaded record)
// shows its positions on the page without taking anything back; taking back is its own
// button. `reviewing` holds the game's frames (review.py) and the action shown.

function reviewFrame() {
  return reviewing ? reviewing.data.frames[reviewing.ply] : null;
}

function showPly(ply) {
  const last = reviewing.data.frames.length - 1;
  reviewing.ply = Math.max(0, Math.min(last, ply));
  render();
  lightReview();
}

// The board lights the move the review shows (its points) until the review ends; a page
// without the PIN reviews on its own, so a refusal here is no error to show.
function lightReview() {
  const frame = reviewFrame();
  fetch("/api/review-lights", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Pin": pinInput.value },
    body: JSON.stringify({ points: frame ? frame.touched : null }),
  }).catch(() => {});
}

function startReview(data, ply) {
  reviewing = { data, ply: 0 };
  showPly(ply == null ? data.frames.length - 1 : ply);
}

async function openReview(game, ply) {
  const response = await fetch(inLanguage("/api/review" + (game ? `?game=${game}` : "")));
  const data = await response.json();
  if (!response.ok) { refuse(data.error || response.statusText); return; }
  startReview(data, ply);
}

function closeReview() {
  reviewing = null;
  $("review-game").value = "";
  render();
  lightReview();
}

function renderReview() {
  document.body.toggleAttribute("data-reviewing", !!reviewing);
  $("review-controls").hidden = !reviewing;
  for (const item of document.querySelectorAll("#moves .action.current")) item.classList.remove("current");
  if (!reviewing) return;
  const { data, ply } = reviewing;
  const last = data.frames.length - 1;
  const what = data.game == null ? _("a loaded record") : data.in_play ? _("the game in play")
    : fmt(_("game {game}"), { game: data.game });
  const action = data.frames[ply].action;
  $("review-where").textContent = `${what}: ${ply ? `after ${action}, ` : "the start, "}` +
    `action ${ply} of ${last}` + (ply === last && data.result !== "*" ? ` · ${data.result}` : "");
  const current = document.querySelector(`#moves [data-ply="${ply}"]`);
  if (current) current.classList.add("current");
  $("review-takeback").hidden = !(data.in_play && ply < last);
}

$("review-start").addEventListener("click", () => showPly(0));
$("review-back").addEventListener("click", () => showPly(reviewing.ply - 1));
$("review-forward").addEventListener("click", () => showPly(reviewing.ply + 1));
$("review-end").addEventListener("click", () => showPly(Infinity));
$("review-close").addEventListener("click", closeReview);
$("review-takeback").addEventListener("click", async () => {
  const ply = reviewing.ply;
  if (!confirm(fmt(_("Take back to the position after action {n}?"), { n: ply }))) return;
  if (await send("/api/takeback", { to: ply })) closeReview();
});
document.addEventListener("keydown", (event) => {
  if (!reviewing || event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowLeft") showPly(reviewing.ply - 1);
  if (event.key === "ArrowRight") showPly(reviewing.ply + 1);
  if (event.key === "Escape") closeReview();
});
$("review-game").addEventListener("focus", async () => {
  const response = await fetch("/api/games");
  if (!response.ok) return;
  const select = $("review-game");
  const chosen = select.value;
  select.length = 1;
  select.add(new Option(_("the game in play"), "play"));
  for (const g of (await response.json()).games) {
    select.add(new Option(fmt(_("game {game}, {date}: {variant}, {white} against {black}, {result}"),
      { game: g.game, date: g.date, variant: variantName(g.variant), white: playerName(g.white),
        black: playerName(g.black), result: g.result }), String(g.game)));
  }
  select.value = chosen;
});
$("review-game").addEventListener("change", (event) => {
  const value = event.target.value;
  if (!value) closeReview();
  else openReview(value === "play" ? "" : value, 0);
});
$("review-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const response = await fetch(inLanguage("/api/review"), {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ record: await file.text() }),
  });
  event.target.value = "";
  const data = await response.json();
  if (!response.ok) { refuse(data.error || response.statusText); return; }
  startReview(data, 0);
});
$("takeback").addEventListener("click", () => send("/api/takeback", {}));
$("resign").addEventListener("click", async () => {
  if (!confirm(_("Resign this game?"))) return;
  const answer = await send("/api/end", { how: "resign" });
  if (answer) note(answer.result);
});
$("agree-draw").addEventListener("click", async () => {
  if (!confirm(_("Do both players agree to a draw?"))) return;
  const answer = await send("/api/end", { how: "draw" });
  if (answer) note(answer.result);
});
$("advice-takeback").addEventListener("click", () => send("/api/takeback", {}));
$("hint").addEventListener("click", async () => {
  const answer = await send("/api/hint", {});
  // The best move is lit and said with the rest of the advice; a refusal says why here.
  const lit = _("best move: {action}").split("{action}")[0];
  if (answer && !answer.words.startsWith(lit)) $("message").textContent = answer.words;
});
for (const side of ["white", "black"]) {
  $("assist-" + side).addEventListener("change", (event) =>
    send("/api/assist", { side, level: Number(event.target.value) }));
}

// -- live updates ---------------------------------------------------------------------------
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host +
    "/ws?lang=" + encodeURIComponent(NavakankariWords.catalog.language));
  ws.addEventListener("open", () => {
    $("connection").textContent = _("live");
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
    $("connection").textContent = _("reconnecting…");
    $("connection").setAttribute("data-state", "closed");
    setTimeout(connect, 1000);
  });
}
// The legend: every light in words, drawn as the LED shows it (colour, blink, pulse).
async function showLegend() {
  const response = await fetch("/api/legend?lang=" + encodeURIComponent(NavakankariWords.catalog.language));
  if (!response.ok) return;
  const list = $("legend-list");
  list.replaceChildren();
  let ul = null;
  let section = null;
  for (const light of await response.json()) {
    if (light.section !== section) {
      section = light.section;
      const h = document.createElement("h3");
      h.textContent = section;
      ul = document.createElement("ul");
      list.append(h, ul);
    }
    const li = document.createElement("li");
    li.dataset.role = light.role;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.borderColor = light.screen;
    swatch.dataset.animation = light.animation;
    swatch.style.animationDuration = `${light.period}s`;
    const words = document.createElement("span");
    words.textContent = fmt(_("{colour}, {motion}: {means}"), light);
    li.append(swatch, words);
    ul.append(li);
  }
}

function phaseName(phase) {
  const names = { placing: _("placing"), moving: _("moving"), over: _("over") };
  return names[phase] || phase;
}

// The viewer's language: kept in this browser; with the PIN, the board speaks it too.
$("language").addEventListener("change", async (event) => {
  const code = event.target.value;
  localStorage.setItem("language", code);
  if (pinInput.value) await send("/api/language", { language: code });
  location.reload();
});

loadWords().then(() => {
  connect();
  showPhoneLink();
  showLegend();
});
