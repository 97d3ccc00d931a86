// The controller, as lichess's ctrl: it owns the page's state (state.js
// hands the writable object to it alone) and every write to it, the game
// tree's included; and it owns `redraw()`, which every module calls after
// a change and which draws at most once per animation frame. The acting
// modules (actions, session, records, review, settings, games, ending,
// address) decide what happens and call the methods here; the view
// (view/*.js) only reads the state.
//
//   click / key / engine answer -> an acting module -> ctrl.method()
//     -> redraw() -> (next frame) view(S) patches the DOM

import { claimState, S } from "./state.js";
import { Node, SQUARES } from "../shared/game.js";
import { freshClock, clockAfter } from "./clock.js";

const state = claimState();

// ---- redraw: once per animation frame ----

let draw = () => {};
let frame = 0;

// The view's entry (app.js hands it over at start).
export function setView(fn) {
  draw = fn;
}

// Asks for the page to be drawn from the state; calls within one frame
// are one drawing (as chessground's and lichess's redraw).
export function redraw() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    draw();
  });
}

// ---- the settings ----

// `patch` holds any of variant, level, time, hints, hintDepth, human.
export function setSettings(patch) {
  for (const [k, v] of Object.entries(patch)) {
    if (k === "human") state.human = { ...v };
    else state[k] = v;
  }
  redraw();
}

export function setShowLoss(on) {
  state.showLoss = !!on;
  redraw();
}

// ---- the game and the position shown ----

// An empty tree before the engine is ready.
export function startEmpty() {
  state.root = new Node(null, null);
  state.node = state.root;
  redraw();
}

// The position shown becomes `node`; false when it already was.
export function jump(node) {
  if (!node || node === state.node) return false;
  state.thinking = null;
  state.editing = null; // an edit is dropped by going elsewhere
  state.node = node;
  if (state.practice && node !== state.practice.list[state.practice.i].parent) state.practice = null;
  redraw();
  return true;
}

// A move played at the position shown (a human's, a pass, the engine's):
// the child node becomes the line's next ply and the position shown.
// `quiet`: its address replaces the entry (a forced pass).
export function play(move, { quiet = false } = {}) {
  state.node = state.node.child(move);
  if (quiet) state.quietAddress = true;
  redraw();
  return state.node;
}

// The engine's move `mv` at `node`, from its search; the value it searched
// (`value`, {score, text, kind}, the mover's view) kept for the graph.
export function engineMoved(node, mv, value) {
  state.thinking = null;
  if (value) setValue(node, value.score, value.text, value.kind);
  const child = node.child(mv);
  if (node.value && !child.value) child.value = { ...node.value };
  state.node = child;
  redraw();
}

// A branch of the move list chosen: the list follows it from its parent.
export function chooseBranch(node) {
  node.parent.line = node;
  redraw();
}

// Back or Forward in the browser: the line becomes `path`'s and `node` (on
// it) is shown; its address replaces the entry.
export function followPath(path, node) {
  for (let i = 1; i < path.length; i++) path[i - 1].line = path[i];
  state.node = node;
  state.thinking = null;
  state.practice = null;
  state.quietAddress = true;
  redraw();
}

// Whether the next address replaces the entry; asked once (address.js).
export function takeQuietAddress() {
  const q = state.quietAddress;
  state.quietAddress = false;
  return q;
}

// A new game of `variant` (from the position `setup`, setboard arguments).
export function freshGame(variant, setup = null) {
  state.variant = variant;
  state.root = new Node(null, null);
  state.root.setup = setup;
  state.node = state.root;
  state.thinking = null;
  state.synced = null;
  state.hintsAt = null;
  state.editing = null; // a new or loaded game shows its own board
  state.ended = null;
  if (state.clock) state.clock = freshClock(state.clock);
  redraw();
}

// A game replayed in the engine (records.js): its tree, the ply shown,
// and how it ended when it ended early (a resignation, a flag).
export function loaded({ variant, root, node, ended = null }) {
  state.ended = ended;
  state.synced = null;
  state.variant = variant;
  state.root = root;
  state.node = node;
  state.fileReview = null;
  state.players = { black: "black", white: "white" };
  state.thinking = null;
  state.hintsAt = null;
  state.editing = null; // loaded while editing: the board shows what was loaded
  redraw();
}

export function setPlayers(players) {
  state.players = { black: "black", white: "white", ...players };
  redraw();
}

export function setFileReview(summary) {
  state.fileReview = summary ? { summary } : null;
  redraw();
}

// ---- what the engine found: positions, values, reviews ----

export function setNodeState(node, st) {
  node.state = st;
  redraw();
}

// A value for the graph, `score` the side to move's at `node`.
export function setValue(node, score, text, kind) {
  const side = node.state ? node.state.side : null;
  const black = side === "black" ? score : -score;
  node.value = { black, text, kind };
  redraw();
}

// A value in black's view as it stands (read from a GGF file, a final count).
export function setBlackValue(node, value) {
  node.value = value;
  redraw();
}

export function setReview(node, review) {
  node.review = review;
  redraw();
}

export function setHintsAt(hints) {
  state.hintsAt = hints;
  redraw();
}

// ---- the engine session (session.js) ----

export function setEngine(engine) {
  state.engine = engine;
}

export function setSynced(synced) {
  state.synced = synced;
}

export function bumpEpoch() {
  state.epoch += 1;
}

export function setSearching(on) {
  state.searching = on;
}

// The engine chooses a move at `node`; `cap` seconds at most (null: none).
export function startThinking(node, cap) {
  state.thinking = { node, info: null, since: performance.now(), cap };
  redraw();
}

export function thinkingInfo(info) {
  if (!state.thinking) return;
  state.thinking = { ...state.thinking, info };
  redraw();
}

export function stopThinking() {
  state.thinking = null;
  redraw();
}

// ---- editing a position ----

// Clicks cycle a square empty, black, white (red); the side to move starts
// as the position's (black after a game's end) and the player may change it.
export function editFrom(node) {
  const st = node.state;
  const second = !!st && !st.over && st.side !== "black";
  state.editing = { board: st ? st.board.split("") : Array(64).fill("-"), side: second ? "O" : "X" };
  redraw();
}

export function setEditSide(side) {
  state.editing = { ...state.editing, side: side === "O" ? "O" : "X" };
  redraw();
}

export function cycleSquare(sq) {
  if (state.editing.applying) return;
  const i = SQUARES.indexOf(sq);
  const b = state.editing.board.slice();
  b[i] = b[i] === "-" ? "X" : b[i] === "X" ? "O" : "-";
  state.editing = { ...state.editing, board: b };
  redraw();
}

export function clearEditBoard() {
  state.editing = { ...state.editing, board: Array(64).fill("-") };
  redraw();
}

export function stopEditing() {
  state.editing = null;
  redraw();
}

// Done: the edited board stays shown, not editable, until the engine has
// taken it (freshGame ends the edit) or refused it (stopEditing). Shown
// as the old position meanwhile, a busy Worker's round trip would flash
// the board before the edit.
export function applyingEdit() {
  state.editing = { ...state.editing, applying: true };
  redraw();
}

// ---- review and practice (review.js) ----

export function setReviewing(r) {
  state.reviewing = r;
  redraw();
}

export function reviewedOne() {
  state.reviewing = { ...state.reviewing, done: state.reviewing.done + 1 };
  redraw();
}

// Practice: {list, i, last, misses}, or null when it ends.
export function setPractice(p) {
  state.practice = p;
  redraw();
}

// A practice try's outcome: `patch` holds any of last, i, misses.
export function practiceStep(patch) {
  state.practice = { ...state.practice, ...patch };
  redraw();
}

// ---- the clocks and the game's end ----

export function setControl(control) {
  state.clock = freshClock(control);
  redraw();
}

// The clocks brought up to the game (clock.js).
export function syncClock(now = performance.now()) {
  state.clock = clockAfter(state.clock, now);
}

// The clocks a reload found kept (address.js): each side's time left, and
// the side that was running since `sinceWall` (Date.now()'s milliseconds;
// the time away counts), or none.
export function restoreClock(left, running) {
  let n = state.node;
  while (n.line) n = n.line;
  const turn = running ? { node: n, side: running.side, since: performance.now() - (Date.now() - running.sinceWall) } : null;
  state.clock = { ...state.clock, left: { black: left.black, second: left.second }, turn };
  redraw();
}

export function end(by, loser) {
  syncClock();
  state.ended = { by, loser };
  syncClock();
  state.thinking = null;
  redraw();
}

// ---- the words under the board, the saved games ----

export function note(text) {
  state.notes = [...state.notes, text];
  redraw();
}

// The message line; `refused` the square a click could not play.
export function message(text, refused = null) {
  state.message = { text, refused };
  redraw();
}

export function setSaved(list) {
  state.saved = list;
  redraw();
}

export { S };
