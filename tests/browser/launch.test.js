// The `launch` mode in the page (issue #41 item 5): the two gallery examples of one kernel
// at two block sizes — the occupancy panel's bars with the binding limit marked, the launch
// summary, and the SM × time Gantt chart with one lane per SM — agreeing with the native
// CLI on the request the page sent (`harness.nativeFor`). Screenshots go to artifacts/.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { nativeFor, useSite, openPage, waitText } from './harness.js';

const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

/** Opens gallery example `id` and checks the summary, the occupancy panel and the Gantt. */
async function check(id, expected) {
  const { page, errors } = await openPage(site, `#ex=${id}`);
  const native = await nativeFor(page);
  const l = native.details.launch;
  assert.equal(l.wcet, expected.wcet);
  assert.equal(l.bound.waves, expected.waves);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  assert.ok((await page.textContent('#launch-formula')).includes(l.wcet.toLocaleString('en-US')));
  assert.equal(await page.locator('#launch-runs tbody tr').count(), l.runs.length);
  // The contention term, with the number the bound's C was built with.
  assert.equal(l.contention.cycles_per_access, expected.delta);
  assert.ok((await page.textContent('#launch-terms')).includes(`${l.contention.cycles_per_access} = ⌈${l.contention.active_sms} active SMs`));
  // The occupancy panel: one bar per limit the kernel has, the binding one marked.
  const binding = await page.locator('#occupancy-bars .occ-row.binding').evaluateAll((rows) => rows.map((r) => r.dataset.limit));
  assert.deepEqual(binding, native.occupancy.binding);
  assert.deepEqual(binding, [expected.binding]);
  assert.match(await page.textContent('#occupancy-figure'), new RegExp(`${Math.round(100 * native.occupancy.occupancy)} %`));
  await page.screenshot({ path: join(ARTIFACTS, `${id}-summary.png`), fullPage: true });
  await page.click('[data-view="schedule"]');
  const lanes = await page.locator('#gantt-svg text.gantt-lane').allTextContents();
  assert.deepEqual(lanes, ['SM 0', 'SM 1', 'SM 2', 'SM 3', 'bound']);
  assert.ok((await page.locator('#gantt-svg rect.gantt-item').count()) >= l.blocks);
  await page.screenshot({ path: join(ARTIFACTS, `${id}-schedule.png`) });
  assert.deepEqual(errors, []);
  await page.close();
}

test('launch: blocks of 32 — half the SM (blocks limit), two waves', async () => {
  await check('launch-small-blocks', { wcet: 3058, waves: 2, binding: 'blocks', delta: 14 });
});

test('launch: the same threads in blocks of 128 — a full SM (warps limit), one wave', async () => {
  await check('launch-full-sm', { wcet: 1817, waves: 1, binding: 'warps', delta: 14 });
});
