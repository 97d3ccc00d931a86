// The browser build's speed against the native engine's: `bench` (the same
// positions and depth, so the same node count) on one thread, in Node's
// WebAssembly engine (V8, as Chromium's), alternating with the native
// binary, N rounds each.
//
//     node scripts/web/bench.mjs [target/web/mollett.wasm] [target/release/mollett] [rounds]
import fs from "fs";
import { execFileSync } from "child_process";

const [wasmPath = "target/web/mollett.wasm", native = "target/release/mollett", rounds = "3"] = process.argv.slice(2);
const module = await WebAssembly.compile(fs.readFileSync(wasmPath));

async function wasmBench() {
  let inst, out = "";
  const dec = new TextDecoder();
  const imports = { mollett: { now_ms: () => performance.now(), date_ms: () => Date.now(),
    emit: (kind, ptr, len) => { if (kind === 0) out += dec.decode(new Uint8Array(inst.exports.memory.buffer, ptr, len)); } } };
  inst = await WebAssembly.instantiate(module, imports);
  inst.exports.mollett_start(0);
  const line = new TextEncoder().encode("bench");
  const p = inst.exports.mollett_alloc(line.length);
  new Uint8Array(inst.exports.memory.buffer, p, line.length).set(line);
  inst.exports.mollett_line(p, line.length, line.length);
  const m = out.match(/= (\d+) nodes (\d+) nps/);
  return [+m[1], +m[2]];
}

function nativeBench() {
  const text = execFileSync(native, ["bench"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim().split("\n").pop();
  const m = text.match(/(\d+) nodes (\d+) nps/);
  return [+m[1], +m[2]];
}

const w = [], n = [];
for (let i = 0; i < +rounds; i++) {
  w.push(await wasmBench());
  n.push(nativeBench());
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const wn = mean(w.map((x) => x[1])), nn = mean(n.map((x) => x[1]));
console.log(`wasm   ${w[0][0]} nodes, nps ${w.map((x) => x[1]).join(" / ")} (mean ${Math.round(wn)})`);
console.log(`native ${n[0][0]} nodes, nps ${n.map((x) => x[1]).join(" / ")} (mean ${Math.round(nn)})`);
console.log(`ratio ${(wn / nn * 100).toFixed(1)} % of native${w[0][0] === n[0][0] ? "" : " (NODE COUNTS DIFFER)"}`);
