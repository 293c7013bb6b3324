// Permalinks without a server: the whole state, deflated and base64url-encoded, in the URL
// fragment behind a version prefix, or a short alias for a gallery example
// (`#ex=fig1-if-then-else`). Only the fragment is touched, so links work under any sub-path.
//
// Format v2 (written): `#v2.` + base64url(deflate-raw(JSON `{ request, view }`)), where
// `request` is exactly the Request JSON the page sends to the facade (`warpbound analyze
// --request` reads it as it is) and `view` what the page shows of the report:
// `{ tab, node?, step? }` — the selected tab, the selected graph node, the stepper position.
// A comparison (the Compare button) adds `pinned`: the pinned result's Request, in the same
// form as `request`; a link without it is a single result, as before.
// Format v1 (read, never written): `#v1.` + the same encoding of the page's own state object
// `{ dialect, source, mode, function, params, preset, loopBounds, view }`; a v1 link is
// converted to `{ request, view }` when it is opened, so old links keep working.

import { SCHEMA_VERSION, READABLE_REQUEST_VERSIONS } from './schema.js';

const PREFIX = 'v2.';
const V1_PREFIX = 'v1.';

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

/** The problem with a `params` object (name → number, boolean or text), or null. */
function paramsProblem(params, field) {
  if (!isPlainObject(params)) return `field "${field}" is not an object`;
  for (const [k, v] of Object.entries(params)) {
    if (!['number', 'boolean', 'string'].includes(typeof v)) return `parameter "${k}" has no valid value`;
  }
  return null;
}

/** The problem with a loop-bound object (header address → whole number), or null. */
function loopBoundsProblem(bounds, field) {
  if (!isPlainObject(bounds)) return `field "${field}" is not an object`;
  for (const [k, v] of Object.entries(bounds)) {
    if (!Number.isInteger(v) || v < 0) return `loop bound "${k}" is not a whole number`;
  }
  return null;
}

/** The first field of `obj` not in `known`, as a message, or null. */
function unknownField(obj, known, prefix = '') {
  const extra = Object.keys(obj).find((k) => !known.includes(k));
  return extra === undefined ? null : `it has an unknown field "${prefix}${extra}"`;
}

/**
 * Checks the shape of a decoded v1 state; returns a message naming the first bad field, or
 * null. Only the fields the v1 page wrote are accepted, with their types.
 */
export function stateProblem(s) {
  if (!isPlainObject(s)) return 'it does not hold a state object';
  const strings = ['dialect', 'source', 'mode', 'view'];
  for (const k of strings) if (k in s && typeof s[k] !== 'string') return `field "${k}" is not text`;
  for (const k of ['function', 'preset']) {
    if (k in s && s[k] !== null && typeof s[k] !== 'string') return `field "${k}" is not text`;
  }
  if ('params' in s) {
    const p = paramsProblem(s.params, 'params');
    if (p) return p;
  }
  if ('loopBounds' in s) {
    const p = loopBoundsProblem(s.loopBounds, 'loopBounds');
    if (p) return p;
  }
  return unknownField(s, [...strings, 'function', 'preset', 'params', 'loopBounds']);
}

/** The Request fields a link may hold: those the page sets (see `request()` in page_state.js). */
const REQUEST_FIELDS = ['schema_version', 'source', 'dialect', 'mode', 'function', 'preset', 'params', 'loop_bounds'];

/** The problem with the Request held in the link's field `field`, or null. */
function requestProblem(r, field) {
  if (!isPlainObject(r)) return `field "${field}" is not an object`;
  if (!READABLE_REQUEST_VERSIONS.includes(r.schema_version)) {
    return `field "${field}.schema_version" is not ${READABLE_REQUEST_VERSIONS.join(' or ')}`;
  }
  if (typeof r.source !== 'string') return `field "${field}.source" is not text`;
  for (const k of ['dialect', 'mode', 'function', 'preset']) {
    if (k in r && typeof r[k] !== 'string') return `field "${field}.${k}" is not text`;
  }
  if ('params' in r) {
    const p = paramsProblem(r.params, `${field}.params`);
    if (p) return p;
  }
  if ('loop_bounds' in r) {
    const p = loopBoundsProblem(r.loop_bounds, `${field}.loop_bounds`);
    if (p) return p;
  }
  return unknownField(r, REQUEST_FIELDS, `${field}.`);
}

/**
 * Checks the shape of a decoded v2 link `{ request, view, pinned? }`; returns a message
 * naming the first bad field, or null.
 */
export function linkProblem(link) {
  if (!isPlainObject(link)) return 'it does not hold a {request, view} object';
  const outer = unknownField(link, ['request', 'view', 'pinned']);
  if (outer) return outer;
  const inner = requestProblem(link.request, 'request');
  if (inner) return inner;
  if ('pinned' in link) {
    const p = requestProblem(link.pinned, 'pinned');
    if (p) return p;
  }
  const v = link.view;
  if (!isPlainObject(v)) return 'field "view" is not an object';
  if (typeof v.tab !== 'string') return 'field "view.tab" is not text';
  for (const k of ['node', 'step']) {
    if (k in v && !(Number.isInteger(v[k]) && v[k] >= 0)) return `field "view.${k}" is not a whole number`;
  }
  return unknownField(v, ['tab', 'node', 'step'], 'view.');
}

/**
 * A v1 state as `{ request, view }`: the request the v1 page sent for it (it filled an absent
 * dialect with `sass` and left an absent mode to the catalog's default, as a request without
 * `mode` does), and its tab.
 */
export function fromV1(s) {
  const request = { schema_version: SCHEMA_VERSION, source: s.source || '', dialect: s.dialect || 'sass' };
  if (s.mode) request.mode = s.mode;
  if (s.function) request.function = s.function;
  if (s.params && Object.keys(s.params).length) request.params = { ...s.params };
  if (s.preset) request.preset = s.preset;
  if (s.loopBounds && Object.keys(s.loopBounds).length) request.loop_bounds = { ...s.loopBounds };
  return { request, view: { tab: s.view || 'graph' } };
}

/** `#v2.<deflated JSON>` for a link `{ request, view, pinned? }`. */
export async function encodeLink(link) {
  const fields = { request: link.request, view: link.view };
  if (link.pinned) fields.pinned = link.pinned;
  const json = new TextEncoder().encode(JSON.stringify(fields));
  const deflated = await pipe(json, new CompressionStream('deflate-raw'));
  return '#' + PREFIX + toBase64Url(deflated);
}

/** Inflates and parses the JSON behind a version prefix; throws on damage. */
async function inflateJson(text) {
  const bytes = await inflateBounded(fromBase64Url(text), MAX_STATE);
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/**
 * Reads a fragment: `{ link: { request, view, pinned? } }` for a `#v2.` or `#v1.` link, `{ example }`
 * for `#ex=`, `{}` for none. A damaged or foreign link gives `{ error }`.
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
  if (!version) return h ? { error: 'this link is not a Warpbound link (it should start with #v2. or #ex=)' } : {};
  if (version[0] !== PREFIX && version[0] !== V1_PREFIX) {
    return {
      error: `this link was made by another version of Warpbound (format v${version[1]}); this page reads v1 and v2 links`,
    };
  }
  let decoded;
  try {
    decoded = await inflateJson(h.slice(version[0].length));
  } catch (err) {
    return { error: 'this link is damaged: ' + (err.message || err) };
  }
  const problem = version[0] === PREFIX ? linkProblem(decoded) : stateProblem(decoded);
  if (problem) return { error: `this link is damaged: ${problem}` };
  return { link: version[0] === PREFIX ? decoded : fromV1(decoded) };
}
