// The engine's Web Worker: the native engine's GTP loop compiled to
// WebAssembly (web/src/lib.rs), fed one line per message. The page posts
// {module, variant, files, had} once, then {line} and {file, bytes} (a data
// file it has fetched since); the Worker posts {answer}
// for each GTP answer (in order), {info} for each completed search step,
// and {file, bytes} for a data file it had to fetch itself.
"use strict";

let wasm = null;
let waiting = []; // lines that came before the module was ready
let files = []; // the data files' addresses (engine.js's FILES)
let had = []; // their bytes (ArrayBuffer) where the page has them
let measured = null; // the file data_size just measured, for data_copy
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The engine asks for data file `i` when it first needs it, in the middle
// of a search: it must have it now. The page's copy, else a synchronous
// request (a Worker may make one; the hashed name is cached for good).
function dataSize(i) {
  let bytes = had[i];
  if (!bytes && files[i]) {
    try {
      const request = new XMLHttpRequest();
      request.open("GET", files[i], false);
      request.responseType = "arraybuffer";
      request.send();
      if (request.status === 200) {
        bytes = had[i] = request.response;
        postMessage({ file: i, bytes }); // kept for the next Worker
      }
    } catch (e) {
      bytes = null;
    }
  }
  measured = bytes ? new Uint8Array(bytes) : null;
  return measured ? measured.length : -1;
}

function dataCopy(i, ptr) {
  new Uint8Array(wasm.exports.memory.buffer, ptr, measured.length).set(measured);
  measured = null;
}

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
      files = msg.files || [];
      had = msg.had || [];
      const imports = {
        mollett: {
          emit, now_ms: () => performance.now(), date_ms: () => Date.now(),
          data_size: dataSize, data_copy: dataCopy,
        },
      };
      wasm = await WebAssembly.instantiate(msg.module, imports);
      if (wasm.exports.mollett_start(msg.variant === "classic" ? 1 : 0) !== 0) {
        postMessage({ error: "the engine could not start (out of memory)" });
        return;
      }
      postMessage({ ready: true });
      for (const line of waiting) feed(line);
      waiting = null;
    } else if (msg.file !== undefined) {
      had[msg.file] ||= msg.bytes; // fetched by the page since we started
    } else if (typeof msg.line === "string") {
      if (waiting) waiting.push(msg.line);
      else feed(msg.line);
    }
  } catch (e) {
    // A panic aborts the module (a WebAssembly trap): the page restarts us.
    postMessage({ error: String(e) });
  }
};
