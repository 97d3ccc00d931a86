// The address follows the game: `variant`, `setup` (a set-up start),
// `moves` (the line shown, passes left out) and `ply` (the ply shown,
// passes counted as the move list numbers them; left out at the line's
// end) and `result` (a game ended by a resignation or a flag:
// "resign-black", "time-white"), beside the settings that differ from the
// defaults. Each move and
// each jump is a history entry (pushState), so that Back and Forward go
// through the game, and a reload or a copied link opens the same position.
// The address is also this browser's copy of the current game
// (localStorage), so a game survives closing the tab; beside it the
// clocks, so a reload does not set them back (the time away counts, as
// on a server).

import { S, transcript } from "./state.js";
import { takeQuietAddress, restoreClock } from "./ctrl.js";
import * as storage from "../shared/storage.js";
import { DEFAULTS } from "./ops.js";
import { controlText } from "./clock.js";

const CURRENT = "mollett-current"; // {search, at, clock}: the last address of the game, its clocks
const GAME_KEYS = ["variant", "setup", "moves", "ply"];

function humanParam() {
  const { black, second } = S.human;
  return black && second ? "both" : black ? "black" : second ? "white" : "none";
}

// The address of what is shown: the game's keys, the settings away from
// their defaults, and any other parameter the address had (lang, ...).
export function addressOf() {
  const q = new URLSearchParams(location.search);
  const line = S.node.lineNodes();
  q.set("variant", S.variant);
  if (S.root.setup) q.set("setup", S.root.setup); else q.delete("setup");
  const moves = transcript(line.at(-1));
  if (moves) q.set("moves", moves); else q.delete("moves");
  const ply = line.indexOf(S.node);
  if (ply < line.length - 1) q.set("ply", ply); else q.delete("ply");
  if (S.ended) q.set("result", endedParam(S.ended)); else q.delete("result");
  const settings = {
    human: [humanParam(), DEFAULTS.human],
    level: [S.time === null ? String(S.level) : null, String(DEFAULTS.level)],
    time: [S.time === null ? null : String(S.time), null],
    hints: [S.hints ? "1" : "0", DEFAULTS.hints ? "1" : "0"],
    hintdepth: [String(S.hintDepth), String(DEFAULTS.hintDepth)],
    clock: [S.clock ? controlText(S.clock) : null, null],
  };
  for (const [key, [value, def]] of Object.entries(settings)) {
    if (value === null || value === def) q.delete(key); else q.set(key, value);
  }
  const search = q.toString().replace(/%2F/g, "/"); // setup strings stay readable
  return `${location.pathname}${search ? `?${search}` : ""}${location.hash}`;
}

let written = false;

// Writes the address of what is shown: a new history entry when the game
// or the ply changed (not for a forced pass, which goes with the move
// before it, nor for the first write), else the entry replaced.
export function followAddress() {
  if (!S.root || !S.node) return;
  const url = addressOf();
  const here = `${location.pathname}${location.search}${location.hash}`;
  const quiet = takeQuietAddress() || !written;
  written = true;
  if (url !== here) {
    const gameChanged = GAME_KEYS.some((k) => new URL(url, location.href).searchParams.get(k) !== new URLSearchParams(location.search).get(k));
    if (gameChanged && !quiet) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }
  storage.save(CURRENT, { search: location.search, at: Date.now(), clock: keptClock() });
}

// The game's identity for its kept clocks: the rule set, the start, the line.
function gameKey() {
  return `${S.variant}:${S.root.setup || ""}:${transcript(S.node.lineNodes().at(-1))}`;
}

// The clocks as kept: each side's time left, the side running and since
// when (the wall clock's milliseconds, which a reload keeps).
function keptClock() {
  const c = S.clock;
  if (!c) return null;
  const since = c.turn ? Date.now() - (performance.now() - c.turn.since) : null;
  return { game: gameKey(), main: c.main, inc: c.inc, left: c.left, side: c.turn ? c.turn.side : null, since };
}

// The clocks kept by the last visit, read at start (before this visit's
// first address replaces them).
let keptAtStart = null;

// Once the address's game is loaded: its clocks as the last visit left
// them, when it was the same game under the same control.
export function restoreKeptClock() {
  const k = keptAtStart;
  keptAtStart = null;
  const c = S.clock;
  if (!k || !c || k.game !== gameKey() || k.main !== c.main || k.inc !== c.inc) return;
  const ok = (ms) => Number.isFinite(ms) && ms >= 0;
  if (!k.left || !ok(k.left.black) || !ok(k.left.second)) return;
  const side = k.side === "black" || k.side === "second" ? k.side : null;
  restoreClock(k.left, side && Number.isFinite(k.since) ? { side, sinceWall: k.since } : null);
}

// At start: an address that names no game (no variant, setup, moves or
// ply) opens the game kept from the last visit, its settings under those
// the address gives. Returns true when it did.
export function restoreCurrent() {
  const q = new URLSearchParams(location.search);
  const kept = storage.load(CURRENT);
  keptAtStart = kept && kept.clock ? kept.clock : null;
  if (GAME_KEYS.some((k) => q.has(k)) || q.has("room")) return false;
  if (!kept || typeof kept.search !== "string") return false;
  const merged = new URLSearchParams(kept.search);
  if (![...merged.keys()].some((k) => GAME_KEYS.includes(k))) return false;
  for (const [k, v] of q) merged.set(k, v);
  history.replaceState(null, "", `${location.pathname}?${merged}${location.hash}`);
  return true;
}

// The game named by the address: {variant, setup, moves, ply, ended}.
export function gameOfAddress() {
  const q = new URLSearchParams(location.search);
  const v = q.get("variant");
  const ply = q.get("ply");
  return {
    variant: v === "classic" ? "classic" : "modern",
    setup: q.get("setup"),
    moves: q.get("moves"),
    ply: ply !== null && /^\d+$/.test(ply) ? +ply : null,
    ended: readEnded(q.get("result")),
  };
}

// S.ended as the address writes it ("resign-black", "time-white"; the
// second side is "white" in both rule sets, as `human=` has it) and back;
// null for anything else.
export function endedParam(e) {
  return `${e.by}-${e.loser === "black" ? "black" : "white"}`;
}
export function readEnded(text) {
  const m = /^(resign|time)-(black|white)$/.exec(text || "");
  return m ? { by: m[1], loser: m[2] === "black" ? "black" : "second" } : null;
}
