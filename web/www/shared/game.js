// What the page knows of a game, without any rules (those are the engine's):
// the tree of plies, the engine's drawing of a position read back into
// fields, and the notations (transcripts, OBF strings, info lines). A
// notation that does not read is named in the page's language.

import { t } from "./i18n.js";

export const FILES = "abcdefgh";
export const SQUARES = [];
for (let r = 1; r <= 8; r++) for (const f of FILES) SQUARES.push(f + r);

// A ply of the tree: `move` is "f5", "pass", or null at the root.
export class Node {
  constructor(move, parent) {
    this.move = move;
    this.parent = parent;
    this.children = [];
    this.state = null; // the engine's view of the position after the move
    this.value = null; // {black: number (discs, black's view), text, kind}
    this.line = null; // the child the move list follows
  }

  path() {
    const moves = [];
    for (let n = this; n.parent; n = n.parent) moves.push(n.move);
    return moves.reverse();
  }

  child(move) {
    let c = this.children.find((n) => n.move === move);
    if (!c) {
      c = new Node(move, this);
      this.children.push(c);
    }
    this.line = c;
    return c;
  }

  // The line through this node: the plies from the root, then the
  // continuation the move list follows.
  lineNodes() {
    const before = [];
    for (let n = this; n; n = n.parent) before.push(n);
    before.reverse();
    for (let n = this.line; n; n = n.line) before.push(n);
    return before;
  }
}

// The engine's `position` answer (protocol.md), one line for programs:
// "board <64 of X O -> side <colour or -> status <play|pass|over> discs
// <black> <second> [supply <black> <second>] legal <moves>". Classic's
// answer alone has supplies, and its second colour is red.
export function parsePosition(text) {
  const m = text.trim().match(/^board ([XO-]{64}) side (\S+) status (play|pass|over) discs (\d+) (\d+)(?: supply (\d+) (\d+))? legal(.*)$/);
  if (!m) throw new Error(`unexpected position answer: ${text}`);
  const over = m[3] === "over";
  return {
    board: m[1],
    legal: m[8].trim().split(/\s+/).filter((mv) => /^[a-h][1-8]$/.test(mv)),
    side: over ? null : m[2],
    mustPass: m[3] === "pass",
    over,
    second: m[6] !== undefined ? "red" : "white",
    discs: { black: +m[4], second: +m[5] },
    supply: m[6] !== undefined ? { black: +m[6], second: +m[7] } : null,
  };
}

// The discs of a board given square by square ("X", "O", "-"; a string or
// an array, as Edit board keeps it), counted as `position` counts them.
export function discCounts(board) {
  const cells = [...board];
  return { black: cells.filter((c) => c === "X").length, second: cells.filter((c) => c === "O").length };
}

// A transcript in: "f5d6c3", "F5 d6 c3", "f5-d6-c3", "1. f5 d6 2. c3";
// passes ("pass", "PA") may be given and are skipped. Returns {moves} or
// {error} naming what does not read.
export function parseTranscript(text) {
  const cleaned = text.toLowerCase().replace(/\b\d+\.+/g, " ").replace(/[\s,;\-]+/g, " ").trim();
  const moves = [];
  let rest = cleaned.replace(/ /g, "");
  let at = 0;
  while (at < rest.length) {
    if (rest.startsWith("pass", at)) { at += 4; continue; }
    if (rest.startsWith("pa", at)) { at += 2; continue; }
    const sq = rest.slice(at, at + 2);
    if (!/^[a-h][1-8]$/.test(sq)) {
      return { error: t("board.err.notSquare", { text: quoted(rest.slice(at, at + 6)), k: moves.length + 1 }) };
    }
    moves.push(sq);
    at += 2;
  }
  return { moves };
}

// Text from a file or the Load box quoted in a message: control and
// direction characters written as \xNN or \u{NNNN} (a binary file's bytes
// would reach the page raw), and cut after `max` characters.
export function quoted(text, max = 16) {
  const chars = [...String(text)];
  const shown = chars.slice(0, max).map((c) => {
    if (!/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(c)) return c;
    const code = c.codePointAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
  return shown.join("") + (chars.length > max ? "…" : "");
}

// Text that is no game record at all: a NUL or another control byte than
// tab, line ends and form feed, or U+FFFD, which stands for bytes that are
// not UTF-8 (File.text() puts it there). Said as such, not quoted as a move.
export function looksBinary(text) {
  return /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/.test(text);
}

// An OBF or setboard string: "setboard <64> <X|O> [<b> <r>]", "<64> <X|O>",
// or an OBF file line "<64> X; comment". Returns the setboard arguments,
// which the engine checks (its message says what is wrong), or {error}.
export function parseSetup(text) {
  let line = text.trim().split(";")[0].trim();
  if (/^setboard\s/i.test(line)) line = line.replace(/^setboard\s+/i, "");
  const parts = line.split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { error: t("board.err.emptyPosition") };
  if (parts.length === 1) {
    // NBoard and Edax write the side as the 65th character.
    if (parts[0].length === 65) return { args: `${parts[0].slice(0, 64)} ${parts[0][64]}` };
    return { error: t("board.err.noSide") };
  }
  return { args: parts.join(" ") };
}

// "depth 12 +3.50 nodes 123456 0.42 s pv d3 c5 f6" (and selective, wld,
// exact): the search step an `info` line reports.
export function parseInfo(text) {
  const m = text.match(/^info (depth|selective|wld|exact)(?: (\d+))? ([+-]?\d+(?:\.\d+)?) nodes (\d+) ([\d.]+) s pv ?(.*)$/);
  if (!m) return null;
  return {
    stage: m[1],
    depth: m[2] !== undefined ? +m[2] : null,
    score: +m[3],
    scoreText: m[3],
    nodes: +m[4],
    secs: +m[5],
    pv: m[6].trim() ? m[6].trim().split(" ") : [],
  };
}

// A `hint` answer line: "f5 +0.18 book", "g8 +18", "c4 -1.25", and
// with `hint n pv` the line after it: "c4 -1.25 pv c4 e3 f6".
export function parseHints(text) {
  return text.split("\n").filter(Boolean).map((line) => {
    const [move, score, ...rest] = line.split(" ");
    const exact = !score.includes(".");
    const at = rest.indexOf("pv");
    const pv = at >= 0 ? rest.slice(at + 1) : null;
    return { move, text: score, score: +score, kind: rest[0] === "book" ? "book" : exact ? "exact" : "search", pv };
  });
}

const START = "---------------------------O*------*O---------------------------";

// A GGF game record (one game: NBoard's, GGS's, `mollett analyze --ggf`'s):
// its moves with the mover's value where it has one (`B[F5/1.25]`), the
// players, and the review a `C` tag of `mollett analyze` holds (each marked
// move: "15. b5? -2.12 (best g5 +4.60)"; the sides' figures before them).
// Games from another start than the standard one are refused.
export function parseGgf(text) {
  const rec = text.trim();
  if (!rec.startsWith("(;")) return null;
  const end = rec.indexOf(";)");
  const game = end >= 0 ? rec.slice(0, end) : rec;
  const bo = /BO\[8 ([-*O ]+) ([*O])\]/.exec(game);
  if (bo && (bo[1].replace(/ /g, "") !== START || bo[2] !== "*")) {
    return { error: t("board.err.ggfStart") };
  }
  const moves = [];
  // Every B[...] and W[...] tag is a move: one that names no square is
  // refused by its number, not skipped.
  for (const m of game.matchAll(/(?<=[\];])([BW])\[([^\]\/]*)(?:\/([^/\]]*))?[^\]]*\]/g)) {
    const mv = m[2].trim().toLowerCase();
    if (!/^([a-h][1-8]|pa|pass)$/.test(mv)) {
      return { error: t("board.err.notSquare", { text: quoted(m[2].trim()), k: moves.length + 1 }) };
    }
    const value = m[3] !== undefined && m[3].trim() !== "" && isFinite(+m[3]) ? +m[3] : null;
    moves.push({ side: m[1] === "B" ? "black" : "white", move: mv.startsWith("pa") ? "pass" : mv, value });
  }
  if (!moves.length) return { error: t("board.err.ggfNoMoves") };
  const tag = (name) => { const m = new RegExp(`(?<=[\\];])${name}\\[([^\\]]*)\\]`).exec(game); return m ? m[1] : null; };
  const comment = tag("C") || "";
  const marks = [];
  const CLS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };
  for (const m of comment.matchAll(/(\d+)\. ([a-h][1-8])(\?\?|\?!|\?) ([-+][\d.]+) \(best ([a-h][1-8]) ([-+][\d.]+)\)/g)) {
    marks.push({ ply: +m[1], move: m[2], cls: CLS[m[3]], value: +m[4], best: m[5], bestValue: +m[6] });
  }
  const summary = comment.startsWith("mollett analyze:") ? comment.split(/ \d+\. /)[0].replace(/;$/, "") : null;
  return { moves, black: tag("PB"), white: tag("PW"), marks, summary };
}

// The line shown as one GGF record, as `mollett analyze --ggf` writes one:
// each move's review value (else the graph's value, the mover's view) in
// its `/eval` field, and a `C` tag with each side's figures and every
// marked move.
export function ggfOf(nodes, { black = "black", white = "white", summary = "", marks = [], result = null } = {}) {
  let s = `(;GM[Othello]PC[Mollett board]PB[${black}]PW[${white}]${result ? `RE[${result}]` : ""}TY[8]BO[8 ${START} *]`;
  if (summary || marks.length) {
    const list = marks.map((m) => ` ${m.ply}. ${m.move}${m.mark} ${sign(m.value)} (best ${m.best} ${sign(m.bestValue)})`);
    s += `C[${["mollett analyze:" + summary, ...list].join(";").replace(/[\[\]]/g, "")}]`;
  }
  for (const n of nodes) {
    const tagName = n.side === "black" ? "B" : "W";
    const mv = n.move === "pass" ? "PA" : n.move.toUpperCase();
    s += n.value === null || n.value === undefined ? `${tagName}[${mv}]` : `${tagName}[${mv}/${n.value}]`;
  }
  return s + ";)";
}

function sign(v) {
  return `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(2)}`;
}
