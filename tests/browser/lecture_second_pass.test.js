// Issue #39, "the lecture, second pass": the page tried as an instructor (1440×900 and a
// 1024×768 projector), as a student pasting their own kernels, and on a 390×844 phone. One
// test per finding; each failed before its fix. Screenshots of the lecture layouts go to
// tests/browser/artifacts/ (git-ignored). No assertion depends on the machine's speed.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { ROOT, useSite, openPage, waitText } from './harness.js';

const site = useSite();
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');
const CORPUS = process.env.WARPBOUND_CORPUS || resolve(ROOT, '../shared/corpus');
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

const PROJECTOR = { width: 1024, height: 768 };
const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const setSource = (page, src) => page.evaluate((t) => window.playground.setSource(t), src);
const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

/** Moves the stepper to step `n` (1-based) from the keyboard. */
async function stepTo(page, n) {
  await page.focus('#stepper');
  await page.keyboard.press('Home');
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowRight');
  await waitText(page, '#stepper-pos', `step ${n} / ${await page.evaluate(() => window.playground.report().simulation.stepper.steps.length)}`);
}

/** Pastes `text` over the whole kernel as a user does: Ctrl+A, then a paste event. */
async function paste(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+a');
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    document.querySelector('.cm-content').dispatchEvent(event);
  }, text);
}

/**
 * The lane numbers of the stepper and the boxes under them: for each lane, the centres of its
 * number and its box, the gap between them, and how many rows the boxes take.
 */
function laneLayout(page) {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('#stepper-lanes .lane')].map((e) => e.getBoundingClientRect());
    const numbers = [...document.querySelectorAll('#stepper-lanes .lane-number')];
    const lanes = numbers.map((n) => {
      const r = n.getBoundingClientRect();
      const lane = Number(n.textContent);
      const b = boxes[lane];
      return { lane, dx: Math.abs(r.left + r.width / 2 - (b.left + b.width / 2)), gap: b.top - r.bottom };
    });
    return { count: numbers.length, rows: new Set(boxes.map((b) => Math.round(b.top))).size, lanes };
  });
}

test('#39.1 lane numbers stand over their own boxes when the lane row wraps (beside, projector, phone)', async () => {
  const cases = [
    ['beside the graph at 1024×768', PROJECTOR, false],
    ['projector mode at 1024×768', PROJECTOR, true],
    ['a 390 px phone', PHONE, false],
  ];
  for (const [what, viewport, projector] of cases) {
    const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', viewport);
    if (projector) await page.click('#projector');
    await page.click('[data-view="stepper"]');
    if (viewport === PROJECTOR && !projector) await page.check('#stepper-beside');
    const layout = await laneLayout(page);
    assert.equal(layout.count, 32, what);
    assert.ok(layout.rows > 1, `${what}: the lane row wraps (${layout.rows} rows), as in the lecture`);
    for (const l of layout.lanes) {
      assert.ok(l.dx < 1, `${what}: lane ${l.lane}'s number is ${l.dx} px beside its box`);
      assert.ok(l.gap >= -0.5 && l.gap < 6, `${what}: lane ${l.lane}'s number is ${l.gap} px above its box`);
    }
    if (viewport === PROJECTOR && !projector) {
      // Beside the graph the stepper is under the editor, before the parameters: its lanes
      // are on screen without scrolling (they were below the statistics, off the screen).
      const bottom = await page.evaluate(() =>
        Math.max(...[...document.querySelectorAll('#stepper-lanes .lane')].map((b) => b.getBoundingClientRect().bottom)),
      );
      assert.ok(bottom <= viewport.height, `${what}: the last lane box ends at ${bottom} px`);
      await shot(page, 'lecture-1024-beside-lanes');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('#39.2 the graph beside the stepper selects the node of the stack the warp is in', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', LAPTOP);
  await page.click('[data-view="stepper"]');
  await page.check('#stepper-beside');
  const selected = () => page.$$eval('#cfg-svg g.node.selected text.sub', (t) => t.map((x) => x.textContent));
  // Step 5: IADD R1, R0, -0x1 at 0x0030 with [SYNC 0x0040, NIL 0x0020] pending — the B2 node
  // whose context is "NIL@0x0020 SYNC@0x0040", not the B2 of the uniform-branch path.
  await stepTo(page, 5);
  const stack = await page.$$eval('#stepper-stack tbody tr td:nth-child(2)', (t) => t.map((x) => x.textContent));
  assert.deepEqual(stack, ['0x0030', '0x0020', '0x0040']);
  assert.ok((await selected()).includes('NIL@0x0020 SYNC@0x0040'), JSON.stringify(await selected()));
  // Step 7: the other side, B1 under SYNC@0x0040 only.
  await stepTo(page, 7);
  const b1 = await page.$$eval('#cfg-svg g.node.selected text.head', (t) => t.map((x) => x.textContent));
  assert.match(b1[0], /^B1 /);
  // A zoom redraws the graph: the step's node stays selected.
  await page.click('#zoom-in');
  const zoomed = await page.$$eval('#cfg-svg g.node.selected text.head', (t) => t.map((x) => x.textContent));
  assert.match(zoomed[0] || '', /^B1 /);
  await page.click('#zoom-fit');
  await shot(page, 'lecture-1440-beside');
  // An example that opens in the stepper, then put beside it: step 1's node, B0, is selected.
  const its = await openPage(site, '#ex=its-sm86-interleaved', LAPTOP);
  await its.page.check('#stepper-beside');
  const b0 = await its.page.$$eval('#cfg-svg g.node.selected text.head', (t) => t.map((x) => x.textContent));
  assert.match(b0[0] || '', /^B0 /);
  assert.deepEqual(its.errors, []);
  await its.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.3 ITS steps: a switch of thread group is neither a divergence nor a reconvergence', async () => {
  const { page, errors } = await openPage(site, '#ex=its-sm86-interleaved', LAPTOP);
  await page.waitForSelector('#stepper-pos');
  const event = () => page.textContent('#stepper-event').catch(() => null);
  // Step 64: the one thread group splits (G1's 4 lanes store first).
  await stepTo(page, 64);
  assert.match(await event(), /^diverges: 1 → 2 thread groups; G1 issues with 4 lanes/);
  // Steps 65–67: the scheduler goes back and forth between G0 (28 lanes) and G1 (4 lanes,
  // then waiting at BSYNC): switches, no lane diverges or reconverges.
  await stepTo(page, 65);
  assert.match(await event(), /^switches thread group: G0 issues with 28 lanes \(G1 ready\)/);
  await stepTo(page, 66);
  assert.match(await event(), /^switches thread group: G1 issues with 4 lanes/);
  await stepTo(page, 67);
  assert.match(await event(), /^switches thread group: G0 issues with 28 lanes \(G1 waits at BSYNC B0\)/);
  // Step 274: the nine groups meet at the BSYNC: a reconvergence.
  await stepTo(page, 274);
  assert.match(await event(), /^reconverges: 9 → 1 thread group; G0 issues with 32 lanes/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Every node of the main graph: whether it lies within the pane across and in all. */
function nodesInPane(page, sel = '#cfg') {
  return page.evaluate((s) => {
    const pane = document.querySelector(s).getBoundingClientRect();
    return [...document.querySelectorAll(`${s} g.node`)].map((g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      const across = r.left >= pane.left - 0.5 && r.right <= pane.right + 0.5;
      return { across, inside: across && r.top >= pane.top - 0.5 && r.bottom <= pane.bottom + 0.5, width: r.width };
    });
  }, sel);
}

/** The graph pane's size and the zoom it shows (the drawing's scale, projector mode included). */
function graphPane(page) {
  return page.evaluate(() => {
    const pane = document.querySelector('#cfg').getBoundingClientRect();
    const svg = document.querySelector('#cfg-svg');
    const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
    return { width: pane.width, height: pane.height, scale };
  });
}

/** Readable: drawn at 75 % or more (11–12 px node text at 8–9 px). */
const READABLE = 0.75 - 1e-9;

test('#39.4 at 1024×768 with the default panes the graph, beside mode and Compare are readable', async () => {
  // Fig. 1: the whole graph at a readable size.
  const fig1 = await openPage(site, '#ex=fig1-if-then-else', PROJECTOR);
  let pane = await graphPane(fig1.page);
  assert.ok(pane.height >= 400, `graph pane ${pane.height} px tall (40 px before)`);
  assert.ok(pane.scale >= READABLE, `Fig. 1 drawn at ${pane.scale}`);
  let nodes = await nodesInPane(fig1.page);
  assert.equal(nodes.length, 6);
  assert.ok(nodes.every((n) => n.inside), JSON.stringify(nodes));
  await shot(fig1.page, 'lecture-1024-fig1');
  // Beside the stepper: the graph keeps the results column.
  await fig1.page.click('[data-view="stepper"]');
  await fig1.page.check('#stepper-beside');
  pane = await graphPane(fig1.page);
  assert.ok(pane.scale >= READABLE && pane.width >= 500, JSON.stringify(pane));
  nodes = await nodesInPane(fig1.page);
  assert.ok(nodes.every((n) => n.inside), `beside: ${JSON.stringify(nodes)}`);
  await shot(fig1.page, 'lecture-1024-beside');
  assert.deepEqual(fig1.errors, []);
  await fig1.page.close();

  // The ITS kernel (16 nodes, 610×2494 px): every node readable and whole across the pane;
  // the pane scrolls down to the rest. Beside the stepper too.
  for (const [id, beside] of [['its-sm86', false], ['its-sm86-interleaved', true]]) {
    const { page, errors } = await openPage(site, `#ex=${id}`, PROJECTOR);
    if (beside) await page.check('#stepper-beside');
    pane = await graphPane(page);
    assert.ok(pane.scale >= READABLE, `${id}: drawn at ${pane.scale}`);
    nodes = await nodesInPane(page);
    assert.equal(nodes.length, 16);
    assert.ok(nodes.every((n) => n.across), `${id}${beside ? ' beside' : ''}: ${JSON.stringify(nodes)}`);
    assert.ok(nodes.filter((n) => n.inside).length >= 3, `${id}: nodes seen without scrolling`);
    if (beside) {
      // The stepper, under the editor, shows its lanes without a scroll.
      const bottom = await page.evaluate(() =>
        Math.max(...[...document.querySelectorAll('#stepper-lanes .lane')].map((b) => b.getBoundingClientRect().bottom)),
      );
      assert.ok(bottom <= PROJECTOR.height, `${id}: the last lane box ends at ${bottom} px`);
    }
    await shot(page, beside ? 'lecture-1024-its-beside' : 'lecture-1024-its');
    assert.deepEqual(errors, []);
    await page.close();
  }

  // Compare: Fig. 1 pinned, Fig. 2 next to it.
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', PROJECTOR);
  await page.click('#compare');
  await page.selectOption('#example', 'fig2-late-reconvergence');
  await page.waitForFunction(() => window.playground.state().example === 'fig2-late-reconvergence');
  await page.waitForSelector('#compare-current-svg');
  const figures = await page.evaluate(() => {
    const params = document.getElementById('compare-pinned-params');
    const lh = parseFloat(getComputedStyle(params).lineHeight) || 18;
    const graphs = ['pinned', 'current'].map((w) => {
      const box = document.getElementById(`compare-${w}-graph`).getBoundingClientRect();
      const svg = document.getElementById(`compare-${w}-svg`);
      return { top: box.top, seen: Math.min(box.bottom, innerHeight) - box.top, scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width };
    });
    return { width: params.getBoundingClientRect().width, lines: Math.round(params.getBoundingClientRect().height / lh), graphs };
  });
  assert.ok(figures.width >= 120 && figures.lines <= 3, `parameter values: ${JSON.stringify(figures)}`);
  for (const g of figures.graphs) {
    assert.ok(g.top < PROJECTOR.height && g.seen >= 200, `a compared graph on screen: ${JSON.stringify(g)}`);
    assert.ok(g.scale >= READABLE, `a compared graph readable: ${JSON.stringify(g)}`);
  }
  await shot(page, 'lecture-1024-compare');
  // Each compared graph zooms.
  const width = () => page.evaluate(() => document.getElementById('compare-current-svg').getBoundingClientRect().width);
  const before = await width();
  await page.click('#compare-current button[aria-label^="Zoom the current graph in"]');
  assert.ok((await width()) > before * 1.2, 'the current graph zooms in');
  assert.deepEqual(errors, []);
  await page.close();

  // The lecture layout at 1440×900, for the notes.
  const wide = await openPage(site, '#ex=its-sm86-interleaved', LAPTOP);
  await wide.page.check('#stepper-beside');
  await shot(wide.page, 'lecture-1440-its-beside');
  await wide.page.close();
});

test('#39.5 examples that opened looking empty: PTX printf shows its graph, a PTX simulation its result', async () => {
  const printf = await openPage(site, '#ex=warp-cfg-ptx-printf', LAPTOP);
  const pane = await graphPane(printf.page);
  assert.ok(pane.scale >= READABLE, `drawn at ${pane.scale}`);
  const nodes = await nodesInPane(printf.page);
  assert.equal(nodes.length, 13);
  assert.ok(nodes.filter((n) => n.inside).length >= 5, `${nodes.filter((n) => n.inside).length} of 13 nodes seen`);
  await shot(printf.page, 'lecture-1440-ptx-printf');
  assert.deepEqual(printf.errors, []);
  await printf.page.close();

  const { page, errors } = await openPage(site, '#ex=sim-ptx-divergence', LAPTOP);
  assert.equal(await page.textContent('#status'), 'analysed');
  assert.equal(await page.textContent('#stat-function'), 'k');
  assert.equal(await page.textContent('#stat-instructions'), '14');
  assert.equal(await page.textContent('#stat-observed'), '14');
  assert.equal(await page.isVisible('#stat-observed'), true);
  assert.ok((await page.locator('#cfg-svg g.node').count()) >= 3, 'a graph, not "No graph."');
  assert.deepEqual(errors, []);
  await page.close();
});

/** The `{ request, view }` of a `#v2.` fragment, decoded here, not by the page. */
const decodeV2 = (hash) => JSON.parse(inflateRawSync(Buffer.from(hash.slice(4), 'base64url')).toString('utf8'));

test('#39.6 Copy link on a gallery example keeps what is shown (the stepper at step 64)', async () => {
  const context = await site.browser.newContext({ viewport: LAPTOP, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await page.goto(site.server.url + '#ex=its-sm86-interleaved');
  await page.waitForSelector('body.ready', { timeout: 60000 });
  assert.equal(new URL(page.url()).hash, '#ex=its-sm86-interleaved');
  await stepTo(page, 64);
  await page.click('#copy-link');
  await page.waitForFunction(() => /^link copied/.test(document.querySelector('#status').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const hash = new URL(copied).hash;
  assert.match(hash, /^#v2\./, `the copied link (${hash.length} characters) holds the view`);
  assert.equal(decodeV2(hash).view.step, 63);
  await context.close();
  const again = await openPage(site, hash, LAPTOP);
  assert.equal(await again.page.textContent('#stepper-pos'), 'step 64 / 277');
  assert.deepEqual(again.errors, []);
  await again.page.close();
});

test('#39.7 pasted PTX is read as PTX at once; pasted CUDA source says how to compile it', async () => {
  const ptx = readFileSync(resolve(CORPUS, 'ptx-modern/simpleAssert.ptx'), 'utf8');
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', LAPTOP);
  await paste(page, ptx);
  await page.waitForFunction(() => window.playground.report()?.dialect === 'ptx', null, { timeout: 60000 });
  assert.equal(await page.inputValue('#dialect'), 'ptx');
  assert.match(await page.textContent('#status'), /read as PTX: `\.version` on line \d+/);
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.ok(await page.evaluate(() => !!window.playground.report().wcet), 'a bound, without "Switch to PTX"');

  const cu = readFileSync(resolve(ROOT, 'www/examples-src/its.cu'), 'utf8');
  await page.selectOption('#dialect', 'sass');
  await paste(page, cu);
  await page.waitForFunction(() => !!window.playground.report()?.cuda_source, null, { timeout: 60000 });
  await page.waitForSelector('#dialect-hint:not([hidden])');
  const notice = await page.textContent('#dialect-hint');
  for (const part of ['CUDA C++ source', 'nvcc -cubin -arch=sm_86', 'cuobjdump -sass', 'nvdisasm', 'nvcc -ptx']) {
    assert.ok(notice.includes(part), `${part}: ${notice}`);
  }
  assert.equal(await page.locator('#diagnostics li.error').count(), 1, 'one error, not one per line');
  await page.click('[data-view="summary"]');
  assert.doesNotMatch(await page.textContent('#wcet'), /Choose the warp-cfg mode/);
  await shot(page, 'paste-cuda');
  // The compiled version of a similar kernel (its.cu's own: a branch and a loop).
  assert.equal(await page.getAttribute('#cuda-example', 'href'), '#ex=its-sm86');
  await page.click('#cuda-example');
  await page.waitForFunction(() => window.playground.state().example === 'its-sm86', null, { timeout: 60000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.8 on a phone the result comes first', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', PHONE);
  const [wcet, editor] = await page.evaluate(() =>
    ['#stat-wcet', '#editor-host'].map((s) => document.querySelector(s).getBoundingClientRect().top + scrollY),
  );
  assert.ok(wcet < 300, `the WCET is ${wcet} px down`);
  assert.ok(wcet < editor, 'the WCET is above the editor');
  await page.screenshot({ path: join(ARTIFACTS, 'lecture-390-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.9a the PTX stepper shows a branch\'s guard', async () => {
  const { page, errors } = await openPage(site, '#ex=sim-ptx-divergence', LAPTOP);
  await page.click('[data-view="stepper"]');
  await stepTo(page, 11);
  assert.match(await page.textContent('#stepper-instruction'), /@%p1 bra DONE$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.9b the Example menu names the example on screen', async () => {
  const { page, errors } = await openPage(site, '#ex=fig2-late-reconvergence', LAPTOP);
  assert.equal(await page.inputValue('#example'), 'fig2-late-reconvergence');
  await page.selectOption('#example', 'loop-break');
  await page.waitForFunction(() => window.playground.state().example === 'loop-break');
  assert.equal(await page.inputValue('#example'), 'loop-break');
  // Edited, it is no longer that example.
  await page.click('.cm-content');
  await page.keyboard.type('// mine\n');
  assert.equal(await page.inputValue('#example'), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.9c one warning said at five places is listed once, with its places', async () => {
  const source = readFileSync(resolve(ROOT, 'tests/kernels/sass/sm_61/assert_loop.sass'), 'utf8');
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', LAPTOP);
  await setSource(page, source);
  await page.click('#analyze');
  await page.waitForFunction(() => window.playground.report()?.kernel?.function !== 'kernel', null, { timeout: 60000 });
  // The five unresolved `JCAL`s (one per call of `__assertfail`) are one item; the two loops'
  // default bounds (each its own loop, its own message) stay two.
  const all = page.locator('#diagnostics li.warning');
  assert.equal(await all.count(), 3);
  const warnings = all.filter({ hasText: 'unresolved relocation' });
  assert.equal(await warnings.count(), 1);
  assert.equal(await warnings.getAttribute('data-count'), '5');
  assert.match(await warnings.textContent(), /5× lines 65, 85, 108, 128, 170/);
  await warnings.locator('button.goto-line', { hasText: '108' }).click();
  assert.equal(await page.evaluate(() => window.playground.cursorLine()), 108);
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.9d a typo in a compare modifier is an error, not a silent reading', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', LAPTOP);
  const fig1 = await page.evaluate(() => window.playground.source());
  await setSource(page, fig1.replace('ISETP.GE.AND', 'ISETP.GE.ADN'));
  await page.click('#analyze');
  await page.waitForSelector('#diagnostics li.error');
  assert.match(await page.textContent('#diagnostics li.error'), /`\.ADN` is not a modifier of ISETP \(did you mean \.AND\?\)/);
  assert.equal(await page.textContent('#stat-wcet'), '—');
  assert.deepEqual(errors, []);
  await page.close();
});

test('#39.9e a link set right after a result is shown opens that link (the hash race)', async () => {
  // The address is set in the very task that shows Fig. 2's result, before the page writes
  // Fig. 2's own link: the page must open the link it was given, not the one it wrote.
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else', LAPTOP);
  await page.evaluate(() => {
    const wcet = document.querySelector('#stat-wcet');
    new MutationObserver((_, observer) => {
      if (wcet.textContent === '17') {
        observer.disconnect();
        location.hash = '#ex=loop-break';
      }
    }).observe(wcet, { childList: true, characterData: true, subtree: true });
    location.hash = '#ex=fig2-late-reconvergence';
  });
  await page.waitForFunction(() => window.playground.state().example === 'loop-break', null, { timeout: 60000 });
  assert.equal(new URL(page.url()).hash, '#ex=loop-break');
  assert.equal(await page.evaluate(() => window.playground.request().source.includes('BRK')), true);
  assert.deepEqual(errors, []);
  await page.close();
});
