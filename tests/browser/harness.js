// What every browser test file needs: the built site served locally, one Chromium, and a
// page opener that records page errors and console errors.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveDir } from './serve.js';
import { launch } from './browser.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The native CLI the page's reports are compared with. */
export const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');

/**
 * The native report for the request the page sent (read back from the page); a request the
 * CLI refuses (exit 1) still gives its report.
 */
export async function nativeFor(page) {
  const request = await page.evaluate(() => window.playground.request());
  const file = join(mkdtempSync(join(tmpdir(), 'warpbound-native-')), 'request.json');
  writeFileSync(file, JSON.stringify(request));
  let out;
  try {
    out = execFileSync(CLI, ['analyze', '--request', file], { maxBuffer: 64 << 20 }).toString();
  } catch (e) {
    out = e.stdout.toString();
  }
  return JSON.parse(out);
}

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
