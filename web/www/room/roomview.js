// The room page's drawing (room.js keeps the connection and the actions):
// the board, #status with its data-state and data-seat, the seats and
// their clocks, the buttons, the move list and the links, all from the
// room as room.js holds it (its fields are listed there).

import { SQUARES } from "../shared/game.js";
import { buildGrid, describe, updateTabStop } from "../shared/boardgrid.js";
import { t, player, colourWords, applyStatic } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

let R = null; // room.js's room, given to buildRoomPage
let F = { canMove: false, resignArmed: false }; // room.js's decisions, given to render

// The protocol calls the second seat "white" in both rule sets; classic
// players call it red.
export function colourName(colour, variant = R && R.state && R.state.variant) {
  return colour === "white" && variant === "classic" ? "red" : colour;
}
// The colour of ply i (0-based): plies alternate, passes included.
export const plyColour = (i) => (i % 2 === 0 ? "black" : "white");
export const transcriptOf = (moves) => moves.filter((m) => m !== "pass").join("");
// A seat's colour as the i18n texts take it ({C} {c} {co}), in the room's
// rule set.
export const who = (colour, variant = R && R.state && R.state.variant) => player(colourName(colour, variant), variant);

function clockText(ms) {
  const left = Math.max(0, ms);
  const s = Math.floor(left / 1000);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return left < 10000 ? `${text}.${Math.floor((left % 1000) / 100)}` : text;
}

// The panel's words are keys (data-i18n, i18n.js's applyStatic); the
// buttons whose words change with the game are drawn by renderActions.
const PANEL = `
  <div class="row"><b data-i18n="room.link">Room link</b> <button id="room-copy" data-i18n="board.copy">Copy</button></div>
  <div id="room-link" class="mono"></div>
  <div id="room-seats"></div>
  <div class="row" id="room-actions">
    <button id="room-undo" data-i18n-title="room.askUndo.title">Ask to undo</button>
    <button id="room-accept" data-i18n="room.accept">Accept undo</button><button id="room-decline" data-i18n="room.decline">Decline undo</button>
    <button id="room-resign">Resign</button>
    <button id="room-rematch" data-i18n-title="room.rematch.title">Rematch</button>
  </div>
  <div id="room-moves" class="mono" data-i18n-label="board.moves.label"></div>
  <div class="row"><b data-i18n="board.transcript">Transcript</b></div>
  <div id="transcript" class="mono"></div>
  <div class="row">
    <a id="room-ggf" class="button" download data-i18n="board.downloadGgf">Download GGF</a>
    <a id="room-txt" class="button" download data-i18n="room.downloadTxt">Download transcript</a>
    <a id="room-open" class="button" target="_blank" rel="noopener" data-i18n="room.open">Open on the board</a>
  </div>
  <div class="row"><a href="./" data-i18n="room.leave">Leave the room</a></div>`;

// The board and the room's panel in place of the board page's controls;
// `on` has the room's actions (click, copy, undo, accept, decline, resign,
// rematch).
export function buildRoomPage(room, on) {
  R = room;
  document.body.dataset.room = "";
  buildGrid($("#board"), on.click);
  $("#side").innerHTML = PANEL;
  applyStatic($("#side"));
  $("#room-copy").addEventListener("click", on.copy);
  $("#room-undo").addEventListener("click", on.undo);
  $("#room-accept").addEventListener("click", on.accept);
  $("#room-decline").addEventListener("click", on.decline);
  $("#room-resign").addEventListener("click", on.resign);
  $("#room-rematch").addEventListener("click", on.rematch);
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

// "Game over: Black wins 40-24 (White resigned)." in the page's language.
function resultText(s) {
  const r = s.result;
  const hi = Math.max(r.black, r.white), lo = Math.min(r.black, r.white);
  const result = r.winner ? t("board.outcome.win", { ...who(r.winner, s.variant), hi, lo }) : t("board.outcome.draw", { b: hi, w: lo });
  const loser = who(r.winner === "black" ? "white" : "black", s.variant);
  let why;
  if (r.reason === "resign") why = t("room.end.resign", { ...loser, result });
  else if (r.reason === "time") why = t("room.end.time", { ...loser, result });
  else if (r.black + r.white === 64) why = t("room.end.full", { result });
  else if (s.supply && (s.supply.black === 0 || s.supply.white === 0)) {
    why = t("room.end.discs", { ...who(s.supply.black === 0 ? "black" : "white", s.variant), result });
  } else why = t("room.end.stuck", { result });
  return t("board.gameOver", { result: why });
}

function renderStatus() {
  const s = R.state;
  if (!s) return setStatus("loading", t("room.joining"));
  const you = " " + (R.seat !== "spectator" ? t("room.youPlay", who(R.seat)) : t("room.watching"));
  const discs = " " + t("board.discs", { ...colourWords(s.variant), b: s.discs.black, w: s.discs.white });
  if (s.status === "over") return setStatus("game-over", resultText(s) + discs);
  if (!R.connected) return setStatus("connecting", t("room.reconnecting") + you);
  if (s.status === "waiting") return setStatus("waiting", t("room.waiting") + you);
  const mover = t("board.toMove", who(s.to_move));
  if (F.canMove) return setStatus("human-to-move", t("room.yourMove", who(R.seat)) + discs);
  if (R.seat === "spectator") return setStatus("watching", mover + discs + you);
  return setStatus("opponent-to-move", `${R.pending ? t("room.moveSent") + " " : ""}${mover}${discs}${you}`);
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
    const legal = F.canMove && s.legal.includes(sq);
    el.toggleAttribute("data-legal", legal);
    el.classList.toggle("last", sq === lastMove);
    describe(sq, { disc: el.dataset.disc, legal, last: sq === lastMove });
  });
  updateTabStop(F.canMove ? s.legal : []);
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
    row.querySelector("b").textContent = t(R.seat === colour ? "room.seat.you" : "room.seat", who(colour, s.variant));
    row.querySelector(".presence").textContent = t(`room.presence.${presence}`);
    el.appendChild(row);
  }
  if (s.spectators) {
    const w = document.createElement("div");
    w.className = "watchers";
    w.textContent = t("room.watchers", { n: s.spectators });
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
  $("#room-undo").textContent = t(undo && undo.by === R.seat ? "room.undoAsked" : "room.askUndo");
  show("#room-accept", playing && !!undo && undo.by !== R.seat);
  show("#room-decline", playing && !!undo && undo.by !== R.seat);
  show("#room-resign", playing);
  $("#room-resign").textContent = t(F.resignArmed ? "room.resignSure" : "room.resign");
  const over = player && s.status === "over";
  show("#room-rematch", over);
  if (over) {
    const offered = s.rematch || [];
    $("#room-rematch").disabled = offered.includes(R.seat);
    $("#room-rematch").textContent = offered.includes(R.seat) ? t("room.rematchOffered")
      : offered.length ? t("room.rematchAccept", who(offered[0])) : t("room.rematch");
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
    text = s.undo.by === R.seat ? t("room.undoWaiting") : t("room.undoAsks", who(s.undo.by));
  }
  if (!text && s && s.status === "over" && (s.rematch || []).length) {
    const [a, b] = s.rematch.map((c) => who(c).C);
    text = b ? t("room.rematchBoth", { A: a, B: b }) : t("room.rematchOne", who(s.rematch[0]));
  }
  $("#message").textContent = text;
}

// Everything drawn again from the room's state; `flags` are what room.js
// decides: {canMove, resignArmed}.
export function render(flags) {
  F = flags;
  renderStatus();
  renderBoard();
  renderSeats();
  renderActions();
  renderMoves();
  renderMessage();
}
