// Pure readings of the page's state: which moves may be played, where undo
// and redo go, a line walked, the review's figures. No writes (those are
// ctrl.js's), no DOM, engine, history or storage.

import { S, sideIsHuman } from "./state.js";
import { t, player } from "../shared/i18n.js";

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

// A finished game's result: "Black wins 40-24", "a draw, 32-32" (the
// status line's and the saved games list's).
export function outcome(st) {
  const b = st.discs.black, w = st.discs.second;
  if (b === w) return t("board.outcome.draw", { b, w });
  return t("board.outcome.win", { ...player(b > w ? "black" : st.second, S.variant), hi: Math.max(b, w), lo: Math.min(b, w) });
}

// The side that would resign: the human's, or with two humans the side
// to move; null when there is no game to resign.
export function resignSide() {
  const st = S.node.state;
  if (!st || st.over || S.ended || S.editing) return null;
  const human = ["black", "second"].filter((s) => (s === "black" ? S.human.black : S.human.second));
  if (human.length === 1) return human[0];
  if (human.length === 2) return st.side === "black" ? "black" : "second";
  return null;
}

// A game ended by a resignation or a flag, in words: "White wins (black
// resigned)", "White wins on time (black ran out of time)"; the status
// line's, the saved games list's.
export function endedResult() {
  const e = S.ended;
  const loser = player(e.loser === "black" ? "black" : "second", S.variant);
  const winner = player(e.loser === "black" ? "second" : "black", S.variant);
  return t(e.by === "resign" ? "board.ended.resign" : "board.ended.time", { W: winner.C, w: winner.c, L: loser.C, l: loser.c, lo: loser.co });
}

// GGF's RE tag for it, black's view: the winner's 64 discs, ":r" for a
// resignation, ":t" for time (as GGS writes them).
export function endedGgf() {
  const e = S.ended;
  return `${e.loser === "black" ? "-" : "+"}64.000:${e.by === "resign" ? "r" : "t"}`;
}

// The one value of the position after `node` (black's view) that the page
// shows, {black, text, kind}, or null: the review's where the move was
// reviewed (it searched deeper than the hints and the graph's fill), else a
// value read from a file, else, with hints on, the engine's own (its move,
// the hints, the graph's fill). With hints off nothing of the engine's
// view shows: only what the player asked for (a review, a file's values)
// and a finished game's count.
export function shownValue(node) {
  const r = node.review;
  if (r && !r.fromFile) {
    const black = r.side === "black" ? r.value : -r.value;
    return { black, text: String(r.value), kind: reviewKind(r) };
  }
  const v = node.value;
  if (!v) return null;
  if (v.kind === "file" || v.kind === "final" || S.hints) return v;
  return null;
}

// What a review's values are: "exact", or the depth it searched.
export function reviewKind(r) {
  return r.exact ? "exact" : r.depth ? `depth ${r.depth}` : "review";
}

// A review's value as the review line, practice and the loss graph show it:
// to a tenth of a disc (whole where it is whole), whatever the look, since
// the review's classes are drawn at whole discs (2 lost is an inaccuracy,
// 1.6 is good) and a loss rounded to whole discs would hide which side of
// the line a move fell ("2 discs lost" both good and an inaccuracy).
// An upper bound in a review's text: "≤-1.6", rounded up to the tenth.
export function reviewBound(v) {
  return `≤${reviewValue(Math.ceil(v * 10 - 1e-9) / 10)}`;
}

export function reviewValue(v) {
  let text = Number.isInteger(v) ? String(v) : v.toFixed(1);
  if (/^-0(\.0)?$/.test(text)) text = text.slice(1); // no "-0"
  return +text > 0 ? `+${text}` : text;
}

// The loss as the two review values shown give it; never below 0.
export function reviewLoss(best, value) {
  const l = Math.max(0, Math.round((+reviewValue(best) - +reviewValue(value)) * 10) / 10);
  return Number.isInteger(l) ? String(l) : l.toFixed(1);
}

// The classes in order, and a loss's class by discs alone (2, 4 and 8
// discs: src/engine/review.rs Class::of). The engine moves a class up
// where the move puts the result at risk (winning chances) and down where
// the result stands whatever was played (docs/analyze.md): the review line
// says which, so that two moves that lose the same discs and are marked
// apart say why.
const CLASS_ORDER = ["forced", "best", "good", "inaccuracy", "mistake", "blunder"];
export function discClass(loss) {
  return loss >= 8 ? "blunder" : loss >= 4 ? "mistake" : loss >= 2 ? "inaccuracy" : loss > 0 ? "good" : "best";
}

// +1 where the review's class is above its loss's class by discs, -1
// where below, 0 where the same (forced moves: 0).
export function classShift(r) {
  if (r.cls === "forced" || !CLASS_ORDER.includes(r.cls)) return 0;
  const loss = Math.round((r.bestValue - r.value) * 100) / 100;
  return Math.sign(CLASS_ORDER.indexOf(r.cls) - CLASS_ORDER.indexOf(discClass(loss)));
}

// The review's values of every legal move at `node` (from the review of
// the move played there), as hints: [{move, score, text, kind}], with the
// review's depth and whether it was exact; null where no move from `node`
// was reviewed.
export function reviewValuesAt(node) {
  const c = [node.line, ...node.children].find((n) => n && n.review && !n.review.fromFile && n.review.values && n.review.values.length);
  if (!c) return null;
  const r = c.review;
  const kind = r.exact ? "exact" : "search";
  const values = r.values.map(([move, score, bound]) => ({ move, score, bound: !!bound, text: `${bound ? "≤" : ""}${score}`, kind,
                                                           pv: move === r.best ? r.pv : null }));
  return { values, depth: r.depth || null, exact: !!r.exact };
}
