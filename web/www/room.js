// The board page's room mode (docs/rooms.md): two people on two devices
// play one game kept by the server (`mollett-server`). The server checks
// every move with the engine's rules and says what the position is; this
// page only draws the state it is sent and sends what is clicked. It needs
// no engine of its own, so in a room app.js never starts the Worker.
//
// On the normal board page this module only wires the "Play a friend" form,
// which goes to `?room=new&...`.

import { SQUARES } from "./game.js";
import { buildGrid, describe, updateTabStop } from "./boardgrid.js";

const $ = (sel) => document.querySelector(sel);
const q = new URLSearchParams(location.search);

// Reconnection waits, doubling from the first to the last (ms); reset
// whenever the server welcomes us again.
const BACKOFF = { first: 500, last: 8000 };
// A request to resign is confirmed by a second click within this time.
const RESIGN_CONFIRM_MS = 4000;

const R = {
  id: null, // the room id
  state: null, // the server's last State
  seat: null, // "black" | "white" | "spectator", from the server
  socket: null,
  connected: false,
  backoff: BACKOFF.first,
  pending: false, // a move was sent and its state has not come back yet
  stateAt: 0, // performance.now() when `state` came, for the clocks
  resignAsked: 0, // when Resign was first clicked (0: not)
  message: "",
};

const tokenKey = (id) => `mollett-room-${id}`;
function storedToken(id) {
  try { return localStorage.getItem(tokenKey(id)); } catch (e) { return null; }
}
function storeToken(id, token) {
  try { localStorage.setItem(tokenKey(id), token); } catch (e) { /* private mode: the seat lasts this tab */ }
}

// ---- names ----

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
// The protocol calls the second seat "white" in both rule sets; classic
// players call it red.
function colourName(colour, variant = R.state && R.state.variant) {
  return colour === "white" && variant === "classic" ? "red" : colour;
}
// The colour of ply i (0-based): plies alternate, passes included.
const plyColour = (i) => (i % 2 === 0 ? "black" : "white");
const transcriptOf = (moves) => moves.filter((m) => m !== "pass").join("");

function clockText(ms) {
  const t = Math.max(0, ms);
  const s = Math.floor(t / 1000);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return t < 10000 ? `${text}.${Math.floor((t % 1000) / 100)}` : text;
}

// ---- the connection ----

function socketUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/${encodeURIComponent(id)}`;
}

function connect() {
  const ws = new WebSocket(socketUrl(R.id));
  R.socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: storedToken(R.id) }));
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch (err) { return; }
    receive(msg);
  };
  ws.onclose = () => {
    if (R.socket !== ws) return;
    R.connected = false;
    R.pending = false;
    render();
    setTimeout(reconnect, R.backoff);
    R.backoff = Math.min(R.backoff * 2, BACKOFF.last);
  };
}

// The server may be restarting (its rooms are in its database) or the
// network away: try again, and tell a room that is gone from one that is
// only out of reach.
async function reconnect() {
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(R.id)}`, { cache: "no-store" });
    if (res.status === 404) return fail("This room does not exist (any more).");
  } catch (e) { /* out of reach: the socket's failure schedules the next try */ }
  connect();
}

function send(msg) {
  if (!R.socket || R.socket.readyState !== WebSocket.OPEN) return false;
  R.socket.send(JSON.stringify(msg));
  return true;
}

function receive(msg) {
  if (msg.type === "welcome") {
    if (msg.token) storeToken(R.id, msg.token);
    R.connected = true;
    R.backoff = BACKOFF.first;
    R.message = "";
    setState(msg.state, msg.seat);
  } else if (msg.type === "state") {
    setState(msg.state, msg.seat);
  } else if (msg.type === "error") {
    R.pending = false;
    // A stale board is redrawn by the state that follows; not worth words.
    if (msg.code !== "stale") R.message = msg.message || msg.code;
    render();
  }
}

function setState(state, seat) {
  const before = R.state;
  R.state = state;
  R.seat = seat;
  R.stateAt = performance.now();
  R.pending = false;
  R.message = announce(before, state) || (before && before.moves.length !== state.moves.length ? "" : R.message);
  render();
}

// Words for what just happened that the board does not show by itself:
// passes, an undo taken back or refused, a new game.
function announce(before, st) {
  if (before && before.game !== st.game) return `Game ${st.game}: colours swapped.`;
  if (before && before.undo && !st.undo) {
    const by = colourName(before.undo.by);
    return st.moves.length < before.moves.length ? `Undo accepted: ${by}'s move taken back.`
      : before.moves.length === st.moves.length ? `Undo declined: ${by}'s request refused.` : "";
  }
  const passes = [];
  for (let i = st.moves.length - 1; i >= 0 && st.moves[i] === "pass"; i--) passes.push(`${cap(colourName(plyColour(i), st.variant))} has no move and passes.`);
  if (passes.length && (!before || before.moves.length < st.moves.length)) return passes.reverse().join(" ");
  return "";
}

// ---- actions ----

// This browser holds the seat to move, is connected, and has no move on
// its way: only then are squares marked legal and clicks sent.
function canMove() {
  const s = R.state;
  return !!s && R.connected && s.status === "playing" && s.to_move === R.seat && !R.pending;
}

function clickSquare(sq) {
  if (!canMove() || !R.state.legal.includes(sq)) return;
  if (send({ type: "move", square: sq, ply: R.state.moves.length })) {
    R.pending = true;
    render();
  }
}

const resignArmed = () => R.resignAsked > 0 && performance.now() - R.resignAsked < RESIGN_CONFIRM_MS;

function resign() {
  if (!resignArmed()) {
    R.resignAsked = performance.now();
    render();
    setTimeout(render, RESIGN_CONFIRM_MS + 50);
    return;
  }
  R.resignAsked = 0;
  send({ type: "resign" });
}

async function copyLink() {
  const url = $("#room-link").textContent;
  try {
    await navigator.clipboard.writeText(url);
    R.message = "Link copied.";
  } catch (e) {
    R.message = "Copy the link from the box above.";
  }
  render();
}

// ---- the view ----

const PANEL = `
  <div class="row"><b>Room link</b> <button id="room-copy">Copy</button></div>
  <div id="room-link" class="mono"></div>
  <div id="room-seats"></div>
  <div class="row" id="room-actions">
    <button id="room-undo" title="ask the other player to take back the last move">Ask to undo</button>
    <button id="room-accept">Accept undo</button><button id="room-decline">Decline undo</button>
    <button id="room-resign">Resign</button>
    <button id="room-rematch" title="a new game, colours swapped">Rematch</button>
  </div>
  <div id="room-moves" class="mono" aria-label="moves"></div>
  <div class="row"><b>Transcript</b></div>
  <div id="transcript" class="mono"></div>
  <div class="row">
    <a id="room-ggf" class="button" download>Download GGF</a>
    <a id="room-txt" class="button" download>Download transcript</a>
    <a id="room-open" class="button" target="_blank" rel="noopener">Open on the board</a>
  </div>
  <div class="row"><a href="./">Leave the room</a></div>`;

function buildRoomPage() {
  document.body.dataset.room = "";
  buildGrid($("#board"), clickSquare);
  $("#side").innerHTML = PANEL;
  $("#room-copy").addEventListener("click", copyLink);
  $("#room-undo").addEventListener("click", () => send({ type: "undo" }));
  $("#room-accept").addEventListener("click", () => send({ type: "undo-answer", accept: true }));
  $("#room-decline").addEventListener("click", () => send({ type: "undo-answer", accept: false }));
  $("#room-resign").addEventListener("click", resign);
  $("#room-rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("#thinking").textContent = "";
  $("#notes").textContent = "";
  setInterval(renderClocks, 100);
}

function setStatus(state, text) {
  const el = $("#status");
  el.dataset.state = state;
  // The contract names the second seat by its rule set's word: red in classic.
  el.dataset.seat = R.seat && R.seat !== "spectator" ? colourName(R.seat) : "spectator";
  el.textContent = text;
}

function resultText(s) {
  const r = s.result;
  const names = { black: "Black", white: cap(colourName("white", s.variant)) };
  const score = `${Math.max(r.black, r.white)}-${Math.min(r.black, r.white)}`;
  let text = r.winner ? `Game over: ${names[r.winner]} wins ${score}` : `Game over: a draw, ${score}`;
  const loser = r.winner === "black" ? names.white : names.black;
  if (r.reason === "resign") text += ` (${loser} resigned).`;
  else if (r.reason === "time") text += ` (${loser}'s time ran out).`;
  else if (r.black + r.white === 64) text += " (the board is full).";
  else if (s.supply && (s.supply.black === 0 || s.supply.white === 0)) {
    text += ` (${s.supply.black === 0 ? "Black" : names.white} ran out of discs).`;
  } else text += " (neither side can move).";
  return text;
}

function renderStatus() {
  const s = R.state;
  if (!s) return setStatus("loading", "Joining the room…");
  const you = R.seat !== "spectator" ? ` You play ${colourName(R.seat)}.` : " You are watching.";
  const discs = ` Black ${s.discs.black}, ${colourName("white")} ${s.discs.white}.`;
  if (s.status === "over") return setStatus("game-over", resultText(s) + discs);
  if (!R.connected) return setStatus("connecting", `Connection lost: reconnecting…${you}`);
  if (s.status === "waiting") {
    return setStatus("waiting", `Waiting for the other player: send them the link.${you}`);
  }
  const mover = cap(colourName(s.to_move));
  if (canMove()) return setStatus("human-to-move", `Your move (${colourName(R.seat)}).${discs}`);
  if (R.seat === "spectator") return setStatus("watching", `${mover} to move.${discs}${you}`);
  return setStatus("opponent-to-move", `${R.pending ? "Move sent. " : ""}${mover} to move.${discs}${you}`);
}

function renderBoard() {
  const s = R.state;
  const second = s && s.variant === "classic" ? "red" : "white";
  const lastMove = s ? [...s.moves].reverse().find((m) => m !== "pass") : null;
  SQUARES.forEach((sq, i) => {
    const el = document.querySelector(`[data-square="${sq}"]`);
    const c = s ? s.board[i] : "-";
    if (c === "X") el.dataset.disc = "black";
    else if (c === "O") el.dataset.disc = second;
    else delete el.dataset.disc;
    const legal = canMove() && s.legal.includes(sq);
    el.toggleAttribute("data-legal", legal);
    el.classList.toggle("last", sq === lastMove);
    describe(sq, { disc: el.dataset.disc, legal, last: sq === lastMove });
  });
  updateTabStop(canMove() ? s.legal : []);
  document.body.dataset.variant = s ? s.variant : "modern";
  const sup = $("#supply");
  sup.hidden = !(s && s.supply);
  if (s && s.supply) {
    $("#supply-black").textContent = s.supply.black;
    $("#supply-red").textContent = s.supply.white;
  }
}

function renderSeats() {
  const s = R.state;
  const el = $("#room-seats");
  el.textContent = "";
  if (!s) return;
  for (const colour of ["black", "white"]) {
    const seat = s.seats[colour];
    const row = document.createElement("div");
    row.className = "seat" + (s.to_move === colour ? " to-move" : "");
    row.dataset.colour = colour;
    const presence = !seat.taken ? "free" : seat.online ? "online" : "away";
    row.dataset.presence = presence;
    const chip = colourName(colour, s.variant);
    row.innerHTML = `<span class="chip ${chip === "white" ? "white" : chip}"></span> <b></b> <span class="presence"></span> <span class="clock" data-colour="${colour}"></span>`;
    row.querySelector("b").textContent = cap(chip) + (R.seat === colour ? " (you)" : "");
    row.querySelector(".presence").textContent = presence === "free" ? "seat free" : presence;
    el.appendChild(row);
  }
  if (s.spectators) {
    const w = document.createElement("div");
    w.className = "watchers";
    w.textContent = `${s.spectators} watching`;
    el.appendChild(w);
  }
  renderClocks();
}

// The clocks count down here between states; the server's own timer
// decides a flag fall.
function renderClocks() {
  const s = R.state;
  if (!s || !s.clock) return;
  for (const colour of ["black", "white"]) {
    const el = document.querySelector(`.clock[data-colour="${colour}"]`);
    if (!el) continue;
    let ms = s.clock[`${colour}_ms`];
    const running = s.clock.running === colour && s.status === "playing";
    if (running) ms -= performance.now() - R.stateAt;
    el.textContent = clockText(ms);
    el.classList.toggle("running", running);
    el.classList.toggle("low", ms < 10000);
  }
}

function renderActions() {
  const s = R.state;
  const player = !!s && R.seat !== "spectator" && R.connected;
  const playing = player && s.status === "playing";
  const undo = s && s.undo;
  const show = (id, on) => { $(id).hidden = !on; };
  show("#room-undo", playing && !(undo && undo.by !== R.seat));
  $("#room-undo").disabled = !playing || !s.moves.some((m) => m !== "pass") || !!undo;
  $("#room-undo").textContent = undo && undo.by === R.seat ? "Undo asked…" : "Ask to undo";
  show("#room-accept", playing && !!undo && undo.by !== R.seat);
  show("#room-decline", playing && !!undo && undo.by !== R.seat);
  show("#room-resign", playing);
  $("#room-resign").textContent = resignArmed() ? "Really resign?" : "Resign";
  const over = player && s.status === "over";
  show("#room-rematch", over);
  if (over) {
    const offered = s.rematch || [];
    $("#room-rematch").disabled = offered.includes(R.seat);
    $("#room-rematch").textContent = offered.includes(R.seat) ? "Rematch offered…"
      : offered.length ? `Accept ${colourName(offered[0])}'s rematch` : "Rematch";
  }
}

function renderMoves() {
  const s = R.state;
  const list = $("#room-moves");
  list.textContent = s ? s.moves.map((m, i) => `${i % 2 === 0 ? `${i / 2 + 1}. ` : ""}${m}`).join(" ") : "";
  $("#transcript").textContent = s ? transcriptOf(s.moves) : "";
  if (!s) return;
  const api = `/api/rooms/${encodeURIComponent(R.id)}`;
  $("#room-ggf").href = `${api}/game.ggf`;
  $("#room-txt").href = `${api}/game.txt`;
  const t = transcriptOf(s.moves);
  $("#room-open").href = `./?variant=${s.variant}${t ? `&moves=${t}` : ""}`;
}

function renderMessage() {
  const s = R.state;
  let text = R.message;
  if (!text && s && s.undo && R.seat !== "spectator") {
    text = s.undo.by === R.seat ? "You asked to take back the last move; waiting for the answer."
      : `${cap(colourName(s.undo.by))} asks to take back the last move.`;
  }
  if (!text && s && s.status === "over" && (s.rematch || []).length) {
    text = `${s.rematch.map((c) => cap(colourName(c))).join(" and ")} offered a rematch.`;
  }
  $("#message").textContent = text;
}

function render() {
  renderStatus();
  renderBoard();
  renderSeats();
  renderActions();
  renderMoves();
  renderMessage();
}

function fail(text) {
  R.socket = null;
  const el = $("#status");
  el.dataset.state = "error";
  el.dataset.seat = "spectator";
  el.textContent = text;
}

// ---- start ----

// `?room=new&variant=..&color=..&minutes=..&increment=..`: the room is
// created, this browser takes the creator's seat, and the address becomes
// the room's link.
async function createRoom() {
  const variant = q.get("variant") || "modern";
  const color = q.get("color") || "random";
  const minutes = q.get("minutes");
  const clock = minutes && +minutes > 0 ? { minutes: +minutes, increment: +(q.get("increment") || 0) } : null;
  let res, body;
  try {
    res = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant, color, clock }),
    });
    body = await res.json();
  } catch (e) {
    return null;
  }
  if (res.status !== 201) {
    fail(`The room was not created: ${body && body.error ? body.error : `HTTP ${res.status}`}.`);
    return undefined;
  }
  storeToken(body.room, body.token);
  history.replaceState(null, "", `${location.pathname}?room=${body.room}`);
  return body.room;
}

async function startRoom() {
  buildRoomPage();
  render();
  let id = q.get("room");
  if (id === "new") {
    id = await createRoom();
    if (id === undefined) return;
    if (id === null) return fail("The room server cannot be reached: rooms need mollett-server (docs/rooms.md).");
  } else if (!/^[0-9a-f]{32}$/.test(id)) {
    return fail(`"${id}" is not a room: a room's link ends in 32 letters and digits.`);
  }
  R.id = id;
  $("#room-link").textContent = `${location.origin}${location.pathname}?room=${id}`;
  reconnect();
}

// The normal board page: "Play a friend" goes to ?room=new with its choices.
function wireCreateForm() {
  const go = $("#room-create-go");
  if (!go) return;
  go.addEventListener("click", () => {
    const p = new URLSearchParams({ room: "new", variant: $("#room-variant").value, color: $("#room-color").value });
    const minutes = +$("#room-minutes").value;
    if (minutes > 0) {
      p.set("minutes", String(minutes));
      p.set("increment", String(+$("#room-increment").value || 0));
    }
    location.href = `${location.pathname}?${p}`;
  });
}

// For scripts and tests: what the page was sent, and a way to send any
// message (as anyone could from the browser's console; the server decides).
function scriptApi() {
  window.mollett = {
    get state() { return R.state; },
    get seat() { return R.seat; },
    get connected() { return R.connected; },
    get message() { return R.message; },
    send,
    transcript: () => (R.state ? transcriptOf(R.state.moves) : ""),
    ping: () => "pong",
  };
}

if (q.has("room")) {
  scriptApi();
  startRoom();
} else {
  wireCreateForm();
}
