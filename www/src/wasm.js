// The analysis engine as seen by the page: a Web Worker running the wasm module, so long
// analyses never block the UI. Requests are answered in order; a newer request supersedes
// the result of an older one.

function assetUrls() {
  const js = document.querySelector('link[rel="modulepreload"][href*="warpbound"]');
  const wasm = document.querySelector('link[rel="preload"][href$=".wasm"]');
  if (!js || !wasm) throw new Error('the wasm module links are missing from the page');
  return {
    js: new URL(js.getAttribute('href'), document.baseURI).href,
    wasm: new URL(wasm.getAttribute('href'), document.baseURI).href,
  };
}

export class Engine {
  constructor() {
    this.worker = new Worker(new URL('./worker.js', document.baseURI), { type: 'module' });
    this.pending = new Map();
    this.next = 1;
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === 'ready') resolve(m.catalog);
        else if (m.type === 'failed') reject(new Error(m.message));
        else {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          if (m.type === 'report') p.resolve(m.report);
          else p.reject(new Error(m.message));
        }
      };
      this.worker.onerror = (e) => reject(new Error(e.message || 'worker failed'));
    });
    this.worker.postMessage({ type: 'init', ...assetUrls() });
  }

  /** Resolves with the catalog once the module is loaded in the worker. */
  catalog() {
    return this.ready;
  }

  /** Runs one request; resolves with its report. */
  analyze(request) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'analyze', id, request });
    });
  }
}
