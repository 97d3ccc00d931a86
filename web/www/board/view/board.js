// The board: discs, legal squares, hint values, the last move, the setup
// panel. The grid's cells are built once (shared/boardgrid.js, the ARIA
// grid the room page shares) and drawn here by their attributes; a refused
// square flashes. Reads the state only.

import { S, sideIsHuman } from "../state.js";
import { reviewValuesAt } from "../ops.js";
import { SQUARES } from "../../shared/game.js";
import { buildGrid, setFlipped, describe, updateTabStop, cell } from "../../shared/boardgrid.js";
import { look, formatValue } from "../../shared/look.js";
import { t } from "../../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

// `square(sq)` is what a click (or Enter) on a square does; it answers
// "illegal" for a square the player cannot play, which then flashes.
export function buildBoard(square) {
  buildGrid($("#board"), (sq) => {
    if (square(sq) === "illegal") flash(sq);
  });
}

// The refused square is ringed (and shakes, unless motion is reduced).
function flash(sq) {
  const el = cell(sq);
  el.classList.remove("refused");
  void el.offsetWidth; // restarts the animation on a second click
  el.classList.add("refused");
  clearTimeout(el.refusedTimer);
  el.refusedTimer = setTimeout(() => el.classList.remove("refused"), 700);
}

// The hints shown at the position shown, or null (with hints off none, not
// even the book's): the review's values where the move played there was
// reviewed (one value per move: the review searched deeper than the
// hints' first steps, and its values are the review line's), the hints'
// for any move it lacks.
export function hintsShown() {
  if (!S.hints) return null;
  const h = S.hintsAt && S.hintsAt.node === S.node ? S.hintsAt : null;
  const rv = reviewValuesAt(S.node);
  if (!rv) return h;
  const theirs = h ? h.values.filter((v) => !rv.values.some((r) => r.move === v.move)) : [];
  const values = rv.values.map((r) => ({ ...r, pv: r.pv || (h && h.values.find((v) => v.move === r.move)?.pv) || null }));
  return { node: S.node, depth: rv.depth, values: [...values, ...theirs].sort((a, b) => b.score - a.score), book: false, review: rv };
}

export function humanMove() {
  const st = S.node.state;
  return !!st && !st.over && !S.ended && !st.mustPass && sideIsHuman(st.side) && !S.thinking && !S.editing;
}

export function drawBoard() {
  const node = S.node;
  const st = node.state;
  const editing = S.editing;
  const toMove = humanMove();
  const hints = hintsShown();
  const second = S.variant === "classic" ? "red" : "white";
  document.body.dataset.variant = S.variant;
  setFlipped($("#board"), look.flipped);
  const best = hints && hints.values.length ? hints.values[0].score : null;
  SQUARES.forEach((sq, i) => {
    const el = cell(sq);
    // Until the engine has drawn the new position the discs stay as they
    // were: cleared and drawn again, every disc would spin in (style.css).
    const c = editing ? editing.board[i] : st ? st.board[i] : null;
    if (c === "X") el.dataset.disc = "black";
    else if (c === "O") el.dataset.disc = second;
    else if (c === "-") delete el.dataset.disc;
    const legal = toMove && st.legal.includes(sq);
    el.toggleAttribute("data-legal", legal);
    const h = hints && legal ? hints.values.find((v) => v.move === sq) : null;
    if (h) {
      el.dataset.value = h.text;
      el.dataset.kind = h.kind;
      el.classList.toggle("best", h.score === best);
      el.querySelector(".value").textContent = formatValue(h.score);
    } else {
      delete el.dataset.value;
      delete el.dataset.kind;
      el.classList.remove("best");
      el.querySelector(".value").textContent = "";
    }
    const lastMove = node.move && node.move !== "pass" && node.move === sq;
    el.classList.toggle("last", !!lastMove);
    describe(sq, { disc: el.dataset.disc, legal, value: h ? formatValue(h.score) : "", last: !!lastMove });
  });
  updateTabStop(toMove ? st.legal : []);
  $("#setup-panel").hidden = !editing;
  if (editing) $("#setup-side").value = editing.side;
  // What the values are: the book's, or a search's depth (exact or not).
  $("#hint-info").textContent = !hints ? "" : hints.book ? t("board.hint.book")
    : t(hints.values.every((v) => v.kind === "exact") ? "board.hint.exact" : "board.hint.depth", { depth: hints.depth });
  $("#hint-info").dataset.source = !hints ? "" : hints.review ? "review" : hints.book ? "book" : "hints";
}
