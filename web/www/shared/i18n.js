// The pages' words in five languages: English, Polish, German, Spanish and
// Hindi (the languages of the rule texts the project was made from). Each
// language is a table in i18n/<code>.js with the same keys; `t(key,
// params)` looks a key up in the chosen language. The language comes from
// the address's `lang=`, else the first of the browser's languages that we
// have, else English.
//
// A value is a string with {name} placeholders, or, for a count, an object
// of plural forms chosen by Intl.PluralRules ({one, few, many, other}, as
// the language needs) with the count in {n}.

export const LANGS = ["en", "pl", "de", "es", "hi"];
// Each language's name in itself, for the switch.
export const NAMES = { en: "English", pl: "Polski", de: "Deutsch", es: "Español", hi: "हिन्दी" };

// English is there from the start (a static import), so a page can draw
// before the chosen language has loaded.
import EN from "./i18n/en.js";

let lang = "en";
let table = EN;
const english = EN;

export function currentLang() {
  return lang;
}

// `lang=` wins; then the browser's preferred languages in order ("pl-PL"
// counts as "pl"); then English.
export function chooseLang(search = location.search, preferred = navigator.languages || [navigator.language]) {
  const asked = new URLSearchParams(search).get("lang");
  if (asked && LANGS.includes(asked.toLowerCase())) return asked.toLowerCase();
  for (const p of preferred || []) {
    const code = String(p || "").toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

// Loads a language's table and marks the document. English's stands in
// for a key a language lacks (the tests check that none does).
export async function loadLang(code) {
  if (!LANGS.includes(code)) code = "en";
  table = code === "en" ? english : (await import(`./i18n/${code}.js`)).default;
  lang = code;
  document.documentElement.lang = code;
}

// Whether English (the reference table) has the key: lets a page prefer a
// rule set's own text ("rules.first.h.classic") over the shared one.
export function has(key) {
  return key in english;
}

export function t(key, params = {}) {
  let value = key in table ? table[key] : english[key];
  if (value === undefined) return key;
  if (typeof value === "object") {
    const form = new Intl.PluralRules(lang).select(Number(params.n));
    value = value[form] ?? value.other;
  }
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The colour words a text may use in rule set `variant`: {B} {b} {bo} {bd}
// {Bn} for black, {S} {s} {so} {sd} {Sn} for the second colour (white or
// red): the name at a sentence's start, in a sentence, the form after
// "of" (genitive, oblique), "black discs", a short label.
export function colourWords(variant) {
  const p = {};
  for (const [k, who] of [["B", "black"], ["S", variant === "classic" ? "classic" : "modern"]]) {
    const low = k.toLowerCase();
    p[k] = t(`colour.${who}.W`);
    p[low] = t(`colour.${who}.w`);
    p[`${low}o`] = t(`colour.${who}.o`);
    p[`${low}d`] = t(`colour.${who}.d`);
    p[`${k}n`] = t(`colour.${who}.n`);
  }
  return p;
}

// The player `side` as {C} {c} {co}: "black", "white" or "red" (which say
// their rule set), or "second" for the second colour of `variant`.
export function player(side, variant) {
  const second = side === "red" || (side === "second" && variant === "classic") ? "classic" : "modern";
  const who = side === "black" ? "black" : second;
  return { C: t(`colour.${who}.W`), c: t(`colour.${who}.w`), co: t(`colour.${who}.o`) };
}

// Static text marked in the HTML: data-i18n (the text), data-i18n-title,
// data-i18n-placeholder, data-i18n-label (aria-label) and data-i18n-empty
// (data-empty, the text an empty box shows).
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-empty]")) el.dataset.empty = t(el.dataset.i18nEmpty);
}

// Fills a <select> with the languages (each in its own name) and calls
// `change(code)` after loading the chosen one; the address keeps `lang=`
// so that a reload or a copied link stays in that language.
export function langSwitch(select, change) {
  select.replaceChildren(...LANGS.map((code) => {
    const o = document.createElement("option");
    o.value = code;
    o.lang = code;
    o.textContent = NAMES[code];
    return o;
  }));
  select.value = lang;
  select.addEventListener("change", async () => {
    await loadLang(select.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", lang);
    history.replaceState(history.state, "", url);
    change(lang);
  });
}
