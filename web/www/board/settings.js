// The settings: read from the address parameters at start, then changed by
// the controls (who plays, the engine's level or time a move, hints).

import { S } from "./state.js";
import * as ctrl from "./ctrl.js";
import { refresh } from "./session.js";
import { followAddress } from "./address.js";
import { levelSeconds } from "./ops.js";
import { parseControl } from "./clock.js";
import { t } from "../shared/i18n.js";

const $ = (sel) => document.querySelector(sel);
const PARAMS = ["variant", "level", "human", "hints", "moves", "time", "hintdepth", "setup", "ply", "lang", "clock", "result"];
// The mean seconds a move at each level, measured in headless Chromium by
// scripts/web/level_times.py (six positions of a WTHOR 2018 game, 40 to 10
// empties, the caps of ops.js, a machine of two cores shared with other work);
// levels 25-30 as 21-24 and 31-60 as level 40 measured (each solves
// exactly from more empties than a midgame has, so the cap decides). Book
// moves are instant.
const LEVEL_ABOUT = [
  0.03, 0, 0, 0, 0, 0.01, 0, 0.01, 0.03, 0.04, // 1-10
  0.8, 0.43, 0.24, 1.72, 1.79, 1.87, 5.4, 5.42, 5.32, 7.25, // 11-20
  13.61, 14.74, 15.24, 13.79, // 21-24
];
const BAND_ABOUT = [[30, 15], [60, 31]]; // [last level, seconds] beyond the table: 21-24's, level 40's

export function levelLabel(level) {
  const about = level <= LEVEL_ABOUT.length ? LEVEL_ABOUT[level - 1] : BAND_ABOUT.find(([last]) => level <= last)[1];
  const cap = levelSeconds(level);
  return about < 1 ? t("board.level.under", { level, cap }) : t("board.level.about", { level, cap, s: Math.round(about) });
}

// The level list's words in the chosen language (drawn again when it
// comes, and by the language switch).
export function labelLevels() {
  for (const o of document.querySelectorAll("#level option")) {
    o.textContent = o.value === "time" ? t("board.level.time") : levelLabel(+o.value);
  }
}

// Sets the settings from the address; a parameter unknown or out of range is noted
// under the board (noteParams, once the language has come) and the
// default kept. Returns the `moves` parameter.
const notes = []; // [key, params]
export function readParams() {
  const q = new URLSearchParams(location.search);
  for (const key of q.keys()) if (!PARAMS.includes(key)) notes.push(["board.note.unknown", { key }]);
  const v = q.get("variant");
  if (v !== null) {
    if (v === "modern" || v === "classic") ctrl.setSettings({ variant: v });
    else notes.push(["board.note.variant", { v }]);
  }
  const level = q.get("level");
  if (level !== null) {
    if (/^\d+$/.test(level) && +level >= 1 && +level <= 60) ctrl.setSettings({ level: +level });
    else notes.push(["board.note.level", { v: level, level: S.level }]);
  }
  const time = q.get("time");
  if (time !== null) {
    if (/^\d+(\.\d+)?$/.test(time) && +time > 0 && +time <= 3600) ctrl.setSettings({ time: +time });
    else notes.push(["board.note.time", { v: time }]);
  }
  const human = q.get("human");
  if (human !== null) {
    const map = { black: [true, false], white: [false, true], red: [false, true], both: [true, true], none: [false, false] };
    if (map[human]) ctrl.setSettings({ human: { black: map[human][0], second: map[human][1] } });
    else notes.push(["board.note.human", { v: human }]);
  }
  const hints = q.get("hints");
  if (hints !== null) {
    if (hints === "1" || hints === "0") ctrl.setSettings({ hints: hints === "1" });
    else notes.push(["board.note.hints", { v: hints }]);
  }
  const hd = q.get("hintdepth");
  if (hd !== null) {
    if (/^\d+$/.test(hd) && +hd >= 1 && +hd <= 60) ctrl.setSettings({ hintDepth: +hd });
    else notes.push(["board.note.hintdepth", { v: hd }]);
  }
  const clock = q.get("clock");
  if (clock !== null) {
    if (parseControl(clock)) ctrl.setControl(parseControl(clock));
    else notes.push(["board.note.clock", { v: clock }]);
  }
  return q.get("moves");
}

// The address's notes, in the chosen language.
export function noteParams() {
  for (const [key, params] of notes.splice(0)) ctrl.note(t("board.note", { text: t(key, params) }));
}

// The controls of the settings, set from the state and wired to the controller.
export function bindSettings() {
  const humanSel = $("#human");
  humanSel.value = S.human.black && S.human.second ? "both" : S.human.black ? "black" : S.human.second ? "white" : "none";
  humanSel.addEventListener("change", () => {
    const v = humanSel.value;
    ctrl.setSettings({ human: { black: v === "black" || v === "both", second: v === "white" || v === "both" } });
    ctrl.stopThinking();
    refresh();
  });
  const levelSel = $("#level");
  for (let i = 1; i <= 60; i++) levelSel.add(new Option(levelLabel(i), i));
  levelSel.add(new Option(t("board.level.time"), "time"));
  levelSel.value = S.time !== null ? "time" : S.level;
  $("#time").value = S.time !== null ? S.time : 1;
  $("#time").hidden = S.time === null;
  levelSel.addEventListener("change", () => {
    if (levelSel.value === "time") { ctrl.setSettings({ time: +$("#time").value || 1 }); $("#time").hidden = false; }
    else { ctrl.setSettings({ level: +levelSel.value, time: null }); $("#time").hidden = true; }
    followAddress();
  });
  $("#time").addEventListener("change", () => { const t = +$("#time").value; if (t > 0) ctrl.setSettings({ time: t }); followAddress(); });
  const hints = $("#hints");
  hints.checked = S.hints;
  hints.addEventListener("change", () => { ctrl.setSettings({ hints: hints.checked }); refresh(); });
}
