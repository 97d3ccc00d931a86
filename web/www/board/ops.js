// Pure operations on the page's state: what a move, a jump, undo and redo,
// a new game or an edit does to it, and the figures the view reads. No
// DOM, engine, history or storage here: the modules that act call these,
// then ask the engine and redraw.

import { S, sideIsHuman } from "./state.js";
import { Node, SQUARES } from "../shared/game.js";
import { resetClock } from "./clock.js";

// The settings' defaults (state.js starts with them); the address leaves
// out a setting at its default.
export const DEFAULTS = { human: "black", level: 6, hints: false, hintDepth: 14 };

// Each level is a depth (the engine's `level N`: depth N, exact from 2N
// empties) and a time cap, so that every level answers: from level 18 on
// an exact solve from 36 empties would take hours in the Worker. The cap
// grows with the level; a move stops at whichever comes first.
const LEVEL_CAPS = [[4, 1], [8, 2], [12, 4], [16, 8], [20, 15], [30, 30], [60, 60]]; // [last level, seconds]
export function levelSeconds(level) {
  return LEVEL_CAPS.find(([last]) => level <= last)[1];
}

// `sq` is a move the player may make at the position shown.
export function playable(sq) {
  const st = S.node.state;
  return !!st && !st.over && !S.ended && st.legal.includes(sq) && sideIsHuman(st.side);
}

// `sq` is refused: it is the player's turn and `sq` is not one of their moves.
export function refusedSquare(sq) {
  const st = S.node.state;
  return !!st && !st.over && !S.ended && sideIsHuman(st.side) && !st.legal.includes(sq);
}

// The position shown becomes `node`; false when it already was.
export function jump(node) {
  if (!node || node === S.node) return false;
  S.thinking = null;
  S.editing = null; // an edit is dropped by going elsewhere
  S.node = node;
  if (S.practice && node !== S.practice.list[S.practice.i].parent) S.practice = null;
  return true;
}

export function lastOf(node) {
  let n = node;
  while (n.line) n = n.line;
  return n;
}

// Undo and redo move to the previous (next) position where a human is
// to move: against the engine, the engine's reply goes with the move.
function humanTurn(n) {
  return n.state && !n.state.over && !n.state.mustPass && sideIsHuman(n.state.side);
}
export function undoTarget(node) {
  let n = node.parent;
  while (n && n.parent && !humanTurn(n)) n = n.parent;
  return n;
}
export function redoTarget(node) {
  let n = node.line;
  while (n && n.line && !humanTurn(n)) n = n.line;
  return n;
}

export function freshGame(variant, setup = null) {
  S.variant = variant;
  S.root = new Node(null, null);
  S.root.setup = setup;
  S.node = S.root;
  S.thinking = null;
  S.synced = null;
  S.hintsAt = null;
  S.editing = null; // a new or loaded game shows its own board
  S.ended = null;
  resetClock();
}

// Setting up a position: clicks cycle a square empty, black, white (red);
// the side to move starts as the position's (black after a game's end)
// and the player may change it.
export function editFrom(node) {
  const st = node.state;
  const second = !!st && !st.over && st.side !== "black";
  S.editing = { board: st ? st.board.split("") : Array(64).fill("-"), side: second ? "O" : "X" };
}
export function setEditSide(side) {
  S.editing.side = side === "O" ? "O" : "X";
}
export function cycleSquare(sq) {
  const i = SQUARES.indexOf(sq);
  const b = S.editing.board;
  b[i] = b[i] === "-" ? "X" : b[i] === "X" ? "O" : "-";
}

// The nodes from `root` through `moves` in the tree as it is (passes
// taken where the tree has them), or null where the tree has no such line.
export function walk(root, moves) {
  const path = [root];
  let node = root;
  for (const mv of moves) {
    let next = node.children.find((c) => c.move === mv);
    if (!next) {
      const pass = node.children.find((c) => c.move === "pass");
      next = pass && pass.children.find((c) => c.move === mv);
      if (next) path.push(pass);
    }
    if (!next) return null;
    path.push(next);
    node = next;
  }
  const pass = node.children.find((c) => c.move === "pass");
  if (pass && node.state && node.state.mustPass) path.push(pass);
  return path;
}

export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

export function isMistake(n) {
  return n.review && MARKS[n.review.cls] !== undefined;
}

function moveAccuracy(loss) {
  return 100 * Math.pow(2, -Math.max(0, loss) / 4);
}

// Each side's figures over the reviewed moves of the line shown.
export function reviewTally() {
  const t = {};
  for (const n of S.node.lineNodes()) {
    const r = n.review;
    if (!r || r.cls === "forced") continue;
    const side = r.side;
    const s = (t[side] ||= { moves: 0, loss: 0, acc: 0, inaccuracy: 0, mistake: 0, blunder: 0 });
    s.moves += 1;
    s.loss += r.loss;
    s.acc += moveAccuracy(r.loss);
    if (r.cls in s) s[r.cls] += 1;
  }
  return t;
}
