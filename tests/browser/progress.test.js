// Long work reports its progress from Rust to the page: the worker passes a JavaScript
// function to the wasm module, which calls it while the exact makespan search runs; the page
// shows the share of the budget used, the count and the best bound so far, and Cancel still
// stops the work.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { useSite, openPage, waitText } from './harness.js';

const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');
const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

const link = (request, view = { tab: 'summary' }) =>
  '#v2.' + deflateRawSync(Buffer.from(JSON.stringify({ request: { schema_version: 1, ...request }, view }))).toString('base64url');

/** The numbers of the progress line: done, budget, best bound, upper bound. */
async function reading(page) {
  // Text and bar in one read: a new report may arrive between two.
  const [text, bar] = await page.evaluate(() => [
    document.querySelector('#work-text').textContent,
    document.querySelector('#work-bar').value,
  ]);
  const m = /^exact makespan search: ([\d,]+) of ([\d,]+) search steps · longest schedule so far ([\d,]+) \(at most ([\d,]+)\)$/.exec(text);
  assert.ok(m, `unexpected progress text: ${text}`);
  const [done, budget, best, upper] = m.slice(1).map((s) => Number(s.replaceAll(',', '')));
  return { text, done, budget, best, upper, bar };
}

test('a long search shows its progress and interim bound, and Cancel stops it', async () => {
  // The exact makespan of 128 warps on LLCLL: seconds of search with these budgets.
  const slow = link({
    dialect: 'lc',
    source: 'LLCLL',
    mode: 'makespan',
    params: { warps: 128, max_states: 200000000, max_search_steps: 4000000000 },
  });
  const { page, errors } = await openPage(site, slow, undefined, false);
  await page.waitForSelector('#work:not([hidden])', { timeout: 60000 });
  const first = await reading(page);
  assert.equal(first.budget, 4000000000, 'the request’s max_search_steps');
  assert.ok(first.done > 0 && first.bar === first.done, JSON.stringify(first));
  // A schedule found so far, at most the start state's bound.
  assert.ok(first.best > 0 && first.best <= first.upper, JSON.stringify(first));
  // The reports keep coming: the count grows and the bound never falls.
  await page.waitForFunction((t) => document.querySelector('#work-text').textContent !== t, first.text, { timeout: 30000 });
  const later = await reading(page);
  assert.ok(later.done > first.done, `${first.done} → ${later.done}`);
  assert.ok(later.best >= first.best, `${first.best} → ${later.best}`);
  assert.equal(later.upper, first.upper);
  await page.screenshot({ path: join(ARTIFACTS, 'progress.png') });
  await page.click('#cancel');
  await page.waitForFunction(() => /^cancelled after/.test(document.querySelector('#status').textContent));
  assert.equal(await page.isVisible('#work'), false);
  // A fresh worker answers the next request, and a short one shows no progress line.
  await page.evaluate(() => (location.hash = '#ex=fig1-if-then-else'));
  await waitText(page, '#stat-wcet', 10);
  assert.equal(await page.isVisible('#work'), false);
  assert.match(await page.getAttribute('#stat-time', 'title'), /^\d+\.\d\d ms in the engine call$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a long simulation shows the warp-instructions issued and the cycle reached', async () => {
  // 64 blocks of 32 warps running a 600-instruction L/C string: 1.2 million
  // warp-instructions.
  const request = {
    dialect: 'lc',
    source: 'LC'.repeat(300),
    mode: 'simulate',
    params: { grid: '64', block: '1024', trace: false },
  };
  const { page, errors } = await openPage(site, link(request), undefined, false);
  await page.waitForSelector('#work:not([hidden])', { timeout: 60000 });
  // Text and bar in one read: a new report may arrive between two.
  const [text, bar] = await page.evaluate(() => [
    document.querySelector('#work-text').textContent,
    document.querySelector('#work-bar').value,
  ]);
  const m = /^simulation: ([\d,]+) of 3,000,000 warp-instructions · cycle ([\d,]+)$/.exec(text);
  assert.ok(m, text);
  // The run ends by itself and the bar goes.
  await page.waitForSelector('body.ready', { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('#work').hidden);
  assert.deepEqual(errors, []);
  await page.close();
});
