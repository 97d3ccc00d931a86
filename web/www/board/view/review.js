// The review line: the review's progress, each side's accuracy, the move
// shown judged (its loss, the best move, its line, every move's value),
// practice's prompt and verdict; the Next mistake and Practice buttons.
// Reads the state only.

import { S } from "../state.js";
import { reviewTally, isMistake, MARKS, reviewValue as fmt, reviewBound, reviewLoss, classShift } from "../ops.js";
import { t, has, player } from "../../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

export function drawReview() {
  const el = $("#review-status");
  const any = S.node.lineNodes().some((n) => n.review);
  $("#next-mistake").disabled = !S.node.lineNodes().some(isMistake);
  $("#practice").disabled = !S.node.lineNodes().some(isMistake);
  const parts = [];
  if (S.reviewing) parts.push(t("board.rev.progress", { done: S.reviewing.done, n: S.reviewing.total }));
  const fromFile = S.node.lineNodes().some((n) => n.review && n.review.fromFile);
  if (fromFile && S.fileReview) parts.push(t("board.rev.fromFile", { summary: S.fileReview.summary }));
  if (any && !fromFile) {
    const tally = reviewTally();
    for (const side of Object.keys(tally)) {
      const s = tally[side];
      parts.push(t("board.rev.accuracy", { ...player(side, S.variant), acc: (s.acc / s.moves).toFixed(1), i: s.inaccuracy, m: s.mistake, b: s.blunder }));
    }
  }
  if (any) {
    const r = S.node.review;
    if (r && !S.practice) {
      const move = `${S.node.move}${MARKS[r.cls] || ""} ${fmt(r.value)}`;
      const cls = has(`board.cls.${r.cls}`) ? t(`board.cls.${r.cls}`) : r.cls;
      // The loss as the two values shown give it (to a tenth, ops.js's
      // reviewLoss); none shown where they are equal.
      const loss = reviewLoss(r.bestValue, r.value);
      parts.push(+loss > 0 ? t("board.rev.lost", { move, cls, n: loss, best: `${r.best} ${fmt(r.bestValue)}` })
        : t("board.rev.move", { move, cls }));
      // Why the class is not the discs' alone (winning chances).
      const shift = classShift(r);
      if (shift) parts.push(t(shift > 0 ? "board.rev.raised" : "board.rev.lowered"));
      // Why the best move is best, and what each move was worth (reviews
      // read from a file or kept from an older page have neither).
      if (r.pv && r.pv.length > 1) parts.push(t("board.rev.line", { line: r.pv.join(" ") }));
      if (r.values && r.values.length > 1) {
        parts.push(t("board.rev.values", { values: r.values.map(([m, v, bound]) => `${m} ${bound ? reviewBound(v) : fmt(v)}`).join(", ") }));
      }
    }
  }
  const p = S.practice;
  if (p) {
    if (p.last) parts.push(p.last.text);
    if (!p.last || p.last.good !== false) {
      parts.push(t("board.rev.practice", { ...player(p.list[p.i].review.side, S.variant), i: p.i + 1, n: p.list.length, move: p.list[p.i].move }));
    }
  }
  el.textContent = parts.join(" ");
  el.dataset.state = S.reviewing ? "reviewing" : p ? "practice" : any ? "reviewed" : "none";
  if (p && p.last && p.last.good !== null) el.dataset.result = p.last.good ? "good" : "worse";
  else delete el.dataset.result;
}
