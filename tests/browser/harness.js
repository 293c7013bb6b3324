// What every browser test file needs: the built site served locally, one Chromium, and a
// page opener that records page errors and console errors.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveDir } from './serve.js';
import { launch } from './browser.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Starts the site and the browser before the file's tests; `site.server`, `site.browser`. */
export function useSite() {
  const site = { server: null, browser: null };
  before(async () => {
    assert.ok(existsSync(resolve(ROOT, 'dist/index.html')), 'build the site first (trunk build --release)');
    site.server = await serveDir(resolve(ROOT, 'dist'));
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/**
 * Opens the page at `hash` and (unless `ready` is false) waits until its first analysis is
 * shown; `errors` collects what went wrong.
 */
export async function openPage(site, hash = '', viewport = { width: 1440, height: 900 }, ready = true) {
  const page = await site.browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(site.server.url + hash);
  if (ready) await page.waitForSelector('body.ready', { timeout: 60000 });
  return { page, errors };
}

/** Waits until the element's text is exactly `value`. */
export const waitText = (page, sel, value, timeout = 30000) =>
  page.waitForFunction(([s, v]) => document.querySelector(s)?.textContent === v, [sel, String(value)], { timeout });
