// Access to the analysis module that Trunk loads (window.wasmBindings).

let ready = null;

/** Resolves with the wasm-bindgen exports once Trunk's loader has initialised the module. */
export function bindings() {
  if (!ready) {
    ready = new Promise((resolve) => {
      if (window.wasmBindings) {
        resolve(window.wasmBindings);
        return;
      }
      window.addEventListener('TrunkApplicationStarted', () => resolve(window.wasmBindings), {
        once: true,
      });
    });
  }
  return ready;
}
