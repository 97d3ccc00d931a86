// The page's side of the engine: a Worker running the engine's GTP loop,
// with the compiled module kept so that a new Worker starts in milliseconds.
// `command(line)` resolves with the answer ({ok, text}); answers come in the
// order the lines were sent, as from the native engine. A search cannot be
// interrupted inside the Worker (it runs to its end on the Worker's one
// thread), so `restart()` ends the Worker and starts a fresh one: that is how
// the page makes a search obsolete ("move now", a new position under hints).

export class Engine {
  constructor(module, { onInfo = () => {}, onRestart = () => {} } = {}) {
    this.module = module;
    this.onInfo = onInfo;
    this.onRestart = onRestart;
    this.log = []; // every line sent to the current Worker, in order
    this.restarts = 0;
    this.start();
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
    this.worker.postMessage({ module: this.module, variant: "modern" });
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
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.log.push(line);
      this.worker.postMessage({ line });
    });
  }

  restart() {
    this.worker.terminate();
    this.fail(new Error("restarted"));
    this.restarts += 1;
    this.start();
    this.onRestart();
  }
}
