// Drawing beside the board: the evaluation bar and the engine's best lines
// (with hints on), the two clocks, and the words of a game ended by a
// resignation or a flag. Like view.js it changes nothing.

import { S } from "./state.js";
import { remaining, clockText } from "./clock.js";
import { formatValue } from "../shared/look.js";
import { t, player } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

// How many of the engine's lines analysis shows.
export const LINES = 3;

function hintsShown() {
  return S.hints && S.hintsAt && S.hintsAt.node === S.node && S.hintsAt.values.length ? S.hintsAt : null;
}

export function renderPanels() {
  $("#resign").disabled = !resignSide();
  renderEvalBar();
  renderLines();
  renderClocks();
}

// The best value at the position shown, black's view, as a bar: black's
// share from the bottom (±32 discs fill it), the value written on it.
// Hints off, it is hidden: the bar would be a hint.
function renderEvalBar() {
  const bar = $("#evalbar");
  const h = hintsShown();
  const st = S.node.state;
  bar.hidden = !h || !st || !st.side;
  if (bar.hidden) return;
  const best = h.values[0].score;
  const black = st.side === "black" ? best : -best;
  const share = 50 + (Math.max(-32, Math.min(32, black)) / 32) * 50;
  bar.querySelector(".fill").style.height = `${share}%`;
  bar.dataset.value = String(black);
  const words = player(black >= 0 ? "black" : "second", S.variant);
  const text = formatValue(Math.abs(black));
  // On the bar the size alone (the fill says who leads): "+53" is too wide.
  bar.querySelector(".v").textContent = text.replace(/^\+/, "");
  bar.setAttribute("aria-label", black === 0 ? t("board.evalbar.even") : t("board.evalbar.label", { ...words, value: text }));
}

// The best LINES moves, each with its value and the line the engine
// expects after it (`hint n pv`).
function renderLines() {
  const box = $("#lines");
  const h = hintsShown();
  box.hidden = !h;
  box.textContent = "";
  if (!h) return;
  const head = document.createElement("div");
  head.className = "lines-head";
  head.textContent = t("board.lines.title");
  box.append(head);
  const ol = document.createElement("ol");
  for (const v of h.values.slice(0, LINES)) {
    const li = document.createElement("li");
    li.dataset.move = v.move;
    li.dataset.value = v.text;
    const b = document.createElement("b");
    b.textContent = `${v.move} ${formatValue(v.score)}`;
    const line = document.createElement("span");
    line.className = "pv mono";
    line.textContent = (v.pv && v.pv.length ? v.pv : [v.move]).join(" ");
    li.append(b, " ", line);
    ol.append(li);
  }
  box.append(ol);
}

// The two clocks, when a time control is set: each side's time left, the
// running one marked.
export function renderClocks() {
  const box = $("#clocks");
  const c = S.clock;
  box.hidden = !c;
  if (!c) return;
  for (const side of ["black", "second"]) {
    const el = box.querySelector(`[data-side="${side}"]`);
    const ms = remaining(side);
    el.dataset.ms = Math.round(ms);
    el.classList.toggle("running", !!(c.turn && c.turn.side === side));
    el.classList.toggle("low", ms < 10000);
    el.querySelector(".who").textContent = player(side, S.variant).C;
    el.querySelector(".time").textContent = clockText(ms);
  }
}

// The side that would resign: the human's, or with two humans the side
// to move; null when there is no game to resign.
export function resignSide() {
  const st = S.node.state;
  if (!st || st.over || S.ended || S.editing) return null;
  const human = ["black", "second"].filter((s) => (s === "black" ? S.human.black : S.human.second));
  if (human.length === 1) return human[0];
  if (human.length === 2) return st.side === "black" ? "black" : "second";
  return null;
}

// A game ended by a resignation or a flag, in words: "White wins (black
// resigned)", "White wins on time (black ran out of time)"; the status
// line's, the saved games list's.
export function endedResult() {
  const e = S.ended;
  const loser = player(e.loser === "black" ? "black" : "second", S.variant);
  const winner = player(e.loser === "black" ? "second" : "black", S.variant);
  return t(e.by === "resign" ? "board.ended.resign" : "board.ended.time", { W: winner.C, w: winner.c, L: loser.C, l: loser.c, lo: loser.co });
}

// GGF's RE tag for it, black's view: the winner's 64 discs, ":r" for a
// resignation, ":t" for time (as GGS writes them).
export function endedGgf() {
  const e = S.ended;
  return `${e.loser === "black" ? "-" : "+"}64.000:${e.by === "resign" ? "r" : "t"}`;
}
