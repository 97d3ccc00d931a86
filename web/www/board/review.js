// Reviewing a game (docs/analyze.md: the engine's `review` command): every
// move of the line shown judged, the mistakes visited in turn, and practice
// at the position before each of them.

import { S, sideIsHuman, transcript } from "./state.js";
import * as storage from "../shared/storage.js";
import { job, obsolete, check, syncTo, search, refresh } from "./session.js";
import * as ctrl from "./ctrl.js";
import { isMistake, reviewValue as fmt, reviewLoss } from "./ops.js";
import { t } from "../shared/i18n.js";

function goTo(node) {
  if (ctrl.jump(node)) refresh();
}

// The review's depth in the browser: each move searched to depth 10 and
// solved exactly from 16 empties (a second or two a game natively, a few
// in the Worker at 44 % of its speed). The Worker cannot be interrupted,
// so a fixed depth is the page's time budget.
const REVIEW = { depth: 10, exact: 16 };
// A practice move this close to the best move's value is as good as it.
const PRACTICE_TOLERANCE = 0.5;

// `review`'s answer: "c7 +36 a2 +38 2.00 inaccuracy exact pv a2 b1 ...
// values a2 +38 c7 +36 ... b2 <=+28" (the best line, then every legal
// move's value: [move, value], or [move, bound, true] for a move more
// than the review's window below the best, which has an upper bound only).
export function parseReview(text) {
  const w = text.trim().split(/\s+/);
  if (w.length < 6) return null;
  const pvAt = w.indexOf("pv"), valuesAt = w.indexOf("values");
  const pv = pvAt < 0 ? [] : w.slice(pvAt + 1, valuesAt < 0 ? undefined : valuesAt);
  const values = [];
  if (valuesAt >= 0) {
    for (let i = valuesAt + 1; i + 1 < w.length; i += 2) {
      const bound = w[i + 1].startsWith("<=");
      values.push(bound ? [w[i], +w[i + 1].slice(2), true] : [w[i], +w[i + 1]]);
    }
  }
  return { move: w[0], value: +w[1], best: w[2], bestValue: +w[3], loss: +w[4], cls: w[5], exact: w[6] === "exact", pv, values };
}

function reviewKey() {
  return `mollett-review:${S.variant}:${S.root.setup || ""}:${transcript(S.node.lineNodes().at(-1))}`;
}

// The line's reviews, kept in this browser so that the game loaded again
// (a reload of its address, the same transcript pasted) has its review.
export function saveReview() {
  const reviews = {};
  S.node.lineNodes().forEach((n, i) => { if (n.review) reviews[i] = n.review; });
  storage.save(reviewKey(), reviews);
}

export function restoreReview() {
  const reviews = storage.load(reviewKey());
  if (!reviews) return;
  S.node.lineNodes().forEach((n, i) => {
    const r = reviews[i];
    if (r && r.move === n.move) ctrl.setReview(n, r);
  });
}

// Reviews every move of the line shown that has no review yet, one
// `review` at a time in the Worker: the page stays live, and going
// elsewhere stops it (what is reviewed stays).
export function reviewGame() {
  obsolete();
  const nodes = S.node.lineNodes().slice(1).filter((n) => n.move !== "pass" && (!n.review || n.review.fromFile));
  ctrl.setReviewing({ done: 0, total: nodes.length });
  return job(async (epoch) => {
    try {
      for (const n of nodes) {
        const st = await syncTo(n.parent);
        check(epoch);
        const r = parseReview(await search(`review ${n.move} ${REVIEW.depth} ${REVIEW.exact}`));
        check(epoch);
        if (r) ctrl.setReview(n, { ...r, side: st.side, depth: REVIEW.depth });
        ctrl.reviewedOne();
      }
      saveReview();
    } finally {
      ctrl.setReviewing(null);
    }
    refresh();
  });
}

export function nextMistake() {
  const line = S.node.lineNodes();
  const after = line.slice(line.indexOf(S.node) + 1).find(isMistake);
  const target = after || line.find(isMistake);
  if (target) goTo(target);
}

// Practice: the position before each of the mistakes, in turn, for the
// human side(s); a move tried there is reviewed and judged, not played.
export function startPractice() {
  const list = S.node.lineNodes().filter((n) => isMistake(n) && sideIsHuman(n.review.side));
  if (!list.length) return ctrl.message(t("board.msg.noPractice"));
  ctrl.setPractice({ list, i: 0, last: null, misses: 0 });
  goTo(list[0].parent);
}

// Where `sq` is, as a practice hint: a corner, an edge (the eight squares
// from end to end), else a quarter of the board (its corner squares).
export function region(sq) {
  const f = sq[0], r = +sq[1];
  const fileEdge = f === "a" || f === "h", rankEdge = r === 1 || r === 8;
  if (fileEdge && rankEdge) return t("board.region.corner");
  if (fileEdge) return t("board.region.edge", { from: `${f}1`, to: `${f}8` });
  if (rankEdge) return t("board.region.edge", { from: `a${r}`, to: `h${r}` });
  const left = f <= "d", low = r <= 4;
  return t("board.region.quadrant", { from: `${left ? "a" : "e"}${low ? 1 : 5}`, to: `${left ? "d" : "h"}${low ? 4 : 8}` });
}

export function practiceTry(sq) {
  const p = S.practice;
  const mistake = p.list[p.i];
  const node = mistake.parent;
  obsolete();
  ctrl.practiceStep({ last: { good: null, text: t("board.prac.checking", { sq }) } });
  job(async (epoch) => {
    await syncTo(node);
    check(epoch);
    const r = parseReview(await search(`review ${sq} ${REVIEW.depth} ${REVIEW.exact}`));
    check(epoch);
    if (!r) return;
    const good = r.bestValue - r.value <= PRACTICE_TOLERANCE;
    // A miss first gets a hint (where the best move is), the next one the
    // best move itself.
    const misses = good ? p.misses : p.misses + 1;
    const loss = reviewLoss(r.bestValue, r.value);
    const last = {
      good,
      text: good ? t("board.prac.good", { sq, best: `${r.best} ${fmt(r.bestValue)}` })
        : misses === 1 ? t("board.prac.region", { sq, n: loss, region: region(r.best) })
        : t("board.prac.worse", { sq, n: loss, best: r.best }),
    };
    if (!good) return ctrl.practiceStep({ last, misses });
    const i = p.i + 1;
    if (i < p.list.length) {
      ctrl.practiceStep({ last, i, misses: 0 });
      return goTo(p.list[i].parent);
    }
    ctrl.setPractice(null);
    ctrl.message(`${last.text} ${t("board.prac.done")}`);
  });
}
