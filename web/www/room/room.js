// The board page's room mode (docs/rooms.md): two people on two devices
// play one game kept by the server (`mollett-server`). The server checks
// every move with the engine's rules and says what the position is; this
// page only draws the state it is sent and sends what is clicked. It needs
// no engine of its own, so in a room app.js never starts the Worker.
//
// On the normal board page this module only wires the "Play a friend" form,
// which goes to `?room=new&...`.

import { buildRoomPage, render as draw, who, plyColour, transcriptOf } from "./roomview.js";
import { t, chooseLang, loadLang } from "../shared/i18n.js";

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

// The seat's token, kept as it is (not storage.js's JSON): the contract's
// key `mollett-room-<id>` holds the token itself, for scripts to read.
const tokenKey = (id) => `mollett-room-${id}`;
function storedToken(id) {
  try { return localStorage.getItem(tokenKey(id)); } catch (e) { return null; }
}
function storeToken(id, token) {
  try { localStorage.setItem(tokenKey(id), token); } catch (e) { /* private mode: the seat lasts this tab */ }
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
    if (res.status === 404) return fail(t("room.gone"));
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
    // The server's words are English; a code the tables know is said in
    // the page's language.
    if (msg.code !== "stale") {
      const key = `room.error.${msg.code}`;
      const said = t(key);
      R.message = said !== key ? said : msg.message || msg.code;
    }
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
  if (before && before.game !== st.game) return t("room.swapped", { n: st.game });
  if (before && before.undo && !st.undo) {
    const by = who(before.undo.by);
    return st.moves.length < before.moves.length ? t("room.undoAccepted", by)
      : before.moves.length === st.moves.length ? t("room.undoDeclined", by) : "";
  }
  const passes = [];
  for (let i = st.moves.length - 1; i >= 0 && st.moves[i] === "pass"; i--) passes.push(t("board.passes", who(plyColour(i), st.variant)));
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

// Draws the page from R with what only this module decides.
function render() {
  draw({ canMove: canMove(), resignArmed: resignArmed() });
}

async function copyLink() {
  const url = $("#room-link").textContent;
  try {
    await navigator.clipboard.writeText(url);
    R.message = t("room.copied");
  } catch (e) {
    R.message = t("room.copyByHand");
  }
  render();
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
    fail(t("room.notCreated", { error: body && body.error ? body.error : `HTTP ${res.status}` }));
    return undefined;
  }
  storeToken(body.room, body.token);
  // The language chosen stays in this tab's address (not in the link to share).
  const lang = q.get("lang");
  history.replaceState(null, "", `${location.pathname}?room=${body.room}${lang ? `&lang=${encodeURIComponent(lang)}` : ""}`);
  return body.room;
}

async function startRoom() {
  await loadLang(chooseLang()); // the room's words (app.js draws the page's static ones)
  buildRoomPage(R, {
    click: clickSquare,
    copy: copyLink,
    undo: () => send({ type: "undo" }),
    accept: () => send({ type: "undo-answer", accept: true }),
    decline: () => send({ type: "undo-answer", accept: false }),
    resign,
    rematch: () => send({ type: "rematch" }),
  });
  render();
  document.addEventListener("langchange", render); // app.js's language switch
  let id = q.get("room");
  if (id === "new") {
    id = await createRoom();
    if (id === undefined) return;
    if (id === null) return fail(t("room.unreachable"));
  } else if (!/^[0-9a-f]{32}$/.test(id)) {
    return fail(t("room.notRoom", { id }));
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
    const lang = new URLSearchParams(location.search).get("lang"); // the switch keeps it there
    if (lang) p.set("lang", lang);
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
