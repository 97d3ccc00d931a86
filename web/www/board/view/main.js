// The view's entry: the whole page drawn from the state, by the board,
// status, moves, graph, review and panels modules. The controller's
// redraw() calls it once per animation frame; it changes no state. The
// handlers its clicks call (`on`) are the acting modules', handed over by
// app.js.

import { S } from "../state.js";
import { buildBoard, drawBoard } from "./board.js";
import { drawStatus } from "./status.js";
import { drawMoves } from "./moves.js";
import { drawGraph, nodeAt } from "./graph.js";
import { drawReview } from "./review.js";
import { drawPanels } from "./panels.js";

const $ = (sel) => document.querySelector(sel);

// `on`: {square(sq), goTo(node), chooseBranch(node), openSaved(id),
// deleteSaved(id)}. Returns the drawing function.
export function bindView(on) {
  buildBoard((sq) => on.square(sq));
  $("#graph").addEventListener("click", (e) => { const n = nodeAt(e); if (n) on.goTo(n); });
  return () => view(on);
}

function view(on) {
  if (!S.node) return;
  drawBoard();
  drawStatus();
  drawMoves(on);
  drawGraph();
  drawReview();
  drawPanels(on);
}
