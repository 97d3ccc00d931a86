// Games kept and shared: the list of saved games in this browser (name,
// date, result; reopen, delete), the Share button (the address, which
// follows the game, copied), and Open file (a GGF or transcript file read
// as the Load box reads it).

import { S, transcript } from "./state.js";
import * as storage from "../shared/storage.js";
import { replay, loadText, copy } from "./records.js";
import { followAddress, endedParam, readEnded } from "./address.js";
import * as ctrl from "./ctrl.js";
import { outcome, endedResult } from "./ops.js";
import { t } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);
const KEY = "mollett-games"; // [{id, name, variant, setup, moves, ply, result, ended, saved, players}]

function savedGames() {
  const list = storage.load(KEY, []);
  return Array.isArray(list) ? list : [];
}

// The end of the line shown in words: the result, or how far it got.
function resultOf(line) {
  const st = line.at(-1).state;
  const moves = line.filter((n) => n.move && n.move !== "pass").length;
  if (S.ended) return endedResult();
  if (st && st.over) return outcome(st);
  return t("board.saved.unfinished", { n: moves });
}

// Saves the line shown (and the ply shown) under the name typed, or one
// made of the players and the result. The same game saved again replaces
// its entry.
export function saveGame() {
  const line = S.node.lineNodes();
  const moves = transcript(line.at(-1));
  const entry = {
    id: Date.now().toString(36) + Math.random().toString(36).slice(2, 6),
    variant: S.variant,
    setup: S.root.setup || null,
    moves,
    ply: line.indexOf(S.node),
    result: resultOf(line),
    ended: S.ended, // {by, loser} of a resignation or a flag
    saved: new Date().toISOString(),
    players: { ...S.players },
  };
  const typed = $("#game-name").value.trim();
  const named = S.players.black !== "black" ? `${S.players.black} – ${S.players.white}` : t(`board.saved.name.${S.variant === "classic" ? "classic" : "modern"}`);
  entry.name = typed || named;
  const list = savedGames().filter((g) => !(g.variant === entry.variant && g.setup === entry.setup && g.moves === entry.moves));
  list.unshift(entry);
  if (!storage.save(KEY, list)) return ctrl.message(t("board.msg.notKept"));
  $("#game-name").value = "";
  loadSaved();
  ctrl.message(t("board.msg.saved", { name: entry.name }));
}

export function openSaved(id) {
  const g = savedGames().find((e) => e.id === id);
  if (!g) return Promise.resolve(false);
  const moves = g.moves.match(/[a-h][1-8]/g) || [];
  return replay(moves, { variant: g.variant, setup: g.setup, ply: g.ply, ended: readEnded(g.ended && endedParam(g.ended)) }).then((ok) => {
    if (!ok) return false;
    ctrl.setPlayers(g.players);
    ctrl.message(t("board.msg.opened", { name: g.name }));
    return true;
  });
}

export function deleteSaved(id) {
  const list = savedGames();
  const g = list.find((e) => e.id === id);
  storage.save(KEY, list.filter((e) => e.id !== id));
  loadSaved();
  if (g) ctrl.message(t("board.msg.deleted", { name: g.name }));
}

// The saved games into the state (the view draws the list, newest first).
export function loadSaved() {
  ctrl.setSaved(savedGames());
}

// Share: the address of the position shown, copied (or shown to copy by
// hand where the browser refuses the clipboard).
export function share() {
  followAddress();
  return copy(location.href, "link");
}

// Open file: a .ggf or a transcript (.txt) read as the Load box reads it.
export async function openFile(file) {
  if (!file) return false;
  if (file.size > 1 << 20) return ctrl.message(t("board.err.tooBig", { file: file.name }));
  const text = await file.text();
  const ok = await loadText(text);
  if (ok) ctrl.message(t("board.msg.openedFile", { file: file.name }));
  return ok;
}
