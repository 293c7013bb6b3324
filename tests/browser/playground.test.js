// The built playground in headless Chromium. Expected numbers come from independent sources:
// hand derivation (the examples), address comments counted here, and the native `warpbound`
// CLI's report for the same input (wasm and native must agree).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve, join } from 'node:path';
import { tmpdir } from 'node:os';
import { serveDir } from './serve.js';
import { ROOT, useSite, openPage as open, waitText } from './harness.js';

const CORPUS = process.env.WARPBOUND_CORPUS || resolve(ROOT, '../shared/corpus');
const CLI = process.env.WARPBOUND_CLI || resolve(ROOT, 'target/debug/warpbound');
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

const openPage = (hash = '', viewport = undefined) => open(site, hash, viewport);

function native(args, source) {
  const dir = mkdtempSync(join(tmpdir(), 'warpbound-'));
  const file = join(dir, 'k.sass');
  writeFileSync(file, source);
  try {
    return JSON.parse(execFileSync(CLI, ['analyze', file, ...args], { maxBuffer: 64 << 20 }).toString());
  } catch (e) {
    return JSON.parse(e.stdout.toString());
  }
}

const text = (page, sel) => page.textContent(sel);
const setSource = (page, src) => page.evaluate((t) => window.playground.setSource(t), src);

test('the first example: Fig. 1 warp-level CFG with its divergence edges and WCET', async () => {
  const { page, errors } = await openPage();
  // Hand-derived (crates/warpbound/tests/warp_cfg.rs): 2 divergence edges, WCET 10.
  await waitText(page, '#stat-wcet', 10);
  assert.equal(await text(page, '#stat-divergence'), '2');
  assert.equal(await page.locator('#cfg-svg path.edge.divergence').count(), 2);
  // Worst-case path: entry, the taken side with the pending group, the resumed side, the
  // reconvergence block and the exit.
  assert.equal(await page.locator('#cfg-svg g.node.hot').count(), 5);
  // The address bar names the example.
  assert.equal(new URL(page.url()).hash, '#ex=fig1-if-then-else');
  const link = await page.evaluate(() => window.playground.fullLink());
  console.log(`Fig. 1 full permalink: ${link.length} characters (${new URL(link).hash.length} in the fragment)`);
  await page.screenshot({ path: join(ARTIFACTS, 'fig1-graph.png') });
  // The thread-level CFG of the same kernel: 4 blocks, 4 edges, no WCET.
  await page.selectOption('#mode', 'thread-cfg');
  await waitText(page, '#stat-wcet', '—');
  assert.equal(await page.locator('#cfg-svg g.node').count(), 4);
  assert.equal(await page.locator('#cfg-svg path.edge.sync').count(), 2);
  // The address bar follows the state once the run it started has landed (the request's
  // link replaces the example's name); on a loaded machine that can come after the graph.
  await page.waitForFunction(() => /^#v2\./.test(location.hash));
  assert.deepEqual(errors, []);
  await page.close();
});

test('graph node and editor lines are linked both ways', async () => {
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // Node 0 is B0, lines 4–7 of the example: four highlighted editor lines.
  await page.click('#cfg-svg g.node[data-id="0"]');
  assert.equal(await page.locator('.cm-node-line').count(), 4);
  assert.equal(await page.locator('#instructions tr.selected').count(), 4);
  // Caret on line 12 (ST at 0x40, block B3): its node gets selected.
  const b3 = await page.evaluate(() => window.playground.report().cfg.nodes.find((n) => n.start === 0x40).id);
  await page.click('.cm-content');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.cm-line').nth(11).click();
  await page.waitForSelector(`#cfg-svg g.node.selected[data-id="${b3}"]`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a corpus kernel analyzes in the page as it does natively', async () => {
  const file = resolve(CORPUS, 'sass/FERMI_sm20_mgpu__FindMaxIndexLoop.sass');
  const source = readFileSync(file, 'utf8');
  const expected = native(['--mode', 'warp-cfg'], source);
  const { page, errors } = await openPage();
  await setSource(page, source);
  await page.click('#analyze');
  await waitText(page, '#stat-function', 'FindMaxIndexLoop');
  const instructions = Number(await text(page, '#stat-instructions'));
  assert.equal(instructions, source.split('\n').filter((l) => /\/\*[0-9a-fA-F]+\*\//.test(l)).length);
  assert.equal(instructions, 127);
  assert.equal(await page.locator('#cfg-svg g.node').count(), expected.cfg.nodes.length);
  assert.equal(await page.locator('#cfg-svg path.edge').count(), expected.cfg.edges.length);
  assert.equal(Number(await text(page, '#stat-wcet')), expected.wcet.cycles);
  assert.equal(Number(await text(page, '#stat-divergence')), expected.details['warp-cfg'].divergence_edges);
  assert.equal(await page.locator('#instructions tbody tr').count(), 127);
  assert.deepEqual(errors, []);
  await page.close();
});

test('loop bounds and ablation toggles re-run the analysis', async () => {
  const { page, errors } = await openPage('#ex=fig3-tiled-matmul');
  // Hand-derived: B0 8 + 4 × (9 + 1 + 16 × 6 + 1 + 3) + 3 + 4 = 455.
  await waitText(page, '#stat-wcet', 455);
  await page.click('[data-view="summary"]');
  assert.equal(await page.locator('#loop-table tbody tr').count(), 2);
  // Halve the inner loop: 8 + 4 × (9 + 1 + 8 × 6 + 1 + 3) + 7 = 263.
  await page.fill('input[data-loop="0x0090"]', '8');
  await page.dispatchEvent('input[data-loop="0x0090"]', 'change');
  await waitText(page, '#stat-wcet', 263);
  assert.equal(await text(page, '#wcet-value'), '263');
  // Ablation: without group relations the bound may only grow; it matches the CLI.
  await page.uncheck('#param-groups');
  const source = await page.evaluate(() => window.playground.source());
  const expected = native(
    ['--mode', 'warp-cfg', '--loop-bound', '0x0040=4', '--loop-bound', '0x0090=8', '--set', 'groups=false'],
    source,
  );
  await waitText(page, '#stat-wcet', expected.wcet.cycles);
  assert.ok(expected.wcet.cycles >= 263);
  // An invalid number is flagged inline and not sent.
  await page.fill('#param-default_loop_bound', '-3');
  await page.dispatchEvent('#param-default_loop_bound', 'change');
  assert.equal(await page.locator('#param-default_loop_bound.invalid').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hardware preset fills the form with its numbers and changes the bound', async () => {
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // Before: every field holds the mode's default, and says so.
  assert.equal(await text(page, '#param-from-latency_global'), 'default');
  await page.selectOption('#preset', 'pascal-gp102');
  // The fields show the preset's values (GPGPU-Sim SM6_TITANX: 82 + 120 + 100).
  assert.equal(await page.inputValue('#param-latency_global'), '302');
  assert.equal(await page.inputValue('#param-cost'), 'latency');
  const source = await page.evaluate(() => window.playground.source());
  const expected = native(['--mode', 'warp-cfg', '--preset', 'pascal-gp102'], source);
  assert.ok(expected.wcet.cycles > 10);
  await waitText(page, '#stat-wcet', expected.wcet.cycles);
  // Each field says where the analysis took its value from (the report's `params`): the
  // preset's latencies, the mode's default loop bound; the word is the field's description.
  const from = (p, name) => p.textContent(`#param-from-${name}`);
  assert.equal(await from(page, 'latency_global'), 'preset');
  assert.equal(await from(page, 'cost'), 'preset');
  assert.equal(await from(page, 'default_loop_bound'), 'default');
  assert.equal(await page.getAttribute('#param-latency_global', 'aria-describedby'), 'param-from-latency_global');
  assert.equal(await page.getAttribute('#param-from-latency_global', 'title'), 'from the preset pascal-gp102');
  // An edit on top of the preset is an override, marked as set; it and the preset survive a
  // reload.
  await page.click('details.latencies > summary');
  await page.fill('#param-latency_global', '100');
  await page.dispatchEvent('#param-latency_global', 'change');
  const lowered = native(['--mode', 'warp-cfg', '--preset', 'pascal-gp102', '--set', 'latency_global=100'], source);
  await waitText(page, '#stat-wcet', lowered.wcet.cycles);
  assert.equal(await from(page, 'latency_global'), 'set');
  assert.equal(await from(page, 'latency_shared'), 'preset');
  const link = await page.evaluate(() => window.playground.fullLink());
  const again = await openPage(new URL(link).hash);
  await waitText(again.page, '#stat-wcet', lowered.wcet.cycles);
  assert.equal(await again.page.inputValue('#preset'), 'pascal-gp102');
  assert.equal(await from(again.page, 'latency_global'), 'set');
  assert.equal(await from(again.page, 'latency_alu'), 'preset');
  // Setting a field back to the preset's value drops the override.
  await page.fill('#param-latency_global', '302');
  await page.dispatchEvent('#param-latency_global', 'change');
  await waitText(page, '#stat-wcet', expected.wcet.cycles);
  assert.equal(await from(page, 'latency_global'), 'preset');
  assert.equal(await page.evaluate(() => 'latency_global' in window.playground.request().params), false);
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await again.page.close();
  await page.close();
});

test('a permalink restores the exact state and result', async () => {
  const { page, errors } = await openPage('#ex=fig3-tiled-matmul');
  await waitText(page, '#stat-wcet', 455);
  await page.click('[data-view="summary"]');
  await page.fill('input[data-loop="0x0090"]', '8');
  await page.dispatchEvent('input[data-loop="0x0090"]', 'change');
  await waitText(page, '#stat-wcet', 263);
  await page.uncheck('#param-agreement');
  await page.waitForFunction(() => document.querySelector('#stat-wcet').textContent !== '263');
  const wcet = await text(page, '#stat-wcet');
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));
  const url = page.url();
  const source = await page.evaluate(() => window.playground.source());
  const { page: second, errors: errors2 } = await openPage(new URL(url).hash);
  await waitText(second, '#stat-wcet', wcet);
  assert.equal(await second.evaluate(() => window.playground.source()), source);
  assert.equal(await second.isChecked('#param-agreement'), false);
  assert.equal(await second.inputValue('input[data-loop="0x0090"]'), '8');
  assert.equal(await second.getAttribute('[data-view="summary"]', 'aria-selected'), 'true');
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
  await page.close();
  await second.close();
});

test('every gallery example loads and produces a result', async () => {
  const { page, errors } = await openPage();
  const ids = await page.evaluate(() => [...document.querySelectorAll('#gallery-list [data-example]')].map((e) => e.dataset.example));
  assert.ok(ids.length >= 6);
  for (const id of ids) {
    await page.click('#open-gallery');
    await page.click(`#gallery-list [data-example="${id}"] button`);
    await page.waitForFunction((x) => location.hash === `#ex=${x}`, id);
    const report = await page.evaluate(() => window.playground.report());
    assert.ok(report.cfg || report.wcet || report.simulation, id);
    assert.equal(report.diagnostics.filter((d) => d.severity === 'error').length, 0, id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('theme toggle, projector mode, help dialog and a phone-sized screen', async () => {
  const { page, errors } = await openPage();
  await waitText(page, '#stat-wcet', 10);
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.click('#theme');
  const afterTheme = await page.evaluate(() => document.documentElement.dataset.theme);
  assert.notEqual(afterTheme, before);
  await page.screenshot({ path: join(ARTIFACTS, `theme-${afterTheme}.png`) });
  await page.click('#projector');
  assert.equal(await page.evaluate(() => document.body.classList.contains('projector')), true);
  await page.keyboard.press('Escape');
  await page.click('#cfg');
  await page.keyboard.press('?');
  assert.equal(await page.evaluate(() => document.querySelector('#help').open), true);
  await page.keyboard.press('Escape');
  await page.close();
  const { page: phone, errors: phoneErrors } = await openPage('#ex=fig1-if-then-else', { width: 390, height: 844 });
  await waitText(phone, '#stat-wcet', 10);
  // Panes stack, the result first (issue #39 item 8): the editor starts below the results.
  const [ed, res] = await phone.evaluate(() =>
    ['.editor-pane', '.results'].map((s) => document.querySelector(s).getBoundingClientRect().top),
  );
  assert.ok(ed > res, JSON.stringify({ ed, res }));
  await phone.screenshot({ path: join(ARTIFACTS, 'phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(phoneErrors, []);
  await phone.close();
});

test('keyboard users reach every control in a sensible order, each with a name', async () => {
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // Walk the page with Tab from the top and record what gets focus and what it is called
  // (aria-label, aria-labelledby, a <label>, then the text or title — the accessible name).
  await page.evaluate(() => document.activeElement?.blur());
  const visited = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const by = e.getAttribute('aria-labelledby');
      const name =
        e.getAttribute('aria-label') ||
        (by && document.getElementById(by)?.textContent) ||
        (e.labels && e.labels[0] && e.labels[0].textContent) ||
        e.textContent ||
        e.getAttribute('title') ||
        '';
      return { id: e.id || e.getAttribute('data-id') || e.tagName, name: name.trim(), role: e.getAttribute('role') };
    });
    if (!info) break;
    visited.push(info);
  }
  for (const v of visited) assert.ok(v.name.length > 0, `unnamed focus stop: ${JSON.stringify(v)}`);
  const order = visited.map((v) => v.id);
  const at = (id) => order.indexOf(id);
  // Header controls first, then the editor, the parameters, the views and the graph nodes.
  for (const id of ['dialect', 'mode', 'example', 'analyze', 'open-gallery', 'copy-link', 'theme', 'projector', 'open-help', 'editor']) {
    assert.ok(at(id) >= 0, `${id} is not reachable with Tab: ${order.join(' ')}`);
  }
  assert.ok(at('dialect') < at('analyze') && at('analyze') < at('editor'));
  assert.ok(at('editor') < at('param-default_loop_bound'), order.join(' '));
  assert.ok(at('param-default_loop_bound') < at('tab-graph'));
  // One tab stop for the whole tab list (the selected tab).
  assert.equal(order.filter((id) => id.startsWith('tab-')).length, 1);
  assert.ok(visited.some((v) => v.role === 'button' && /block B\d/.test(v.name)), 'graph nodes are focusable and named');
  // Arrow keys move between the tabs and show their panel.
  await page.focus('#tab-graph');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-summary');
  assert.equal(await page.getAttribute('#tab-summary', 'aria-selected'), 'true');
  assert.equal(await page.isVisible('#panel-summary'), true);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-json');
  // A graph node selected from the keyboard highlights its lines, like a click.
  await page.click('#tab-graph');
  const node = page.locator('#cfg-svg g.node:not(.exit)').nth(1);
  const id = await node.getAttribute('data-id');
  await node.focus();
  await page.keyboard.press('Enter');
  assert.match(await text(page, '#selection'), new RegExp(`^n${id}: `));
  assert.deepEqual(errors, []);
  await page.close();
});

test('garbage gives a located error and the page keeps working', async () => {
  const { page, errors } = await openPage();
  await waitText(page, '#stat-wcet', 10);
  await setSource(page, 'MOV R1, R2 ;\nthis is not a kernel\n');
  await page.click('.cm-content');
  await page.keyboard.press('Control+Enter');
  const item = page.locator('#diagnostics li.error').first();
  await item.waitFor();
  assert.match(await item.textContent(), /line 2, column 1/);
  assert.match(await item.textContent(), /unrecognized line/);
  assert.equal(await text(page, '#stat-blocks'), '—');
  await page.waitForSelector('.cm-lint-marker-error');
  // Clicking the error puts the caret on the offending line.
  await item.click();
  assert.equal(await page.evaluate(() => window.playground.cursorLine()), 2);
  // Fix it and analyze again.
  await setSource(page, '/*0000*/ MOV R1, R2 ;\n/*0008*/ EXIT ;\n');
  await page.click('#analyze');
  await waitText(page, '#stat-wcet', 2);
  assert.equal(await text(page, '#stat-blocks'), '1');
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the site and its links work under a sub-path', async () => {
  const sub = await serveDir(resolve(ROOT, 'dist'), '/teaching/gpu/');
  const { page, errors } = await open({ server: sub, browser: site.browser }, '#ex=fig3-tiled-matmul');
  await waitText(page, '#stat-wcet', 455);
  await page.uncheck('#param-groups');
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));
  assert.ok(page.url().startsWith(sub.url));
  assert.deepEqual(errors, []);
  await page.close();
  await sub.close();
});

test('the makespan mode: Fig. 2 with its Gantt chart, Fig. 7 with its convergence plot', async () => {
  const { page, errors } = await openPage('#ex=makespan-fig2');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan);
  const r = await page.evaluate(() => window.playground.report());
  assert.equal(r.details.makespan.transformed, 'LLC');
  assert.equal(r.details.makespan.pessimistic, 12); // ⌈4/1⌉·2 + ⌈4/1⌉·1
  assert.equal(Number(await text(page, '#stat-wcet')), r.details.makespan.exact);
  assert.ok(r.details.makespan.exact <= 12);
  await page.click('[data-view="schedule"]');
  // One box per (warp, instruction): 4 warps × 3 instructions.
  assert.equal(await page.locator('#gantt-svg rect.gantt-item').count(), 12);
  await page.screenshot({ path: join(ARTIFACTS, 'makespan-gantt.png') });
  // The paper's ILP as an LP file: the Summary offers it for download.
  await page.selectOption('#param-ilp_export', 'long');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan?.ilp?.variant === 'long');
  await page.click('[data-view="summary"]');
  // Fig. 3's counts for this setting: 4·3·10 x-variables + 12 E_t + 12 G_t.
  assert.match(await text(page, '#makespan-ilp'), /144 binary variables/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-ilp')]);
  assert.equal(download.suggestedFilename(), 'makespan-w4-long.lp');
  const lp = readFileSync(await download.path(), 'utf8');
  assert.match(lp, /^Maximize$/m);
  assert.match(lp, /^ obj: \+ 3 CC_w3_i2_t3 /m);
  const rows = await page.evaluate(() => window.playground.report().details.makespan.ilp.constraints);
  assert.equal(lp.match(/^ r\d+:/gm).length, rows);
  // The same exact value by the paper's ILP, with what the branch and bound took.
  await page.selectOption('#param-method', 'ilp-short');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan?.method === 'ilp-short');
  const ri = await page.evaluate(() => window.playground.report());
  assert.equal(ri.details.makespan.exact, r.details.makespan.exact);
  assert.equal(ri.details.makespan.ilp_solve.solver, 'propagation');
  assert.equal(ri.details.makespan.ilp_solve.lp_bound, 12); // the root LP relaxation: the horizon
  assert.match(await text(page, '#makespan-ilp-solve'), /propagating branch and bound: \d+ nodes/);
  await page.click('#open-gallery');
  await page.click('#gallery-list [data-example="makespan-fig7"] button');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan?.transformed === 'LLCLLCLL');
  const r7 = await page.evaluate(() => window.playground.report());
  assert.equal(r7.details.makespan.pessimistic, 3360);
  await page.click('[data-view="plots"]');
  assert.equal(await page.locator('#plots svg.plot').count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'makespan-plot.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('PTX pasted while SASS is selected offers the switch, which analyses it as PTX', async () => {
  const source = readFileSync(resolve(CORPUS, 'ptx-modern/simpleAssert.ptx'), 'utf8');
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  await setSource(page, source);
  await page.click('#analyze');
  await page.waitForSelector('#dialect-hint:not([hidden])');
  assert.match(await text(page, '#dialect-hint'), /looks like PTX \(`\.version` on line \d+\)/);
  // One error per line is not shown: the hint and 20 parse errors at most.
  assert.ok((await page.locator('#diagnostics li.error').count()) <= 21);
  await page.click('#dialect-switch');
  await page.waitForFunction(() => window.playground.report().dialect === 'ptx');
  await page.waitForSelector('#dialect-hint[hidden]', { state: 'attached' });
  assert.equal(await page.inputValue('#dialect'), 'ptx');
  // warp-cfg reads PTX: a bound, and no error.
  await page.waitForFunction(() => !!window.playground.report().wcet);
  const left = await page.evaluate(() => window.playground.report().diagnostics.filter((d) => d.severity === 'error'));
  assert.deepEqual(left, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('only the modes that read the chosen dialect can be chosen; a mode that cannot gives way', async () => {
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  const disabled = () => page.$$eval('#mode option', (os) => os.filter((o) => o.disabled).map((o) => o.value).sort());
  // SASS: rr (PTX), pws (GCN3 and PWS graphs) and simd (Sim-D) cannot read it.
  const sass = await disabled();
  assert.ok(sass.includes('pws') && sass.includes('simd'), sass.join(' '));
  assert.ok(!sass.includes('warp-cfg') && !sass.includes('thread-cfg'));
  // GCN3: warp-cfg does not read it, so the page moves to a mode that does.
  await page.selectOption('#dialect', 'gcn');
  const mode = await page.inputValue('#mode');
  assert.notEqual(mode, 'warp-cfg');
  const gcn = await disabled();
  assert.ok(gcn.includes('warp-cfg') && !gcn.includes(mode) && !gcn.includes('pws'), `${mode}: ${gcn.join(' ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a kernel pasted over an example drops the example settings (no simulator error from Fig. 1)', async () => {
  const source = readFileSync(resolve(CORPUS, 'sass-modern/sm_86/histogram__histogram256Kernel.sass'), 'utf8');
  const { page, errors } = await openPage('#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  assert.equal((await page.evaluate(() => window.playground.request())).params.simulate, true);
  // A user paste: select all in the editor and insert the new text.
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(source);
  const request = await page.evaluate(() => window.playground.request());
  assert.equal(request.params, undefined, JSON.stringify(request.params));
  await page.click('#analyze');
  await page.waitForFunction(() => window.playground.report().kernel?.function?.includes('histogram256Kernel'));
  const report = await page.evaluate(() => window.playground.report());
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
  assert.ok(report.wcet && !report.simulation);
  // A small edit of an example keeps its settings.
  const again = await openPage('#ex=fig1-if-then-else');
  await waitText(again.page, '#stat-wcet', 10);
  await again.page.locator('.cm-line').nth(0).click();
  await again.page.keyboard.press('End');
  await again.page.keyboard.insertText(' ');
  assert.equal((await again.page.evaluate(() => window.playground.request())).params.simulate, true);
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await page.close();
  await again.page.close();
});
