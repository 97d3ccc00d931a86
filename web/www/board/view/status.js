// The words around the board: the status line, the engine's thinking, the
// opening's name, the move said to a screen reader, the message and notes
// lines, the transcript and position boxes. Reads the state only.

import { S, sideIsHuman, transcript, obf } from "../state.js";
import { outcome, endedResult } from "../ops.js";
import { formatValue } from "../../shared/look.js";
import { openingOf } from "../../shared/openings.js";
import { discCounts } from "../../shared/game.js";
import { t, player, colourWords } from "../../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

export function drawStatus() {
  drawLine();
  drawThinking();
  drawOpening();
  announceMove(S.node);
  const msg = $("#message");
  msg.textContent = S.message.text;
  if (S.message.refused) msg.dataset.refused = S.message.refused;
  else delete msg.dataset.refused;
  drawNotes();
  $("#transcript").textContent = transcript();
  $("#obf").textContent = obf();
}

// The last notes, then the pass that belongs to the ply shown: the pass
// itself, or the move right after it (against the engine its reply follows
// the pass at once). Browsing elsewhere, no pass is said.
function drawNotes() {
  const n = S.node;
  const pass = n.move === "pass" ? n : n.parent && n.parent.move === "pass" ? n.parent : null;
  const mover = pass && player(pass.path().length % 2 ? "black" : "second", S.variant);
  $("#notes").textContent = [...S.notes.slice(-3), pass ? t("board.passes", mover) : ""].filter(Boolean).join(" ");
}

// The named opening of the line shown, in modern games from the start.
function drawOpening() {
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

function drawLine() {
  const el = $("#status");
  const st = S.node.state;
  let state, text;
  if (!S.engine || !st || (S.editing && S.editing.applying)) {
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
    text = t("board.gameOver", { result: outcome(st) });
    if (st.supply && !st.board.includes("-")) text += " " + t("board.full"); // both hands empty too
    else if (st.supply && (st.supply.black === 0 || st.supply.second === 0)) {
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
    const discs = S.editing ? discCounts(S.editing.board) : st.discs; // the board being edited, not the one before
    text += " " + t("board.discs", { ...words, b: discs.black, w: discs.second });
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
// then the last completed step (depth, value, line, speed). The seconds
// move on by the page's tick (ending.js), which redraws while it thinks.
function drawThinking() {
  const el = $("#thinking");
  const th = S.thinking;
  if (!th) {
    el.textContent = "";
    delete el.dataset.seconds;
    return;
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
