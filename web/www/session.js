// The engine session: the page's wishes turned into GTP lines for the
// Worker, one job at a time; what happens at the position shown (a pass,
// the engine's move, the book or hints, the graph's values); "Move now".

import { S, sideIsHuman } from "./state.js";
import { parseShowboard, parseInfo, parseHints } from "./game.js";
import { render, renderThinking, renderGraph, note, cap } from "./view.js";

let chain = Promise.resolve();
export function job(fn) {
  const epoch = S.epoch;
  chain = chain.then(() => (epoch === S.epoch ? fn(epoch) : undefined)).catch((e) => {
    if (e && e.message !== "restarted" && e.message !== "obsolete") note(`engine: ${e.message}`);
  });
  return chain;
}

// What the page wants has changed: a search running for the old wish is
// ended with its Worker.
export function obsolete() {
  S.epoch += 1;
  if (S.searching) {
    S.engine.restart();
    S.searching = false;
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
  S.synced = null;
  for (const line of lines) await ask(line);
  S.synced = { root: S.root, path };
  if (!node.state) node.state = parseShowboard(await ask("showboard"));
  return node.state;
}

// Hints search to a fixed depth and are exact from `endgame` empties; a
// move follows the level (or the time per move).
function searchOptions(kind, depth, endgame = 16) {
  if (kind === "hint") {
    return ["set_option movetime 0", `set_option depth ${depth}`, `set_option endgame ${endgame}`];
  }
  if (S.time !== null) {
    return ["set_option depth 0", "set_option endgame 18", `set_option movetime ${Math.round(S.time * 1000)}`];
  }
  return [`set_option level ${S.level}`];
}

export async function search(line) {
  S.searching = true;
  try {
    return await ask(line);
  } finally {
    S.searching = false;
  }
}

// What the position shown asks for: a pass is played, the engine moves
// at the end of a line when it is to move, else the book or hints and the
// graph's missing values.
export function refresh() {
  obsolete();
  render();
  job(async (epoch) => {
    const node = S.node;
    const st = await syncTo(node);
    check(epoch);
    render();
    if (st.over) return fillGraph(epoch);
    if (st.mustPass) {
      if (!node.line || node.line.move === "pass") {
        note(`${cap(st.side)} has no move and passes.`);
        S.node = node.child("pass");
        return refresh();
      }
      return;
    }
    if (!sideIsHuman(st.side) && !node.line && !S.editing) return engineMove(epoch, node);
    await bookOrHints(epoch, node);
    await fillGraph(epoch);
  });
}

export async function engineMove(epoch, node) {
  S.thinking = { node, info: null, moveNow: false };
  render();
  for (const line of searchOptions("move")) await ask(line);
  check(epoch);
  const mv = await search("reg_genmove");
  check(epoch);
  finishEngineMove(node, mv);
}

function finishEngineMove(node, mv) {
  const t = S.thinking;
  S.thinking = null;
  if (t && t.info && t.info.pv[0] === mv && t.info.stage !== "wld") {
    setValue(node, t.info.score, t.info.scoreText, t.info.stage === "exact" ? "exact" : `depth ${t.info.depth}`);
  }
  const child = node.child(mv);
  if (node.value && !child.value) child.value = { ...node.value };
  S.node = child;
  refresh();
}

// "Move now": the best move of the last completed step is played, and
// the Worker that searched it is ended.
export function moveNow() {
  const t = S.thinking;
  if (!t) return;
  if (!t.info || !t.info.pv.length) {
    t.moveNow = true; // played as soon as the first step reports
    return;
  }
  const mv = t.info.pv[0];
  obsolete();
  finishEngineMove(t.node, mv);
}

export function onInfo(text) {
  const info = parseInfo(text);
  const t = S.thinking;
  if (info && t && info.stage !== "wld") {
    t.info = info;
    renderThinking();
    if (t.moveNow) moveNow();
  }
}

// The book's moves (marked, with their values) and, with hints on, a
// value on every legal square, deepening one iteration at a time.
async function bookOrHints(epoch, node) {
  const st = node.state;
  if (!st.legal.length) return;
  const maxDepth = S.hints ? S.hintDepth : 1;
  for (let depth = 1; depth <= maxDepth; depth++) {
    // Without hints only the book is wanted: no exact solve for nothing.
    for (const line of searchOptions("hint", depth, S.hints ? 16 : 0)) await ask(line);
    check(epoch);
    const hints = parseHints(await search("hint 64"));
    check(epoch);
    const book = hints.length && hints[0].kind === "book";
    if (!book && !S.hints) return;
    S.hintsAt = { node, depth, values: hints, book };
    if (hints.length) setValue(node, hints[0].score, hints[0].text, book ? "book" : hints[0].kind === "exact" ? "exact" : `depth ${depth}`);
    render();
    if (book || hints.every((h) => h.kind === "exact")) return;
  }
}

// The graph's missing values on the line shown, by a short search each,
// while nothing else is asked.
async function fillGraph(epoch) {
  const depth = Math.min(S.level || 8, 8);
  for (const n of S.node.lineNodes()) {
    if (n.value || (n.state && n.state.over)) continue;
    const st = await syncTo(n);
    check(epoch);
    if (st.over) {
      const diff = st.discs.black - st.discs.second;
      n.value = { black: diff, text: String(diff), kind: "final" };
      continue;
    }
    for (const line of searchOptions("hint", depth, 12)) await ask(line);
    const hints = parseHints(await search("hint 1"));
    check(epoch);
    // The first line's score is the side to move's, "pass -6" included.
    if (hints.length) setValue(n, hints[0].score, hints[0].text, hints[0].kind === "search" ? `depth ${depth}` : hints[0].kind);
    renderGraph();
  }
  await syncTo(S.node);
}

export function setValue(node, score, text, kind) {
  const side = node.state ? node.state.side : null;
  const black = side === "black" ? score : -score;
  node.value = { black, text, kind };
}
