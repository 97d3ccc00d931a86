// The `?` overlay listing the keyboard shortcuts (a modal dialog: the
// focus stays in it and returns where it was; Escape, Close or a click
// outside closes it), and a horizontal swipe on the board for forward
// (to the left) and back (to the right) on a touch screen.

const $ = (sel) => document.querySelector(sel);

export function bindKeysHelp() {
  const dialog = $("#keys-help");
  let before = null;
  const open = () => {
    if (dialog.open) return;
    before = document.activeElement;
    dialog.showModal();
    $("#keys-close").focus();
  };
  const close = () => { if (dialog.open) dialog.close(); };
  // Escape closes a modal dialog by itself; the focus goes back then.
  dialog.addEventListener("close", () => { if (before && before.isConnected) before.focus(); before = null; });
  $("#keys-open").hidden = false; // the board's (a room's page has no list)
  $("#keys-open").addEventListener("click", open);
  $("#keys-close").addEventListener("click", close);
  // A click on the backdrop reaches the dialog itself, outside its box.
  dialog.addEventListener("click", (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) close();
  });
  // The focus stays in the dialog: Tab from its last control goes to its
  // first, Shift+Tab from the first to the last.
  dialog.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const all = [...dialog.querySelectorAll("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")];
    const first = all[0], last = all.at(-1);
    if (e.shiftKey ? document.activeElement === first : document.activeElement === last) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "?" || dialog.open || e.target.closest("input, textarea, select")) return;
    e.preventDefault();
    open();
  });
}

// A swipe is a touch that moves at least 40 px sideways, twice as far as
// up or down, within 800 ms; a shorter touch stays a tap on a square (the
// click it makes is left alone). A swipe's own click is swallowed.
export function bindSwipe(el, { back, forward }) {
  let start = null;
  let swallow = 0;
  el.addEventListener("touchstart", (e) => {
    const p = e.changedTouches[0];
    start = e.touches.length === 1 ? { x: p.clientX, y: p.clientY, at: e.timeStamp } : null;
  }, { passive: true });
  el.addEventListener("touchcancel", () => { start = null; });
  el.addEventListener("touchend", (e) => {
    if (!start) return;
    const p = e.changedTouches[0];
    const dx = p.clientX - start.x, dy = p.clientY - start.y;
    const quick = e.timeStamp - start.at < 800;
    start = null;
    if (!quick || Math.abs(dx) < 40 || Math.abs(dx) < 2 * Math.abs(dy)) return;
    e.preventDefault(); // no click on the square where the finger lifted
    swallow = e.timeStamp + 500;
    (dx < 0 ? forward : back)();
  });
  el.addEventListener("click", (e) => { if (e.timeStamp < swallow) e.stopPropagation(); }, true);
}
