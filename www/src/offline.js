// Offline use after the first visit (a classroom on a flaky link): registers the service
// worker (www/sw.js says what it caches and how a new deployment replaces the old one) and
// offers the switch to a new deployment once its files are cached.

/**
 * Registers the service worker where the browser has them (secure contexts: https, or http
 * on localhost / 127.0.0.1); elsewhere the page works as before, online only. Calls
 * `onUpdate(apply)` when a newly deployed version is cached and waiting; `apply()` hands the
 * page to it, and the page reloads when it has taken over.
 */
export async function keepOffline(onUpdate) {
  if (!('serviceWorker' in navigator)) return;
  let registration;
  try {
    // The page's directory is the scope: the site works under any sub-path.
    registration = await navigator.serviceWorker.register(new URL('./sw.js', document.baseURI), {
      scope: new URL('./', document.baseURI).href,
    });
  } catch (err) {
    // Offline, the update check that registering makes fails; the installed worker serves on.
    console.warn('Warpbound: the service worker was not registered or updated:', err.message);
    return;
  }
  // An update waits while a page of the old version is open (so no page is served a mix of
  // two builds). On a first visit nothing controls the page: that install is no update.
  const announce = () => {
    const waiting = registration.waiting;
    if (waiting && navigator.serviceWorker.controller) onUpdate(() => takeOver(waiting));
  };
  // The browser checks for an update on every visit, possibly before this code runs: a
  // worker may be waiting already, or installing.
  const watch = (worker) => {
    if (worker) worker.addEventListener('statechange', () => worker.state === 'installed' && announce());
  };
  registration.addEventListener('updatefound', () => watch(registration.installing));
  watch(registration.installing);
  announce();
}

function takeOver(worker) {
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  worker.postMessage('take-over');
}
