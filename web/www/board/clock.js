// The clock for both sides (a time control, "main+increment" in seconds):
// pure functions of S.clock, which the controller (ctrl.js) replaces by
// their answers; no DOM. From the game's first move, the side to move at
// the end of the line shown runs; a move made there charges its time and
// adds the increment. The engine is told its time left
// (`time_left`), so its search fits it.

import { S } from "./state.js";

// "300+3" -> {main: 300, inc: 3}; null for anything else (also "0+0"). An
// address gives "300 3" for clock=300+3 (a "+" there is a space).
export function parseControl(text) {
  const m = /^(\d+(?:\.\d+)?)[+ ](\d+(?:\.\d+)?)$/.exec(String(text || "").trim());
  if (!m) return null;
  const main = +m[1], inc = +m[2];
  if (!(main > 0 && main <= 36000 && inc <= 3600)) return null;
  return { main, inc };
}

export function controlText(c) {
  return `${c.main}+${c.inc}`;
}

// Both clocks at the control's main time (or none): at a new game and
// when the control is chosen.
export function freshClock(control) {
  return control ? { main: control.main, inc: control.inc, left: { black: control.main * 1000, second: control.main * 1000 }, turn: null } : null;
}

function lineEnd(node) {
  let n = node;
  while (n.line) n = n.line;
  return n;
}

// Who is to move at `node`: plies alternate, passes being plies.
function sideAt(node) {
  const first = S.root.state && S.root.state.side && S.root.state.side !== "black" ? "second" : "black";
  const other = first === "black" ? "second" : "black";
  return node.path().length % 2 === 0 ? first : other;
}

// The clocks brought up to the game: the side that was running is charged
// its time, plus the increment when it has just moved; then the side to
// move at the end of the line runs, unless the game is over or ended.
// Returns `c` itself when nothing changes.
export function clockAfter(c, now = performance.now()) {
  if (!c || !S.root) return c;
  const end = lineEnd(S.node);
  // The clocks start at the game's first move (lichess starts each side's
  // at its first move; here black's first move is free and white's clock
  // starts with it), not at the page's load.
  const live = end !== S.root && !S.ended && !S.editing && !(end.state && end.state.over);
  if (c.turn && c.turn.node === end && live) return c;
  const left = { ...c.left };
  if (c.turn) {
    const { side, node, since } = c.turn;
    left[side] = Math.max(0, left[side] - (now - since));
    let n = end;
    while (n && n.parent !== node) n = n.parent;
    if (n && n.move !== "pass" && left[side] > 0) left[side] += c.inc * 1000;
  }
  return { ...c, left, turn: live ? { node: end, side: sideAt(end), since: now } : null };
}

// Milliseconds left on `side`'s clock now.
export function remaining(side, now = performance.now()) {
  const c = S.clock;
  if (!c) return Infinity;
  const running = c.turn && c.turn.side === side ? now - c.turn.since : 0;
  return Math.max(0, c.left[side] - running);
}

// The side whose clock has run out, or null.
export function flagged(now = performance.now()) {
  const c = S.clock;
  return c && c.turn && remaining(c.turn.side, now) <= 0 ? c.turn.side : null;
}

// The engine's lines before it moves with a clock: the level's depth,
// then its time left, so that its own time manager shares it out.
// ("Time per move" chosen: no depth, the clock alone.)
export function clockLines(side) {
  const secs = Math.max(0.05, remaining(side) / 1000).toFixed(2);
  const depth = S.time !== null ? ["set_option depth 0", "set_option endgame 18"] : [`set_option level ${S.level}`];
  return [...depth, `time_left ${side === "black" ? "black" : "white"} ${secs} 0`];
}

// "4:59", "0:09.4" (tenths under ten seconds).
export function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
