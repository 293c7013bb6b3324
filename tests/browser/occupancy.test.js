// The occupancy panel (issue #41): the block example's occupancy on Pascal, computed by hand
// in docs/occupancy.md's arithmetic — 128 threads = 4 warps; warps allow ⌊64 / 4⌋ = 16 blocks,
// the block limit 32; 8 registers per thread make 256 per warp, ⌊(65536 / 4) / 256⌋ = 64 warps
// per sub-partition, 256 per SM, ⌊256 / 4⌋ = 64 blocks; no shared memory — so 16 blocks,
// 64 warps, limited by warps.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitText } from './harness.js';

const site = useSite();

test('the occupancy panel: limits as bars, the binding one marked, the curve in Plots', async () => {
  const { page, errors } = await openPage(site, '#ex=block-overlap');
  await page.waitForFunction(() => window.playground.report()?.occupancy);
  const o = await page.evaluate(() => window.playground.report().occupancy);
  assert.deepEqual([o.blocks_per_sm, o.warps_per_sm, o.limited_by], [16, 64, 'warps']);
  await page.click('[data-view="summary"]');
  await waitText(page, '#occupancy-bars [data-limit="warps"] .occ-value', '16 blocks — binding');
  // The kernel uses no shared memory: three limits, the warps binding.
  assert.equal(await page.locator('#occupancy-bars .occ-row').count(), 3);
  assert.equal(await page.locator('#occupancy-bars .occ-row.binding').count(), 1);
  assert.equal(await page.getAttribute('#occupancy-bars .binding', 'data-limit'), 'warps');
  assert.equal(await page.textContent('#occupancy-bars [data-limit="registers"] .occ-value'), '64 blocks');
  assert.match(await page.textContent('#occupancy-figure'), /16 blocks of 4 warps per SM: 64 of 64 warp slots \(100 %\), limited by warps/);
  const plots = await page.evaluate(() => window.playground.report().plots.map((p) => p.title));
  assert.ok(plots.some((t) => t.startsWith('Occupancy by block size')), plots.join(', '));
  assert.deepEqual(errors, []);
  await page.close();
});
