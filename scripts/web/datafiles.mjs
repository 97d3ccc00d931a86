// The browser build's data files (src/engine/data.rs) for a WebAssembly
// engine run in Node: the `data_size` and `data_copy` imports that
// web/www/shared/worker.js gives it in the page, reading the files that
// scripts/web/build.sh writes beside mollett.wasm (data/, unhashed names).
import fs from "fs";
import path from "path";

// In src/engine/data.rs's order (`Data as u32`), as engine.js's FILES.
const NAMES = ["modern-weights.bin", "classic-weights.bin", "modern-book.bin", "classic-book.bin"];

export function dataImports(wasmPath, memory) {
  let measured = null;
  return {
    data_size(i) {
      const file = path.join(path.dirname(wasmPath), "data", NAMES[i] || "?");
      measured = fs.existsSync(file) ? fs.readFileSync(file) : null;
      return measured ? measured.length : -1;
    },
    data_copy(i, ptr) {
      new Uint8Array(memory().buffer, ptr, measured.length).set(measured);
      measured = null;
    },
  };
}
