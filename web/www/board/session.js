// The engine session: the page's wishes turned into GTP lines for the
// Worker, one job at a time; what happens at the position shown (a pass,
// the engine's move, the book or hints, the graph's values); "Move now".

import { S, sideIsHuman } from "./state.js";
import { parsePosition, parseInfo, parseHints } from "../shared/game.js";
import * as ctrl from "./ctrl.js";
import { levelSeconds } from "./ops.js";
import { clockLines } from "./clock.js";
import { followAddress } from "./address.js";

let chain = Promise.resolve();
export function job(fn) {
  const epoch = S.epoch;
  chain = chain.then(() => (epoch === S.epoch ? fn(epoch) : undefined)).catch((e) => {
    if (e && e.message !== "restarted" && e.message !== "obsolete") ctrl.note(`engine: ${e.message}`);
  });
  return chain;
}

// What the page wants has changed: a search running for the old wish is
// ended with its Worker.
export function obsolete() {
  ctrl.bumpEpoch();
  if (S.searching) {
    S.engine.restart();
    ctrl.setSearching(false);
  }
}

export function check(epoch) {
  if (epoch !== S.epoch) throw new Error("obsolete");
}

export async function ask(line) {
  const a = await S.engine.command(line);
  if (!a.ok) throw new Error(`${line}: ${a.text}`);
  return a.text;
}

export function rootLines(root) {
  const lines = [`newgame ${S.variant}`];
  if (root.setup) lines.push(`setboard ${root.setup}`);
  return lines;
}

function playLine(move) {
  return move === "pass" ? "play pass" : `play ${move}`;
}

// Brings the Worker's game to `node` (undoing and replaying as little as
// it can), and reads the position when the page does not know it yet.
export async function syncTo(node) {
  const path = node.path();
  const lines = [];
  const s = S.synced;
  if (s && s.root === S.root) {
    let k = 0;
    while (k < s.path.length && k < path.length && s.path[k] === path[k]) k++;
    if (s.path.length > k) lines.push(`undo ${s.path.length - k}`);
    for (const m of path.slice(k)) lines.push(playLine(m));
  } else {
    lines.push(...rootLines(S.root));
    for (const m of path) lines.push(playLine(m));
  }
  ctrl.setSynced(null);
  for (const line of lines) await ask(line);
  ctrl.setSynced({ root: S.root, path });
  if (!node.state) ctrl.setNodeState(node, parsePosition(await ask("position")));
  return node.state;
}

// Hints search to a fixed depth and are exact from `endgame` empties; a
// move follows the level and its time cap (or the time per move). The
// cap comes after `level`, which sets movetime 0. A quick move (Move now
// before the search has reported anything) is level 1's.
function searchOptions(kind, depth, endgame = 16) {
  // The book is on but where hints search past a book that lacks some
  // of the moves (bookOrHints turns it off for that).
  if (kind === "hint") {
    return ["set_option book on", "set_option movetime 0", `set_option depth ${depth}`, `set_option endgame ${endgame}`];
  }
  if (kind === "quick") return ["set_option book on", "set_option level 1", "set_option movetime 200"];
  if (S.time !== null) {
    return ["set_option book on", "set_option depth 0", "set_option endgame 18", `set_option movetime ${Math.round(S.time * 1000)}`];
  }
  return ["set_option book on", `set_option level ${S.level}`, `set_option movetime ${levelSeconds(S.level) * 1000}`];
}

// The most a move may take, in seconds: what the clock counts up to.
function moveSeconds() {
  return S.time !== null ? S.time : levelSeconds(S.level);
}

export async function search(line) {
  ctrl.setSearching(true);
  try {
    return await ask(line);
  } finally {
    ctrl.setSearching(false);
  }
}

// What the position shown asks for: a pass is played, the engine moves
// at the end of a line when it is to move, else the book or hints and the
// graph's missing values.
export function refresh() {
  obsolete();
  ctrl.syncClock();
  followAddress();
  ctrl.redraw();
  job(async (epoch) => {
    const node = S.node;
    const st = await syncTo(node);
    check(epoch);
    if (st.over) return fillGraph(epoch);
    if (st.mustPass) {
      // A pass is played when the game reaches it, at the end of a line;
      // a position with a pass after it, reached by going back or
      // forward, is shown as it is (▶ shows the pass). The view says the
      // pass while its ply is shown (view/status.js drawNotes).
      if (!node.line) {
        ctrl.play("pass", { quiet: true }); // the pass and the move before it are one step back
        return refresh();
      }
      return;
    }
    if (!sideIsHuman(st.side) && !node.line && !S.editing && !S.ended) return engineMove(epoch, node);
    await bookOrHints(epoch, node);
    await fillGraph(epoch);
  });
}

// The engine chooses a move at `node` and plays it; S.thinking holds its
// progress (the last step's line, the clock) for the view and Move now.
export async function engineMove(epoch, node, kind = "move") {
  const clocked = S.clock && kind === "move";
  ctrl.startThinking(node, kind === "quick" || clocked ? null : moveSeconds());
  // With a clock the engine's time manager shares out its time left;
  // without, a clock told to this Worker before is taken away.
  const side = node.state.side === "black" ? "black" : "second";
  const lines = clocked ? clockLines(side) : S.engine.log.some((l) => l.startsWith("time_left")) ? ["kgs-time_settings none", ...searchOptions(kind)] : searchOptions(kind);
  for (const line of lines) await ask(line);
  check(epoch);
  const mv = await search("reg_genmove");
  check(epoch);
  finishEngineMove(node, mv);
}

function finishEngineMove(node, mv) {
  const t = S.thinking;
  const searched = t && t.info && t.info.pv[0] === mv && t.info.stage !== "wld"
    ? { score: t.info.score, text: t.info.scoreText, kind: t.info.stage === "exact" ? "exact" : `depth ${t.info.depth}` } : null;
  ctrl.engineMoved(node, mv, searched);
  refresh();
}

// "Move now": the best move of the last completed step is played, and
// the Worker that searched it is ended.
// Before the first step has reported (a book lookup, an endgame solve
// that reports only at its end), the Worker is ended all the same and a
// quick search (level 1) chooses the move. With nothing thinking, at a
// position where the engine is to move (gone back to), the engine moves.
export function moveNow() {
  const t = S.thinking;
  if (!t) {
    if (engineToMove()) startEngineMove("move");
    return;
  }
  obsolete();
  if (t.info && t.info.pv.length) finishEngineMove(t.node, t.info.pv[0]);
  else startEngineMove("quick", t.node);
}

// The position shown waits for the engine: its side to move, nothing
// thinking (gone back to a ply with a continuation, or just loaded).
function engineToMove() {
  const st = S.node.state;
  return !!st && !st.over && !S.ended && !st.mustPass && !S.thinking && !S.editing && !sideIsHuman(st.side);
}

// The engine plays the side to move at `node` (the position shown).
export function startEngineMove(kind = "move", node = S.node) {
  obsolete();
  job((epoch) => syncTo(node).then(() => { check(epoch); return engineMove(epoch, node, kind); }));
}

export function onInfo(text) {
  const info = parseInfo(text);
  const t = S.thinking;
  if (info && t && info.stage !== "wld") ctrl.thinkingInfo(info);
}

// With hints on, a value on every legal square (the book's where it has
// the position), deepening one iteration at a time. With hints off none:
// not even the book's, which would be hints through the opening. Where
// the book holds the position but not every legal move, its moves keep
// the book's values and the others are searched (book off), so that no
// legal square is left with a dot and no value.
async function bookOrHints(epoch, node) {
  const st = node.state;
  if (!st.legal.length || !S.hints) return;
  const maxDepth = S.hintDepth;
  let bookMoves = null;
  for (let depth = 1; depth <= maxDepth; depth++) {
    for (const line of searchOptions("hint", depth, 16)) await ask(line);
    if (bookMoves) await ask("set_option book off");
    check(epoch);
    let hints = parseHints(await search("hint 64 pv"));
    check(epoch);
    const book = !bookMoves && hints.length > 0 && hints[0].kind === "book";
    if (book && !st.legal.every((m) => hints.some((h) => h.move === m))) {
      bookMoves = hints;
      depth -= 1; // the same depth again, searched
      continue;
    }
    if (bookMoves) {
      hints = [...bookMoves, ...hints.filter((h) => !bookMoves.some((b) => b.move === h.move))].sort((a, b) => b.score - a.score);
    }
    ctrl.setHintsAt({ node, depth, values: hints, book });
    if (hints.length) ctrl.setValue(node, hints[0].score, hints[0].text, hints[0].kind === "book" ? "book" : hints[0].kind === "exact" ? "exact" : `depth ${depth}`);
    if (book || hints.every((h) => h.kind !== "search")) return;
  }
}

// The graph's missing values on the line shown, by a short search each,
// while nothing else is asked; none with hints off (the graph would show
// the engine's view), nor where a review has judged the move.
async function fillGraph(epoch) {
  if (!S.hints) return;
  const depth = Math.min(S.level || 8, 8);
  for (const n of S.node.lineNodes()) {
    if (n.value || n.review || (n.state && n.state.over)) continue;
    const st = await syncTo(n);
    check(epoch);
    if (st.over) {
      const diff = st.discs.black - st.discs.second;
      ctrl.setBlackValue(n, { black: diff, text: String(diff), kind: "final" });
      continue;
    }
    for (const line of searchOptions("hint", depth, 12)) await ask(line);
    const hints = parseHints(await search("hint 1"));
    check(epoch);
    // The first line's score is the side to move's, "pass -6" included.
    if (hints.length) ctrl.setValue(n, hints[0].score, hints[0].text, hints[0].kind === "search" ? `depth ${depth}` : hints[0].kind);
  }
  await syncTo(S.node);
}
