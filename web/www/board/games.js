// Games kept and shared: the list of saved games in this browser (name,
// date, result; reopen, delete), the Share button (the address, which
// follows the game, copied), and Open file (a GGF or transcript file read
// as the Load box reads it).

import { S, transcript } from "./state.js";
import * as storage from "../shared/storage.js";
import { replay, loadText, copy } from "./records.js";
import { followAddress } from "./address.js";
import { message, outcome } from "./view.js";
import { endedResult } from "./panels.js";
import { t } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);
const KEY = "mollett-games"; // [{id, name, variant, setup, moves, ply, result, saved, players}]

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
    saved: new Date().toISOString(),
    players: { ...S.players },
  };
  const typed = $("#game-name").value.trim();
  const named = S.players.black !== "black" ? `${S.players.black} – ${S.players.white}` : t(`board.saved.name.${S.variant === "classic" ? "classic" : "modern"}`);
  entry.name = typed || named;
  const list = savedGames().filter((g) => !(g.variant === entry.variant && g.setup === entry.setup && g.moves === entry.moves));
  list.unshift(entry);
  if (!storage.save(KEY, list)) return message(t("board.msg.notKept"));
  $("#game-name").value = "";
  renderSaved();
  message(t("board.msg.saved", { name: entry.name }));
}

export function openSaved(id) {
  const g = savedGames().find((e) => e.id === id);
  if (!g) return Promise.resolve(false);
  const moves = g.moves.match(/[a-h][1-8]/g) || [];
  return replay(moves, { variant: g.variant, setup: g.setup, ply: g.ply }).then((ok) => {
    if (!ok) return false;
    S.players = { black: "black", white: "white", ...g.players };
    message(t("board.msg.opened", { name: g.name }));
    return true;
  });
}

export function deleteSaved(id) {
  const list = savedGames();
  const g = list.find((e) => e.id === id);
  storage.save(KEY, list.filter((e) => e.id !== id));
  renderSaved();
  if (g) message(t("board.msg.deleted", { name: g.name }));
}

// The list under "Saved games", newest first.
export function renderSaved() {
  const list = savedGames();
  $("#saved-count").textContent = list.length;
  const ol = $("#saved-list");
  ol.textContent = "";
  for (const g of list) {
    const li = document.createElement("li");
    li.dataset.id = g.id;
    const open = document.createElement("button");
    open.className = "open";
    open.textContent = g.name;
    open.title = t("board.saved.open", { n: g.moves.length / 2 });
    open.addEventListener("click", () => openSaved(g.id));
    const when = document.createElement("time");
    when.dateTime = g.saved;
    when.textContent = new Date(g.saved).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    const result = document.createElement("span");
    result.className = "result";
    result.textContent = `${t(`board.room.${g.variant === "classic" ? "classic" : "modern"}`)}, ${g.result}`;
    const del = document.createElement("button");
    del.className = "delete";
    del.textContent = "✕";
    del.setAttribute("aria-label", t("board.saved.deleteName", { name: g.name }));
    del.title = t("board.saved.delete");
    del.addEventListener("click", () => deleteSaved(g.id));
    li.append(open, " ", when, " · ", result, " ", del);
    ol.appendChild(li);
  }
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
  if (file.size > 1 << 20) return message(t("board.err.tooBig", { file: file.name }));
  const text = await file.text();
  const ok = await loadText(text);
  if (ok) message(t("board.msg.openedFile", { file: file.name }));
  return ok;
}
