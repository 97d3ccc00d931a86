// The browser build plays the native engine's moves: one game in each rule
// set, both engines choosing every move at a fixed level (book off) and
// playing it; after each ply the move, its value (`last_value`) and the
// board (`showboard`) must be the same (and before the game, the book's
// `hint 64` at the start: the data files reach the engine), and after 20 plies `perft 7`. Run by tests/browser/test_same_moves.py;
// exits 1 at the first difference.
//
//     node scripts/web/same_moves.mjs [target/web/mollett.wasm] [target/release/mollett] [level]
import fs from "fs";
import { dataImports } from "./datafiles.mjs";
import { spawn } from "child_process";

const [wasmPath = "target/web/mollett.wasm", native = "target/release/mollett", level = "8"] = process.argv.slice(2);
const module = await WebAssembly.compile(fs.readFileSync(wasmPath));

async function wasmEngine() {
  let inst, out = "";
  const dec = new TextDecoder();
  const imports = { mollett: { now_ms: () => performance.now(), date_ms: () => Date.now(),
    emit: (kind, ptr, len) => { if (kind === 0) out += dec.decode(new Uint8Array(inst.exports.memory.buffer, ptr, len)); },
    ...dataImports(wasmPath, () => inst.exports.memory) } };
  inst = await WebAssembly.instantiate(module, imports);
  inst.exports.mollett_start(0);
  return {
    ask(line) {
      out = "";
      const bytes = new TextEncoder().encode(line);
      const p = inst.exports.mollett_alloc(bytes.length);
      new Uint8Array(inst.exports.memory.buffer, p, bytes.length).set(bytes);
      inst.exports.mollett_line(p, bytes.length, bytes.length);
      return Promise.resolve(out.trim());
    },
    close() {},
  };
}

// The native engine over pipes: an answer ends with an empty line.
function nativeEngine() {
  const proc = spawn(native, [], { stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  const waiting = [];
  proc.stdout.on("data", (d) => {
    buf += d.toString();
    let at;
    while ((at = buf.indexOf("\n\n")) >= 0) {
      const answer = buf.slice(0, at).trim();
      buf = buf.slice(at + 2);
      waiting.shift()(answer);
    }
  });
  return {
    ask(line) {
      return new Promise((resolve) => { waiting.push(resolve); proc.stdin.write(line + "\n"); });
    },
    close() { proc.stdin.end(); },
  };
}

let failed = false;
for (const variant of ["modern", "classic"]) {
  const engines = [await wasmEngine(), nativeEngine()];
  // `refusable`: a `?` answer (last_value after a forced move) is an answer to compare, not a failure.
  const both = async (line, refusable = false) => {
    const [w, n] = await Promise.all(engines.map((e) => e.ask(line)));
    if (w !== n) throw new Error(`${variant}: '${line}' answers differ\nwasm:\n${w}\nnative:\n${n}`);
    if (!refusable && !w.startsWith("=")) throw new Error(`${variant}: '${line}' refused: ${w}`);
    return w;
  };
  let plies = 0;
  try {
    // The book first: its values at the start show the browser engine got
    // the variant's book (fetched on first use, src/engine/data.rs).
    await both(`newgame ${variant}`);
    if (!(await both("hint 64")).includes("book")) throw new Error(`${variant}: no book values at the start`);
    for (const line of ["set_option book off", `set_option level ${level}`]) await both(line);
    for (;;) {
      const board = await both("showboard");
      if (board.includes("game over")) break;
      // The move generator and flips alone, over a tree of midgame positions.
      if (plies === 20) await both("perft 7");
      const mv = await both("genmove");
      await both("last_value", true);
      if (mv === "= pass") {
        const side = board.match(/(\w+) to move/)[1];
        await both(`play ${side} pass`);
      }
      plies++;
    }
    console.log(`ok   ${variant}: the same ${plies} plies at level ${level} (move, value, board)`);
  } catch (e) {
    console.log(`FAIL ${variant} after ${plies} equal plies: ${e.message}`);
    failed = true;
  }
  engines.forEach((e) => e.close());
}
process.exit(failed ? 1 : 0);
