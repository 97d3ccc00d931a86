// The browser build's speed against the native engine's: `bench` (the same
// positions and depth, so the same node count) on one thread, in Node's
// WebAssembly engine (V8, as Chromium's), alternating with the native
// binary, N rounds each, after one WebAssembly round not counted (V8 tiers
// its code up meanwhile). Further .wasm files (another build, main's) run
// in the same rounds.
//
// With --cpu both sides time their searches by CPU time, not the wall
// clock: the WebAssembly side through its clock import, the native binary
// through scripts/web/cpuclock.c (compiled into target/ with cc, loaded by
// LD_PRELOAD). On a machine shared with other work the wall clock counts
// the waits for a core.
//
//     node scripts/web/bench.mjs [--cpu] [target/web/mollett.wasm] [target/release/mollett] [rounds] [other.wasm ...]
import fs from "fs";
import { dataImports } from "./datafiles.mjs";
import path from "path";
import { execFileSync } from "child_process";

const args = process.argv.slice(2);
const cpu = args[0] === "--cpu" && Boolean(args.shift());
const [wasmPath = "target/web/mollett.wasm", native = "target/release/mollett", rounds = "3", ...others] = args;
const wasms = [wasmPath, ...others];
const modules = await Promise.all(wasms.map((w) => WebAssembly.compile(fs.readFileSync(w))));

let env = process.env;
if (cpu) {
  const root = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..");
  const src = path.join(root, "scripts", "web", "cpuclock.c");
  const lib = path.join(root, "target", "cpuclock.so");
  if (!fs.existsSync(lib) || fs.statSync(lib).mtimeMs < fs.statSync(src).mtimeMs) {
    fs.mkdirSync(path.dirname(lib), { recursive: true });
    execFileSync("cc", ["-O2", "-shared", "-fPIC", "-o", lib, src, "-ldl"], { stdio: "inherit" });
  }
  env = { ...process.env, LD_PRELOAD: lib };
}
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

async function wasmBench(module, wasmFile) {
  let inst, out = "";
  const dec = new TextDecoder();
  const imports = { mollett: { now_ms: cpu ? cpuMs : () => performance.now(), date_ms: () => Date.now(),
    emit: (kind, ptr, len) => { if (kind === 0) out += dec.decode(new Uint8Array(inst.exports.memory.buffer, ptr, len)); },
    ...dataImports(wasmFile, () => inst.exports.memory) } };
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
  const text = execFileSync(native, ["bench"], { env, stdio: ["ignore", "pipe", "ignore"] }).toString().trim().split("\n").pop();
  const m = text.match(/(\d+) nodes (\d+) nps/);
  return [+m[1], +m[2]];
}

for (const [k, m] of modules.entries()) await wasmBench(m, wasms[k]);
const w = wasms.map(() => []), n = [];
for (let i = 0; i < +rounds; i++) {
  for (let k = 0; k < modules.length; k++) w[k].push(await wasmBench(modules[k], wasms[k]));
  n.push(nativeBench());
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const nn = mean(n.map((x) => x[1]));
const clock = cpu ? "CPU" : "wall";
console.log(`native ${n[0][0]} nodes, nps (${clock}) ${n.map((x) => x[1]).join(" / ")} (mean ${Math.round(nn)})`);
wasms.forEach((path, k) => {
  const wn = mean(w[k].map((x) => x[1]));
  console.log(`${path}: ${w[k][0][0]} nodes, nps (${clock}) ${w[k].map((x) => x[1]).join(" / ")} (mean ${Math.round(wn)})`);
  console.log(`ratio ${(wn / nn * 100).toFixed(1)} % of native${w[k].every((x) => x[0] === n[0][0]) ? "" : " (NODE COUNTS DIFFER)"}`);
});
