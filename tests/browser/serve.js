// A static file server for the built site (dist/), on a free loopback port, for the tests.
// It behaves like a static host where the page can tell: content types (sw.js must be served
// as JavaScript), validators (ETag, answered with 304) and, when asked, gzip.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, extname } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/**
 * Serves `root` on a free loopback port under `prefix` (e.g. `/sub/path/`); with `gzip`,
 * compresses for clients that accept it. `sent()` is the number of body bytes sent so far.
 */
export async function serveDir(root, prefix = '/', { gzip = false } = {}) {
  let sent = 0;
  const server = createServer(async (req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(prefix)) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    path = '/' + path.slice(prefix.length);
    const rel = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    let body, info;
    try {
      [body, info] = await Promise.all([readFile(join(root, rel)), stat(join(root, rel))]);
    } catch {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    const zipped = gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '');
    // The validator lets the service worker's download of the build revalidate what the
    // page has just loaded (a 304) instead of loading it twice, as on a real host.
    const etag = `"${info.size}-${Math.round(info.mtimeMs)}${zipped ? '-gz' : ''}"`;
    const headers = { 'content-type': TYPES[extname(rel)] || 'application/octet-stream', etag, vary: 'accept-encoding' };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const out = zipped ? gzipSync(body) : body;
    if (zipped) headers['content-encoding'] = 'gzip';
    sent += out.length;
    res.writeHead(200, headers);
    res.end(out);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    sent: () => sent,
    close: () => new Promise((r) => server.close(r)),
  };
}
