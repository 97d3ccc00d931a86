// The move list: the plies of the line shown, each a button (the current
// one marked), with the branches offered beside a ply. Drawn by snabbdom
// (shared/vdom.js): a ply that stays keeps its element, its focus and the
// list's scroll. Reads the state only.
//
// The plies are one tab stop (a roving tabindex, as on the board): the
// current ply, else the first, has tabindex 0. The page's keys (arrows,
// Home, End) step through the game there as anywhere, and a focus on a
// ply follows the current ply; a branch offered beside a ply is a tab stop
// of its own.

import { S } from "../state.js";
import { MARKS } from "../ops.js";
import { h, patchInto } from "../../shared/vdom.js";
import { t } from "../../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

// A branch just chosen by a click: the focus goes to the current ply, not
// to the branch button now standing for the line left.
let branchChosen = false;

export function drawMoves(on) {
  const list = $("#moves");
  const had = list.contains(document.activeElement) ? document.activeElement : null;
  const onBranch = had && had.classList.contains("alt") && !branchChosen;
  branchChosen = false;
  const line = S.node.lineNodes().slice(1);
  const items = [];
  const stopAt = Math.max(0, line.indexOf(S.node));
  line.forEach((n, i) => {
    const current = n === S.node;
    items.push(h("button.ply", {
      key: `p${i + 1}`,
      class: { current },
      attrs: { "data-ply": i + 1, tabindex: i === stopAt ? 0 : -1, "aria-current": current ? "step" : false, "data-class": n.review ? n.review.cls : false },
      on: { click: () => on.goTo(n) },
    }, `${i % 2 === 0 ? `${i / 2 + 1}. ` : ""}${n.move}${n.review ? MARKS[n.review.cls] || "" : ""}`));
    const others = n.parent.children.filter((c) => c !== n);
    if (others.length) {
      const alts = ["("];
      others.forEach((o, k) => {
        if (k) alts.push(" ");
        alts.push(h("button.alt", {
          key: `${i + 1}.${k}`,
          attrs: { title: t("board.branch.title"), "data-key": `${i + 1}.${k}` },
          on: { click: () => { branchChosen = true; on.chooseBranch(o); } },
        }, o.move));
      });
      alts.push(")");
      items.push(h("span.alts", { key: `a${i + 1}` }, alts));
    }
  });
  patchInto(list, items);
  const stop = list.querySelector(".ply.current") || list.querySelector(".ply");
  // A focus on a ply follows the current ply; one on a branch stays.
  if (had && !(onBranch && had.isConnected) && stop && document.activeElement !== stop) stop.focus({ preventScroll: true });
  // The current ply in sight, within the list's own box (the page itself
  // does not scroll).
  const cur = list.querySelector(".ply.current");
  if (cur) {
    const box = list.getBoundingClientRect(), at = cur.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - (box.height - at.height) / 2;
  }
}
