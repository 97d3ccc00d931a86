// The board's look that a player chooses and keeps between visits: values
// as whole discs or with one decimal, and the board turned to play from
// white's side. Kept in this browser (storage.js) under one key; a
// browser that keeps nothing gets the defaults each time.

import * as storage from "./storage.js";

const KEY = "mollett-look";
const DEFAULTS = { decimals: false, flipped: false };

export const look = { ...DEFAULTS };
const saved = storage.load(KEY, {});
for (const k of Object.keys(DEFAULTS)) if (saved && typeof saved[k] === typeof DEFAULTS[k]) look[k] = saved[k];

export function setLook(key, value) {
  look[key] = value;
  storage.save(KEY, look);
}

// A value as the player reads it: whole discs by default ("+2", "-17",
// "0"), one decimal with the setting ("+1.5"). An exact value is a whole
// number of discs and is shown as one either way.
export function formatValue(score) {
  const whole = !look.decimals || Number.isInteger(score);
  let text = whole ? String(Math.round(score)) : score.toFixed(1);
  if (/^-0(\.0)?$/.test(text)) text = text.slice(1); // no "-0"
  return +text > 0 ? `+${text}` : text;
}

// An upper bound (a review's move more than its window below the best)
// as the player reads it: "≤-15", rounded up at the precision shown, so
// that it claims no more than was proven.
export function formatBound(score) {
  const up = !look.decimals ? Math.ceil(score - 1e-9) : Math.ceil(score * 10 - 1e-9) / 10;
  return `≤${formatValue(up)}`;
}

// A loss (best value less the value played) as the two values shown give
// it: "c7 0 ... best e3 +3" has lost 3 discs as the player reads it, not
// the 3.5 of the unrounded values. Never below 0.
export function formatLoss(best, value) {
  const l = Math.max(0, Math.round((+formatValue(best) - +formatValue(value)) * 10) / 10);
  return Number.isInteger(l) ? String(l) : l.toFixed(1);
}

// The two controls under the hints, set from what is kept; `redraw`
// draws the page again with the new look.
export function bindLook(redraw) {
  const decimals = document.querySelector("#decimals");
  const flip = document.querySelector("#flip");
  decimals.checked = look.decimals;
  flip.checked = look.flipped;
  decimals.addEventListener("change", () => { setLook("decimals", decimals.checked); redraw(); });
  flip.addEventListener("change", () => { setLook("flipped", flip.checked); redraw(); });
}
