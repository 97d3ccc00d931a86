// Games in and out: a transcript, a position (setboard / OBF) or a GGF
// record pasted in; the line shown downloaded as a GGF file, copied as a
// transcript or a position.

import { S, transcript } from "./state.js";
import { Node, parseTranscript, parseSetup, parseGgf, ggfOf } from "./game.js";
import { job, obsolete, ask, rootLines, syncTo, refresh } from "./session.js";
import { restoreReview, reviewTally, isMistake, MARKS } from "./review.js";
import { render, message } from "./view.js";
import { newGame } from "./actions.js";

// Replays `moves` from the start in the engine; an illegal one is refused
// with its ply named, and the game stays as it was.
export function loadTranscript(text) {
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
export function loadGgf(text) {
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
export function downloadGgf() {
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

export function loadSetup(text) {
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

export async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    message(`${what} copied.`);
  } catch (e) {
    message(`${what}: ${text}`);
  }
}
