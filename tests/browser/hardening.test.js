// The page treats everything it is given as hostile: crafted permalinks, markup in kernel
// text, long analyses. A link or a kernel comes from anyone, and the page runs on the
// viewer's machine: neither may run script, exhaust memory or leave the page stuck.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { useSite, openPage, waitText } from './harness.js';

const site = useSite();

/**
 * A `#v2.` fragment for `value` (`{ request, view }`), or for the bytes `raw`, built here
 * independently of the page's encoder.
 */
function link(value, raw = null, version = 2) {
  const bytes = raw ?? Buffer.from(JSON.stringify(value));
  return `#v${version}.` + deflateRawSync(bytes).toString('base64url');
}

/** A `#v1.` fragment (the page's state object, the format before `{ request, view }`). */
const v1 = (state, raw = null) => link(state, raw, 1);

/** A v2 link holding `request` (a Request's fields besides its version) and `view`. */
const v2 = (request, view = { tab: 'graph' }) => link({ request: { schema_version: 1, ...request }, view });

test('a long analysis shows progress, leaves the page interactive and can be cancelled', async () => {
  // Exact makespan of 128 warps: ~24 million scheduler states, seconds of work even natively.
  const slow = v2(
    {
      dialect: 'lc',
      source: 'LLCLL',
      mode: 'makespan',
      params: { warps: 128, max_states: 200000000, max_search_steps: 100000000000 },
    },
    { tab: 'summary' },
  );
  const { page, errors } = await openPage(site, slow, undefined, false);
  await page.waitForSelector('#cancel:not([hidden])', { timeout: 60000 });
  await page.waitForFunction(() => /analysing… \d+\.\d s/.test(document.querySelector('#status').textContent));
  // The main thread is free: the theme toggles while the worker computes.
  const before = await page.getAttribute('#theme', 'aria-pressed');
  await page.click('#theme');
  assert.notEqual(await page.getAttribute('#theme', 'aria-pressed'), before);
  await page.click('#cancel');
  await page.waitForFunction(() => /^cancelled after/.test(document.querySelector('#status').textContent));
  assert.equal(await page.isVisible('#cancel'), false);
  assert.equal(await page.isVisible('#spinner'), false);
  // A fresh worker answers the next request.
  await page.evaluate(() => (location.hash = '#ex=fig1-if-then-else'));
  await waitText(page, '#stat-wcet', 10);
  // Esc cancels too.
  await page.evaluate((h) => (location.hash = h), slow);
  await page.waitForSelector('#cancel:not([hidden])', { timeout: 60000 });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => /^cancelled after/.test(document.querySelector('#status').textContent));
  assert.deepEqual(errors, []);
  await page.close();
});

test('crafted permalinks get a clear message and the page still works', async () => {
  const cases = [
    ['#v3.AAAA', /another version of Warpbound \(format v3\); this page reads v1 and v2 links/],
    ['#v2.!!!not-base64', /this link is damaged/],
    // 16 MB of spaces deflate to a few kilobytes: refused while inflating.
    [link(null, Buffer.alloc(16 * 1024 * 1024, 32)), /inflates to more than/],
    ['#v2.' + 'A'.repeat(300 * 1024), /too long/],
    [link(null, Buffer.from('[1,2,3]')), /does not hold a \{request, view\} object/],
    [link({ request: { schema_version: 1, source: 'EXIT ;' } }), /field "view" is not an object/],
    [link({ request: { schema_version: 1, source: 'EXIT ;' }, view: { tab: 'graph' }, extra: 1 }), /unknown field "extra"/],
    [link({ request: { source: 'EXIT ;' }, view: { tab: 'graph' } }), /field "request.schema_version" is not 1 or 2 or 3/],
    [v2({ source: 5 }), /field "request.source" is not text/],
    [v2({ source: 'EXIT ;', params: { warps: { evil: 1 } } }), /parameter "warps" has no valid value/],
    [v2({ source: 'EXIT ;', loop_bounds: { '0x18': -1 } }), /loop bound "0x18" is not a whole number/],
    [v2({ source: 'EXIT ;', memory: {} }), /unknown field "request.memory"/],
    [v2({ source: 'EXIT ;' }, { tab: 'graph', node: 1.5 }), /field "view.node" is not a whole number/],
    [v2({ source: 'EXIT ;' }, { tab: 'graph', zoom: 2 }), /unknown field "view.zoom"/],
    // Links in the format before `{ request, view }` are still read, and still checked.
    ['#v1.!!!not-base64', /this link is damaged/],
    [v1({ source: 5 }), /field "source" is not text/],
    [v1({ source: 'EXIT ;', params: { warps: { evil: 1 } } }), /parameter "warps" has no valid value/],
    [v1({ source: 'EXIT ;', extra: 1 }), /unknown field "extra"/],
    [v1(null, Buffer.from('[1,2,3]')), /does not hold a state object/],
    ['#ex=no-such-example', /no example "no-such-example"/],
    ['#hello', /not a Warpbound link/],
  ];
  for (const [hash, message] of cases) {
    const { page, errors } = await openPage(site, hash);
    await waitText(page, '#stat-wcet', 10); // the first example instead
    assert.match(await page.textContent('#status'), message, hash.slice(0, 40));
    assert.equal(await page.getAttribute('#status', 'class'), 'status bad');
    assert.deepEqual(errors, [], hash.slice(0, 40));
    await page.close();
  }
});

test('markup in kernel text is shown as text, never interpreted', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  const hostile = [
    'Function : <img src=x onerror="window.__pwned=1">',
    '/*0000*/ MOV R0, <svg onload="window.__pwned=2"> ;',
    '/*0008*/ <b onmouseover=alert(1)>BRA</b> ;',
    '/*0010*/ EXIT ;',
  ].join('\n');
  await page.evaluate((t) => window.playground.setSource(t), hostile);
  await page.evaluate(() => window.playground.run());
  await page.waitForFunction(() => document.querySelector('#diagnostics li'));
  for (const view of ['graph', 'summary', 'instructions', 'json']) {
    await page.click(`[data-view="${view}"]`);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img, b, main svg[onload]').count(), 0);
  assert.equal(await page.textContent('#stat-function'), '<img src=x onerror="window.__pwned=1">');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page loads nothing from elsewhere and its security policy is never violated', async () => {
  const context = await site.browser.newContext();
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
  });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(site.server.url + '#ex=fig1-if-then-else');
  await page.waitForSelector('body.ready');
  await waitText(page, '#stat-wcet', 10);
  // Every gallery example, so every view and mode has run once.
  const ids = await page.$$eval('#example option[value]:not([value=""])', (os) => os.map((o) => o.value));
  for (const id of ids) {
    await page.selectOption('#example', id);
    await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('analysing'));
  }
  const origin = new URL(site.server.url).origin;
  const foreign = requests.filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u));
  assert.deepEqual(foreign, []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /'unsafe-eval'|https?:/);
  // Trunk's inline loader is gone (the worker loads the module), so no inline script exists.
  assert.equal(await page.locator('script:not([src])').count(), 0);
  await context.close();
});

test('a failed engine is reported with its request and replaced by a fresh worker', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // A request the wasm module cannot even read: the worker answers with an error, which the
  // engine treats as a failure of its own (a wasm trap leaves the instance unusable).
  const failure = await page.evaluate(async () => {
    try {
      await window.playground.analyze({ schema_version: 1, source: 5 });
      return null;
    } catch (e) {
      return { name: e.name, message: e.message, request: e.request };
    }
  });
  assert.equal(failure?.name, 'EngineFailure');
  assert.deepEqual(failure.request, { schema_version: 1, source: 5 });
  // The replacement worker answers the next request.
  const report = await page.evaluate(() =>
    window.playground.analyze({ schema_version: 1, dialect: 'lc', source: 'LLCLL', mode: 'makespan', params: { warps: 2 } }),
  );
  assert.equal(report.wcet.cycles, 17);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a worker that cannot start is restarted at most three times, and the page says why', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  let starts = 0;
  // The worker's script fails to load (e.g. a half-deployed site): each start dies at once.
  await context.route('**/worker.js', (route) => {
    starts += 1;
    return route.fulfill({ status: 404, body: 'missing' });
  });
  await page.goto(site.server.url);
  await page.waitForFunction(() => /failed to start/.test(document.querySelector('#status').textContent), null, {
    timeout: 60000,
  });
  // Time for any further restarts to happen: none may.
  await page.waitForTimeout(3000);
  assert.equal(starts, 3, 'three starts, then the engine gives up');
  assert.deepEqual(pageErrors, []);
  await context.close();
});
