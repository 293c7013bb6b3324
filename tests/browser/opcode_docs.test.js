// Opcode documentation (issue #25): hovering an opcode in the editor shows its one-line
// description and latency class; the instruction table's cells and the graph's instruction
// lines carry the same text as their tooltip. The texts come from the Rust tables
// (`warpbound opcodes`), so the expected classes are checked against the native CLI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useSite, openPage, waitText, ROOT } from './harness.js';

const site = useSite();
// A screenshot of the editor's tooltip for the issue notes (git-ignored, like the others).
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

/** The CLI's line for `opcode` of `dialect` (`NAME\tdescription\t(class…)`), when built. */
function cliLine(dialect, opcode) {
  const target = process.env.CARGO_TARGET_DIR || resolve(ROOT, 'target');
  const cli = ['debug', 'release'].map((p) => resolve(target, p, 'warpbound')).find((p) => existsSync(p));
  if (!cli) return null;
  const out = execFileSync(cli, ['opcodes', '--dialect', dialect], { encoding: 'utf8' });
  return out.split('\n').find((l) => l.startsWith(opcode + '\t')) || null;
}

/** Hovers the first editor token of class `tok-keyword` whose text starts with `word`
 * and returns the opcode tooltip's text (after a screenshot to `shot`, if given). */
async function hoverEditorWord(page, word, shot = null) {
  const token = page.locator('.cm-content .tok-keyword', { hasText: word }).first();
  await token.scrollIntoViewIfNeeded();
  const box = await token.boundingBox();
  await page.mouse.move(box.x + 3, box.y + box.height / 2);
  const tip = page.locator('.cm-tooltip .cm-opcode-doc');
  await tip.waitFor({ timeout: 10000 });
  const text = await tip.textContent();
  if (shot) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, shot) });
  }
  await page.mouse.move(0, 0);
  await tip.waitFor({ state: 'detached', timeout: 10000 });
  return text;
}

test('hovering a SASS opcode shows its description and class in the editor, table and graph', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);

  const isetp = await hoverEditorWord(page, 'ISETP', 'opcode-hover.png');
  assert.match(isetp, /^ISETP — .*compare.* \(latency class: alu\)$/i);
  const line = cliLine('sass', 'ISETP');
  if (line) assert.ok(isetp.includes(line.split('\t')[1]), `${isetp} vs ${line}`);
  const bra = await hoverEditorWord(page, 'BRA');
  assert.match(bra, /^BRA — .*\(latency class: control\)$/);

  // From the keyboard: Alt+I on the caret's line, read out (role=status), closed by Escape.
  await page.locator('.cm-content .tok-keyword', { hasText: 'SSY' }).first().click();
  await page.keyboard.press('Alt+i');
  const tip = page.locator('.cm-opcode-doc[role=status]');
  await tip.waitFor({ timeout: 10000 });
  assert.match(await tip.textContent(), /^SSY — .*\(latency class: control\)$/);
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'detached', timeout: 10000 });

  // The instruction table: the instruction cell carries the text as title and description.
  const cell = await page.evaluate(() => {
    const td = [...document.querySelectorAll('#instructions td.has-doc')].find((t) => t.textContent.startsWith('S2R'));
    return td && { title: td.title, description: td.getAttribute('aria-description') };
  });
  assert.ok(cell, 'the S2R row has documentation');
  assert.match(cell.title, /^S2R — .*special register.*\(latency class: alu\)$/i);
  assert.equal(cell.description, cell.title);

  // The graph: each instruction line of a node has its opcode's text as its tooltip.
  const titles = await page.evaluate(() =>
    [...document.querySelectorAll('#cfg-svg text.code')].map((t) => [
      t.textContent,
      t.parentElement.matches('g.code-line') ? t.parentElement.querySelector(':scope > title')?.textContent : undefined,
    ]),
  );
  const ssy = titles.find(([code]) => code.startsWith('SSY'));
  assert.ok(ssy, 'a node shows SSY');
  assert.match(ssy[1], /^SSY — .*\(latency class: control\)$/);
  assert.ok(
    titles.filter(([code]) => !code.startsWith('⋯')).every(([, t]) => t && t.includes(' — ')),
    'every instruction line has a tooltip',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('PTX opcodes name the state-space dependence; L/C letters and unknown opcodes', async () => {
  const { page, errors } = await openPage(site, '#ex=rr-4-4-4');
  await page.waitForSelector('#instructions td.has-doc', { state: 'attached', timeout: 60000 });
  const ld = await hoverEditorWord(page, 'ld.global');
  assert.match(ld, /^ld — load from a state space \(latency class: global; rr: global memory; depends on .*\.shared → shared/);
  const cell = await page.evaluate(
    () => [...document.querySelectorAll('#instructions td.has-doc')].find((t) => t.textContent.startsWith('add'))?.title,
  );
  assert.match(cell || '', /^add — .*\(latency class: alu; rr: arithmetic; depends on \.f64 → dp\)$/);
  assert.deepEqual(errors, []);
  await page.close();

  // An L/C string (makespan shows no instruction table): each letter in the editor.
  const lc = await openPage(site, '#ex=makespan-fig2');
  // `kernel LLC`: the C is the tenth character; the pointer goes to the middle of its box.
  const at = await lc.page.evaluate(() => {
    const line = [...document.querySelectorAll('.cm-content .cm-line')].find((l) => l.textContent === 'kernel LLC');
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let offset = 9;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (offset < n.length) {
        const range = document.createRange();
        range.setStart(n, offset);
        range.setEnd(n, offset + 1);
        const r = range.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }
      offset -= n.length;
    }
    return null;
  });
  assert.ok(at, 'the kernel string is in the editor');
  await lc.page.mouse.move(at.x, at.y);
  const tip = lc.page.locator('.cm-tooltip .cm-opcode-doc');
  await tip.waitFor({ timeout: 10000 });
  assert.match(await tip.textContent(), /^C — .*CUDA core.*\(latency class: CUDA core; simulator: alu\)$/);
  assert.deepEqual(lc.errors, []);
  await lc.page.close();

  // An opcode no table knows: the editor says so.
  const unknown = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(unknown.page, '#stat-wcet', 10);
  await unknown.page.click('.cm-content');
  await unknown.page.keyboard.press('Control+End');
  await unknown.page.keyboard.type('\nFROBNICATE R1, R2 ;');
  const frob = await hoverEditorWord(unknown.page, 'FROBNICATE');
  assert.equal(frob, 'FROBNICATE — no description');
  await unknown.page.close();
});
