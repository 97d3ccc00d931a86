// The engine's Web Worker: the native engine's GTP loop compiled to
// WebAssembly (web/src/lib.rs), fed one line per message. The page posts
// {module, variant} once, then {line}; the Worker posts {answer} for each
// GTP answer (in order) and {info} for each completed search step.
"use strict";

let wasm = null;
let waiting = []; // lines that came before the module was ready
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function emit(kind, ptr, len) {
  const text = decoder.decode(new Uint8Array(wasm.exports.memory.buffer, ptr, len));
  postMessage(kind === 1 ? { info: text } : { answer: text });
}

function feed(line) {
  const bytes = encoder.encode(line);
  const ptr = wasm.exports.mollett_alloc(bytes.length);
  new Uint8Array(wasm.exports.memory.buffer, ptr, bytes.length).set(bytes);
  wasm.exports.mollett_line(ptr, bytes.length, bytes.length);
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.module) {
      const imports = {
        mollett: { emit, now_ms: () => performance.now(), date_ms: () => Date.now() },
      };
      wasm = await WebAssembly.instantiate(msg.module, imports);
      if (wasm.exports.mollett_start(msg.variant === "classic" ? 1 : 0) !== 0) {
        postMessage({ error: "the engine could not start (out of memory)" });
        return;
      }
      postMessage({ ready: true });
      for (const line of waiting) feed(line);
      waiting = null;
    } else if (typeof msg.line === "string") {
      if (waiting) waiting.push(msg.line);
      else feed(msg.line);
    }
  } catch (e) {
    // A panic aborts the module (a WebAssembly trap): the page restarts us.
    postMessage({ error: String(e) });
  }
};
