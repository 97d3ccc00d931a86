// How a game ends before its last move: a player resigns (with a confirm
// step), or a clock runs out. Either ends the game (ctrl.end: S.ended,
// {by, loser}); the game then takes no more moves until a new one, and the
// status, the saved games list and the GGF record (RE) say the result.
// The page's tick is here: the clocks, and the thinking line's seconds.

import { S } from "./state.js";
import * as ctrl from "./ctrl.js";
import { flagged, parseControl, controlText } from "./clock.js";
import { obsolete } from "./session.js";
import { followAddress } from "./address.js";
import { resignSide } from "./ops.js";

const $ = (sel) => document.querySelector(sel);

export function end(by, loser) {
  ctrl.end(by, loser);
  obsolete(); // an engine search for the game is over
  followAddress();
}

// Resign asks first: the button shows "Resign the game?" Yes / No.
export function askResign() {
  if (!resignSide()) return;
  $("#resign-confirm").hidden = false;
  $("#resign-yes").focus();
}

export function answerResign(yes) {
  $("#resign-confirm").hidden = true;
  const side = resignSide();
  if (yes && side) end("resign", side);
  $("#resign").focus();
}

// The resign button and its confirm step, the time control's choice
// (none, 5+3, 10+5, custom minutes and increment), and the clocks' tick.
export function bindEnding() {
  $("#resign").addEventListener("click", askResign);
  $("#resign-yes").addEventListener("click", () => answerResign(true));
  $("#resign-no").addEventListener("click", () => answerResign(false));
  $("#resign-confirm").addEventListener("keydown", (e) => { if (e.key === "Escape") answerResign(false); });
  const sel = $("#clock-control");
  const custom = () => `${Math.round(+$("#clock-min").value * 60 * 100) / 100}+${+$("#clock-inc").value || 0}`;
  const known = [...sel.options].map((o) => o.value);
  const now = S.clock ? controlText(S.clock) : "";
  sel.value = known.includes(now) ? now : "custom";
  $("#clock-custom").hidden = sel.value !== "custom";
  // Four decimals: 5 s reads 0.0833, not 0.08333333333333333, and reads
  // back as 5 s (custom() rounds to hundredths of a second).
  if (sel.value === "custom") { $("#clock-min").value = +(S.clock.main / 60).toFixed(4); $("#clock-inc").value = S.clock.inc; }
  const apply = () => {
    $("#clock-custom").hidden = sel.value !== "custom";
    chooseControl(sel.value === "custom" ? custom() : sel.value);
  };
  sel.addEventListener("change", apply);
  $("#clock-min").addEventListener("change", apply);
  $("#clock-inc").addEventListener("change", apply);
  startTicking();
}

// A time control chosen: both clocks start afresh from the position shown.
export function chooseControl(text) {
  ctrl.setControl(parseControl(text));
  ctrl.syncClock();
  followAddress();
}

// Every tenth of a second: the clocks and the thinking line's seconds
// drawn again, and a flag ends the game (the engine's time is bounded by
// its own time manager, so it is the human who runs out, but either side
// may).
export function startTicking() {
  setInterval(() => {
    if (S.thinking) ctrl.redraw();
    if (!S.clock || S.ended) return;
    ctrl.syncClock();
    const side = flagged();
    if (side) end("time", side);
    else ctrl.redraw();
  }, 100);
}
