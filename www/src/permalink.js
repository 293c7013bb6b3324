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
  if (h.startsWith('ex=')) return { example: decodeURIComponent(h.slice(3)) };
  if (!h.startsWith(PREFIX)) return {};
  try {
    const bytes = await pipe(fromBase64Url(h.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    return { state: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch (err) {
    return { error: 'this link is damaged: ' + (err.message || err) };
  }
}
