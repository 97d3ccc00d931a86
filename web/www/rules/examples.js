// The "How to play" page's examples: for each, how to reach the position
// shown (a new game, or an OBF board given with `setboard`, then moves) and
// the steps its button plays. Nothing here knows the rules: the engine
// plays every line, draws every board and refuses what is illegal. The
// texts that explain them are in i18n/<lang>.js under rules.<id>.*; the
// numbers those texts quote (discs, squares) are checked against the
// native engine by tests/browser/test_rules.py.
//
// A step is {move: "d3"} (played), {move: "pass"}, or {try: "a6"} (sent to
// the engine, which refuses it; the board stays as it was).

// Classic games reach Othello's start by placing the centre crosswise:
// black d5, red d4, black e4, red e5.
const CROSS = ["d5", "d4", "e4", "e5"];

// Rows 1 to 8, a1 first (OBF squares); the four centre squares are full,
// so a classic game read from them is past its free placements.
const board = (...rows) => rows.join("");

const LINE = board(
  "........",
  "........",
  "........",
  ".OOXO...",
  "...XX...",
  ".OO.....",
  "........",
  "........",
);

const SEVERAL = board(
  "X.X.X...",
  ".OOO....",
  "XO.OX...",
  ".OOOX...",
  "..XXX...",
  "........",
  "........",
  "........",
);

// Random games played on the native engine, kept for what they show:
// black must pass after eight moves; a game that ends with a square left
// empty; white (red) wiped off the board in eleven moves; a classic game
// where black's 32 discs run out.
const PASS_GAME = "c4 c3 f5 b4 a4 a5 b2 a3".split(" ");
const END_GAME = ("c4 c3 e6 d6 c2 f3 e3 f5 c5 b4 a5 f2 c6 f4 e2 d3 g5 e1 g4 b7 d2 h4 b6 e7 e8 c7 b8 g6 g3 "
  + "d7 f7 f6 h7 a7 g7 b2 b5 b3 h3 a3 d1 h2 b1 d8 g2 f8 h5 h6 h1 c1 c8 g1 g8 a4 a2 a6 a8 a1").split(" ");
const WIPE_GAME = "f5 f4 d3 d6 f3 c3 c7 e3 b3 b2".split(" ");
const SUPPLY_GAME = ("e5 e4 d5 d4 c3 c6 d6 c4 c5 b2 b7 d7 a1 f5 e6 e7 f7 c7 d8 c8 b8 b4 d3 e3 b5 g8 e8 b6 "
  + "e2 f1 a6 f6 a4 a5 c2 b1 d2 a3 b3 d1 a2 a8 f2 g1 g5 e1 g2 g7 c1 h4 h5 f4 h8 f8 h1 a7 g4 h7 h3 f3 h6 "
  + "pass g3 h2").split(" ");

// The same example in both rule sets: a classic game gets the crosswise
// placements first; a set-up board needs nothing (its centre is full).
function both(id, { setup = null, moves = [], steps }) {
  return {
    modern: { id, setup, moves, steps },
    classic: { id, setup, moves: setup ? moves : CROSS.concat(moves), steps },
  };
}

const SHARED = {
  first: both("first", { steps: [{ move: "d3" }] }),
  line: both("line", { setup: `${LINE} X`, steps: [{ try: "a6" }, { move: "a4" }] }),
  several: both("several", { setup: `${SEVERAL} X`, steps: [{ move: "c3" }] }),
  pass: both("pass", { moves: PASS_GAME, steps: [{ move: "pass" }, { move: "c1" }] }),
  end: both("end", { moves: END_GAME, steps: [{ move: "f1" }] }),
  wipe: both("wipe", { moves: WIPE_GAME, steps: [{ move: "a1" }] }),
};

// The sections of each rule set's page, in order: [section, example or null].
export const PAGES = {
  modern: [
    ["start", null], ["first", SHARED.first.modern], ["line", SHARED.line.modern],
    ["several", SHARED.several.modern], ["pass", SHARED.pass.modern], ["end", SHARED.end.modern],
    ["wipe", SHARED.wipe.modern], ["faq", null],
  ],
  classic: [
    ["start", null],
    ["placements", { id: "placements", setup: null, moves: [], steps: ["d4", "e4", "d5", "e5"].map((move) => ({ move })) }],
    ["first", SHARED.first.classic], ["line", SHARED.line.classic], ["several", SHARED.several.classic],
    ["pass", SHARED.pass.classic],
    ["supply", { id: "supply", setup: null, moves: SUPPLY_GAME, steps: [{ move: "pass" }, { move: "g6" }] }],
    ["end", SHARED.end.classic], ["wipe", SHARED.wipe.classic], ["faq", null],
  ],
};

// The engine lines that reach an example's position after `done` steps
// (`try` steps change nothing and send nothing here).
export function linesFor(variant, ex, done) {
  const lines = [`newgame ${variant}`];
  if (ex.setup) lines.push(`setboard ${ex.setup}`);
  for (const m of ex.moves) lines.push(`play ${m}`);
  for (const s of ex.steps.slice(0, done)) if (s.move) lines.push(`play ${s.move}`);
  return lines;
}
