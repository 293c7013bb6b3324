// Permalinks without a server: the whole state, deflated and base64url-encoded, in the URL
// fragment behind a version prefix (`#v1.…`), or a short alias for a gallery example
// (`#ex=fig1-if-then-else`). Only the fragment is touched, so links work under any sub-path.

const PREFIX = 'v1.';

function toBase64Url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** Links are untrusted input: these limits keep a crafted link from exhausting the page. */
export const MAX_FRAGMENT = 256 * 1024; // characters of the fragment
export const MAX_STATE = 4 * 1024 * 1024; // bytes of the inflated state

/** Inflates at most `limit` bytes; a bigger payload (a "zip bomb") is refused mid-stream. */
async function inflateBounded(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`its content inflates to more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks the shape of a decoded state; returns a message naming the first bad field, or null.
 * Only the fields `snapshot()` writes are accepted, with their types.
 */
export function stateProblem(s) {
  if (!isPlainObject(s)) return 'it does not hold a state object';
  const strings = ['dialect', 'source', 'mode', 'view'];
  for (const k of strings) if (k in s && typeof s[k] !== 'string') return `field "${k}" is not text`;
  for (const k of ['function', 'preset']) {
    if (k in s && s[k] !== null && typeof s[k] !== 'string') return `field "${k}" is not text`;
  }
  if ('params' in s) {
    if (!isPlainObject(s.params)) return 'field "params" is not an object';
    for (const [k, v] of Object.entries(s.params)) {
      if (!['number', 'boolean', 'string'].includes(typeof v)) return `parameter "${k}" has no valid value`;
    }
  }
  if ('loopBounds' in s) {
    if (!isPlainObject(s.loopBounds)) return 'field "loopBounds" is not an object';
    for (const [k, v] of Object.entries(s.loopBounds)) {
      if (!Number.isInteger(v) || v < 0) return `loop bound "${k}" is not a whole number`;
    }
  }
  const known = new Set([...strings, 'function', 'preset', 'params', 'loopBounds']);
  const extra = Object.keys(s).find((k) => !known.has(k));
  if (extra) return `it has an unknown field "${extra}"`;
  return null;
}

/** `#v1.<deflated JSON>` for a state object. */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const deflated = await pipe(json, new CompressionStream('deflate-raw'));
  return '#' + PREFIX + toBase64Url(deflated);
}

/**
 * Reads a fragment: `{ state }` for a `#v1.` link, `{ example }` for `#ex=`, `{}` otherwise.
 * A damaged link gives `{ error }`.
 */
export async function decodeHash(hash) {
  const h = hash.replace(/^#/, '');
  if (h.length > MAX_FRAGMENT) {
    return { error: `this link is too long (${h.length} characters; at most ${MAX_FRAGMENT})` };
  }
  if (h.startsWith('ex=')) {
    let name;
    try {
      name = decodeURIComponent(h.slice(3));
    } catch {
      return { error: 'this example link is damaged' };
    }
    return { example: name };
  }
  const version = /^v(\d+)\./.exec(h);
  if (!version) return h ? { error: 'this link is not a Warpbound link (it should start with #v1. or #ex=)' } : {};
  if (version[0] !== PREFIX) {
    return {
      error: `this link was made by another version of Warpbound (format v${version[1]}); this page reads v1 links`,
    };
  }
  let state;
  try {
    const bytes = await inflateBounded(fromBase64Url(h.slice(PREFIX.length)), MAX_STATE);
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    return { error: 'this link is damaged: ' + (err.message || err) };
  }
  const problem = stateProblem(state);
  if (problem) return { error: `this link is damaged: ${problem}` };
  return { state };
}
