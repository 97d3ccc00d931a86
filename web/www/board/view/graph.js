// The graph: the evaluation over the line shown, black's view, clamped to
// ±32 discs (each ply's one value, ops.js's shownValue: none of the
// engine's own with hints off); with "Loss graph" each side's discs lost so far; its legend.
// Drawn by snabbdom (shared/vdom.js). Reads the state only.

import { S } from "../state.js";
import { shownValue, reviewLoss } from "../ops.js";
import { formatValue } from "../../shared/look.js";
import { t, colourWords } from "../../shared/i18n.js";
import { h, patchInto } from "../../shared/vdom.js";

const $ = (sel) => document.querySelector(sel);
const W = 600, H = 160, PAD = 4;

// The graph's x for ply `i` of `count` nodes (at least 20 plies wide).
function xOf(i, count) {
  const n = Math.max(count - 1, 20);
  return PAD + (i / n) * (W - 2 * PAD);
}

export function drawGraph() {
  const svg = $("#graph");
  const nodes = S.node.lineNodes();
  const values = nodes.map(shownValue);
  const x = (i) => xOf(i, nodes.length);
  // A whole number of discs, so that the scale's label is in the unit the
  // values are shown in ("+10", not "+9.6").
  const maxV = Math.ceil(Math.max(8, ...values.map((v) => (v ? Math.min(32, Math.abs(v.black)) : 0))));
  const y = (v) => H / 2 - (Math.max(-maxV, Math.min(maxV, v)) / maxV) * (H / 2 - PAD);
  let path = "";
  const dots = [];
  values.forEach((v, i) => {
    if (!v) return;
    const cx = x(i).toFixed(1), cy = y(v.black).toFixed(1);
    path += `${path ? "L" : "M"}${cx},${cy}`;
    dots.push(h("circle", { key: `d${i}`, attrs: { cx, cy, r: "2.5", "data-ply": i } },
      [h("title", t("board.graph.point", { ply: i, value: formatValue(v.black), kind: v.kind }))]));
  });
  const cur = nodes.indexOf(S.node);
  const words = colourWords(S.variant);
  const children = [
    h("rect.black-half", { key: "half", attrs: { x: 0, y: 0, width: W, height: H / 2 } }),
    h("line.axis", { key: "axis", attrs: { x1: 0, y1: H / 2, x2: W, y2: H / 2 } }),
    h("text.label", { key: "top", attrs: { x: 6, y: 14 } }, `${words.b} +${maxV}`),
    h("text.label", { key: "bottom", attrs: { x: 6, y: H - 6 } }, `${words.s} +${maxV}`),
    h("line.cursor", { key: "cursor", attrs: { x1: x(cur), y1: 0, x2: x(cur), y2: H } }),
    ...(path ? [h("path.eval", { key: "eval", attrs: { d: path } })] : []),
    ...dots,
    ...lossPaths(nodes, x),
  ];
  patchInto(svg, children, { attrs: { viewBox: `0 0 ${W} ${H}` }, dataset: { points: String(values.filter((v) => v).length) } });
  drawLegend(words);
}

// What the graph's lines are: the evaluation always, each side's losses
// with "Loss graph" on a reviewed line (their swatches drawn as the lines are).
function drawLegend(words) {
  const item = (cls, text) => h("span.key", { key: cls, dataset: { line: cls } },
    [h(`span.swatch.${cls}`, { attrs: { "aria-hidden": "true" } }), text]);
  const items = [item("eval", t("board.graph.key.eval", words))];
  if (S.showLoss && S.node.lineNodes().some((n) => n.review)) {
    items.push(item("loss-black", t("board.graph.key.lost", { who: words.b })));
    items.push(item("loss-second", t("board.graph.key.lost", { who: words.s })));
  }
  patchInto($("#graph-legend"), items);
}

// With "Loss graph": each side's discs lost so far, from the bottom up
// (black dashed, the second colour dotted), on a scale of its own.
function lossPaths(nodes, x) {
  if (!S.showLoss || !nodes.some((n) => n.review)) return [];
  const sums = { black: 0, second: 0 };
  const pts = { black: [], second: [] };
  nodes.forEach((n, i) => {
    // Each move's loss as the review line shows it, so the totals agree with it.
    if (n.review) sums[n.review.side === "black" ? "black" : "second"] += +reviewLoss(n.review.bestValue, n.review.value);
    pts.black.push([i, sums.black]);
    pts.second.push([i, sums.second]);
  });
  const top = Math.max(8, sums.black, sums.second);
  const y = (v) => H - PAD - (v / top) * (H - 2 * PAD);
  const d = (p) => p.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  return [
    h("path.loss-black", { key: "lb", attrs: { d: d(pts.black) } }),
    h("path.loss-second", { key: "ls", attrs: { d: d(pts.second) } }),
    h("text.label", { key: "lost", attrs: { x: x(nodes.length - 1).toFixed(0), y: H - 6, "text-anchor": "end" } },
      t("board.graph.lost", { ...colourWords(S.variant), nb: total(sums.black), ns: total(sums.second) })),
  ];
}

function total(v) {
  const r = Math.round(v * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

// The node of the line shown under a click on the graph, or null.
export function nodeAt(event) {
  const nodes = S.node.lineNodes();
  const box = $("#graph").getBoundingClientRect();
  const n = Math.max(nodes.length - 1, 20);
  const i = Math.round(((event.clientX - box.left) / box.width) * n);
  return i >= 0 && i < nodes.length ? nodes[i] : null;
}
