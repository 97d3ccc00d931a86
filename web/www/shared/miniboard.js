// A small board for the "How to play" page: draws a position the engine
// described (game.js's parsePosition), with the legal squares dotted, the
// square of the move about to be played ringed, and, after a move, the
// square played and the discs it turned marked. Squares carry the same
// data-square / data-disc / data-legal attributes as the board page's, so
// the tests read both alike.

import { FILES } from "./game.js";

export function miniBoard(label) {
  const wrap = document.createElement("div");
  wrap.className = "mini-wrap";
  const grid = document.createElement("div");
  grid.className = "mini";
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", label);
  const cells = {};
  for (let r = 1; r <= 8; r++) {
    for (const f of FILES) {
      const el = document.createElement("div");
      el.className = "cell";
      el.dataset.square = f + r;
      el.appendChild(document.createElement("i"));
      cells[f + r] = el;
      grid.appendChild(el);
    }
  }
  // Coordinates as on the board page: letters under, numbers to the left.
  const files = document.createElement("div");
  files.className = "mini-files";
  files.setAttribute("aria-hidden", "true");
  for (const f of FILES) files.appendChild(Object.assign(document.createElement("span"), { textContent: f }));
  const ranks = document.createElement("div");
  ranks.className = "mini-ranks";
  ranks.setAttribute("aria-hidden", "true");
  for (let r = 1; r <= 8; r++) ranks.appendChild(Object.assign(document.createElement("span"), { textContent: r }));
  wrap.append(ranks, grid, files);
  return { el: wrap, grid, cells };
}

// `state`: parsePosition's answer; `second`: "white" or "red";
// `marks`: {next, last, turned: [squares]}.
export function drawMini(mini, state, second, marks = {}) {
  state.board.split("").forEach((c, i) => {
    const sq = FILES[i % 8] + (Math.floor(i / 8) + 1);
    const el = mini.cells[sq];
    if (c === "X") el.dataset.disc = "black";
    else if (c === "O") el.dataset.disc = second;
    else delete el.dataset.disc;
    el.toggleAttribute("data-legal", state.legal.includes(sq));
    el.classList.toggle("next", marks.next === sq);
    el.classList.toggle("last", marks.last === sq);
    el.classList.toggle("turned", (marks.turned || []).includes(sq));
  });
}

// The discs a move turned: squares whose disc changed colour between two
// positions the engine described.
export function turnedBetween(before, after) {
  const turned = [];
  for (let i = 0; i < 64; i++) {
    const a = before.board[i];
    const b = after.board[i];
    if (a !== "-" && b !== "-" && a !== b) turned.push(FILES[i % 8] + (Math.floor(i / 8) + 1));
  }
  return turned;
}
