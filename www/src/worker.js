// Runs the analyses off the main thread so the page never freezes. The main thread sends the
// URL of the wasm-bindgen glue (Trunk gives it a content hash) and the compiled module, then
// requests; each is answered by its progress messages (`progress`: work done, budget, best
// bound so far, as Rust reported them) and then its report with the call's time measured in
// wasm (`elapsed_ms`, by `performance.now()`).

let api = null;

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'init') {
    try {
      const glue = await import(msg.js);
      await glue.default({ module_or_path: msg.module });
      api = glue;
      self.postMessage({ type: 'ready', catalog: api.catalog() });
      // The opcode documentation, once per page (the first worker), before any request is
      // read: the page keeps it, so hovering never waits for an analysis.
      if (msg.docs) self.postMessage({ type: 'opcode-docs', tables: api.opcode_docs() });
    } catch (err) {
      self.postMessage({ type: 'failed', message: String((err && err.message) || err) });
    }
    return;
  }
  if (msg.type === 'guess') {
    // What a pasted text looks like (the CLI's dialect guess), or null.
    self.postMessage({ type: 'guess', id: msg.id, guess: api.guess_dialect(msg.text) });
    return;
  }
  if (msg.type === 'analyze') {
    try {
      // Rust calls `progress` while long work runs (at most every 50 ms); each call becomes a
      // message, so the page can show it while this worker is busy.
      const progress = (p) => self.postMessage({ type: 'progress', id: msg.id, progress: p });
      const { report, elapsed_ms } = api.analyze_with_progress(msg.request, progress);
      self.postMessage({ type: 'report', id: msg.id, report, elapsed_ms });
    } catch (err) {
      self.postMessage({ type: 'error', id: msg.id, message: String((err && err.message) || err) });
    }
  }
};
