// The board page's room mode (docs/rooms.md): two people on two devices
// play one game kept by the server (`mollett-server`). The server checks
// every move with the engine's rules and says what the position is; this
// page only draws the state it is sent and sends what is clicked (and its
// heartbeat, names, offers, claims and seat moves: the wire contract). It
// needs no engine of its own, so in a room app.js never starts the Worker.
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
// The page's own heartbeat: an app-level `ping` this often; a connection
// that has sent nothing back (no `pong`, no state) for PONG_LIMIT_MS after
// a ping is taken for dead (a phone in a tunnel: the socket never closes by
// itself), and one that has not been welcomed within CONNECT_LIMIT_MS of
// its start is given up. Well inside the server's 20 s, so the page says
// "offline" before the other side sees this seat go.
const PING_EVERY_MS = 3000;
const PONG_LIMIT_MS = 5000;
const CONNECT_LIMIT_MS = 8000;
// Sound on one's turn: kept in this browser.
const SOUND_KEY = "mollett-room-sound";

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
  messageFor: "", // the moment (game, plies, status) the message is about
  pingSent: 0, // performance.now() of the unanswered ping (0: none)
  lastHeard: 0, // performance.now() of the last frame from the server
  lostAt: 0, // performance.now() when the connection was lost (the clocks stop there)
  offline: false, // the heartbeat found the connection dead
  arrival: null, // `?seat=` token: this device takes a seat moved to it
  transfer: null, // {url, until}: this seat's link for another device
  moved: false, // this page's seat was moved to another device
  sound: true, // a short tone when it becomes this page's turn
  games: 1, // how many games the room has had (downloads)
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
  R.pingSent = 0;
  R.lastHeard = performance.now();
  // A device the seat was moved to says its one-time token once.
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: R.arrival || storedToken(R.id) }));
  ws.onmessage = (e) => {
    if (R.socket !== ws) return;
    R.lastHeard = performance.now();
    R.pingSent = 0; // any frame shows the connection lives
    let msg;
    try { msg = JSON.parse(e.data); } catch (err) { return; }
    receive(msg);
  };
  ws.onclose = () => lost(ws);
}

// The connection `ws` is gone (closed, or found dead by the heartbeat):
// say so, stop the clocks' local count, and try again after the backoff.
function lost(ws) {
  if (R.socket !== ws) return;
  R.socket = null;
  if (R.connected) R.lostAt = performance.now();
  R.connected = false;
  R.pending = false;
  R.pingSent = 0;
  try { ws.close(); } catch (e) { /* already closing */ }
  render();
  setTimeout(reconnect, R.backoff);
  R.backoff = Math.min(R.backoff * 2, BACKOFF.last);
}

// The heartbeat: a dropped network often leaves the socket open with no
// error for minutes, so the page asks and counts the silence itself.
function heartbeat() {
  const ws = R.socket;
  if (!ws) return;
  const now = performance.now();
  if (ws.readyState === WebSocket.CONNECTING || (ws.readyState === WebSocket.OPEN && !R.connected)) {
    if (now - R.lastHeard > CONNECT_LIMIT_MS) { R.offline = true; lost(ws); }
    return;
  }
  if (ws.readyState !== WebSocket.OPEN) return;
  if (R.pingSent && now - R.pingSent > PONG_LIMIT_MS) {
    R.offline = true;
    lost(ws);
  } else if (!R.pingSent && now - R.lastHeard >= PING_EVERY_MS) {
    R.pingSent = now;
    send({ type: "ping" });
  }
}

// The server may be restarting (its rooms are in its database) or the
// network away: try again, and tell a room that is gone from one that is
// only out of reach.
async function reconnect() {
  try {
    // Bounded: a dead network can hold a request for minutes.
    const res = await fetch(`/api/rooms/${encodeURIComponent(R.id)}`, { cache: "no-store", signal: AbortSignal.timeout(CONNECT_LIMIT_MS) });
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
    R.offline = false;
    R.backoff = BACKOFF.first;
    R.message = "";
    if (R.arrival) {
      // The link is used up (or was): the address loses it, so a reload
      // hellos with this device's own token.
      R.arrival = null;
      history.replaceState(history.state, "", roomAddress());
      if (msg.seat === "spectator") say(t("room.arrivalUsed"), msg.state);
    }
    setState(msg.state, msg.seat);
  } else if (msg.type === "state") {
    setState(msg.state, msg.seat);
  } else if (msg.type === "transfer-link") {
    const url = `${location.origin}${location.pathname}?room=${R.id}&seat=${encodeURIComponent(msg.token)}`;
    R.transfer = { url, until: Date.now() + msg.expires_ms };
    render();
  } else if (msg.type === "seat-moved") {
    // The seat went to another device with a new token; this one's is retired.
    R.moved = true;
    R.transfer = null;
    try { localStorage.removeItem(tokenKey(R.id)); } catch (e) { /* nothing kept */ }
    render();
  } else if (msg.type === "error") {
    R.pending = false;
    // A stale board is redrawn by the state that follows; not worth words.
    // The server's words are English; a code the tables know is said in
    // the page's language.
    if (msg.code !== "stale") {
      const key = `room.error.${msg.code}`;
      const said = t(key);
      say(said !== key ? said : msg.message || msg.code, R.state);
    }
    render();
  }
}

// A message lasts while the game stays where it was said: the same game,
// the same plies, the same status, the same offers. A move, a takeback,
// the end or a rematch ends it (an "Undo declined" is not left up through
// a resignation).
const momentOf = (s) => (s ? `${s.game}/${s.moves.length}/${s.status}/${!!s.draw}/${!!s.undo}` : "");
function say(text, state) {
  R.message = text;
  R.messageFor = momentOf(state);
}

function setState(state, seat) {
  const before = R.state;
  const myTurnBefore = canMove();
  R.state = state;
  R.seat = seat;
  R.stateAt = performance.now();
  R.pending = false;
  R.games = Math.max(R.games, state.game);
  const news = announce(before, state);
  if (news) say(news, state);
  else if (R.messageFor !== momentOf(state)) R.message = "";
  if (R.seat === "spectator") R.transfer = null;
  if (!myTurnBefore && canMove()) chime();
  render();
}

// Words for what just happened that the board does not show by itself:
// passes, an undo taken back or refused, a new game.
function announce(before, st) {
  if (before && before.game !== st.game) return t("room.swapped", { n: st.game });
  if (before && before.undo && !st.undo) {
    const by = who(before.undo.by);
    // The takeback names the plies that went (passes are the server's, not a move).
    if (st.takeback && st.moves.length < before.moves.length) {
      const moves = st.takeback.moves.filter((m) => m !== "pass").join(" ");
      return t("room.takenBack", { ...who(st.takeback.by), moves });
    }
    return before.moves.length === st.moves.length ? t("room.undoDeclined", by) : "";
  }
  if (before && before.draw && !st.draw && st.status === "playing" && before.moves.length === st.moves.length) {
    return t("room.drawDeclined", who(before.draw.by));
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

// Whether the game may still be aborted: one side has not placed a disc
// yet (a pass is no placement).
function abortable() {
  const s = R.state;
  if (!s || s.status !== "playing") return false;
  const placed = (parity) => s.moves.some((m, i) => i % 2 === parity && m !== "pass");
  return !(placed(0) && placed(1));
}

// ---- sound and the tab's title on one's turn ----

let audio = null;
// Browsers start audio only after a gesture on the page: the context is
// made (or resumed) at the first click or key.
function unlockAudio() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch (e) { audio = null; }
}
// Two short rising tones, made here (no sound file to fetch).
function chime() {
  if (!R.sound || !audio) return;
  const start = audio.currentTime + 0.01;
  [660, 880].forEach((hz, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    const at = start + i * 0.11;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.1);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.11);
  });
}
function toggleSound() {
  R.sound = !R.sound;
  try { localStorage.setItem(SOUND_KEY, R.sound ? "on" : "off"); } catch (e) { /* this tab only */ }
  render();
}

let baseTitle = "";
function renderTitle() {
  document.title = canMove() ? `● ${t("room.title.yourMove")} — Mollett` : baseTitle;
}

// Draws the page from R with what only this module decides.
function render() {
  draw({ canMove: canMove(), resignArmed: resignArmed(), abortable: abortable() });
  renderTitle();
}

function setName(name) {
  const clean = name.trim();
  try { localStorage.setItem("mollett-room-name", clean); } catch (e) { /* this tab only */ }
  send({ type: "name", name: clean });
}

function roomAddress() {
  const lang = q.get("lang");
  return `${location.pathname}?room=${R.id}${lang ? `&lang=${encodeURIComponent(lang)}` : ""}`;
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
  R.id = body.room;
  history.replaceState(null, "", roomAddress());
  return body.room;
}

async function startRoom() {
  await loadLang(chooseLang()); // the room's words (app.js draws the page's static ones)
  baseTitle = document.title;
  try { R.sound = localStorage.getItem(SOUND_KEY) !== "off"; } catch (e) { /* default on */ }
  let savedName = "";
  try { savedName = localStorage.getItem("mollett-room-name") || ""; } catch (e) { /* none */ }
  document.addEventListener("pointerdown", unlockAudio);
  document.addEventListener("keydown", unlockAudio);
  buildRoomPage(R, {
    click: clickSquare,
    copy: copyLink,
    undo: () => send({ type: "undo" }),
    accept: () => send({ type: "undo-answer", accept: true }),
    decline: () => send({ type: "undo-answer", accept: false }),
    resign,
    rematch: () => send({ type: "rematch" }),
    name: setName,
    savedName,
    draw: () => send({ type: "draw" }),
    drawAccept: () => send({ type: "draw-answer", accept: true }),
    drawDecline: () => send({ type: "draw-answer", accept: false }),
    abort: () => send({ type: "abort" }),
    claim: () => send({ type: "claim" }),
    transfer: () => send({ type: "transfer" }),
    sound: toggleSound,
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
  const arrival = q.get("seat");
  if (arrival && /^[0-9a-f]{32}$/.test(arrival)) R.arrival = arrival;
  $("#room-link").textContent = `${location.origin}${location.pathname}?room=${id}`;
  setInterval(heartbeat, 500);
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
    get offline() { return !R.connected; },
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
