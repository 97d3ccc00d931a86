// What a player's clicks and keys do to the game: a move, a jump through
// the tree (back, forward, undo, redo), a new game, editing the board.

import { S, sideIsHuman } from "./state.js";
import { Node, SQUARES } from "./game.js";
import { refresh, obsolete } from "./session.js";
import { practiceTry } from "./review.js";
import { render } from "./view.js";
import { loadSetup } from "./records.js";

const $ = (sel) => document.querySelector(sel);

// Plays `sq` for the human to move; answers "illegal" when it is their
// turn and `sq` is not one of their moves (the view says so).
export function playHuman(sq) {
  const st = S.node.state;
  if (!st || st.over || !sideIsHuman(st.side)) return;
  if (!st.legal.includes(sq)) return "illegal";
  if (S.practice && S.node === S.practice.list[S.practice.i].parent) return practiceTry(sq);
  S.node = S.node.child(sq);
  refresh();
}

export function goTo(node) {
  if (!node || node === S.node) return;
  S.thinking = null;
  S.node = node;
  if (S.practice && node !== S.practice.list[S.practice.i].parent) S.practice = null;
  refresh();
}

export function back() { goTo(S.node.parent); }
export function forward() { goTo(S.node.line); }
export function first() { goTo(S.root); }
export function last() { let n = S.node; while (n.line) n = n.line; goTo(n); }

// Undo and redo move to the previous (next) position where a human is
// to move: against the engine, the engine's reply goes with the move.
function humanTurn(n) {
  return n.state && !n.state.over && !n.state.mustPass && sideIsHuman(n.state.side);
}
export function undo() {
  let n = S.node.parent;
  while (n && n.parent && !humanTurn(n)) n = n.parent;
  if (n) goTo(n);
}
export function redo() {
  let n = S.node.line;
  while (n && n.line && !humanTurn(n)) n = n.line;
  if (n) goTo(n);
}

export function newGame(variant, setup = null) {
  S.variant = variant;
  S.root = new Node(null, null);
  S.root.setup = setup;
  S.node = S.root;
  S.thinking = null;
  S.synced = null;
  S.hintsAt = null;
  refresh();
}

// Setting up a position: clicks cycle a square empty, black, white (red);
// Done loads it through the engine, which checks it.
export function startEditing() {
  obsolete();
  const st = S.node.state;
  S.editing = { board: st ? st.board.split("") : Array(64).fill("-"), side: st && st.side && st.side !== "black" ? "O" : "X" };
  $("#setup-panel").hidden = false;
  render();
}

export function editSquare(sq) {
  const i = SQUARES.indexOf(sq);
  const b = S.editing.board;
  b[i] = b[i] === "-" ? "X" : b[i] === "X" ? "O" : "-";
  render();
}

export function finishEditing(apply) {
  const e = S.editing;
  stopEditing();
  if (apply) loadSetup(`${e.board.join("")} ${$("#setup-side").value}`);
  else refresh();
}

// Leaves setup mode, the edited board dropped (Back or Forward meanwhile).
export function stopEditing() {
  S.editing = null;
  $("#setup-panel").hidden = true;
}
