// The page's virtual DOM: snabbdom (vendor/snabbdom, MIT, version 3.6.4,
// its build/ ES modules as npm ships them), as lichess draws with it. A
// view describes an element's children as `h(...)` nodes and `patchInto`
// changes the document only where they differ from the last drawing, so
// an element that stays (a ply of the move list, a point of the graph)
// keeps its focus, its scroll and its listeners without any restoring by
// hand.

import { init } from "./vendor/snabbdom/init.js";
import { h } from "./vendor/snabbdom/h.js";
import { vnode } from "./vendor/snabbdom/vnode.js";
import { classModule } from "./vendor/snabbdom/modules/class.js";
import { propsModule } from "./vendor/snabbdom/modules/props.js";
import { attributesModule } from "./vendor/snabbdom/modules/attributes.js";
import { datasetModule } from "./vendor/snabbdom/modules/dataset.js";
import { eventListenersModule } from "./vendor/snabbdom/modules/eventlisteners.js";
import { styleModule } from "./vendor/snabbdom/modules/style.js";

export { h };

const patch = init([classModule, propsModule, attributesModule, datasetModule, eventListenersModule, styleModule]);

// The last drawing of each element patched.
const drawn = new WeakMap();

// Draws `children` (an array of h() nodes and strings) into `el`, with
// `data` (attrs, dataset, class, ...) on `el` itself; the element stays the
// page's (its id, role and other attributes are kept). The first drawing
// replaces what the html had there.
export function patchInto(el, children, data = {}) {
  const sel = el.tagName.toLowerCase();
  let old = drawn.get(el);
  if (!old) {
    el.textContent = "";
    old = vnode(sel, {}, [], undefined, el);
  }
  const next = h(sel, data, children);
  patch(old, next);
  drawn.set(el, next);
}
