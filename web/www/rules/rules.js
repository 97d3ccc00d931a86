// The "How to play" page (rules.html): each rule set's rules in the chosen
// language, with live examples. Every example board is the engine's: the
// page sends it the example's lines (examples.js) and draws its
// `position` answer, so what a reader sees is what the board page plays.
//
// Address: variant=modern|classic (default modern), lang=en|pl|de|es|hi
// (default: the browser's language, else English).

import { Engine } from "../shared/engine.js";
import { parsePosition } from "../shared/game.js";
import { chooseLang, loadLang, langSwitch, currentLang, t, has, colourWords, player as playerWords } from "../shared/i18n.js";
import { PAGES, linesFor } from "./examples.js";
import { miniBoard, drawMini, turnedBetween } from "../shared/miniboard.js";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const variant = params.get("variant") === "classic" ? "classic" : "modern";
const second = variant === "classic" ? "red" : "white";

let engine = null; // set once the module is compiled; examples wait for it
let engineReady = null;
let chain = Promise.resolve();

// One example's lines at a time: the Worker holds one game, so a batch
// (new game, moves, position) must not interleave with another's.
function batch(lines, attempt = null) {
  const run = chain.then(async () => {
    await engineReady;
    for (const line of lines) {
      const a = await engine.command(line);
      if (!a.ok) throw new Error(`${line}: ${a.text}`);
    }
    let refused = null;
    if (attempt) refused = !(await engine.command(`play ${attempt}`)).ok;
    const state = parsePosition((await engine.command("position")).text);
    return { state, refused };
  });
  chain = run.catch(() => {});
  return run;
}

const colours = () => colourWords(variant);

// A rule set's own text if it has one, else the shared text.
function tv(key, extra = {}) {
  const own = `${key}.${variant}`;
  return t(has(own) ? own : key, { ...colours(), ...extra });
}

// A text's lines become paragraphs; lines starting "- " a list.
function prose(text) {
  const out = [];
  let list = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("- ")) {
      if (!list) out.push((list = document.createElement("ul")));
      list.appendChild(Object.assign(document.createElement("li"), { textContent: line.slice(2) }));
    } else if (line.trim()) {
      list = null;
      out.push(Object.assign(document.createElement("p"), { textContent: line }));
    }
  }
  return out;
}

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

// The side to move, game over, the disc counts and (classic) the discs in
// hand, as the engine's `position` said them.
function describe(state) {
  const c = colours();
  const status = state.over ? t("st.over") : t(state.mustPass ? "st.mustPass" : "st.toMove", player(state.side));
  const empty = 64 - state.discs.black - state.discs.second;
  const count = t("st.count", { ...c, nb: state.discs.black, ns: state.discs.second, ne: empty });
  const hand = state.supply ? t("st.hand", { ...c, nb: state.supply.black, ns: state.supply.second }) : "";
  return { status, count, hand };
}

const player = (side) => playerWords(side, variant);

function stepLabel(step) {
  if (step.try) return t("ex.try", { move: step.try });
  if (step.move === "pass") return t("ex.pass");
  return t("ex.play", { move: step.move });
}

// One live example: the board before, the move ringed, a button that
// plays it through the engine, and what happened.
function example(ex, label) {
  const mini = miniBoard(label);
  const status = el("div", { className: "ex-status" });
  const count = el("div", { className: "ex-count" });
  const hand = el("div", { className: "ex-hand" });
  const note = el("div", { className: "ex-note" });
  note.setAttribute("aria-live", "polite");
  const step = el("button", { className: "ex-step", type: "button" });
  const again = el("button", { className: "ex-again", type: "button", textContent: t("ex.again") });
  const fig = el("figure", { className: "example" }, mini.el,
    el("figcaption", {}, status, count, hand, note, el("div", { className: "ex-buttons" }, step, again)));
  fig.dataset.example = ex.id;

  let done = 0;
  let shown = null; // the state drawn

  async function show(k, action) {
    fig.dataset.state = "busy";
    step.disabled = again.disabled = true;
    try {
      const before = shown;
      const attempt = action && action.try ? action.try : null;
      const { state, refused } = await batch(linesFor(variant, ex, k), attempt);
      done = k;
      const next = ex.steps[done];
      const marks = { next: next && (next.move !== "pass" ? next.move || next.try : null) };
      let text = "";
      if (action && action.move && before) {
        const turned = turnedBetween(before, state);
        if (action.move === "pass") text = t("ex.passed", player(before.side));
        else {
          marks.last = action.move;
          marks.turned = turned;
          text = turned.length ? t("ex.turned", { n: turned.length, list: turned.join(" ") }) : t("ex.turnedNone");
        }
        if (state.over) text += " " + t("ex.gameOver");
      } else if (attempt) {
        text = refused ? t("ex.refused", { move: attempt }) : "";
      }
      shown = state;
      drawMini(mini, state, second, marks);
      const d = describe(state);
      status.textContent = d.status;
      count.textContent = d.count;
      hand.textContent = d.hand;
      hand.hidden = !d.hand;
      note.textContent = text;
      step.hidden = !next;
      if (next) step.textContent = stepLabel(next);
      again.hidden = done === 0;
      fig.dataset.step = done;
      fig.dataset.state = "ready";
    } catch (e) {
      note.textContent = t("ex.failed", { error: e.message });
      fig.dataset.state = "error";
    } finally {
      step.disabled = again.disabled = false;
    }
  }

  // A tried square is a step too: linesFor skips it, so the board is the
  // one before, and the engine's refusal is what the reader sees.
  step.addEventListener("click", () => {
    const s = ex.steps[done];
    if (s) show(done + 1, s);
  });
  again.addEventListener("click", () => show(0, null));
  return { fig, ready: () => show(0, null) };
}

function header() {
  const lang = currentLang();
  const q = (v) => `?variant=${v}&lang=${lang}`;
  const back = el("a", { className: "back", href: `./${q(variant)}`, textContent: t("rules.back") });
  const switchVariant = el("nav", { className: "variants" });
  switchVariant.setAttribute("aria-label", t("rules.variantLabel"));
  for (const v of ["modern", "classic"]) {
    const a = el("a", { href: `rules.html${q(v)}`, textContent: t(`rules.variant.${v}`) });
    if (v === variant) a.setAttribute("aria-current", "page");
    switchVariant.appendChild(a);
  }
  const select = el("select", { id: "lang" });
  select.setAttribute("aria-label", t("rules.lang"));
  langSwitch(select, render);
  return el("header", { className: "rules-head" }, back, switchVariant,
    el("label", { className: "lang" }, el("span", { textContent: t("rules.lang") }), select));
}

function render() {
  document.title = tv("rules.title");
  const main = el("main", { className: "rules" });
  main.append(el("h1", { textContent: tv("rules.title") }), ...prose(tv("rules.intro")));
  const examples = [];
  for (const [section, ex] of PAGES[variant]) {
    const sec = el("section", { id: section });
    sec.append(el("h2", { textContent: tv(`rules.${section}.h`) }));
    if (section === "faq") {
      const dl = el("dl", { className: "faq" });
      // A question may be one rule set's own (q7.modern, q7.classic).
      for (let i = 1; has(`rules.faq.q${i}`) || has(`rules.faq.q${i}.${variant}`); i++) {
        dl.append(el("dt", { textContent: tv(`rules.faq.q${i}`) }), el("dd", { textContent: tv(`rules.faq.a${i}`) }));
      }
      sec.append(dl);
    } else {
      // {n}: the moves played to reach the example's board, so the text
      // cannot miscount them (classic adds its four placements).
      sec.append(...prose(tv(`rules.${section}.body`, ex ? { n: ex.moves.length } : {})));
      if (ex) {
        const e = example(ex, tv(`rules.${section}.h`));
        sec.append(e.fig);
        examples.push(e);
      }
    }
    main.append(sec);
  }
  document.body.replaceChildren(header(), main);
  document.body.dataset.variant = variant;
  document.body.dataset.state = "loading";
  return Promise.all(examples.map((e) => e.ready())).then(() => { document.body.dataset.state = "ready"; });
}

async function main() {
  await loadLang(chooseLang());
  engineReady = Engine.load("mollett.wasm").then((module) => {
    engine = new Engine(module);
    return engine.ready;
  });
  await render();
}

// For tests: the examples shown, with the engine lines of each step.
window.mollettRules = {
  variant,
  examples: PAGES[variant].filter(([, ex]) => ex).map(([, ex]) => ({
    id: ex.id,
    steps: ex.steps,
    lines: ex.steps.map((_, k) => linesFor(variant, ex, k)).concat([linesFor(variant, ex, ex.steps.length)]),
  })),
};

main().catch((e) => {
  document.body.dataset.state = "error";
  document.body.append(el("p", { className: "error", textContent: `The engine could not start: ${e.message}` }));
});
