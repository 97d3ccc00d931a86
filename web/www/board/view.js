// The view: the board, the status line, the engine's thinking, the move
// list, the graph and the review line, drawn from the page's state. It
// changes nothing: app.js hands it the handlers its clicks call (bind).

import { S, sideIsHuman, transcript, obf } from "./state.js";
import { SQUARES } from "../shared/game.js";
import { reviewTally, isMistake, MARKS } from "./ops.js";
import { buildGrid, setFlipped, describe, updateTabStop, cell } from "../shared/boardgrid.js";
import { look, formatValue, formatLoss } from "../shared/look.js";
import { openingOf } from "../shared/openings.js";
import { t, has, player, colourWords } from "../shared/i18n.js";
import { renderPanels, endedResult } from "./panels.js";

const $ = (sel) => document.querySelector(sel);

export function note(text) {
  S.notes.push(text);
  const el = $("#notes");
  el.textContent = S.notes.slice(-3).join(" ");
}

export function message(text) {
  $("#message").textContent = text;
  delete $("#message").dataset.refused;
}

// What clicks on the board and the move list do: {square(sq), goTo(node)}.
let on = { square() {}, goTo() {} };

export function buildBoard(handlers) {
  on = handlers;
  buildGrid($("#board"), (sq) => {
    if (on.square(sq) === "illegal") refused(sq);
    else if ($("#message").dataset.refused) message("");
  });
}

// A click (or Enter) on a square the player cannot play: the message line
// says so and the square flashes (and shakes, unless motion is reduced).
function refused(sq) {
  message(t("board.msg.notLegal", { move: sq }));
  $("#message").dataset.refused = sq;
  const el = cell(sq);
  el.classList.remove("refused");
  void el.offsetWidth; // restarts the animation on a second click
  el.classList.add("refused");
  clearTimeout(el.refusedTimer);
  el.refusedTimer = setTimeout(() => el.classList.remove("refused"), 700);
}

export function render() {
  const node = S.node;
  const st = node.state;
  const editing = S.editing;
  const humanMove = st && !st.over && !S.ended && !st.mustPass && sideIsHuman(st.side) && !S.thinking && !editing;
  // With hints off no value is shown, not even the book's.
  const hints = S.hints && S.hintsAt && S.hintsAt.node === node ? S.hintsAt : null;
  const second = S.variant === "classic" ? "red" : "white";
  document.body.dataset.variant = S.variant;
  setFlipped($("#board"), look.flipped);
  SQUARES.forEach((sq, i) => {
    const el = document.querySelector(`[data-square="${sq}"]`);
    // Until the engine has drawn the new position the discs stay as they
    // were: cleared and drawn again, every disc would spin in (style.css).
    const c = editing ? editing.board[i] : st ? st.board[i] : null;
    if (c === "X") el.dataset.disc = "black";
    else if (c === "O") el.dataset.disc = second;
    else if (c === "-") delete el.dataset.disc;
    const legal = humanMove && st.legal.includes(sq);
    el.toggleAttribute("data-legal", legal);
    const h = hints && legal ? hints.values.find((v) => v.move === sq) : null;
    const best = hints && hints.values.length ? hints.values[0].score : null;
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
  updateTabStop(humanMove ? st.legal : []);
  $("#setup-panel").hidden = !editing;
  if (editing) $("#setup-side").value = editing.side;
  renderOpening();
  announceMove(node);
  renderStatus();
  renderThinking();
  renderMoves();
  renderGraph();
  renderReview();
  $("#transcript").textContent = transcript();
  $("#obf").textContent = obf();
  renderPanels();
  $("#hint-info").textContent = !hints ? "" : hints.book ? t("board.hint.book")
    : t(hints.values.every((v) => v.kind === "exact") ? "board.hint.exact" : "board.hint.depth", { depth: hints.depth });
}

// The named opening of the line shown, in modern games from the start.
function renderOpening() {
  const moves = S.variant === "modern" && !S.root.setup ? transcript().match(/../g) || [] : [];
  const opening = openingOf(moves);
  $("#opening").textContent = opening ? t("board.opening", { name: opening.name }) : "";
}

// The move that led to the position shown, said once in a live region for
// a screen reader (the engine's replies most of all); black moves at odd
// plies, passes being plies.
let announced = null;
function announceMove(node) {
  if (node === announced) return;
  announced = node;
  const mover = player(node.path().length % 2 ? "black" : "second", S.variant);
  $("#announce").textContent = !node.move ? "" : node.move === "pass" ? t("board.passedAnnounce", mover)
    : t("board.played", { ...mover, move: node.move });
}

function result(st) {
  return t("board.gameOver", { result: outcome(st) });
}

// A finished game's result: "Black wins 40-24", "a draw, 32-32" (also the
// saved games list's).
export function outcome(st) {
  const b = st.discs.black, w = st.discs.second;
  if (b === w) return t("board.outcome.draw", { b, w });
  return t("board.outcome.win", { ...player(b > w ? "black" : st.second, S.variant), hi: Math.max(b, w), lo: Math.min(b, w) });
}

export function renderStatus() {
  const el = $("#status");
  const st = S.node.state;
  let state, text;
  if (!S.engine || !st) {
    state = "loading";
    text = S.engine ? "…" : t("board.loading");
  } else if (S.editing) {
    state = "setup";
    text = t(`board.setup.${S.variant === "classic" ? "classic" : "modern"}`);
  } else if (S.ended) {
    state = "game-over";
    text = t("board.gameOver", { result: endedResult() });
  } else if (st.over) {
    state = "game-over";
    text = result(st);
    if (st.supply && (st.supply.black === 0 || st.supply.second === 0)) {
      text += " " + t("board.ranOut", player(st.supply.black === 0 ? "black" : st.second, S.variant));
    }
  } else if (st.mustPass && !S.thinking) {
    // Reached by going back or forward: the pass is the next ply.
    state = sideIsHuman(st.side) ? "human-to-move" : "engine-to-move";
    text = t("board.mustPass", player(st.side, S.variant));
  } else if (sideIsHuman(st.side) && !S.thinking) {
    state = "human-to-move";
    text = t(S.human.black && S.human.second ? "board.toMove" : "board.toMoveYou", player(st.side, S.variant));
  } else if (S.thinking || !S.node.line) {
    state = "engine-thinking";
    text = t("board.thinking", player(st.side, S.variant));
  } else {
    // Gone back to a ply where the engine is to move: nothing thinks
    // until asked (Move now, Engine move) or the game goes on (▶).
    state = "engine-to-move";
    text = t("board.engineToMove", player(st.side, S.variant));
  }
  $("#move-now").disabled = state !== "engine-thinking" && !(state === "engine-to-move" && !st.mustPass);
  if (st) {
    const words = colourWords(S.variant);
    text += " " + t("board.discs", { ...words, b: st.discs.black, w: st.discs.second });
    if (st.supply) text += " " + t("board.hand", { ...words, nb: st.supply.black, ns: st.supply.second });
  }
  el.dataset.state = state;
  el.textContent = text;
  if (st && st.supply) {
    $("#supply").hidden = false;
    $("#supply-black").textContent = st.supply.black;
    $("#supply-red").textContent = st.supply.second;
  } else {
    $("#supply").hidden = true;
  }
}

// While the engine thinks: a clock counting up to the move's time cap,
// then the last completed step (depth, value, line, speed).
let clock = null;
export function renderThinking() {
  const el = $("#thinking");
  const th = S.thinking;
  if (!th) {
    el.textContent = "";
    return;
  }
  if (!clock) {
    clock = setInterval(() => {
      if (!S.thinking) { clearInterval(clock); clock = null; }
      renderThinking();
    }, 250);
  }
  const secs = ((performance.now() - th.since) / 1000).toFixed(0);
  const timer = th.cap ? t("board.think.capped", { secs, cap: th.cap }) : t("board.think.secs", { secs });
  el.dataset.seconds = secs;
  // Playing the engine with hints off, its line and value would be hints
  // the player did not ask for: the clock alone shows.
  const spoiler = !S.hints && (S.human.black || S.human.second);
  if (!th.info || spoiler) {
    el.textContent = t("board.think.start", { timer });
    return;
  }
  const i = th.info;
  const what = i.stage === "exact" ? t("board.think.exact") : t(i.stage === "selective" ? "board.think.selective" : "board.think.depth", { depth: i.depth });
  const nps = i.secs > 0 ? ` ${t("board.think.nps", { m: (i.nodes / i.secs / 1e6).toFixed(1) })}` : "";
  el.textContent = `${timer}  ${what}  ${formatValue(i.score)}  ${i.pv.join(" ")}  (${t("board.think.nodes", { n: i.nodes })}${nps})`;
}

// The move list's plies are one tab stop (a roving tabindex, as on the
// board): the current ply, else the first, has tabindex 0. The page's
// keys (arrows, Home, End) step through the game there as anywhere, and
// a focus on a ply follows the current ply when the list is drawn again;
// a branch offered beside a ply is a tab stop of its own.
let branchChosen = false;
export function renderMoves() {
  const list = $("#moves");
  const scrolled = list.scrollTop; // emptying the list would reset it
  const had = list.contains(document.activeElement) ? document.activeElement : null;
  const onBranch = had && had.classList.contains("alt") && !branchChosen ? had.dataset.key : null;
  branchChosen = false;
  list.textContent = "";
  const line = S.node.lineNodes().slice(1);
  line.forEach((n, i) => {
    const item = document.createElement("button");
    item.className = "ply" + (n === S.node ? " current" : "");
    item.dataset.ply = i + 1;
    item.tabIndex = -1;
    if (n === S.node) item.setAttribute("aria-current", "step");
    item.textContent = `${i % 2 === 0 ? `${i / 2 + 1}. ` : ""}${n.move}${n.review ? MARKS[n.review.cls] || "" : ""}`;
    if (n.review) item.dataset.class = n.review.cls;
    item.addEventListener("click", () => on.goTo(n));
    list.appendChild(item);
    const others = n.parent.children.filter((c) => c !== n);
    if (others.length) {
      const alt = document.createElement("span");
      alt.className = "alts";
      alt.append("(");
      others.forEach((o, k) => {
        const b = document.createElement("button");
        b.className = "alt";
        b.textContent = o.move;
        b.title = t("board.branch.title");
        b.dataset.key = `${i + 1}.${k}`;
        b.addEventListener("click", () => { branchChosen = true; n.parent.line = o; on.goTo(o); });
        if (k) alt.append(" ");
        alt.append(b);
      });
      alt.append(")");
      list.appendChild(alt);
    }
  });
  const stop = list.querySelector(".ply.current") || list.querySelector(".ply");
  if (stop) stop.tabIndex = 0;
  if (had) ((onBranch && list.querySelector(`.alt[data-key="${onBranch}"]`)) || stop)?.focus({ preventScroll: true });
  list.scrollTop = scrolled;
  // The current ply in sight, within the list's own box (the page itself
  // does not scroll).
  const cur = list.querySelector(".ply.current");
  if (cur) {
    const box = list.getBoundingClientRect(), at = cur.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - (box.height - at.height) / 2;
  }
}

// The evaluation over the line shown, black's view, clamped to ±32 discs.
export function renderGraph() {
  const svg = $("#graph");
  const nodes = S.node.lineNodes();
  const W = 600, H = 160, pad = 4;
  const n = Math.max(nodes.length - 1, 20);
  const x = (i) => pad + (i / n) * (W - 2 * pad);
  // A whole number of discs, so that the scale's label is in the unit the
  // values are shown in ("+10", not "+9.6").
  const maxV = Math.ceil(Math.max(8, ...nodes.map((m) => (m.value ? Math.min(32, Math.abs(m.value.black)) : 0))));
  const y = (v) => H / 2 - (Math.max(-maxV, Math.min(maxV, v)) / maxV) * (H / 2 - pad);
  let path = "";
  let dots = "";
  nodes.forEach((m, i) => {
    if (!m.value) return;
    path += `${path ? "L" : "M"}${x(i).toFixed(1)},${y(m.value.black).toFixed(1)}`;
    dots += `<circle cx="${x(i).toFixed(1)}" cy="${y(m.value.black).toFixed(1)}" r="2.5" data-ply="${i}"><title>${t("board.graph.point", { ply: i, value: formatValue(m.value.black), kind: m.value.kind })}</title></circle>`;
  });
  const cur = nodes.indexOf(S.node);
  const words = colourWords(S.variant);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML =
    `<rect x="0" y="0" width="${W}" height="${H / 2}" class="black-half"/>` +
    `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" class="axis"/>` +
    `<text x="6" y="14" class="label">${words.b} +${maxV}</text><text x="6" y="${H - 6}" class="label">${words.s} +${maxV}</text>` +
    `<line x1="${x(cur)}" y1="0" x2="${x(cur)}" y2="${H}" class="cursor"/>` +
    (path ? `<path d="${path}" class="eval"/>` : "") + dots + lossPaths(nodes, x, H, pad);
  svg.dataset.points = nodes.filter((m) => m.value).length;
  renderLegend(words);
}

// What the graph's lines are: the evaluation always, each side's losses
// with "Loss graph" on a reviewed line (their swatches drawn as the lines are).
function renderLegend(words) {
  const el = $("#graph-legend");
  el.textContent = "";
  const item = (cls, text) => {
    const span = document.createElement("span");
    span.className = "key";
    span.dataset.line = cls;
    const swatch = document.createElement("span");
    swatch.className = `swatch ${cls}`;
    swatch.setAttribute("aria-hidden", "true");
    span.append(swatch, text);
    el.append(span);
  };
  item("eval", t("board.graph.key.eval", words));
  if (S.showLoss && S.node.lineNodes().some((n) => n.review)) {
    item("loss-black", t("board.graph.key.lost", { who: words.b }));
    item("loss-second", t("board.graph.key.lost", { who: words.s }));
  }
}

// With "Loss graph": each side's discs lost so far, from the bottom up
// (black dashed, the second colour dotted), on a scale of its own.
function lossPaths(nodes, x, H, pad) {
  if (!S.showLoss || !nodes.some((n) => n.review)) return "";
  const sums = { black: 0, second: 0 };
  const pts = { black: [], second: [] };
  nodes.forEach((n, i) => {
    // Each move's loss as the review line shows it, so the totals agree with it.
    if (n.review) sums[n.review.side === "black" ? "black" : "second"] += +formatLoss(n.review.bestValue, n.review.value);
    pts.black.push([i, sums.black]);
    pts.second.push([i, sums.second]);
  });
  const top = Math.max(8, sums.black, sums.second);
  const y = (v) => H - pad - (v / top) * (H - 2 * pad);
  const d = (p) => p.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  return `<path d="${d(pts.black)}" class="loss-black"/><path d="${d(pts.second)}" class="loss-second"/>` +
    `<text x="${x(nodes.length - 1).toFixed(0)}" y="${H - 6}" text-anchor="end" class="label">${t("board.graph.lost", { ...colourWords(S.variant), nb: total(sums.black), ns: total(sums.second) })}</text>`;
}

function total(v) {
  const r = Math.round(v * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

export function graphClick(event) {
  const svg = $("#graph");
  const nodes = S.node.lineNodes();
  const box = svg.getBoundingClientRect();
  const n = Math.max(nodes.length - 1, 20);
  const i = Math.round(((event.clientX - box.left) / box.width) * n);
  if (i >= 0 && i < nodes.length) on.goTo(nodes[i]);
}

export function fmt(v) {
  return formatValue(v);
}

export function renderReview() {
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
      // The loss as the two values shown give it (formatLoss); none shown
      // where they are equal.
      const loss = formatLoss(r.bestValue, r.value);
      parts.push(+loss > 0 ? t("board.rev.lost", { move, cls, n: loss, best: `${r.best} ${fmt(r.bestValue)}` })
        : t("board.rev.move", { move, cls }));
      // Why the best move is best, and what each move was worth (reviews
      // read from a file or kept from an older page have neither).
      if (r.pv && r.pv.length > 1) parts.push(t("board.rev.line", { line: r.pv.join(" ") }));
      if (r.values && r.values.length > 1) {
        parts.push(t("board.rev.values", { values: r.values.map(([m, v]) => `${m} ${fmt(v)}`).join(", ") }));
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
