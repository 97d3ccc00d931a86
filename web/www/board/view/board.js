// The board: discs, legal squares, hint values, the last move, the setup
// panel. The grid's cells are built once (shared/boardgrid.js, the ARIA
// grid the room page shares) and each is drawn here by snabbdom; a refused
// square flashes. Reads the state only.

import { S, sideIsHuman } from "../state.js";
import { reviewValuesAt } from "../ops.js";
import { SQUARES } from "../../shared/game.js";
import { buildGrid, setFlipped, describe, updateTabStop, cell } from "../../shared/boardgrid.js";
import { look, formatValue, formatBound } from "../../shared/look.js";
import { t } from "../../shared/i18n.js";
import { h, patchInto } from "../../shared/vdom.js";

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
  const asked = S.hintsAt && S.hintsAt.node === S.node ? S.hintsAt : null;
  const rv = reviewValuesAt(S.node);
  if (!rv) return asked;
  const theirs = asked ? asked.values.filter((v) => !rv.values.some((r) => r.move === v.move)) : [];
  const values = rv.values.map((r) => ({ ...r, pv: r.pv || (asked && asked.values.find((v) => v.move === r.move)?.pv) || null }));
  return { node: S.node, depth: rv.depth, values: [...values, ...theirs].sort((a, b) => b.score - a.score), book: false, review: rv };
}

// A value as a square shows it: a review's bound (a move more than its
// window below the best) as "≤".
function shownValue(v) {
  return v.bound ? formatBound(v.score) : formatValue(v.score);
}

export function humanMove() {
  const st = S.node.state;
  return !!st && !st.over && !S.ended && !st.mustPass && sideIsHuman(st.side) && !S.thinking && !S.editing;
}

// The discs last drawn: until the engine has drawn the new position they
// stay as they were (cleared and drawn again, every disc would spin in,
// style.css). The view's own memory of its drawing, not the page's state.
let lastBoard = null;

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
  const board = editing ? editing.board : st ? st.board : lastBoard;
  if (!editing && st) lastBoard = st.board;
  SQUARES.forEach((sq, i) => {
    const c = board ? board[i] : "-";
    const disc = c === "X" ? "black" : c === "O" ? second : null;
    const legal = toMove && st.legal.includes(sq);
    const v = hints && legal ? hints.values.find((x) => x.move === sq) : null;
    const lastMove = !!node.move && node.move !== "pass" && node.move === sq;
    // Each cell's attributes, classes and value by snabbdom (the cell
    // itself, its tab stop and its label are boardgrid.js's, shared with
    // the room page; the refused flash is this module's, above).
    patchInto(cell(sq), [
      h("span.disc", { attrs: { "aria-hidden": "true" } }),
      h("span.value", { attrs: { "aria-hidden": "true" } }, v ? shownValue(v) : ""),
    ], {
      attrs: { "data-disc": disc || false, "data-legal": legal, "data-value": v ? v.text : false, "data-kind": v ? v.kind : false },
      class: { best: !!v && v.score === best, last: lastMove },
    });
    describe(sq, { disc, legal, value: v ? shownValue(v) : "", last: lastMove });
  });
  updateTabStop(toMove ? st.legal : []);
  $("#setup-panel").hidden = !editing || !!editing.applying;
  if (editing) $("#setup-side").value = editing.side;
  // What the values are: the book's, or a search's depth (exact or not).
  $("#hint-info").textContent = !hints ? "" : hints.book ? t("board.hint.book")
    : t(hints.values.every((v) => v.kind === "exact") ? "board.hint.exact" : "board.hint.depth", { depth: hints.depth });
  $("#hint-info").dataset.source = !hints ? "" : hints.review ? "review" : hints.book ? "book" : "hints";
}
