// The page's side of the engine: a Worker running the engine's GTP loop,
// with the compiled module kept so that a new Worker starts in milliseconds.
// `command(line)` resolves with the answer ({ok, text}); answers come in the
// order the lines were sent, as from the native engine. A search cannot be
// interrupted inside the Worker (it runs to its end on the Worker's one
// thread), so `restart()` ends the Worker and starts a fresh one: that is how
// the page makes a search obsolete ("move now", a new position under hints).
//
// The engine's weights and books are not in the module (src/engine/data.rs):
// the Worker asks for each when the engine first needs it, and gets it from
// here, else fetches it itself (synchronously: the engine is inside a
// search then). With `prefetch` (the board) the files a rule set's games
// need are fetched as soon as the engine has answered a position of that
// rule set, while the player looks at the board; a line that may search
// waits for them (and starts them if need be) rather than have the Worker
// fetch them a second time. A page that only shows the rules (rules.html)
// needs none and fetches none.

// The data files, in src/engine/data.rs's order (`Data as u32`). The build
// gives each a hashed name and rewrites these (scripts/web/assets.py).
const FILES = [
  new URL("../data/modern-weights.bin", import.meta.url).href,
  new URL("../data/classic-weights.bin", import.meta.url).href,
  new URL("../data/modern-book.bin", import.meta.url).href,
  new URL("../data/classic-book.bin", import.meta.url).href,
];
// What each rule set's searches read first: its weights and its book. The
// classic weights also order the exact solver in modern games
// (`EmbeddedEval::order_evaluate`); a modern game fetches them at its first
// endgame solve, not on every visit.
const NEEDS = { modern: [0, 2], classic: [1, 3] };
// Commands that read no data file: they go to the Worker at once, while a
// prefetch is under way. Any other line waits for it (a search would
// otherwise fetch the same file again), and so do the lines after it.
const RULES_ONLY = new Set(["newgame", "play", "position", "setboard", "showboard", "undo", "set_option",
  "time_left", "kgs-time_settings", "name", "version", "protocol_version", "list_commands", "known_command",
  "help", "perft", "boardsize", "clear_board", "quit"]);
// Each file's bytes (an ArrayBuffer) once had, shared by every Worker of
// the page; and the fetches under way.
const had = [];
const fetching = [];

function fetchFile(i) {
  fetching[i] ||= fetch(FILES[i])
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((bytes) => { had[i] ||= bytes; })
    // The Worker fetches it again when it needs it, and says if it cannot.
    .catch(() => { fetching[i] = null; });
  return fetching[i];
}

export class Engine {
  constructor(module, { onInfo = () => {}, onRestart = () => {}, prefetch = false } = {}) {
    this.module = module;
    this.onInfo = onInfo;
    this.onRestart = onRestart;
    this.prefetch = prefetch;
    this.variant = "modern"; // of the last `newgame` line
    this.gate = Promise.resolve(); // the lines held behind a prefetch
    this.log = []; // every line sent to the current Worker, in order
    this.restarts = 0;
    this.start();
  }

  // Fetches the files `variant`'s searches need, once per page; resolves
  // when they are had (or failed: the Worker then tries itself).
  static files(variant) {
    return Promise.all((NEEDS[variant] || []).filter((i) => !had[i]).map(fetchFile));
  }

  static async load(url) {
    let module;
    try {
      module = await WebAssembly.compileStreaming(fetch(url));
    } catch (e) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    }
    return module;
  }

  start() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url));
    this.queue = []; // {resolve, reject} for each line not yet answered
    this.buffer = "";
    this.log = [];
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.ready) resolve();
        else if (msg.answer !== undefined) this.receive(msg.answer);
        else if (msg.info !== undefined) this.onInfo(msg.info);
        else if (msg.file !== undefined) this.kept(msg.file, msg.bytes);
        else if (msg.error !== undefined) {
          reject(new Error(msg.error));
          this.fail(new Error(`engine stopped: ${msg.error}`));
        }
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.fail(new Error(`engine stopped: ${event.message}`));
      };
    });
    this.given = had.map((bytes) => !!bytes);
    this.worker.postMessage({ module: this.module, variant: "modern", files: FILES, had: had.slice() });
  }

  // A file the Worker had to fetch itself: kept for the next Worker.
  kept(i, bytes) {
    had[i] ||= bytes;
    this.given[i] = true;
  }

  // Hands `worker` (if still the current one) the files had since it started.
  give(worker) {
    if (this.worker !== worker) return;
    had.forEach((bytes, i) => {
      if (bytes && !this.given[i]) {
        worker.postMessage({ file: i, bytes });
        this.given[i] = true;
      }
    });
  }

  // One GTP answer is "=..." or "?..." closed by an empty line.
  receive(text) {
    this.buffer += text;
    let end;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const answer = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const waiter = this.queue.shift();
      if (!waiter) continue;
      const ok = answer.startsWith("=");
      // "= text", "=" alone, or "=\n" before showboard's drawing.
      let body = answer.slice(1);
      if (body.startsWith(" ")) body = body.slice(1);
      else if (body.startsWith("\n")) body = body.slice(1);
      waiter.resolve({ ok, text: body });
    }
  }

  fail(error) {
    const waiting = this.queue;
    this.queue = [];
    for (const w of waiting) w.reject(error);
  }

  command(line) {
    if (/[\n\r]/.test(line)) return Promise.reject(new Error("one line at a time"));
    const [word, arg] = line.trim().split(/\s+/);
    if (word === "newgame" && NEEDS[arg]) this.variant = arg;
    const variant = this.variant;
    // A line that may search waits for its rule set's files (fetched now if
    // the position-drawn prefetch below has not begun).
    if (this.prefetch && !RULES_ONLY.has(word)) {
      const worker = this.worker;
      const loading = NEEDS[variant].some((i) => !had[i]) ? Engine.files(variant) : null;
      this.gate = this.gate.then(() => loading).then(() => this.give(worker));
    }
    const answer = new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.log.push(line);
      const worker = this.worker;
      // In order, behind any line held; not to a Worker since replaced.
      this.gate = this.gate.then(() => { if (this.worker === worker) worker.postMessage({ line }); });
    });
    // A position of a rule set drawn: its files are fetched meanwhile.
    if (this.prefetch && word === "position") answer.then(() => Engine.files(variant), () => {});
    return answer;
  }

  restart() {
    this.worker.terminate();
    this.fail(new Error("restarted"));
    this.restarts += 1;
    this.start();
    this.onRestart();
  }
}
