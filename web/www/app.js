// The board page: the view, the game tree and the controls. The rules,
// the search, the evaluation and the book are the engine's, asked through
// its GTP commands (engine.js); the page never decides a move's legality.

import { Engine } from "./engine.js";
import { Node, SQUARES, parseShowboard, parseTranscript, parseSetup, parseInfo, parseHints, parseGgf, ggfOf } from "./game.js";

const $ = (sel) => document.querySelector(sel);
const PARAMS = ["variant", "level", "human", "hints", "moves", "time", "hintdepth"];

const S = {
  variant: "modern",
  human: { black: true, second: false },
  level: 6, // `level` option, or null when `time` (seconds a move) is used
  time: null,
  hints: false,
  hintDepth: 14, // deepest hint iteration
  root: null, // Node; root.setup holds setboard arguments for a set-up start
  node: null, // the position shown
  engine: null,
  synced: null, // {root, path} the Worker's game is at, null when unknown
  epoch: 0, // bumped whenever what the page wants from the engine changes
  searching: false, // a genmove or hint is running in the Worker
  thinking: null, // {node, info, moveNow} while the engine chooses a move
  hintsAt: null, // {node, depth, values} of the last hint answer
  notes: [],
  editing: null, // {board, side} in setup mode
  reviewing: null, // {done, total} while the Review button's job runs
  practice: null, // {list: [nodes], i} while practising mistakes
  showLoss: false, // the graph draws each side's cumulative loss
  fileReview: null, // {summary} of a review read from a GGF file's comment
  players: { black: "black", white: "white" }, // a GGF file's names, for the GGF out
};

// The review's depth in the browser: each move searched to depth 10 and
// solved exactly from 16 empties (a second or two a game natively, a few
// in the Worker at 44 % of its speed). The Worker cannot be interrupted,
// so a fixed depth is the page's time budget.
const REVIEW = { depth: 10, exact: 16 };
// A practice move this close to the best move's value is as good as it.
const PRACTICE_TOLERANCE = 0.5;
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// ---- the engine, one job at a time ----

let chain = Promise.resolve();
function job(fn) {
  const epoch = S.epoch;
  chain = chain.then(() => (epoch === S.epoch ? fn(epoch) : undefined)).catch((e) => {
    if (e && e.message !== "restarted" && e.message !== "obsolete") note(`engine: ${e.message}`);
  });
  return chain;
}

// What the page wants has changed: a search running for the old wish is
// ended with its Worker.
function obsolete() {
  S.epoch += 1;
  if (S.searching) {
    S.engine.restart();
    S.searching = false;
  }
}

function check(epoch) {
  if (epoch !== S.epoch) throw new Error("obsolete");
}

async function ask(line) {
  const a = await S.engine.command(line);
  if (!a.ok) throw new Error(`${line}: ${a.text}`);
  return a.text;
}

function rootLines(root) {
  const lines = [`newgame ${S.variant}`];
  if (root.setup) lines.push(`setboard ${root.setup}`);
  return lines;
}

function playLine(move) {
  return move === "pass" ? "play pass" : `play ${move}`;
}

// Brings the Worker's game to `node` (undoing and replaying as little as
// it can), and reads the position when the page does not know it yet.
async function syncTo(node) {
  const path = node.path();
  const lines = [];
  const s = S.synced;
  if (s && s.root === S.root) {
    let k = 0;
    while (k < s.path.length && k < path.length && s.path[k] === path[k]) k++;
    if (s.path.length > k) lines.push(`undo ${s.path.length - k}`);
    for (const m of path.slice(k)) lines.push(playLine(m));
  } else {
    lines.push(...rootLines(S.root));
    for (const m of path) lines.push(playLine(m));
  }
  S.synced = null;
  for (const line of lines) await ask(line);
  S.synced = { root: S.root, path };
  if (!node.state) node.state = parseShowboard(await ask("showboard"));
  return node.state;
}

// Hints search to a fixed depth and are exact from `endgame` empties; a
// move follows the level (or the time per move).
function searchOptions(kind, depth, endgame = 16) {
  if (kind === "hint") {
    return ["set_option movetime 0", `set_option depth ${depth}`, `set_option endgame ${endgame}`];
  }
  if (S.time !== null) {
    return ["set_option depth 0", "set_option endgame 18", `set_option movetime ${Math.round(S.time * 1000)}`];
  }
  return [`set_option level ${S.level}`];
}

async function search(line) {
  S.searching = true;
  try {
    return await ask(line);
  } finally {
    S.searching = false;
  }
}

// ---- what happens at a position ----

function sideIsHuman(side) {
  return side === "black" ? S.human.black : S.human.second;
}

function refresh() {
  obsolete();
  render();
  job(async (epoch) => {
    const node = S.node;
    const st = await syncTo(node);
    check(epoch);
    render();
    if (st.over) return fillGraph(epoch);
    if (st.mustPass) {
      if (!node.line || node.line.move === "pass") {
        note(`${cap(st.side)} has no move and passes.`);
        S.node = node.child("pass");
        return refresh();
      }
      return;
    }
    if (!sideIsHuman(st.side) && !node.line && !S.editing) return engineMove(epoch, node);
    await bookOrHints(epoch, node);
    await fillGraph(epoch);
  });
}

async function engineMove(epoch, node) {
  S.thinking = { node, info: null, moveNow: false };
  render();
  for (const line of searchOptions("move")) await ask(line);
  check(epoch);
  const mv = await search("reg_genmove");
  check(epoch);
  finishEngineMove(node, mv);
}

function finishEngineMove(node, mv) {
  const t = S.thinking;
  S.thinking = null;
  if (t && t.info && t.info.pv[0] === mv && t.info.stage !== "wld") {
    setValue(node, t.info.score, t.info.scoreText, t.info.stage === "exact" ? "exact" : `depth ${t.info.depth}`);
  }
  const child = node.child(mv);
  if (node.value && !child.value) child.value = { ...node.value };
  S.node = child;
  refresh();
}

// "Move now": the best move of the last completed step is played, and
// the Worker that searched it is ended.
function moveNow() {
  const t = S.thinking;
  if (!t) return;
  if (!t.info || !t.info.pv.length) {
    t.moveNow = true; // played as soon as the first step reports
    return;
  }
  const mv = t.info.pv[0];
  obsolete();
  finishEngineMove(t.node, mv);
}

function onInfo(text) {
  const info = parseInfo(text);
  const t = S.thinking;
  if (info && t && info.stage !== "wld") {
    t.info = info;
    renderThinking();
    if (t.moveNow) moveNow();
  }
}

// The book's moves (marked, with their values) and, with hints on, a
// value on every legal square, deepening one iteration at a time.
async function bookOrHints(epoch, node) {
  const st = node.state;
  if (!st.legal.length) return;
  const maxDepth = S.hints ? S.hintDepth : 1;
  for (let depth = 1; depth <= maxDepth; depth++) {
    // Without hints only the book is wanted: no exact solve for nothing.
    for (const line of searchOptions("hint", depth, S.hints ? 16 : 0)) await ask(line);
    check(epoch);
    const hints = parseHints(await search("hint 64"));
    check(epoch);
    const book = hints.length && hints[0].kind === "book";
    if (!book && !S.hints) return;
    S.hintsAt = { node, depth, values: hints, book };
    if (hints.length) setValue(node, hints[0].score, hints[0].text, book ? "book" : hints[0].kind === "exact" ? "exact" : `depth ${depth}`);
    render();
    if (book || hints.every((h) => h.kind === "exact")) return;
  }
}

// The graph's missing values on the line shown, by a short search each,
// while nothing else is asked.
async function fillGraph(epoch) {
  const depth = Math.min(S.level || 8, 8);
  for (const n of S.node.lineNodes()) {
    if (n.value || (n.state && n.state.over)) continue;
    const st = await syncTo(n);
    check(epoch);
    if (st.over) {
      const diff = st.discs.black - st.discs.second;
      n.value = { black: diff, text: String(diff), kind: "final" };
      continue;
    }
    for (const line of searchOptions("hint", depth, 12)) await ask(line);
    const hints = parseHints(await search("hint 1"));
    check(epoch);
    // The first line's score is the side to move's, "pass -6" included.
    if (hints.length) setValue(n, hints[0].score, hints[0].text, hints[0].kind === "search" ? `depth ${depth}` : hints[0].kind);
    renderGraph();
  }
  await syncTo(S.node);
}

function setValue(node, score, text, kind) {
  const side = node.state ? node.state.side : null;
  const black = side === "black" ? score : -score;
  node.value = { black, text, kind };
}

// ---- review (docs/analyze.md: the engine's `review` command) ----

// `review`'s answer: "c7 +36 a2 +38 2.00 inaccuracy exact".
function parseReview(text) {
  const w = text.trim().split(/\s+/);
  if (w.length < 6) return null;
  return { move: w[0], value: +w[1], best: w[2], bestValue: +w[3], loss: +w[4], cls: w[5], exact: w[6] === "exact" };
}

function moveAccuracy(loss) {
  return 100 * Math.pow(2, -Math.max(0, loss) / 4);
}

// Each side's figures over the reviewed moves of the line shown.
function reviewTally() {
  const t = {};
  for (const n of S.node.lineNodes()) {
    const r = n.review;
    if (!r || r.cls === "forced") continue;
    const side = r.side;
    const s = (t[side] ||= { moves: 0, loss: 0, acc: 0, inaccuracy: 0, mistake: 0, blunder: 0 });
    s.moves += 1;
    s.loss += r.loss;
    s.acc += moveAccuracy(r.loss);
    if (r.cls in s) s[r.cls] += 1;
  }
  return t;
}

function reviewKey() {
  return `mollett-review:${S.variant}:${S.root.setup || ""}:${transcript(S.node.lineNodes().at(-1))}`;
}

// The line's reviews, kept in this browser so that the game loaded again
// (a reload of its address, the same transcript pasted) has its review.
function saveReview() {
  const reviews = {};
  S.node.lineNodes().forEach((n, i) => { if (n.review) reviews[i] = n.review; });
  try { localStorage.setItem(reviewKey(), JSON.stringify(reviews)); } catch (e) { /* private mode: not kept */ }
}

function restoreReview() {
  let reviews = null;
  try { reviews = JSON.parse(localStorage.getItem(reviewKey()) || "null"); } catch (e) { reviews = null; }
  if (!reviews) return;
  S.node.lineNodes().forEach((n, i) => {
    const r = reviews[i];
    if (r && r.move === n.move) n.review = r;
  });
}

// Reviews every move of the line shown that has no review yet, one
// `review` at a time in the Worker: the page stays live, and going
// elsewhere stops it (what is reviewed stays).
function reviewGame() {
  obsolete();
  const nodes = S.node.lineNodes().slice(1).filter((n) => n.move !== "pass" && (!n.review || n.review.fromFile));
  S.reviewing = { done: 0, total: nodes.length };
  render();
  return job(async (epoch) => {
    try {
      for (const n of nodes) {
        const st = await syncTo(n.parent);
        check(epoch);
        const r = parseReview(await search(`review ${n.move} ${REVIEW.depth} ${REVIEW.exact}`));
        check(epoch);
        if (r) n.review = { ...r, side: st.side };
        S.reviewing.done += 1;
        render();
      }
      saveReview();
    } finally {
      S.reviewing = null;
      render();
    }
    refresh();
  });
}

function isMistake(n) {
  return n.review && MARKS[n.review.cls] !== undefined;
}

function nextMistake() {
  const line = S.node.lineNodes();
  const after = line.slice(line.indexOf(S.node) + 1).find(isMistake);
  const target = after || line.find(isMistake);
  if (target) goTo(target);
}

// Practice: the position before each of the mistakes, in turn, for the
// human side(s); a move tried there is reviewed and judged, not played.
function startPractice() {
  const list = S.node.lineNodes().filter((n) => isMistake(n) && sideIsHuman(n.review.side));
  if (!list.length) return message("No mistakes of yours to practise.");
  S.practice = { list, i: 0, last: null };
  goTo(list[0].parent);
  renderReview();
}

function practiceTry(sq) {
  const p = S.practice;
  const mistake = p.list[p.i];
  const node = mistake.parent;
  obsolete();
  p.last = { good: null, text: `${sq}: checking…` };
  renderReview();
  job(async (epoch) => {
    await syncTo(node);
    check(epoch);
    const r = parseReview(await search(`review ${sq} ${REVIEW.depth} ${REVIEW.exact}`));
    check(epoch);
    if (!r) return;
    const good = r.bestValue - r.value <= PRACTICE_TOLERANCE;
    p.last = {
      good,
      text: good
        ? `${sq} is as good as the best (${r.best} ${fmt(r.bestValue)}).`
        : `${sq} loses ${r.loss.toFixed(1)} discs against ${r.best}: try again.`,
    };
    if (!good) return renderReview();
    p.i += 1;
    if (p.i < p.list.length) return goTo(p.list[p.i].parent);
    S.practice = null;
    message(`${p.last.text} That was the last mistake to practise.`);
    render();
  });
}

function fmt(v) {
  return `${v > 0 ? "+" : ""}${Number.isInteger(v) ? v : v.toFixed(1)}`;
}

function renderReview() {
  const el = $("#review-status");
  const any = S.node.lineNodes().some((n) => n.review);
  $("#next-mistake").disabled = !S.node.lineNodes().some(isMistake);
  $("#practice").disabled = !S.node.lineNodes().some(isMistake);
  const parts = [];
  if (S.reviewing) parts.push(`Reviewing: ${S.reviewing.done} of ${S.reviewing.total} moves…`);
  const fromFile = S.node.lineNodes().some((n) => n.review && n.review.fromFile);
  if (fromFile && S.fileReview) parts.push(`From the file: ${S.fileReview.summary}. Review fills in the moves it does not mark.`);
  if (any && !fromFile) {
    const t = reviewTally();
    for (const side of Object.keys(t)) {
      const s = t[side];
      parts.push(`${cap(side)}: accuracy ${(s.acc / s.moves).toFixed(1)}, ${s.inaccuracy} ?!, ${s.mistake} ?, ${s.blunder} ??.`);
    }
  }
  if (any) {
    const r = S.node.review;
    if (r && !S.practice) {
      parts.push(`${S.node.move}${MARKS[r.cls] || ""} ${fmt(r.value)}: ${r.cls}${r.loss > 0 ? `, ${r.loss.toFixed(1)} discs lost; best ${r.best} ${fmt(r.bestValue)}` : ""}.`);
    }
  }
  const p = S.practice;
  if (p) {
    if (p.last) parts.push(p.last.text);
    if (!p.last || p.last.good !== false) {
      parts.push(`Practice ${p.i + 1} of ${p.list.length}: ${cap(p.list[p.i].review.side)} played ${p.list[p.i].move} here; find a better move.`);
    }
  }
  el.textContent = parts.join(" ");
  el.dataset.state = S.reviewing ? "reviewing" : p ? "practice" : any ? "reviewed" : "none";
  if (p && p.last && p.last.good !== null) el.dataset.result = p.last.good ? "good" : "worse";
  else delete el.dataset.result;
}

// ---- user actions ----

function playHuman(sq) {
  const st = S.node.state;
  if (!st || st.over || !st.legal.includes(sq) || !sideIsHuman(st.side)) return;
  if (S.practice && S.node === S.practice.list[S.practice.i].parent) return practiceTry(sq);
  S.node = S.node.child(sq);
  refresh();
}

function goTo(node) {
  if (!node || node === S.node) return;
  S.thinking = null;
  S.node = node;
  if (S.practice && node !== S.practice.list[S.practice.i].parent) S.practice = null;
  refresh();
}

function back() { goTo(S.node.parent); }
function forward() { goTo(S.node.line); }
function first() { goTo(S.root); }
function last() { let n = S.node; while (n.line) n = n.line; goTo(n); }

// Undo and redo move to the previous (next) position where a human is
// to move: against the engine, the engine's reply goes with the move.
function humanTurn(n) {
  return n.state && !n.state.over && !n.state.mustPass && sideIsHuman(n.state.side);
}
function undo() {
  let n = S.node.parent;
  while (n && n.parent && !humanTurn(n)) n = n.parent;
  if (n) goTo(n);
}
function redo() {
  let n = S.node.line;
  while (n && n.line && !humanTurn(n)) n = n.line;
  if (n) goTo(n);
}

function newGame(variant, setup = null) {
  S.variant = variant;
  S.root = new Node(null, null);
  S.root.setup = setup;
  S.node = S.root;
  S.thinking = null;
  S.synced = null;
  S.hintsAt = null;
  refresh();
}

// Replays `moves` from the start in the engine; an illegal one is refused
// with its ply named, and the game stays as it was.
function loadTranscript(text) {
  const parsed = parseTranscript(text);
  if (parsed.error) return Promise.resolve(message(`Transcript not loaded: ${parsed.error}.`));
  obsolete();
  return job(async () => {
    const root = new Node(null, null);
    root.setup = S.root.setup;
    S.synced = null;
    for (const line of rootLines(root)) await ask(line);
    let node = root;
    let ply = 0;
    for (const mv of parsed.moves) {
      ply += 1;
      const legal = await ask("legal");
      if (legal === "pass") {
        await ask("play pass");
        node = node.child("pass");
      }
      const a = await S.engine.command(`play ${mv}`);
      if (!a.ok) {
        message(`Transcript not loaded: move ${ply} (${mv}) is ${legal === "" ? "after the end of the game" : "illegal"}; the game is as it was.`);
        S.synced = null;
        await syncTo(S.node);
        return;
      }
      node = node.child(mv);
    }
    S.synced = null;
    S.root = root;
    S.node = node;
    S.fileReview = null;
    S.players = { black: "black", white: "white" };
    restoreReview();
    message(`Loaded ${parsed.moves.length} moves.`);
    refresh();
  });
}

// A GGF record in: its moves as a transcript, then each move's value on
// the graph and the marked moves of `mollett analyze`'s comment in the move
// list (the review of the moves it does not mark is not in the file:
// Review fills it in).
function loadGgf(text) {
  const g = parseGgf(text);
  if (g.error) return Promise.resolve(message(`GGF not loaded: ${g.error}.`));
  const moves = g.moves.filter((m) => m.move !== "pass").map((m) => m.move).join("");
  return loadTranscript(moves).then(() => {
    const nodes = S.node.lineNodes();
    if (transcript(nodes.at(-1)) !== moves) return;
    S.players = { black: g.black || "black", white: g.white || "white" };
    g.moves.forEach((m, k) => {
      const n = nodes[k + 1];
      if (!n || n.move !== m.move || m.value === null) return;
      n.value = { black: m.side === "black" ? m.value : -m.value, text: String(m.value), kind: "file" };
    });
    for (const m of g.marks) {
      const n = nodes[m.ply];
      if (!n || n.move !== m.move || n.review) continue;
      const loss = Math.round((m.bestValue - m.value) * 100) / 100;
      n.review = { move: m.move, value: m.value, best: m.best, bestValue: m.bestValue, loss, cls: m.cls, exact: false,
                   side: m.ply % 2 === 1 ? "black" : "white", fromFile: true };
    }
    S.fileReview = g.summary ? { summary: g.summary.replace(/^mollett analyze:\s*/, "") } : null;
    message(`Loaded ${moves.length / 2} moves from GGF${g.marks.length ? `, ${g.marks.length} marked` : ""}.`);
    render();
  });
}

// The line shown as a GGF file, with its review when there is one.
function downloadGgf() {
  const nodes = S.node.lineNodes().slice(1).map((n, i) => ({
    move: n.move,
    side: i % 2 === 0 ? "black" : "white",
    value: n.review ? n.review.value : n.value ? (i % 2 === 0 ? n.value.black : -n.value.black) : null,
  }));
  const t = reviewTally();
  const summary = Object.keys(t).map((side) => {
    const s = t[side];
    return ` ${side === "black" ? S.players.black : S.players.white} (${side}) accuracy ${(s.acc / s.moves).toFixed(1)}, ${s.inaccuracy} ?!, ${s.mistake} ?, ${s.blunder} ??`;
  }).join(";");
  const marks = S.node.lineNodes().flatMap((n, i) => (isMistake(n)
    ? [{ ply: i, move: n.move, mark: MARKS[n.review.cls], value: n.review.value, best: n.review.best, bestValue: n.review.bestValue }]
    : []));
  const text = ggfOf(nodes, { ...S.players, summary, marks }) + "\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-ggf" }));
  a.download = `mollett-${transcript(S.node.lineNodes().at(-1)).slice(0, 16) || "game"}.ggf`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  message("GGF written.");
}

function loadSetup(text) {
  const parsed = parseSetup(text);
  if (parsed.error) return Promise.resolve(message(`Position not loaded: ${parsed.error}.`));
  obsolete();
  return job(async () => {
    S.synced = null;
    await ask(`newgame ${S.variant}`);
    const a = await S.engine.command(`setboard ${parsed.args}`);
    if (!a.ok) {
      message(`Position not loaded: ${a.text}.`);
      await syncTo(S.node);
      return;
    }
    message("Position set up.");
    newGame(S.variant, parsed.args);
  });
}

function transcript(node = S.node) {
  return node.path().filter((m) => m !== "pass").join("");
}

function obf(node = S.node) {
  const st = node.state;
  if (!st) return "";
  const side = st.over ? "X" : st.side === "black" ? "X" : "O";
  let s = `${st.board} ${side}`;
  if (st.supply) s += ` ${st.supply.black} ${st.supply.second}`;
  return s;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    message(`${what} copied.`);
  } catch (e) {
    message(`${what}: ${text}`);
  }
}

// ---- the view ----

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

function note(text) {
  S.notes.push(text);
  const el = $("#notes");
  el.textContent = S.notes.slice(-3).join(" ");
}

function message(text) {
  $("#message").textContent = text;
}

function buildBoard() {
  const board = $("#board");
  for (const sq of SQUARES) {
    const el = document.createElement("button");
    el.className = "square";
    el.dataset.square = sq;
    el.setAttribute("aria-label", sq);
    el.innerHTML = '<span class="disc"></span><span class="value"></span>';
    el.addEventListener("click", () => (S.editing ? editSquare(sq) : playHuman(sq)));
    board.appendChild(el);
  }
}

function render() {
  const node = S.node;
  const st = node.state;
  const editing = S.editing;
  const humanMove = st && !st.over && !st.mustPass && sideIsHuman(st.side) && !S.thinking && !editing;
  const hints = S.hintsAt && S.hintsAt.node === node ? S.hintsAt : null;
  const second = S.variant === "classic" ? "red" : "white";
  document.body.dataset.variant = S.variant;
  SQUARES.forEach((sq, i) => {
    const el = document.querySelector(`[data-square="${sq}"]`);
    const c = editing ? editing.board[i] : st ? st.board[i] : "-";
    if (c === "X") el.dataset.disc = "black";
    else if (c === "O") el.dataset.disc = second;
    else delete el.dataset.disc;
    const legal = humanMove && st.legal.includes(sq);
    el.toggleAttribute("data-legal", legal);
    const h = hints && legal && (S.hints || hints.book) ? hints.values.find((v) => v.move === sq) : null;
    const best = hints && hints.values.length ? hints.values[0].score : null;
    if (h) {
      el.dataset.value = h.text;
      el.dataset.kind = h.kind;
      el.classList.toggle("best", h.score === best);
      el.querySelector(".value").textContent = h.text;
    } else {
      delete el.dataset.value;
      delete el.dataset.kind;
      el.classList.remove("best");
      el.querySelector(".value").textContent = "";
    }
    const lastMove = node.move && node.move !== "pass" && node.move === sq;
    el.classList.toggle("last", !!lastMove);
  });
  renderStatus();
  renderThinking();
  renderMoves();
  renderGraph();
  renderReview();
  $("#transcript").textContent = transcript();
  $("#obf").textContent = obf();
  $("#hint-info").textContent = hints ? (hints.book ? "book values" : `hints: depth ${hints.depth}${hints.values.every((v) => v.kind === "exact") ? " (exact)" : ""}`) : "";
}

function result(st) {
  const b = st.discs.black, w = st.discs.second;
  const second = cap(st.second);
  if (b === w) return `Game over: a draw, ${b}-${w}.`;
  return `Game over: ${b > w ? "Black" : second} wins ${Math.max(b, w)}-${Math.min(b, w)}.`;
}

function renderStatus() {
  const el = $("#status");
  const st = S.node.state;
  let state, text;
  if (!S.engine || !st) {
    state = "loading";
    text = S.engine ? "…" : "Loading the engine…";
  } else if (S.editing) {
    state = "setup";
    text = "Setting up a position: click squares to cycle empty, black, " + (S.variant === "classic" ? "red" : "white") + ".";
  } else if (st.over) {
    state = "game-over";
    text = result(st);
    if (st.supply && (st.supply.black === 0 || st.supply.second === 0)) {
      text += ` ${st.supply.black === 0 ? "Black" : cap(st.second)} ran out of discs.`;
    }
  } else if (sideIsHuman(st.side) && !S.thinking) {
    state = "human-to-move";
    text = `${cap(st.side)} to move${S.human.black && S.human.second ? "" : " (you)"}.`;
  } else {
    state = "engine-thinking";
    text = S.thinking || !S.node.line ? `Mollett (${st.side}) is thinking…` : `${cap(st.side)} to move (Mollett): ▶ or "Engine move" continues.`;
  }
  if (st) {
    text += ` Black ${st.discs.black}, ${st.second} ${st.discs.second}.`;
    if (st.supply) text += ` In hand: black ${st.supply.black}, ${st.second} ${st.supply.second}.`;
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

function renderThinking() {
  const el = $("#thinking");
  const t = S.thinking;
  if (!t || !t.info) {
    el.textContent = t ? "thinking…" : "";
    return;
  }
  const i = t.info;
  const what = i.stage === "exact" ? "exact" : i.stage === "selective" ? `selective ${i.depth}` : `depth ${i.depth}`;
  const nps = i.secs > 0 ? ` ${(i.nodes / i.secs / 1e6).toFixed(1)} M nodes/s` : "";
  el.textContent = `${what}  ${i.scoreText}  ${i.pv.join(" ")}  (${i.nodes} nodes${nps})`;
}

function renderMoves() {
  const list = $("#moves");
  list.textContent = "";
  const line = S.node.lineNodes().slice(1);
  line.forEach((n, i) => {
    const item = document.createElement("button");
    item.className = "ply" + (n === S.node ? " current" : "");
    item.dataset.ply = i + 1;
    item.textContent = `${i % 2 === 0 ? `${i / 2 + 1}. ` : ""}${n.move}${n.review ? MARKS[n.review.cls] || "" : ""}`;
    if (n.review) item.dataset.class = n.review.cls;
    item.addEventListener("click", () => goTo(n));
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
        b.title = "switch to this branch";
        b.addEventListener("click", () => { n.parent.line = o; goTo(o); });
        if (k) alt.append(" ");
        alt.append(b);
      });
      alt.append(")");
      list.appendChild(alt);
    }
  });
}

// The evaluation over the line shown, black's view, clamped to ±32 discs.
function renderGraph() {
  const svg = $("#graph");
  const nodes = S.node.lineNodes();
  const W = 600, H = 160, pad = 4;
  const n = Math.max(nodes.length - 1, 20);
  const x = (i) => pad + (i / n) * (W - 2 * pad);
  const maxV = Math.max(8, ...nodes.map((m) => (m.value ? Math.min(32, Math.abs(m.value.black)) : 0)));
  const y = (v) => H / 2 - (Math.max(-maxV, Math.min(maxV, v)) / maxV) * (H / 2 - pad);
  let path = "";
  let dots = "";
  nodes.forEach((m, i) => {
    if (!m.value) return;
    path += `${path ? "L" : "M"}${x(i).toFixed(1)},${y(m.value.black).toFixed(1)}`;
    dots += `<circle cx="${x(i).toFixed(1)}" cy="${y(m.value.black).toFixed(1)}" r="2.5" data-ply="${i}"><title>ply ${i}: ${m.value.black > 0 ? "+" : ""}${m.value.black} (${m.value.kind})</title></circle>`;
  });
  const cur = nodes.indexOf(S.node);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML =
    `<rect x="0" y="0" width="${W}" height="${H / 2}" class="black-half"/>` +
    `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" class="axis"/>` +
    `<text x="6" y="14" class="label">black +${maxV}</text><text x="6" y="${H - 6}" class="label">${S.variant === "classic" ? "red" : "white"} +${maxV}</text>` +
    `<line x1="${x(cur)}" y1="0" x2="${x(cur)}" y2="${H}" class="cursor"/>` +
    (path ? `<path d="${path}" class="eval"/>` : "") + dots + lossPaths(nodes, x, H, pad);
  svg.dataset.points = nodes.filter((m) => m.value).length;
}

// With "Loss graph": each side's discs lost so far, from the bottom up
// (black dashed, the second colour dotted), on a scale of its own.
function lossPaths(nodes, x, H, pad) {
  if (!S.showLoss || !nodes.some((n) => n.review)) return "";
  const sums = { black: 0, second: 0 };
  const pts = { black: [], second: [] };
  nodes.forEach((n, i) => {
    if (n.review) sums[n.review.side === "black" ? "black" : "second"] += n.review.loss;
    pts.black.push([i, sums.black]);
    pts.second.push([i, sums.second]);
  });
  const top = Math.max(8, sums.black, sums.second);
  const y = (v) => H - pad - (v / top) * (H - 2 * pad);
  const d = (p) => p.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  return `<path d="${d(pts.black)}" class="loss-black"/><path d="${d(pts.second)}" class="loss-second"/>` +
    `<text x="${x(nodes.length - 1).toFixed(0)}" y="${H - 6}" text-anchor="end" class="label">discs lost: black ${sums.black.toFixed(1)}, ${S.variant === "classic" ? "red" : "white"} ${sums.second.toFixed(1)}</text>`;
}

function graphClick(event) {
  const svg = $("#graph");
  const nodes = S.node.lineNodes();
  const box = svg.getBoundingClientRect();
  const n = Math.max(nodes.length - 1, 20);
  const i = Math.round(((event.clientX - box.left) / box.width) * n);
  if (i >= 0 && i < nodes.length) goTo(nodes[i]);
}

// ---- setup ----

function startEditing() {
  obsolete();
  const st = S.node.state;
  S.editing = { board: st ? st.board.split("") : Array(64).fill("-"), side: st && st.side && st.side !== "black" ? "O" : "X" };
  $("#setup-panel").hidden = false;
  render();
}

function editSquare(sq) {
  const i = SQUARES.indexOf(sq);
  const b = S.editing.board;
  b[i] = b[i] === "-" ? "X" : b[i] === "X" ? "O" : "-";
  render();
}

function finishEditing(apply) {
  const e = S.editing;
  S.editing = null;
  $("#setup-panel").hidden = true;
  if (apply) loadSetup(`${e.board.join("")} ${$("#setup-side").value}`);
  else refresh();
}

// ---- start ----

function readParams() {
  const q = new URLSearchParams(location.search);
  const notes = [];
  for (const key of q.keys()) if (!PARAMS.includes(key)) notes.push(`unknown address parameter "${key}" ignored`);
  const v = q.get("variant");
  if (v !== null) {
    if (v === "modern" || v === "classic") S.variant = v;
    else notes.push(`variant=${v} is not modern or classic; modern is played`);
  }
  const level = q.get("level");
  if (level !== null) {
    if (/^\d+$/.test(level) && +level >= 1 && +level <= 60) S.level = +level;
    else notes.push(`level=${level} is not 1 to 60; level ${S.level} is played`);
  }
  const time = q.get("time");
  if (time !== null) {
    if (/^\d+(\.\d+)?$/.test(time) && +time > 0 && +time <= 3600) { S.time = +time; }
    else notes.push(`time=${time} is not 0 to 3600 seconds; ignored`);
  }
  const human = q.get("human");
  if (human !== null) {
    const map = { black: [true, false], white: [false, true], red: [false, true], both: [true, true], none: [false, false] };
    if (map[human]) [S.human.black, S.human.second] = map[human];
    else notes.push(`human=${human} is not black, white, both or none; ignored`);
  }
  const hints = q.get("hints");
  if (hints !== null) {
    if (hints === "1" || hints === "0") S.hints = hints === "1";
    else notes.push(`hints=${hints} is not 0 or 1; ignored`);
  }
  const hd = q.get("hintdepth");
  if (hd !== null) {
    if (/^\d+$/.test(hd) && +hd >= 1 && +hd <= 60) S.hintDepth = +hd;
    else notes.push(`hintdepth=${hd} is not 1 to 60; ignored`);
  }
  for (const n of notes) note(`Note: ${n}.`);
  return q.get("moves");
}

function controls() {
  const humanSel = $("#human");
  humanSel.value = S.human.black && S.human.second ? "both" : S.human.black ? "black" : S.human.second ? "white" : "none";
  humanSel.addEventListener("change", () => {
    const v = humanSel.value;
    S.human.black = v === "black" || v === "both";
    S.human.second = v === "white" || v === "both";
    S.thinking = null;
    refresh();
  });
  const levelSel = $("#level");
  for (let i = 1; i <= 60; i++) levelSel.add(new Option(`level ${i}`, i));
  levelSel.add(new Option("time per move", "time"));
  levelSel.value = S.time !== null ? "time" : S.level;
  $("#time").value = S.time !== null ? S.time : 1;
  $("#time").hidden = S.time === null;
  levelSel.addEventListener("change", () => {
    if (levelSel.value === "time") { S.time = +$("#time").value || 1; $("#time").hidden = false; }
    else { S.level = +levelSel.value; S.time = null; $("#time").hidden = true; }
  });
  $("#time").addEventListener("change", () => { const t = +$("#time").value; if (t > 0) S.time = t; });
  const hints = $("#hints");
  hints.checked = S.hints;
  hints.addEventListener("change", () => { S.hints = hints.checked; refresh(); });
  $("#new-modern").addEventListener("click", () => newGame("modern"));
  $("#new-classic").addEventListener("click", () => newGame("classic"));
  $("#move-now").addEventListener("click", moveNow);
  $("#engine-move").addEventListener("click", () => {
    const st = S.node.state;
    if (!st || st.over || S.thinking) return;
    obsolete();
    const node = S.node;
    job((epoch) => engineMove(epoch, node));
  });
  $("#first").addEventListener("click", first);
  $("#back").addEventListener("click", back);
  $("#forward").addEventListener("click", forward);
  $("#last").addEventListener("click", last);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#copy-transcript").addEventListener("click", () => copy(transcript(), "Transcript"));
  $("#copy-obf").addEventListener("click", () => copy(obf(), "Position"));
  $("#load").addEventListener("click", () => {
    const text = $("#paste").value;
    // A position starts with "setboard" or a board (more squares than a
    // square's two characters); anything else is read as a transcript.
    if (/^\s*\(;/.test(text)) loadGgf(text);
    else if (/^\s*setboard\b/i.test(text) || /^\s*[-XOxo*.]{8,}/.test(text)) loadSetup(text);
    else loadTranscript(text);
  });
  $("#edit").addEventListener("click", startEditing);
  $("#setup-done").addEventListener("click", () => finishEditing(true));
  $("#setup-cancel").addEventListener("click", () => finishEditing(false));
  $("#setup-clear").addEventListener("click", () => { S.editing.board = Array(64).fill("-"); render(); });
  $("#graph").addEventListener("click", graphClick);
  $("#review").addEventListener("click", reviewGame);
  $("#download-ggf").addEventListener("click", downloadGgf);
  $("#next-mistake").addEventListener("click", nextMistake);
  $("#practice").addEventListener("click", startPractice);
  $("#show-loss").addEventListener("change", () => { S.showLoss = $("#show-loss").checked; renderGraph(); });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: back, ArrowRight: forward, ArrowUp: first, ArrowDown: last, Home: first, End: last, n: nextMistake };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
}

async function main() {
  buildBoard();
  const moves = readParams();
  controls();
  S.root = new Node(null, null);
  S.node = S.root;
  render();
  const module = await Engine.load("mollett.wasm");
  S.engine = new Engine(module, {
    onInfo,
    onRestart: () => { S.synced = null; },
  });
  await S.engine.ready;
  const start = S.root;
  if (moves) await loadTranscript(moves);
  if (S.root === start) refresh();
}

// A small interface for scripts and tests: read-only views and the
// engine's command log, which a test replays through the native engine.
window.mollett = {
  get state() { return S.node.state; },
  get log() { return S.engine ? S.engine.log.slice() : []; },
  get restarts() { return S.engine ? S.engine.restarts : 0; },
  transcript: () => transcript(),
  obf: () => obf(),
  loadTranscript,
  loadSetup,
  get reviews() { return S.node.lineNodes().slice(1).map((n) => n.review || null); },
  ping: () => "pong",
};

main().catch((e) => {
  $("#status").dataset.state = "error";
  $("#status").textContent = `The engine could not start: ${e.message}`;
});
