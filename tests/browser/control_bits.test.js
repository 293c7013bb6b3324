// cost=control in the page (issue #42): the gallery example's bound from the control bits,
// the instruction table explaining each instruction's bits on hover, and the stepper naming
// the barriers a step waits on and sets and its stall. Expected numbers are hand-derived
// (crates/warpbound/tests/control_bits.rs, `control_chain_by_hand`: 335 cycles, bound = run).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitText } from './harness.js';
import { schedulingClauses, schedulingText } from '../../www/src/scheduling.js';

const site = useSite();

test('control bits read as words (no browser)', () => {
  const c = { stall: 4, yield_hint: false, write_barrier: null, read_barrier: null, wait_mask: 0b100, reuse: 0 };
  assert.equal(schedulingText(c), 'B--2---:R-:W-:-:S04');
  assert.deepEqual(schedulingClauses(c), ['waits until SB2 is clear', "stalls 4 cycles before the warp's next instruction"]);
  const load = { stall: 1, yield_hint: true, write_barrier: 2, read_barrier: null, wait_mask: 0, reuse: 1 };
  assert.deepEqual(schedulingClauses(load), [
    'sets SB2 until its result is written',
    "stalls 1 cycle before the warp's next instruction",
    'yield hint: the scheduler may switch to another warp',
    'keeps operand 0 in the reuse cache',
  ]);
  assert.deepEqual(schedulingClauses(null), []);
});

test('the control-bits example: bound = run, the table explains the bits, the stepper names barriers', async () => {
  const { page, errors } = await openPage(site, '#ex=control-bits-sm86');
  await waitText(page, '#stat-wcet', 335);
  const report = await page.evaluate(() => window.playground.report());
  assert.equal(report.wcet.cost_model, 'control');
  assert.equal(report.simulation.cycles, 335);
  // The table: the load's scheduling cell (0x0050) says it sets SB2, the consumer's (0x00b0)
  // that it waits for it.
  await page.click('[data-view="instructions"]');
  const cell = (address) =>
    page.locator('#instructions tbody tr', { has: page.locator(`td:text-is("${address}")`) }).locator('td').last();
  assert.match(await cell('0x0050').getAttribute('title'), /sets SB2 until its result is written/);
  assert.match(await cell('0x00b0').getAttribute('title'), /waits until SB2 is clear/);
  assert.equal(await cell('0x00b0').textContent(), 'B--2---:R-:W-:Y:S04');
  // The stepper: step 6 is the load, step 12 the consumer, issued at cycle 316.
  await page.click('[data-view="stepper"]');
  await page.focus('#stepper');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#stepper-scheduling'), /sets SB2 until its result is written/);
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#stepper-instruction'), /cycle 316 .* 0x00b0/);
  assert.match(await page.textContent('#stepper-scheduling'), /waits until SB2 is clear · stalls 4 cycles/);
  assert.deepEqual(errors, []);
  await page.close();
});
