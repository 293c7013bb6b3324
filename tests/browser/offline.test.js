// Offline after the first visit (www/sw.js): a classroom opens the page once, then the link
// may go. The service worker caches exactly one build and a new deployment replaces it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { serveDir } from './serve.js';
import { ROOT, useSite, waitText } from './harness.js';
import { stampServiceWorker } from '../../www/tools/stamp-offline.mjs';

const site = useSite();

/** A fresh browser profile (its own service workers and caches) on `url`, watched for errors. */
async function visit(url) {
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector('body.ready', { timeout: 60000 });
  return { context, page, errors };
}

/** Waits until a service worker controls the page (it takes over the page that installed it). */
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });

const cacheNames = (page) => page.evaluate(() => caches.keys());

test('after one visit the page works with the network off, its security policy intact', async () => {
  const { context, page, errors } = await visit(site.server.url + '#ex=fig1-if-then-else');
  await controlled(page);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body.ready', { timeout: 60000 });
  await waitText(page, '#stat-wcet', 10);
  assert.equal(await page.evaluate(() => navigator.onLine), false);
  // Another example runs, and a failed engine is replaced offline too (its worker's script
  // comes from the cache, the module it is handed is the page's).
  await page.selectOption('#example', 'makespan-fig2');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan);
  const failure = await page.evaluate(() => window.playground.analyze({ schema_version: 1, source: 5 }).catch((e) => e.name));
  assert.equal(failure, 'EngineFailure');
  const report = await page.evaluate(() =>
    window.playground.analyze({ schema_version: 1, dialect: 'lc', source: 'LLCLL', mode: 'makespan', params: { warps: 2 } }),
  );
  assert.equal(report.wcet.cycles, 17);
  assert.equal((await cacheNames(page)).length, 1);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('under a sub-path the service worker keeps to the page directory and works offline', async () => {
  const sub = await serveDir(resolve(ROOT, 'dist'), '/teaching/gpu/');
  const { context, page, errors } = await visit(sub.url + '#ex=fig3-tiled-matmul');
  await controlled(page);
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope), sub.url);
  const names = await cacheNames(page);
  assert.equal(names.length, 1);
  assert.ok(names[0].includes(sub.url), `the cache is named after its scope: ${names[0]}`);
  await context.setOffline(true);
  await page.reload();
  await waitText(page, '#stat-wcet', 455, 60000);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await context.close();
  await sub.close();
});

test('a new deployment is offered, and taking it replaces the old cache', async () => {
  // A deployment of our own to change: a copy of dist/.
  const dir = mkdtempSync(join(tmpdir(), 'warpbound-deploy-'));
  cpSync(resolve(ROOT, 'dist'), dir, { recursive: true });
  const host = await serveDir(dir);
  const { context, page, errors } = await visit(host.url + '#ex=fig1-if-then-else');
  await controlled(page);
  const [old] = await cacheNames(page);
  assert.equal(await page.isVisible('#update'), false);
  // The next deployment: another index.html, stamped into the worker as the build does.
  const index = join(dir, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('<title>Warpbound', '<title>Warpbound (redeployed)'));
  stampServiceWorker(dir);
  // The old version is still shown (one build at a time), with the offer to switch.
  await page.reload();
  await page.waitForSelector('#update:not([hidden])', { timeout: 60000 });
  assert.doesNotMatch(await page.title(), /redeployed/);
  await page.click('#update');
  await page.waitForFunction(() => document.title.includes('redeployed'), null, { timeout: 60000 });
  await page.waitForSelector('body.ready', { timeout: 60000 });
  await waitText(page, '#stat-wcet', 10);
  const now = await cacheNames(page);
  assert.equal(now.length, 1, `one cache left: ${now}`);
  assert.notEqual(now[0], old);
  assert.deepEqual(errors, []);
  await context.close();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});
