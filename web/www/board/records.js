// Games in and out: a transcript, a position (setboard / OBF) or a GGF
// record pasted in; the line shown downloaded as a GGF file, copied as a
// transcript or a position.

import { S, transcript } from "./state.js";
import { Node, parseTranscript, parseSetup, parseGgf, ggfOf, looksBinary } from "../shared/game.js";
import { job, obsolete, ask, syncTo, refresh } from "./session.js";
import { restoreReview } from "./review.js";
import { reviewTally, isMistake, MARKS, endedGgf } from "./ops.js";
import * as ctrl from "./ctrl.js";
import { t } from "../shared/i18n.js";

// A transcript is read from the start position of the variant played, also
// after Edit board (a transcript holds no position; a set-up game is
// kept as its position and moves, see `replay`). One without moves is
// refused: the game stays as it was.
export function loadTranscript(text) {
  const parsed = parseTranscript(text);
  if (parsed.error) return Promise.resolve(ctrl.message(t("board.err.transcript", { error: parsed.error })));
  if (!parsed.moves.length) {
    return Promise.resolve(ctrl.message(t("board.msg.nothing")));
  }
  return replay(parsed.moves).then((ok) => {
    if (ok) ctrl.message(t("board.msg.loadedStart", { n: parsed.moves.length }));
    return ok;
  });
}

// Replays `moves` (squares, passes left out) in the engine from the start
// of `variant`, or from the position `setup` (setboard arguments), and
// shows the position after `ply` plies (passes counted, as the move list
// numbers them; the end of the line when null). A move that is illegal,
// or a position the engine refuses, is named and the game stays as it
// was; a GGF's (`ggf`) by its ply, passes counted, as the file numbers
// its moves. `ended` ({by, loser}) is how the game ended early, kept where
// the line does not end the game itself. Resolves true when the game was
// replaced.
export function replay(moves, { variant = S.variant, setup = null, ply = null, ended = null, ggf = false } = {}) {
  obsolete();
  let ok = false;
  return job(async () => {
    const root = new Node(null, null);
    root.setup = setup;
    ctrl.setSynced(null);
    await ask(`newgame ${variant}`);
    if (setup) {
      const a = await S.engine.command(`setboard ${setup}`);
      if (!a.ok) return refuse(t("board.err.position", { error: a.text }));
    }
    let node = root;
    let k = 0;
    for (const mv of moves) {
      k += 1;
      const legal = await ask("legal");
      if (legal === "pass") {
        await ask("play pass");
        node = node.child("pass");
      }
      const a = await S.engine.command(`play ${mv}`);
      if (!a.ok) {
        const end = legal === "";
        const key = ggf ? (end ? "board.err.ggfAfterEnd" : "board.err.ggfIllegal") : end ? "board.err.afterEnd" : "board.err.illegal";
        return refuse(t(key, { k, move: mv, ply: node.path().length + 1 }));
      }
      node = node.child(mv);
    }
    const line = root.lineNodes();
    // Loaded while editing, the board shows what was loaded.
    // A game that its moves end has no other ending.
    const over = ended ? (await ask("legal")) === "" : false;
    ctrl.loaded({ variant, root, node: ply !== null && ply >= 0 && ply < line.length ? line[ply] : node, ended: over ? null : ended });
    restoreReview();
    ok = true;
    refresh();
  }).then(() => ok);

  async function refuse(text) {
    ctrl.message(text);
    ctrl.setSynced(null);
    await syncTo(S.node);
  }
}

// A GGF record in: its moves as a transcript, then each move's value on
// the graph and the marked moves of `mollett analyze`'s comment in the move
// list (the review of the moves it does not mark is not in the file:
// Review fills it in).
export function loadGgf(text) {
  const g = parseGgf(text);
  if (g.error) return Promise.resolve(ctrl.message(t("board.err.ggf", { error: g.error })));
  const moves = g.moves.filter((m) => m.move !== "pass").map((m) => m.move);
  // GGF's Othello is the modern game, whatever the board shows now.
  return replay(moves, { variant: "modern", ggf: true }).then((ok) => {
    const nodes = S.node.lineNodes();
    if (!ok) return false;
    ctrl.setPlayers({ black: g.black || "black", white: g.white || "white" });
    g.moves.forEach((m, k) => {
      const n = nodes[k + 1];
      if (!n || n.move !== m.move || m.value === null) return;
      ctrl.setBlackValue(n, { black: m.side === "black" ? m.value : -m.value, text: String(m.value), kind: "file" });
    });
    for (const m of g.marks) {
      const n = nodes[m.ply];
      if (!n || n.move !== m.move || n.review) continue;
      const loss = Math.round((m.bestValue - m.value) * 100) / 100;
      ctrl.setReview(n, { move: m.move, value: m.value, best: m.best, bestValue: m.bestValue, loss, cls: m.cls, exact: false,
                          side: m.ply % 2 === 1 ? "black" : "white", fromFile: true });
    }
    ctrl.setFileReview(g.summary ? g.summary.replace(/^mollett analyze:\s*/, "") : null);
    ctrl.message(t("board.msg.loadedGgf", { n: moves.length }) + (g.marks.length ? ` ${t("board.msg.marked", { n: g.marks.length })}` : ""));
    return true;
  });
}

// The line shown as a GGF file, with its review when there is one.
export function downloadGgf() {
  const nodes = S.node.lineNodes().slice(1).map((n, i) => ({
    move: n.move,
    side: i % 2 === 0 ? "black" : "white",
    value: n.review ? n.review.value : n.value ? (i % 2 === 0 ? n.value.black : -n.value.black) : null,
  }));
  const tally = reviewTally();
  const summary = Object.keys(tally).map((side) => {
    const s = tally[side];
    return ` ${side === "black" ? S.players.black : S.players.white} (${side}) accuracy ${(s.acc / s.moves).toFixed(1)}, ${s.inaccuracy} ?!, ${s.mistake} ?, ${s.blunder} ??`;
  }).join(";");
  const marks = S.node.lineNodes().flatMap((n, i) => (isMistake(n)
    ? [{ ply: i, move: n.move, mark: MARKS[n.review.cls], value: n.review.value, best: n.review.best, bestValue: n.review.bestValue }]
    : []));
  const text = ggfOf(nodes, { ...S.players, summary, marks, result: S.ended ? endedGgf() : null }) + "\n";
  download(`${fileStem()}.ggf`, text, "application/x-ggf");
  ctrl.message(t("board.msg.ggfWritten"));
}

// The line shown as a transcript file: its moves on one line, after the
// position's `setboard` line for a set-up game. Open file (or the Load
// box) reads it back.
export function downloadTranscript() {
  const moves = transcript(S.node.lineNodes().at(-1));
  const text = (S.root.setup ? `setboard ${S.root.setup}\n` : "") + moves + "\n";
  download(`${fileStem()}.txt`, text, "text/plain");
  ctrl.message(t("board.msg.transcriptWritten"));
}

function fileStem() {
  return `mollett-${S.variant === "classic" ? "classic-" : ""}${transcript(S.node.lineNodes().at(-1)).slice(0, 16) || "game"}`;
}

function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// Text from the Load box or a file: a GGF record, a position (setboard or
// a board string; with the moves from it on the next line, as a set-up
// game's transcript file has), or a transcript.
export function loadText(text) {
  if (looksBinary(text)) return Promise.resolve(ctrl.message(t("board.err.binary")));
  if (/^\s*\(;/.test(text)) return loadGgf(text);
  // A position starts with "setboard" or a board (more squares than a
  // square's two characters); anything else is read as a transcript.
  if (/^\s*setboard\b/i.test(text) || /^\s*[-XOxo*.]{8,}/.test(text)) {
    const [first, ...rest] = text.trim().split(/\n+/);
    const moves = rest.join(" ").trim();
    if (!moves) return loadSetup(first);
    const setup = parseSetup(first);
    const parsed = parseTranscript(moves);
    if (setup.error || parsed.error) return Promise.resolve(ctrl.message(t("board.err.notLoaded", { error: setup.error || parsed.error })));
    return replay(parsed.moves, { setup: setup.args }).then((ok) => {
      if (ok) ctrl.message(t("board.msg.loadedSetup", { n: parsed.moves.length }));
      return ok;
    });
  }
  return loadTranscript(text);
}

export function loadSetup(text) {
  const parsed = parseSetup(text);
  if (parsed.error) return Promise.resolve(ctrl.message(t("board.err.position", { error: parsed.error })));
  // "-" to move is a finished game (the Position after one): nobody can
  // move, so either side does for the engine; one that is not over is
  // refused.
  const parts = parsed.args.split(/\s+/);
  const finished = parts[1] === "-";
  if (finished) parts[1] = "X";
  const args = parts.join(" ");
  obsolete();
  return job(async () => {
    ctrl.setSynced(null);
    await ask(`newgame ${S.variant}`);
    const a = await S.engine.command(`setboard ${args}`);
    const over = a.ok && finished ? / status over /.test(await ask("position")) : true;
    if (!a.ok || !over) {
      ctrl.message(t("board.err.position", { error: a.ok ? t("board.err.notOver") : a.text }));
      ctrl.setSynced(null);
      await syncTo(S.node);
      return;
    }
    ctrl.message(t("board.msg.positionSet"));
    ctrl.freshGame(S.variant, args);
    refresh();
  });
}

// `what` names the thing copied: "transcript", "position" or "link".
export async function copy(text, what) {
  const name = t(`board.what.${what}`);
  try {
    await navigator.clipboard.writeText(text);
    ctrl.message(t("board.msg.copied", { what: name }));
  } catch (e) {
    ctrl.message(`${name}: ${text}`);
  }
}
