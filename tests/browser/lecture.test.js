// The lecture layout (issue #25): graph nodes show their instructions, a long block shows
// its first and last ones around a `⋯ N more` line, and in projector mode the drawing scales
// as a whole, so no node text leaves its box.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useSite, openPage, waitText } from './harness.js';

const site = useSite();
// Screenshots of the lecture layout for the issue notes (git-ignored, like the others).
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

/** Per node: its code lines, and whether every text element lies inside the node's box. */
function nodeFacts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#cfg-svg g.node')].map((g) => {
      const box = g.querySelector('rect').getBoundingClientRect();
      const texts = [...g.querySelectorAll('text')];
      const inside = texts.every((t) => {
        const r = t.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
      });
      return {
        code: [...g.querySelectorAll('text.code')].map((t) => t.textContent),
        inside,
        height: box.height,
        font: texts.length ? parseFloat(getComputedStyle(texts[0]).fontSize) : 0,
      };
    }),
  );
}

test('graph nodes show their instructions and projector text stays inside the boxes', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  const plain = await nodeFacts(page);
  // Fig. 1's entry block: S2R, ISETP, SSY, @P0 BRA (the listing's own text).
  assert.deepEqual(plain[0].code, ['S2R R0, SR_TID.X', 'ISETP.GE.AND P0, PT, R0, 0x10, PT', 'SSY 0x40', '@P0 BRA 0x30']);
  assert.ok(plain.every((n) => n.inside), 'every node text inside its box');
  await page.click('#projector');
  await page.waitForFunction(() => document.body.classList.contains('projector'));
  const big = await nodeFacts(page);
  assert.ok(big.every((n) => n.inside), 'projector: every node text inside its box');
  await page.screenshot({ path: join(ARTIFACTS, 'projector.png') });
  // The drawing scales as a whole: boxes grow with the text (1.3×).
  assert.ok(big[0].height > plain[0].height * 1.2, `${big[0].height} vs ${plain[0].height}`);
  await page.click('#projector');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a long block shows its first and last instructions around a count of the rest', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // Twelve instructions in one block: the first five, `⋯ 5 more`, the last two.
  const body = Array.from({ length: 11 }, (_, i) => `/*${(i * 8).toString(16).padStart(4, '0')}*/ IADD R${i % 8}, R${i % 8}, 0x${(i + 1).toString(16)} ;`);
  body.push('/*0058*/ EXIT ;');
  await page.evaluate((t) => window.playground.setSource(t), 'code for sm_61\n' + body.join('\n') + '\n');
  await page.click('#analyze');
  await page.waitForFunction(() => [...document.querySelectorAll('#cfg-svg text.code')].some((t) => t.textContent === '⋯ 5 more'));
  const facts = await nodeFacts(page);
  const code = facts.find((n) => n.code.length)?.code;
  assert.deepEqual(code, ['IADD R0, R0, 0x1', 'IADD R1, R1, 0x2', 'IADD R2, R2, 0x3', 'IADD R3, R3, 0x4', 'IADD R4, R4, 0x5', '⋯ 5 more', 'IADD R2, R2, 0xb', 'EXIT']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the stepper numbers the lanes, shows their register values, marks divergence and reconvergence, plays, and picks a warp', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  await page.click('[data-view="stepper"]');
  assert.equal(await page.locator('#stepper-lanes .lane-number').count(), 32);
  // Step 1, S2R R0, SR_TID.X: R0 written, lane l holds l.
  const row = (name) => page.locator('#stepper-registers tbody tr', { has: page.locator(`th:text-is("${name}")`) });
  assert.deepEqual((await row('R0 ←').locator('td').allTextContents()).map(Number), [...Array(32).keys()]);
  await page.focus('#stepper');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  // Step 5: the taken side (lanes 16..31) runs IADD R1, R0, -0x1: diverged, lane 16 gets
  // 15, lane 0 is inactive (greyed).
  assert.equal(await page.textContent('#stepper-pos'), 'step 5 / 10');
  assert.match(await page.textContent('#stepper-event'), /diverges: 32 → 16 active lanes/);
  const r1 = row('R1 ←').locator('td');
  assert.equal(await r1.nth(16).textContent(), '15');
  assert.match(await r1.nth(0).getAttribute('class'), /off/);
  await page.screenshot({ path: join(ARTIFACTS, 'stepper-values.png') });
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  // Step 9: the store after SYNC, all 32 lanes again.
  assert.match(await page.textContent('#stepper-event'), /reconverges: 16 → 32 active lanes/);
  // Play from the first step at 30 steps/s: it runs to the last and stops there.
  await page.keyboard.press('Home');
  await page.selectOption('#stepper-speed', '30');
  await page.click('#stepper-play');
  await page.waitForFunction(() => document.querySelector('#stepper-pos').textContent === 'step 10 / 10');
  await page.waitForFunction(() => document.querySelector('#stepper-play').textContent.includes('play'));
  // A launch of several warps offers the others: the vector add (2 blocks of 64 threads).
  await page.evaluate(() => (location.hash = '#ex=sim-vector-add'));
  await page.waitForFunction(() => window.playground.report()?.simulation?.warps?.length === 4);
  await page.click('[data-view="stepper"]');
  await page.selectOption('#stepper-warp', '2');
  await page.waitForFunction(() => window.playground.report()?.simulation?.stepper?.warp === 2);
  assert.match(await page.textContent('#stepper-instruction'), /^warp 2 /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a 390 px phone no tab, parameter or result is wider than the screen', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', { width: 390, height: 844 });
  await waitText(page, '#stat-wcet', 10);
  for (const tab of ['graph', 'summary', 'stepper', 'instructions', 'json']) {
    await page.click(`[data-view="${tab}"]`);
    const [client, scroll] = await page.evaluate(() => [document.documentElement.clientWidth, document.documentElement.scrollWidth]);
    assert.ok(scroll <= client, `${tab}: the page is ${scroll} px wide on a ${client} px screen`);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'phone-390.png'), fullPage: true });
  // The header leaves the phone its screen: at most 150 px (216 before issue #25's fix).
  const header = await page.evaluate(() => document.querySelector('header.topbar').getBoundingClientRect().height);
  assert.ok(header <= 150, `header ${header} px`);
  // Every tab button is on the screen (the row wraps).
  const rights = await page.$$eval('.tabs [role=tab]', (tabs) => tabs.filter((t) => !t.hidden).map((t) => t.getBoundingClientRect().right));
  assert.ok(rights.every((r) => r <= 390), JSON.stringify(rights));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the graph beside the stepper selects the node of the current instruction', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  await page.click('[data-view="stepper"]');
  await page.check('#stepper-beside');
  const [g, st] = await page.evaluate(() =>
    ['#panel-graph', '#panel-stepper'].map((s) => {
      const e = document.querySelector(s);
      const r = e.getBoundingClientRect();
      return { hidden: e.hidden, left: r.left, right: r.right, top: r.top, width: r.width };
    }),
  );
  assert.equal(g.hidden, false);
  // Side by side (issue #39): the stepper under the editor, the graph with the whole results
  // column (two half-width panels cut the nodes of a real kernel's graph).
  assert.ok(st.right <= g.left && g.width > st.width, JSON.stringify([g, st]));
  // Step 5 runs IADD R1, R0, -0x1 (block B2 at 0x30): its node is selected.
  await page.focus('#stepper');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  const selected = await page.$$eval('#cfg-svg g.node.selected text.code', (t) => t.map((x) => x.textContent));
  assert.ok(selected.includes('IADD R1, R0, -0x1'), JSON.stringify(selected));
  await page.screenshot({ path: join(ARTIFACTS, 'lecture-beside.png') });
  // Off again: one panel at a time.
  await page.uncheck('#stepper-beside');
  assert.equal(await page.evaluate(() => document.querySelector('#panel-graph').hidden), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('parameters and statistics collapse, and zoom to selection centres the selected node', async () => {
  // A tall screen: the panes above the graph (a shorter one has them under the editor).
  const { page, errors } = await openPage(site, '#ex=fig3-tiled-matmul', { width: 1440, height: 1200 });
  await page.waitForFunction(() => document.querySelectorAll('#cfg-svg g.node').length > 3);
  const graphHeight = () => page.evaluate(() => document.querySelector('#cfg').getBoundingClientRect().height);
  const before = await graphHeight();
  await page.click('#toggle-params');
  await page.click('#toggle-stats');
  assert.equal(await page.getAttribute('#toggle-params', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('#mode-bar'), false);
  assert.equal(await page.isVisible('#stats'), false);
  assert.ok((await graphHeight()) > before, 'the graph gets the room');
  // Zoom to a node: it ends up in the middle of the pane, larger than before.
  const node = page.locator('#cfg-svg g.node:not(.exit)').nth(3);
  await node.click();
  const w0 = (await node.boundingBox()).width;
  await page.click('#zoom-selection');
  const box = await node.boundingBox();
  const pane = await page.locator('#cfg').boundingBox();
  assert.ok(box.width > w0, `${box.width} > ${w0}`);
  const [cx, px] = [box.x + box.width / 2, pane.x + pane.width / 2];
  assert.ok(Math.abs(cx - px) < pane.width / 4, `node centre ${cx}, pane centre ${px}`);
  await page.screenshot({ path: join(ARTIFACTS, 'lecture-collapsed-zoomed.png') });
  // Open again for the next tests (the choice is remembered).
  await page.click('#toggle-params');
  await page.click('#toggle-stats');
  assert.deepEqual(errors, []);
  await page.close();
});
