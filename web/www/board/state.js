// The page's state: the settings, the game tree and the position shown,
// and what the engine session is doing. Every module reads it through `S`;
// only the controller (ctrl.js) writes it: `S` refuses a write of its own
// fields, and the writable object is handed out once, to ctrl.js
// (claimState). tests/layers.rs checks that no other module assigns to it.

const state = {
  variant: "modern",
  human: { black: true, second: false },
  level: 6, // `level` option, or null when `time` (seconds a move) is used
  time: null,
  hints: false,
  hintDepth: 14, // deepest hint iteration
  root: null, // Node; root.setup holds setboard arguments for a set-up start
  node: null, // the position shown
  engine: null,
  synced: null, // {root, path} the Worker's game is at, null when unknown
  epoch: 0, // bumped whenever what the page wants from the engine changes
  searching: false, // a genmove or hint is running in the Worker
  thinking: null, // {node, info, since, cap} while the engine chooses a move
  hintsAt: null, // {node, depth, values, book} of the last hint answer
  notes: [], // the lines under the board (passes, the address's notes)
  message: { text: "", refused: null }, // the message line; `refused` the square refused
  editing: null, // {board, side} in setup mode
  reviewing: null, // {done, total} while the Review button's job runs
  practice: null, // {list: [nodes], i, last, misses} while practising mistakes
  showLoss: false, // the graph draws each side's cumulative loss
  fileReview: null, // {summary} of a review read from a GGF file's comment
  players: { black: "black", white: "white" }, // a GGF file's names, for the GGF out
  ended: null, // {by: "resign"|"time", loser: "black"|"second"}: the game ended before its end
  clock: null, // {main, inc (seconds), left: {black, second} (ms), turn}: the time control, clock.js
  quietAddress: false, // the next address replaces the entry (a forced pass), address.js
  saved: [], // the saved games kept in this browser, games.js
};

export const S = new Proxy(state, {
  set(_, key) {
    throw new Error(`state.${String(key)} is written by the controller (ctrl.js) only`);
  },
  deleteProperty(_, key) {
    throw new Error(`state.${String(key)} is written by the controller (ctrl.js) only`);
  },
});

let claimed = false;
// The writable state, once: ctrl.js takes it at load.
export function claimState() {
  if (claimed) throw new Error("the state has its controller already");
  claimed = true;
  return state;
}

export function sideIsHuman(side) {
  return side === "black" ? S.human.black : S.human.second;
}

// The moves to `node`, passes left out.
export function transcript(node = S.node) {
  return node.path().filter((m) => m !== "pass").join("");
}

// The position as an OBF / setboard string. After the game nobody is to
// move: the side is "-" (records.js reads it back as a finished game).
export function obf(node = S.node) {
  const st = node.state;
  if (!st) return "";
  const side = st.over ? "-" : st.side === "black" ? "X" : "O";
  let s = `${st.board} ${side}`;
  if (st.supply) s += ` ${st.supply.black} ${st.supply.second}`;
  return s;
}
