// The room page's drawing (room.js keeps the connection and the actions):
// the board, #status with its data-state and data-seat, the seats and
// their clocks, the buttons, the move list and the links, all from the
// room as room.js holds it (its fields are listed there).

import { qrcode } from "../shared/vendor/qrcode.js";
import { SQUARES } from "../shared/game.js";
import { buildGrid, describe, updateTabStop } from "../shared/boardgrid.js";
import { t, player, colourWords, applyStatic } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

let R = null; // room.js's room, given to buildRoomPage
let F = { canMove: false, resignArmed: false, abortable: false }; // room.js's decisions, given to render

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
// The seats and clocks come first, so a phone shows them beside or under
// the board without scrolling.
const PANEL = `
  <div id="room-seats"></div>
  <div id="room-notice" aria-live="polite"></div>
  <div class="row" id="room-actions">
    <button id="room-undo" data-i18n-title="room.askUndo.title">Ask to undo</button>
    <button id="room-accept" data-i18n="room.accept">Accept undo</button><button id="room-decline" data-i18n="room.decline">Decline undo</button>
    <button id="room-draw" data-i18n="room.draw">Offer a draw</button>
    <button id="room-draw-accept" data-i18n="room.drawAccept">Accept the draw</button><button id="room-draw-decline" data-i18n="room.drawDecline">Decline the draw</button>
    <button id="room-claim" data-i18n="room.claim">Claim the win</button>
    <button id="room-abort" data-i18n-title="room.abort.title" data-i18n="room.abort">Abort</button>
    <button id="room-resign">Resign</button>
    <button id="room-rematch" data-i18n-title="room.rematch.title">Rematch</button>
    <button id="room-sound" aria-pressed="true"></button>
  </div>
  <form class="row" id="room-name-form">
    <label><span data-i18n="room.name">Your name</span> <input id="room-name" type="text" dir="auto" maxlength="24" autocomplete="nickname" data-i18n-placeholder="room.name.placeholder"></label>
    <button id="room-name-set" type="submit" data-i18n="room.name.set">Set</button>
  </form>
  <div class="row"><b data-i18n="room.link">Room link</b> <button id="room-copy" data-i18n="board.copy">Copy</button></div>
  <div id="room-link" class="mono"></div>
  <div class="row"><button id="room-transfer" data-i18n="room.transfer" data-i18n-title="room.transfer.title">Continue on another device</button></div>
  <div id="room-transfer-box" hidden>
    <div data-i18n="room.transfer.how">Open this link on the other device (or scan the code); it works once, for 10 minutes, and this page then only watches.</div>
    <div id="room-transfer-link" class="mono"></div>
    <div id="room-qr" role="img" data-i18n-label="room.transfer.qr"></div>
  </div>
  <div id="room-moves" class="mono" data-i18n-label="board.moves.label"></div>
  <div class="row"><b data-i18n="board.transcript">Transcript</b></div>
  <div id="transcript" class="mono"></div>
  <div class="row">
    <a id="room-ggf" class="button" download data-i18n="board.downloadGgf">Download GGF</a>
    <a id="room-txt" class="button" download data-i18n="room.downloadTxt">Download transcript</a>
    <a id="room-open" class="button" target="_blank" rel="noopener" data-i18n="room.open">Open on the board</a>
  </div>
  <ol id="room-games" hidden></ol>
  <div class="row"><a href="./" data-i18n="room.leave">Leave the room</a></div>`;

// The board and the room's panel in place of the board page's controls;
// `on` has the room's actions (click, copy, undo, accept, decline, resign,
// rematch, name, draw, drawAccept, drawDecline, abort, claim, transfer,
// sound) and `savedName`, the name this browser used last.
export function buildRoomPage(room, on) {
  R = room;
  document.body.dataset.room = "";
  buildGrid($("#board"), on.click);
  $("#side").innerHTML = PANEL;
  // The messages (an offer, a takeback, a refusal) go under the seats,
  // beside the buttons that answer them: below the board a landscape
  // phone would not show them.
  $("#room-notice").after($("#message"));
  applyStatic($("#side"));
  $("#room-copy").addEventListener("click", on.copy);
  $("#room-undo").addEventListener("click", on.undo);
  $("#room-accept").addEventListener("click", on.accept);
  $("#room-decline").addEventListener("click", on.decline);
  $("#room-resign").addEventListener("click", on.resign);
  $("#room-rematch").addEventListener("click", on.rematch);
  $("#room-draw").addEventListener("click", on.draw);
  $("#room-draw-accept").addEventListener("click", on.drawAccept);
  $("#room-draw-decline").addEventListener("click", on.drawDecline);
  $("#room-abort").addEventListener("click", on.abort);
  $("#room-claim").addEventListener("click", on.claim);
  $("#room-transfer").addEventListener("click", on.transfer);
  $("#room-sound").addEventListener("click", on.sound);
  $("#room-name").value = on.savedName || "";
  $("#room-name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    on.name($("#room-name").value);
  });
  $("#thinking").textContent = "";
  $("#notes").textContent = "";
  setInterval(() => { renderClocks(); renderNotice(); }, 100);
}

function setStatus(state, text) {
  const el = $("#status");
  el.dataset.state = state;
  // The contract names the second seat by its rule set's word: red in classic.
  el.dataset.seat = R.seat && R.seat !== "spectator" ? colourName(R.seat) : "spectator";
  el.textContent = text;
}

// The end in the page's language: "Game over: Black wins 40-24 (the board
// is full)." for a watcher, "Game over: You won 40-24 (the board is
// full)." for a seat. Only a game played out is decided by its discs; one
// resigned, lost on time or left says who won and why, and no score:
// "Game over: White wins (Black resigned)." (the board shows the discs).
function resultText(s) {
  const r = s.result;
  if (r.reason === "aborted") return t("room.end.aborted");
  const hi = Math.max(r.black, r.white), lo = Math.min(r.black, r.white);
  const seated = R.seat === "black" || R.seat === "white";
  const played = r.reason === "end";
  let result;
  if (seated && !r.winner) result = t("room.result.draw", { hi, lo });
  else if (seated && played) result = t(r.winner === R.seat ? "room.result.won" : "room.result.lost", { hi, lo });
  else if (seated) result = t(r.winner === R.seat ? "room.result.youWon" : "room.result.youLost");
  else if (!r.winner) result = t("board.outcome.draw", { b: hi, w: lo });
  else result = played ? t("board.outcome.win", { ...who(r.winner, s.variant), hi, lo }) : t("room.outcome.wins", who(r.winner, s.variant));
  const loser = who(r.winner === "black" ? "white" : "black", s.variant);
  let why;
  if (r.reason === "agreement") why = t("room.end.agreement", { result });
  else if (r.reason === "left") why = t("room.end.left", { ...loser, result });
  else if (r.reason === "resign") why = t("room.end.resign", { ...loser, result });
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
  const you = " " + (R.seat !== "spectator" ? t("room.youPlay", who(R.seat)) : t(R.moved ? "room.movedAway" : "room.watching"));
  const discs = " " + t("board.discs", { ...colourWords(s.variant), b: s.discs.black, w: s.discs.white });
  if (s.status === "over") return setStatus("game-over", resultText(s));
  if (!R.connected) return setStatus("connecting", t(R.offline ? "room.offline" : "room.reconnecting") + you);
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
    // Offline, this page cannot know who is there: it says nothing.
    const presence = !seat.taken ? "free" : !R.connected ? "unknown" : seat.online ? "online" : "away";
    row.dataset.presence = presence;
    const chip = colourName(colour, s.variant);
    row.innerHTML = `<span class="chip ${chip === "white" ? "white" : chip}"></span> <b></b> <span class="presence"></span> <span class="clock" data-colour="${colour}"></span>`;
    // A name is the player's own text: set as text, never parsed as markup,
    // in a <bdi> of its own, so that a right-to-left name cannot turn the
    // label around it ("(white, you)").
    const label = row.querySelector("b");
    if (seat.name) {
      const mark = "\u0000";
      const [before, after = ""] = t(R.seat === colour ? "room.seat.namedYou" : "room.seat.named", { ...who(colour, s.variant), name: mark }).split(mark);
      const bdi = document.createElement("bdi");
      bdi.textContent = seat.name;
      label.replaceChildren(before, bdi, after);
    } else {
      label.textContent = t(R.seat === colour ? "room.seat.you" : "room.seat", who(colour, s.variant));
    }
    row.querySelector(".presence").textContent = presence === "unknown" ? "" : t(`room.presence.${presence}`);
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
// decides a flag fall. Without a connection the page cannot know the
// clocks, so they stand where they were when it was lost.
function renderClocks() {
  const s = R.state;
  if (!s || !s.clock) return;
  for (const colour of ["black", "white"]) {
    const el = document.querySelector(`.clock[data-colour="${colour}"]`);
    if (!el) continue;
    let ms = s.clock[`${colour}_ms`];
    const counting = s.clock.running === colour && s.status === "playing";
    const running = counting && R.connected;
    if (counting) ms -= (R.connected ? performance.now() : Math.max(R.lostAt, R.stateAt)) - R.stateAt;
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
  const draw = s && s.draw;
  show("#room-draw", playing && !F.abortable && !(draw && draw.by !== R.seat));
  $("#room-draw").disabled = !!draw;
  $("#room-draw").textContent = t(draw && draw.by === R.seat ? "room.drawOffered" : "room.draw");
  show("#room-draw-accept", playing && !!draw && draw.by !== R.seat);
  show("#room-draw-decline", playing && !!draw && draw.by !== R.seat);
  show("#room-claim", playing && !!s.claim && s.claim.by === R.seat && s.claim.in_ms === 0);
  show("#room-abort", playing && F.abortable);
  show("#room-resign", playing && !F.abortable);
  $("#room-resign").textContent = t(F.resignArmed ? "room.resignSure" : "room.resign");
  $("#room-sound").textContent = t(R.sound ? "room.sound.on" : "room.sound.off");
  $("#room-sound").setAttribute("aria-pressed", String(R.sound));
  const seated = !!s && R.seat !== "spectator";
  $("#room-name-form").hidden = !seated;
  show("#room-transfer", seated && R.connected);
  renderTransfer();
  const over = player && s.status === "over";
  show("#room-rematch", over);
  if (over) {
    const offered = s.rematch || [];
    $("#room-rematch").disabled = offered.includes(R.seat);
    $("#room-rematch").textContent = offered.includes(R.seat) ? t("room.rematchOffered")
      : offered.length ? t("room.rematchAccept", who(offered[0])) : t("room.rematch");
  }
}

// The link that moves this seat to another device, and its QR code
// (qrcode-generator, vendored in shared/vendor: docs/rooms.md), drawn as
// SVG squares from the code's modules.
let qrFor = "";
function renderTransfer() {
  const box = $("#room-transfer-box");
  const tr = R.transfer;
  box.hidden = !tr;
  if (!tr || qrFor === tr.url) return;
  qrFor = tr.url;
  $("#room-transfer-link").textContent = tr.url;
  const code = qrcode(0, "M");
  code.addData(tr.url);
  code.make();
  const n = code.getModuleCount();
  const quiet = 4; // the standard's quiet zone, in modules
  let path = "";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (code.isDark(r, c)) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  const bg = document.createElementNS(NS, "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", "#fff");
  const dark = document.createElementNS(NS, "path");
  dark.setAttribute("d", path);
  dark.setAttribute("fill", "#000");
  svg.append(bg, dark);
  $("#room-qr").replaceChildren(svg);
}

function renderMoves() {
  const s = R.state;
  const list = $("#room-moves");
  list.textContent = s ? s.moves.map((m, i) => `${i % 2 === 0 ? `${i / 2 + 1}. ` : ""}${m}`).join(" ") : "";
  $("#transcript").textContent = s ? transcriptOf(s.moves) : "";
  if (!s) return;
  const api = `/api/rooms/${encodeURIComponent(R.id)}`;
  $("#room-ggf").href = `${api}/games/${s.game}.ggf`;
  $("#room-txt").href = `${api}/games/${s.game}.txt`;
  // After a rematch every earlier game stays downloadable.
  const games = $("#room-games");
  games.hidden = s.game < 2;
  if (games.children.length !== s.game - 1) {
    games.replaceChildren(...Array.from({ length: s.game - 1 }, (_, i) => {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = t("room.gameN", { n: i + 1 });
      li.append(label);
      for (const [ext, key] of [["ggf", "room.gameGgf"], ["txt", "room.gameTxt"]]) {
        const a = document.createElement("a");
        a.href = `${api}/games/${i + 1}.${ext}`;
        a.download = `room-${R.id.slice(0, 8)}-game${i + 1}.${ext}`;
        a.className = `game-${ext}`;
        a.textContent = t(key);
        li.append(" ", a);
      }
      return li;
    }));
  }
  const moves = transcriptOf(s.moves);
  $("#room-open").href = `./?variant=${s.variant}${moves ? `&moves=${moves}` : ""}`;
}

function renderMessage() {
  const s = R.state;
  let text = R.message;
  if (!text && s && s.undo && R.seat !== "spectator") {
    text = s.undo.by === R.seat ? t("room.undoWaiting") : t("room.undoAsks", who(s.undo.by));
  }
  // An offer is said while it stands (the state holds it), no longer.
  if (!text && s && s.status === "playing" && s.draw) {
    text = s.draw.by === R.seat ? t("room.drawWaiting") : t("room.drawAsks", who(s.draw.by));
  }
  if (!text && s && s.status === "over" && (s.rematch || []).length) {
    const [a, b] = s.rematch.map((c) => who(c).C);
    text = b ? t("room.rematchBoth", { A: a, B: b }) : t("room.rematchOne", who(s.rematch[0]));
  }
  $("#message").textContent = text;
  renderNotice();
}

// The other seat's absence: for the one who stayed, when the win may be
// claimed (counted down here between states); for a watcher, who left.
function renderNotice() {
  const s = R.state;
  const c = s && s.status === "playing" && R.connected ? s.claim : null;
  const el = $("#room-notice");
  if (!c) { el.textContent = ""; return; }
  const gone = who(c.by === "black" ? "white" : "black");
  if (R.seat !== c.by) { el.textContent = t("room.leftNotice", gone); return; }
  const left = Math.ceil(Math.max(0, c.in_ms - (performance.now() - R.stateAt)) / 1000);
  el.textContent = c.in_ms === 0 ? t("room.claimNow", gone) : t("room.claimSoon", { ...gone, s: left });
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
