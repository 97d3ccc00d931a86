// Drawing beside the board: the evaluation bar and the engine's best lines
// (with hints on), the two clocks, the resign button, the saved games
// list. Reads the state only.

import { S } from "../state.js";
import { remaining, clockText } from "../clock.js";
import { resignSide } from "../ops.js";
import { formatValue, formatBound } from "../../shared/look.js";
import { t, player } from "../../shared/i18n.js";
import { h, patchInto } from "../../shared/vdom.js";
import { hintsShown } from "./board.js";

const $ = (sel) => document.querySelector(sel);

// How many of the engine's lines analysis shows.
export const LINES = 3;

function hintValues() {
  const h = hintsShown();
  return h && h.values.length ? h : null;
}

export function drawPanels(on) {
  $("#resign").disabled = !resignSide();
  drawEvalBar();
  drawLines();
  drawClocks();
  drawSaved(on);
}

// The best value at the position shown, black's view, as a bar: black's
// share from the bottom (±32 discs fill it), the value written on it.
// Hints off, it is hidden: the bar would be a hint.
function drawEvalBar() {
  const bar = $("#evalbar");
  const hv = hintValues();
  const st = S.node.state;
  bar.hidden = !hv || !st || !st.side;
  if (bar.hidden) return;
  const best = hv.values[0].score;
  const black = st.side === "black" ? best : -best;
  const share = 50 + (Math.max(-32, Math.min(32, black)) / 32) * 50;
  bar.querySelector(".fill").style.height = `${share}%`;
  bar.dataset.value = String(black);
  const words = player(black >= 0 ? "black" : "second", S.variant);
  // The size alone, on the bar (the fill says who leads; "+53" is too
  // wide) and in its label ("White ahead by 13", not "by +13").
  const text = formatValue(Math.abs(black)).replace(/^\+/, "");
  bar.querySelector(".v").textContent = text;
  bar.setAttribute("aria-label", black === 0 ? t("board.evalbar.even") : t("board.evalbar.label", { ...words, value: text }));
}

// The best LINES moves, each as its value then the line the engine expects
// from it (`hint n pv`), the move first and once: "-9 d2 e8 c3", as
// lichess writes its lines.
function drawLines() {
  const box = $("#lines");
  const hv = hintValues();
  box.hidden = !hv;
  const items = !hv ? [] : [
    h("div.lines-head", t("board.lines.title")),
    h("ol", hv.values.slice(0, LINES).map((v) => h("li", { key: v.move, dataset: { move: v.move, value: v.text } }, [
      h("b", v.bound ? formatBound(v.score) : formatValue(v.score)), " ",
      h("span.pv.mono", (v.pv && v.pv.length ? v.pv : [v.move]).join(" ")),
    ]))),
  ];
  patchInto(box, items);
}

// The two clocks, when a time control is set: each side's time left, the
// running one marked.
function drawClocks() {
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

// The list under "Saved games", newest first; `on.openSaved(id)`,
// `on.deleteSaved(id)` are its buttons'.
function drawSaved(on) {
  const list = S.saved;
  $("#saved-count").textContent = list.length;
  patchInto($("#saved-list"), list.map((g) => h("li", { key: g.id, dataset: { id: g.id } }, [
    h("button.open", { attrs: { title: t("board.saved.open", { n: g.moves.length / 2 }) }, on: { click: () => on.openSaved(g.id) } }, g.name),
    " ",
    h("time", { attrs: { datetime: g.saved } }, new Date(g.saved).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })),
    " · ",
    h("span.result", `${t(`board.room.${g.variant === "classic" ? "classic" : "modern"}`)}, ${g.result}`),
    " ",
    h("button.delete", { attrs: { "aria-label": t("board.saved.deleteName", { name: g.name }), title: t("board.saved.delete") }, on: { click: () => on.deleteSaved(g.id) } }, "✕"),
  ])));
}
