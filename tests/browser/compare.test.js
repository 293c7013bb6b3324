// Compare: a pinned result next to the current one, with the difference of the bounds, in
// a permalink that holds both. The expected numbers are the native CLI's, for the very
// requests the permalink holds (Fig. 1 divergent: 10 with unit cost, hand-derived in
// crates/warpbound/tests/warp_cfg.rs; the uniform variant is whatever the CLI says).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { resolve, join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT, useSite, openPage, waitText } from './harness.js';

const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

/** The native CLI's report for a page request, read as it is (`analyze --request`). */
function native(request) {
  const dir = mkdtempSync(join(tmpdir(), 'warpbound-compare-'));
  writeFileSync(join(dir, 'request.json'), JSON.stringify(request));
  return JSON.parse(execFileSync(CLI, ['analyze', '--request', join(dir, 'request.json')], { maxBuffer: 64 << 20 }).toString());
}

/** The `{ request, view, pinned? }` of a `#v2.` fragment, decoded here, not by the page. */
function decodeV2(hash) {
  assert.match(hash, /^#v2\./);
  return JSON.parse(inflateRawSync(Buffer.from(hash.slice(4), 'base64url')).toString('utf8'));
}

const encodeV2 = (link) => '#v2.' + deflateRawSync(Buffer.from(JSON.stringify(link))).toString('base64url');

/** What the comparison shows, by element id (absent elements as null). */
const shownFigures = (page) =>
  page.evaluate(() => {
    const text = (id) => document.getElementById(id)?.textContent ?? null;
    const out = {};
    for (const side of ['pinned', 'current']) {
      for (const f of ['mode', 'function', 'instructions', 'bound', 'observed']) out[`${side}-${f}`] = text(`compare-${side}-${f}`);
    }
    for (const d of ['bound', 'bound-pct', 'observed', 'observed-pct']) out[`diff-${d}`] = text(`compare-diff-${d}`);
    return out;
  });

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const percent = (a, b) => {
  const p = ((b - a) / a) * 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toFixed(1)} %`;
};

/** What the comparison must show for these two native reports. */
function expected(pinned, current) {
  return {
    'pinned-mode': 'warp-cfg',
    'current-mode': 'warp-cfg',
    'pinned-function': pinned.kernel.function,
    'current-function': current.kernel.function,
    'pinned-instructions': String(pinned.kernel.instructions.length),
    'current-instructions': String(current.kernel.instructions.length),
    'pinned-bound': String(pinned.wcet.cycles),
    'current-bound': String(current.wcet.cycles),
    'pinned-observed': String(pinned.simulation.cycles),
    'current-observed': String(current.simulation.cycles),
    'diff-bound': signed(current.wcet.cycles - pinned.wcet.cycles),
    'diff-bound-pct': percent(pinned.wcet.cycles, current.wcet.cycles),
    'diff-observed': signed(current.simulation.cycles - pinned.simulation.cycles),
    'diff-observed-pct': percent(pinned.simulation.cycles, current.simulation.cycles),
  };
}

test('Compare pins Fig. 1, shows the uniform variant next to it, and the link restores both', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  assert.equal(await page.isVisible('#compare-panel'), false);
  // The button is reached from the keyboard and named.
  await page.focus('#compare');
  assert.equal((await page.evaluate(() => document.activeElement.textContent)).trim(), 'Compare');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#compare-panel:not([hidden])');
  assert.equal(await page.textContent('#compare-diff-bound'), '0');
  assert.equal(await page.isVisible('#compare-hint'), true);
  // A pinned result cannot be an example's alias: the link holds both requests now.
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));

  // The example's own hint: on the block index every thread of a block agrees.
  const divergent = await page.evaluate(() => window.playground.source());
  assert.match(divergent, /S2R R0, SR_TID\.X ;/);
  await page.evaluate((t) => window.playground.setSource(t), divergent.replace('S2R R0, SR_TID.X ;', 'S2R R0, SR_CTAID.X ;'));
  await page.click('#analyze');
  const pinnedRequest = (await page.evaluate(() => window.playground.pinned())).request;
  const currentRequest = await page.evaluate(() => window.playground.request());
  const pinnedNative = native(pinnedRequest);
  const currentNative = native(currentRequest);
  assert.equal(pinnedNative.wcet.cycles, 10);
  assert.ok(currentNative.wcet.cycles < 10, `uniform bound ${currentNative.wcet.cycles}`);
  await waitText(page, '#stat-wcet', currentNative.wcet.cycles);
  const want = expected(pinnedNative, currentNative);
  assert.deepEqual(await shownFigures(page), want);
  assert.equal(await page.isVisible('#compare-hint'), false);
  // Both graphs: the pinned one has the divergence edges, the uniform one none.
  assert.equal(await page.locator('#compare-pinned-svg path.edge.divergence').count(), 2);
  assert.equal(await page.locator('#compare-current-svg path.edge.divergence').count(), 0);
  // The main graph is still the only interactive one (and the only #cfg-svg).
  assert.equal(await page.locator('#cfg-svg').count(), 1);
  assert.equal(await page.locator('#compare-panel [tabindex]').count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'compare.png') });

  // The permalink holds the current request and the pinned one, as they were sent.
  await page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('analysing'));
  const hash = await page.evaluate(() => location.hash);
  const link = decodeV2(hash);
  assert.deepEqual(link.request, currentRequest);
  assert.deepEqual(link.pinned, pinnedRequest);
  assert.deepEqual(errors, []);

  const again = await openPage(site, hash);
  await waitText(again.page, '#stat-wcet', currentNative.wcet.cycles);
  await again.page.waitForSelector('#compare-panel:not([hidden])');
  assert.deepEqual(await shownFigures(again.page), want);
  assert.deepEqual((await again.page.evaluate(() => window.playground.pinned())).request, pinnedRequest);
  // Opening the link and writing it back gives the same link.
  assert.equal(await again.page.evaluate(() => location.hash), hash);

  // Unpin ends the comparison; the link is a single result again, the focus stays on Compare.
  await again.page.click('#unpin');
  assert.equal(await again.page.isVisible('#compare-panel'), false);
  assert.equal(await again.page.evaluate(() => document.activeElement.id), 'compare');
  await again.page.waitForFunction((h) => location.hash !== h, hash);
  const single = decodeV2(await again.page.evaluate(() => location.hash));
  assert.equal('pinned' in single, false);
  assert.deepEqual(single.request, currentRequest);
  assert.deepEqual(again.errors, []);
  await again.page.close();

  // On a phone the two columns stack and nothing in the comparison is wider than the screen.
  // (The page as a whole is not checked here: its parameter form and tab row already reach
  // past 390 px without a comparison.)
  const phone = await openPage(site, hash, { width: 390, height: 844 });
  await waitText(phone.page, '#stat-wcet', currentNative.wcet.cycles);
  await phone.page.waitForSelector('#compare-panel:not([hidden])');
  assert.deepEqual(await shownFigures(phone.page), want);
  const layout = await phone.page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('#compare-panel, #compare-panel *')]
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < -0.5 || r.right > width + 0.5))
      .map(({ e, r }) => `${e.tagName}#${e.id}.${e.getAttribute('class')} ${r.left}–${r.right}`);
    const pinned = document.getElementById('compare-pinned').getBoundingClientRect();
    const current = document.getElementById('compare-current').getBoundingClientRect();
    return { width, wide, stacked: pinned.bottom <= current.top };
  });
  assert.equal(layout.width, 390);
  assert.deepEqual(layout.wide, []);
  assert.ok(layout.stacked, 'the pinned column is above the current one');
  await phone.page.locator('#compare-panel').screenshot({ path: join(ARTIFACTS, 'compare-phone.png') });
  assert.deepEqual(phone.errors, []);
  await phone.page.close();
});

test('a link with a damaged pinned request gets a clear message; links without one open alone', async () => {
  const request = { schema_version: 1, source: '/*0000*/ EXIT ;', dialect: 'sass', mode: 'warp-cfg' };
  const bad = await openPage(site, encodeV2({ request, view: { tab: 'graph' }, pinned: { schema_version: 1, source: 5 } }));
  await waitText(bad.page, '#stat-wcet', 10); // the first example instead
  assert.match(await bad.page.textContent('#status'), /field "pinned\.source" is not text/);
  assert.equal(await bad.page.isVisible('#compare-panel'), false);
  assert.deepEqual(bad.errors, []);
  await bad.page.close();

  const plain = await openPage(site, encodeV2({ request, view: { tab: 'graph' } }));
  await waitText(plain.page, '#stat-wcet', native(request).wcet.cycles);
  assert.equal(await plain.page.isVisible('#compare-panel'), false);
  assert.equal(await plain.page.evaluate(() => window.playground.pinned()), null);
  assert.deepEqual(plain.errors, []);
  await plain.page.close();
});

/** Waits until the page shows example `id` (loadExample marks the state once it is shown). */
const showsExample = (page, id) =>
  page.waitForFunction((x) => window.playground.state().example === x, id, { timeout: 60000 });

/**
 * Checks the comparison against the two reports the page holds: the bounds and observed
 * cycles each side shows, the differences, and no placeholder text leaking from absent
 * fields.
 */
async function checkComparison(page, what) {
  const { pinned, current, text } = await page.evaluate(() => ({
    pinned: window.playground.pinned().report,
    current: window.playground.report(),
    text: document.getElementById('compare-panel').textContent,
  }));
  assert.doesNotMatch(text, /undefined|NaN|null|\[object/, what);
  const shown = await shownFigures(page);
  const figure = (r, f) => (f === 'bound' ? r.wcet?.cycles : r.simulation?.cycles);
  for (const f of ['bound', 'observed']) {
    const [a, b] = [figure(pinned, f), figure(current, f)];
    // A figure either side has is a row on both sides (`—` where it is absent).
    assert.equal(shown[`pinned-${f}`], a === undefined ? (b === undefined ? null : '—') : String(a), `${what}: pinned ${f}`);
    assert.equal(shown[`current-${f}`], b === undefined ? (a === undefined ? null : '—') : String(b), `${what}: current ${f}`);
    if (a !== undefined && b !== undefined) {
      assert.equal(shown[`diff-${f}`], signed(b - a), `${what}: ${f} difference`);
      assert.equal(shown[`diff-${f}-pct`], a === 0 ? '—' : percent(a, b), `${what}: ${f} difference in %`);
    } else if (a !== undefined || b !== undefined) {
      assert.match(shown[`diff-${f}`], new RegExp(`only the ${a === undefined ? 'current' : 'pinned'} result has one`), what);
    } else {
      assert.equal(shown[`diff-${f}`], null, what);
    }
  }
  return { pinned, current };
}

test('every mode compares: what a report lacks is absent, never "undefined"', async () => {
  const { page, errors } = await openPage(site, '#ex=its-sm61');
  // Pascal vs Ampere listing of one kernel: both warp-cfg bounds.
  await page.click('#compare');
  await page.selectOption('#example', 'its-sm86');
  await showsExample(page, 'its-sm86');
  await checkComparison(page, 'its-sm61 → its-sm86');
  await page.screenshot({ path: join(ARTIFACTS, 'compare-its.png') });

  // PWS with the optimal split pinned, then no split: E_kernel without splitting is larger.
  await page.selectOption('#example', 'pws-fig2');
  await showsExample(page, 'pws-fig2');
  await page.click('#compare');
  await page.selectOption('#param-split', 'none');
  await page.waitForFunction(() => window.playground.report().details?.pws?.mode === 'none', null, { timeout: 60000 });
  const pws = await checkComparison(page, 'pws optimal → none');
  assert.ok(pws.current.wcet.cycles >= pws.pinned.wcet.cycles);

  // No bound (thread-cfg) against a plain simulation: neither has a bound, one has cycles.
  await page.selectOption('#example', 'thread-cfg');
  await showsExample(page, 'thread-cfg');
  await page.click('#compare');
  await page.selectOption('#example', 'sim-vector-add');
  await showsExample(page, 'sim-vector-add');
  await checkComparison(page, 'thread-cfg → simulate');

  // Two modes' bounds: shown, but not named as one quantity.
  await page.selectOption('#example', 'makespan-fig2');
  await showsExample(page, 'makespan-fig2');
  await page.click('#compare');
  await page.selectOption('#example', 'simd-phases');
  await showsExample(page, 'simd-phases');
  await checkComparison(page, 'makespan → simd');
  assert.match(await page.textContent('#compare-panel .compare-diff'), /^bound: pinned/);
  assert.deepEqual(errors, []);
  await page.close();
});
