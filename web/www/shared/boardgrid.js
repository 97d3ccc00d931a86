// The board as a keyboard and a screen reader meet it: an ARIA grid of
// eight rows of eight cells, one tab stop (the active cell has tabindex 0,
// the others -1: a "roving tabindex"), arrow keys moving between cells as
// they are drawn, Enter or Space playing the active cell, and each cell
// naming what it is ("d3, empty, legal move, +2"). Turned to play from
// white's side, the rows and cells are put in the other order, so the
// drawing, the reading order and the arrow keys agree; data-square stays
// the square's name.

import { FILES } from "./game.js";
import { t } from "./i18n.js";

const cells = new Map(); // square name -> element
let active = null; // the square the keyboard is on, null until chosen
let played = null; // the empty square last played (a click, Enter or Space)
let flipped = false;

// Builds the grid in `board` (the element with role="grid"), in place of
// what it held; `activate(sq)` is what a click, Enter or Space on a cell
// does (the board page's move, or the room's).
export function buildGrid(board, activate) {
  board.textContent = "";
  cells.clear();
  active = null;
  delete board.dataset.flipped;
  for (let r = 1; r <= 8; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.dataset.rank = r;
    for (const f of FILES) {
      const sq = f + r;
      const el = document.createElement("div");
      el.className = "square";
      el.dataset.square = sq;
      el.setAttribute("role", "gridcell");
      el.tabIndex = -1;
      el.setAttribute("aria-label", sq);
      el.innerHTML = '<span class="disc" aria-hidden="true"></span><span class="value" aria-hidden="true"></span>';
      el.addEventListener("click", () => press(sq, activate));
      row.appendChild(el);
      cells.set(sq, el);
    }
    board.appendChild(row);
  }
  board.onkeydown = (e) => onKey(e, activate); // one handler, built again or not
}

export function cell(sq) {
  return cells.get(sq);
}

// The cell's name for a screen reader: the square, what is on it, and for
// an empty square whether it can be played there and the value shown.
// The words are the chosen language's (board.sq.*); squares and values
// stay as the board draws them.
export function describe(sq, { disc = null, legal = false, value = "", last = false } = {}) {
  const parts = [sq, t(`board.sq.${disc || "empty"}`)];
  if (legal) parts.push(t("board.sq.legal"));
  if (value) parts.push(value);
  if (last) parts.push(t("board.sq.last"));
  cell(sq).setAttribute("aria-label", parts.join(", "));
}

// Which cell takes the tab stop: the one the keyboard was on, else the
// first legal square, else d4 (the centre). Once a move played there has
// filled the keyboard's square and the player has moves again, the
// keyboard goes on to the legal square nearest it, the focus with it if
// the board had it: a chess board keeps the focus where it was, but here
// the square played is never playable again, so the player would walk
// off it every time. A square walked to by arrows stays, whatever is on it.
export function updateTabStop(legal = []) {
  if (played && played === active && cell(active).dataset.disc && legal.length && !legal.includes(active)) {
    const had = document.activeElement === cell(active);
    active = nearest(active, legal);
    played = null;
    if (had) cell(active).focus();
  }
  const sq = active || legal[0] || "d4";
  for (const [name, el] of cells) el.tabIndex = name === sq ? 0 : -1;
}

// The square of `among` nearest `sq` (the first of those as near).
function nearest(sq, among) {
  const [c, r] = drawnAt(sq);
  const far = (s) => { const [c2, r2] = drawnAt(s); return (c2 - c) ** 2 + (r2 - r) ** 2; };
  return among.reduce((best, s) => (far(s) < far(best) ? s : best));
}

// A click, Enter or Space: the square becomes the keyboard's, and one
// played while empty is remembered (updateTabStop).
function press(sq, activate) {
  played = cell(sq).dataset.disc ? null : sq;
  setActive(sq);
  activate(sq);
}

function setActive(sq) {
  active = sq;
  updateTabStop();
}

// Turns the board to play from white's side (or back): rows and cells in
// the other order, and the coordinates along the edges with them.
export function setFlipped(board, value) {
  // Moving a cell in the document takes the keyboard's focus off it, so
  // the cells are moved only when the side changes.
  if (board.dataset.flipped === String(value)) return;
  flipped = value;
  const rows = [...board.querySelectorAll('[role="row"]')].sort((a, b) => (a.dataset.rank - b.dataset.rank) * (value ? -1 : 1));
  for (const row of rows) {
    const squares = [...row.children].sort((a, b) => a.dataset.square.localeCompare(b.dataset.square) * (value ? -1 : 1));
    row.append(...squares);
    board.appendChild(row);
  }
  board.dataset.flipped = String(value);
  const files = value ? [...FILES].reverse() : [...FILES];
  document.querySelectorAll(".files span").forEach((s, i) => { s.textContent = files[i]; });
  document.querySelectorAll(".ranks span").forEach((s, i) => { s.textContent = value ? 8 - i : i + 1; });
}

// Where a cell is drawn (column and row from the top left) and back.
function drawnAt(sq) {
  const f = FILES.indexOf(sq[0]), r = +sq[1] - 1;
  return flipped ? [7 - f, 7 - r] : [f, r];
}
function squareAt(col, row) {
  const [f, r] = flipped ? [7 - col, 7 - row] : [col, row];
  return FILES[f] + (r + 1);
}

// Arrow keys move as drawn; Home and End go to the row's ends (with Ctrl,
// the board's corners), as in the ARIA grid pattern. Keys handled here are
// not passed on, so the page's own arrow keys (moving through the game)
// act only outside the board.
function onKey(e, activate) {
  const sq = e.target.closest("[data-square]")?.dataset.square;
  if (!sq) return;
  let [col, row] = drawnAt(sq);
  switch (e.key) {
    case "ArrowLeft": col = Math.max(0, col - 1); break;
    case "ArrowRight": col = Math.min(7, col + 1); break;
    case "ArrowUp": row = Math.max(0, row - 1); break;
    case "ArrowDown": row = Math.min(7, row + 1); break;
    case "Home": col = 0; if (e.ctrlKey) row = 0; break;
    case "End": col = 7; if (e.ctrlKey) row = 7; break;
    case "Enter":
    case " ":
      e.preventDefault();
      e.stopPropagation();
      press(sq, activate);
      return;
    default: return;
  }
  e.preventDefault();
  e.stopPropagation();
  const next = squareAt(col, row);
  played = null;
  setActive(next);
  cell(next).focus();
}
