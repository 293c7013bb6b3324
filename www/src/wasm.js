// The analysis engine as seen by the page: a Web Worker running the wasm module, so long
// analyses never block the UI. Requests are answered in order; a newer request supersedes
// the result of an older one.
//
// The module is downloaded and compiled here, once, and handed to every worker: the download
// uses the page's preload (which starts while the HTML is parsed; a worker fetching it again
// asks the host for the 3 MB a second time — a 304 from a host that sends validators, the
// whole module again from one that does not), it can report its progress, and a worker
// replaced after a cancel or a failure starts without downloading or compiling again.

function assetUrls() {
  const js = document.querySelector('link[rel="modulepreload"][href*="warpbound"]');
  const wasm = document.querySelector('link[rel="preload"][href$=".wasm"]');
  if (!js || !wasm) throw new Error('the wasm module links are missing from the page');
  return {
    js: new URL(js.getAttribute('href'), document.baseURI).href,
    wasm: new URL(wasm.getAttribute('href'), document.baseURI).href,
    // The module's size, written in by the build (www/tools/wasm-size.mjs).
    bytes: Number(wasm.dataset.bytes) || null,
  };
}

/**
 * Downloads and compiles the module, calling `progress(loaded, total)` as bytes arrive
 * (`total` null when unknown). Compiles while downloading, as instantiateStreaming would.
 */
async function compileModule(urls, progress) {
  // Credentials as the preload's `crossorigin="anonymous"`, so the preload answers it. No
  // `integrity`: it would hold the whole body back until checked, so no progress could show
  // (Chrome ignores integrity on such preloads anyway, and the worker never checked it).
  const response = await fetch(urls.wasm, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`the analysis engine could not be loaded (HTTP ${response.status})`);
  let loaded = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      progress(loaded, urls.bytes);
      controller.enqueue(chunk);
    },
  });
  const counted = new Response(response.body.pipeThrough(counter), {
    headers: { 'content-type': 'application/wasm' },
  });
  return WebAssembly.compileStreaming(counted);
}

/**
 * Raised when the engine itself failed on a request: the wasm module trapped (a Rust panic:
 * a bug, since every input problem is a diagnostic) or the worker died. The worker is
 * replaced before this is raised; `request` is what to attach to a bug report.
 */
export class EngineFailure extends Error {
  constructor(message, request) {
    super(message);
    this.name = 'EngineFailure';
    this.request = request;
  }
}

/** Raised for requests stopped by `Engine.cancel()`. */
export class Cancelled extends Error {
  constructor() {
    super('analysis cancelled');
    this.name = 'Cancelled';
  }
}

/** Workers in a row that may die before they are ready before the engine gives up. */
const MAX_FAILED_STARTS = 3;

export class Engine {
  /** `progress(loaded, total)` is called while the module downloads (`total` may be null);
   * `opcodeDocs(tables)` once, with the opcode documentation, when the first worker has
   * loaded (before the first report). */
  constructor(progress = () => {}, opcodeDocs = () => {}) {
    this.opcodeDocs = opcodeDocs;
    this.wantDocs = true;
    this.pending = new Map();
    this.next = 1;
    /** Milliseconds the last answered request took in the worker (wasm `performance.now()`). */
    this.lastElapsedMs = null;
    /** Workers that died before they were ready, in a row (see `fail`). */
    this.failedStarts = 0;
    this.urls = assetUrls();
    this.module = compileModule(this.urls, progress);
    this.start();
  }

  /** Starts a worker and loads the module in it. */
  start() {
    this.worker = new Worker(new URL('./worker.js', document.baseURI), { type: 'module' });
    const loaded = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === 'ready') {
          this.failedStarts = 0;
          resolve(m.catalog);
        }
        else if (m.type === 'opcode-docs') {
          this.wantDocs = false;
          this.opcodeDocs(m.tables);
        }
        else if (m.type === 'failed') reject(new Error(m.message));
        else if (m.type === 'progress') {
          const p = this.pending.get(m.id);
          if (p) p.onProgress(m.progress);
        } else {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          if (m.type === 'report') {
            this.lastElapsedMs = m.elapsed_ms;
            p.resolve(m.report);
          } else if (m.type === 'guess') p.resolve(m.guess);
          // A trapped wasm instance is not safe to call again: replace the worker.
          else this.fail(m.message, p);
        }
      };
      this.worker.onerror = (e) => {
        e.preventDefault();
        const message = e.message || 'the analysis worker died';
        reject(new Error(message));
        this.fail(message, null, true);
      };
    });
    // A module that could not be loaded fails every start (and the catalog with its reason).
    const ready = this.module.then(() => loaded);
    ready.then(
      () => (ready.settled = true),
      () => {},
    );
    this.ready = ready;
    const worker = this.worker;
    this.module.then(
      (module) => worker.postMessage({ type: 'init', js: this.urls.js, module, docs: this.wantDocs }),
      () => {},
    );
  }

  /** Resolves with the catalog once the module is loaded in the worker. */
  catalog() {
    return this.ready;
  }

  /** Whether a request is being worked on. */
  busy() {
    return this.pending.size > 0;
  }

  /**
   * Runs one request; resolves with its report. `onProgress(p)` is called with each progress
   * report of its long work (`{task, label, unit, parameter, done, budget, bound_label,
   * best_bound, upper_bound, elapsed_ms}`, see `crates/wasm`). After it resolves,
   * `lastElapsedMs` is the call's time as measured inside the worker.
   */
  async analyze(request, onProgress = () => {}) {
    await this.ready;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request, onProgress });
      this.worker.postMessage({ type: 'analyze', id, request });
    });
  }

  /**
   * What `text` looks like, as the command line guesses a file's dialect: `{dialect, line,
   * evidence}`, `{cuda: true, line, evidence}` for CUDA C++ source, or null.
   */
  async guess(text) {
    await this.ready;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request: { guess: text.slice(0, 200) }, onProgress: () => {} });
      this.worker.postMessage({ type: 'guess', id, text });
    });
  }

  /**
   * The worker failed (a request trapped, or the worker itself died): every pending request
   * rejects with `EngineFailure` carrying its request, and a fresh worker is started.
   */
  fail(message, first = null, died = false) {
    const failed = first ? [first, ...this.pending.values()] : [...this.pending.values()];
    this.pending.clear();
    this.worker.terminate();
    // A worker that cannot start (its script or module does not load) would die again at
    // once: after MAX_FAILED_STARTS in a row the engine stops restarting and says why.
    if (died && !this.ready.settled) this.failedStarts += 1;
    if (this.failedStarts >= MAX_FAILED_STARTS) {
      const why = new Error(`the analysis worker failed to start ${this.failedStarts} times in a row: ${message}`);
      this.ready = Promise.reject(why);
      this.ready.catch(() => {});
      this.ready.settled = true;
    } else {
      this.start();
    }
    for (const p of failed) p.reject(new EngineFailure(message, p.request));
  }

  /**
   * Stops whatever is running: wasm cannot be interrupted from outside, so the worker is
   * terminated (its memory goes with it) and a fresh one is started. Pending requests
   * reject with `Cancelled`.
   */
  cancel() {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Cancelled());
    this.pending.clear();
    this.start();
  }
}
