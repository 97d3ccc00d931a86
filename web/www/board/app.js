// The board page's entry: it binds the controls, hands the view its
// handlers (the modules that act) and the controller its view, loads the
// engine and sets `window.mollett` for scripts. Data flows one way, as in
// lichess: an event -> an acting module -> the controller's write ->
// redraw() -> (next animation frame) the view, which only reads; no
// drawing module imports one that acts. The rules, the search, the
// evaluation and the book are the engine's, asked through its GTP
// commands; the page never decides a move's legality.
//
//   state.js     the page's state, read by all (`S`), written by ctrl.js alone
//   ctrl.js      the controller: every write to the state, and redraw()
//   ops.js       pure readings of it: legal clicks, undo targets, the review's figures, results
//   settings.js  address parameters and the settings' controls
//   storage.js   what is kept in this browser (localStorage)
//   session.js   the engine session: jobs, sync, the engine's moves, hints
//   actions.js   the handlers: an operation, then the engine and the address
//   records.js   transcripts, positions and GGF in and out
//   address.js   the address follows the game (pushState); the current game kept
//   games.js     saved games, Share, Open file
//   review.js    review, next mistake, practice
//   view/        drawing (main.js calls the rest): board, status, moves, graph,
//                review, panels (evaluation bar, engine lines, clocks, saved games)
//   clock.js     the time control's clocks (pure)
//   ending.js    resign and the clocks' flag
//   gestures.js  the `?` keyboard help and the board's swipe
//   game.js      the tree of plies and the notations (no rules)
//   engine.js    the Worker's client

import { Engine } from "../shared/engine.js";
import { S, transcript, obf } from "./state.js";
import * as ctrl from "./ctrl.js";
import { readParams, bindSettings, labelLevels, noteParams } from "./settings.js";
import { refresh, startEngineMove, moveNow, onInfo } from "./session.js";
import { newGame, first, back, forward, last, undo, redo, goTo, chooseBranch, playHuman, editSquare, editSide, clearEdit, startEditing, finishEditing, openAddressGame, onPopState } from "./actions.js";
import { loadTranscript, loadSetup, loadText, downloadGgf, downloadTranscript, copy } from "./records.js";
import { restoreCurrent } from "./address.js";
import { saveGame, loadSaved, openSaved, deleteSaved, share, openFile } from "./games.js";
import { reviewGame, nextMistake, startPractice } from "./review.js";
import { bindView } from "./view/main.js";
import { bindLook } from "../shared/look.js";
import { bindEnding } from "./ending.js";
import { bindKeysHelp, bindSwipe } from "./gestures.js";
import { chooseLang, loadLang, langSwitch, currentLang, applyStatic, t } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);

function controls() {
  bindSettings();
  bindLook(ctrl.redraw);
  $("#new-modern").addEventListener("click", () => newGame("modern"));
  $("#new-classic").addEventListener("click", () => newGame("classic"));
  $("#move-now").addEventListener("click", moveNow);
  $("#engine-move").addEventListener("click", () => {
    const st = S.node.state;
    if (!st || st.over || S.thinking || S.ended) return;
    startEngineMove(); // brings a restarted Worker back to the position first
  });
  $("#first").addEventListener("click", first);
  $("#back").addEventListener("click", back);
  $("#forward").addEventListener("click", forward);
  $("#last").addEventListener("click", last);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#copy-transcript").addEventListener("click", () => copy(transcript(), "transcript"));
  $("#copy-obf").addEventListener("click", () => copy(obf(), "position"));
  $("#load").addEventListener("click", () => loadText($("#paste").value));
  $("#download-transcript").addEventListener("click", downloadTranscript);
  $("#open-file-button").addEventListener("click", () => $("#open-file").click());
  $("#open-file").addEventListener("change", (e) => { openFile(e.target.files[0]); e.target.value = ""; });
  $("#share").addEventListener("click", share);
  $("#save-game").addEventListener("click", saveGame);
  window.addEventListener("popstate", () => { if (S.engine) onPopState(); });
  $("#edit").addEventListener("click", startEditing);
  $("#setup-side").addEventListener("change", (e) => editSide(e.target.value));
  $("#setup-done").addEventListener("click", () => finishEditing(true));
  $("#setup-cancel").addEventListener("click", () => finishEditing(false));
  $("#setup-clear").addEventListener("click", clearEdit);
  $("#review").addEventListener("click", reviewGame);
  $("#download-ggf").addEventListener("click", downloadGgf);
  $("#next-mistake").addEventListener("click", nextMistake);
  $("#practice").addEventListener("click", startPractice);
  $("#show-loss").addEventListener("change", () => ctrl.setShowLoss($("#show-loss").checked));
  bindEnding();
  bindKeysHelp();
  bindSwipe($("#board-wrap"), { back, forward });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select, dialog") || document.querySelector("dialog[open]")) return;
    const keys = { ArrowLeft: back, ArrowRight: forward, ArrowUp: first, ArrowDown: last, Home: first, End: last, n: nextMistake };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
}

// The page's words in the chosen language (i18n.js: lang= or the
// browser's); the switch redraws them in place. "How to play" opens the
// rules page of the rule set played, in the same language.
async function words() {
  await loadLang(chooseLang());
  const apply = () => {
    applyStatic();
    labelLevels();
    document.title = t("board.title");
    $("#howto").href = `rules.html?variant=${S.variant}&lang=${currentLang()}`;
  };
  apply();
  // A room's page (room.js) draws itself again on "langchange".
  langSwitch($("#lang"), () => { apply(); ctrl.redraw(); document.dispatchEvent(new Event("langchange")); });
  $("#howto").addEventListener("click", () => { $("#howto").href = `rules.html?variant=${S.variant}&lang=${currentLang()}`; });
}
const wordsReady = words();

async function main() {
  const restored = restoreCurrent(); // before the address is read
  ctrl.setView(bindView({ square: (sq) => (S.editing ? editSquare(sq) : playHuman(sq)), goTo, chooseBranch, openSaved, deleteSaved }));
  readParams();
  controls();
  loadSaved();
  ctrl.startEmpty();
  await wordsReady; // drawn again in the chosen language
  noteParams();
  ctrl.redraw();
  const module = await Engine.load("mollett.wasm");
  ctrl.setEngine(new Engine(module, {
    onInfo,
    onRestart: () => ctrl.setSynced(null),
    prefetch: true, // the engine's data while the player looks at the board
  }));
  await S.engine.ready;
  const start = S.root;
  await openAddressGame(restored);
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
  get ply() { return S.node.lineNodes().indexOf(S.node); },
  get reviews() { return S.node.lineNodes().slice(1).map((n) => n.review || null); },
  ping: () => "pong",
};

// A room (`?room=`, docs/rooms.md) is room.js's page: it needs no engine.
if (!new URLSearchParams(location.search).has("room")) main().catch((e) => {
  $("#status").dataset.state = "error";
  $("#status").textContent = t("board.failed", { error: e.message });
});
