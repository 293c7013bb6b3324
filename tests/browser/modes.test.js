// The analysis modes beyond the warp-level CFG and the makespan (which have their own tests
// in playground.test.js): each runs in the page, agrees with the native CLI on the same
// request, and shows its summary tables and schedule. Screenshots go to artifacts/.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { nativeFor, useSite, openPage, waitText } from './harness.js';

const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

const site = useSite();
before(() => mkdirSync(ARTIFACTS, { recursive: true }));

test('Sim-D: phases, both policies, the two-slot schedule', async () => {
  const { page, errors } = await openPage(site, '#ex=simd-phases');
  const native = await nativeFor(page);
  assert.ok(native.wcet.cycles > 0);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  assert.equal(await page.locator('#simd-policies tbody tr').count(), 2);
  assert.equal(
    await page.locator('#simd-bounds tbody tr').first().locator('td').nth(1).textContent(),
    String(native.details.simd.wcet_upper),
  );
  assert.equal(await page.locator('#simd-phases tbody tr').count(), native.details.simd.sp_as_access.phases.length);
  await page.click('[data-view="schedule"]');
  assert.ok((await page.locator('#gantt-svg rect.gantt-item').count()) > 0);
  await page.screenshot({ path: join(ARTIFACTS, 'simd-schedule.png') });
  // The launch is a parameter: four times the work-groups, a larger bound.
  await page.fill('#param-ndrange', '2048,64');
  await page.dispatchEvent('#param-ndrange', 'change');
  const bigger = await nativeFor(page);
  assert.ok(bigger.wcet.cycles > native.wcet.cycles);
  await waitText(page, '#stat-wcet', bigger.wcet.cycles);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Sim-D execution: the observed run under the worst-case schedule, the scheduler picker', async () => {
  const { page, errors } = await openPage(site, '#ex=simd-drift');
  const native = await nativeFor(page);
  assert.equal(native.details.simd.execution.scheduler, 'unconstrained');
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  // A row of a two-column table by its label.
  const cell = (id, label) =>
    page.evaluate(
      ([i, l]) =>
        [...document.querySelectorAll(`#${i} tbody tr`)]
          .find((tr) => tr.cells[0].textContent === l)
          ?.cells[1].textContent,
      [id, label],
    );
  assert.equal(await cell('simd-execution', 'observed cycles'), String(native.details.simd.execution.cycles));
  // The path each work-group took comes from the launch (the interpreter), decided for all 64.
  const d = native.details.simd.execution.decisions;
  assert.match(await cell('simd-execution', 'path'), /^from the launch/);
  assert.equal(
    await cell('simd-execution', 'work-groups wholly decided'),
    `${d.work_groups_all_decided} of ${native.details.simd.execution.work_groups}`,
  );
  assert.equal(await page.locator('#simd-utilisation tbody tr').count(), native.details.simd.execution.utilisation.length);
  await page.click('[data-view="schedule"]');
  assert.equal(await page.locator('#gantt-svg rect.gantt-item').count(), native.schedule.items.length);
  assert.equal(
    await page.locator('#gantt-observed-svg rect.gantt-item').count(),
    native.details.simd.execution.gantt.items.length,
  );
  // Both ends marked on both charts; the gap to the worst-case schedule shaded.
  assert.equal(await page.locator('#gantt .gantt-wcet-end').count(), 2);
  assert.equal(await page.locator('#gantt-observed-svg rect.gantt-gap').count(), 1);
  assert.ok(native.details.simd.execution.observed_shown_end < native.details.simd.execution.wcet_shown_end);
  assert.match(await page.textContent('#gantt .gantt-gap-note'), new RegExp(`gap ${native.details.simd.execution.wcet_shown_end - native.details.simd.execution.observed_shown_end} cycles`));
  await page.screenshot({ path: join(ARTIFACTS, 'simd-execution.png') });
  // The scheduler picker comes from the catalog: pairwise repairs the drift, at a cost.
  await page.selectOption('#param-scheduler', 'pairwise');
  await page.dispatchEvent('#param-scheduler', 'change');
  const paired = await nativeFor(page);
  assert.equal(paired.details.simd.execution.scheduler, 'pairwise');
  assert.ok(paired.details.simd.execution.cycles > native.details.simd.execution.cycles);
  await page.click('[data-view="summary"]');
  await page.waitForFunction(
    (c) =>
      [...document.querySelectorAll('#simd-execution tbody tr')].some(
        (tr) => tr.cells[0].textContent === 'observed cycles' && tr.cells[1].textContent === String(c),
      ),
    paired.details.simd.execution.cycles,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('PWS: Table 2 layout, BSBs and pruned edges drawn, branches marked by clicking', async () => {
  const { page, errors } = await openPage(site, '#ex=pws-if-else');
  const native = await nativeFor(page);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  assert.equal(await page.locator('#cfg-svg g.node.role-bsb').count(), 1);
  assert.equal(await page.locator('#cfg-svg path.edge.pruned').count(), native.details.pws.pruned_edges.length);
  assert.ok(native.details.pws.pruned_edges.length > 0);
  await page.screenshot({ path: join(ARTIFACTS, 'pws-graph.png') });
  await page.click('[data-view="summary"]');
  const cells = await page.locator('#pws-table2 tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(cells.slice(1, 4), [native.details.pws.e_wf.no_split, native.details.pws.e_wf.dws, native.details.pws.e_wf.pws].map(String));
  await page.click('[data-view="schedule"]');
  assert.ok((await page.locator('#gantt-svg rect.gantt-item').count()) > 0);
  assert.match(await page.textContent('#gantt .gantt-legend'), /split wavefront/);

  // The solver-format example: unmark the nested branch (node 5) by clicking it.
  await page.evaluate(() => (location.hash = '#ex=pws-three-branches'));
  const before = await nativeFor(page);
  await waitText(page, '#stat-wcet', before.wcet.cycles);
  assert.deepEqual(before.details.pws.splits.marked, [0, 4, 5]);
  await page.click('[data-view="graph"]');
  await page.click('#cfg-svg g.node[data-id="5"]');
  await page.waitForFunction(() => window.playground.state().params.marks === '0,4');
  const after = await nativeFor(page);
  assert.deepEqual(after.details.pws.splits.marked, [0, 4]);
  await page.waitForFunction((n) => window.playground.report()?.details?.pws?.splits.marked.length === n, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('PWS: the Figure 2 kernel — three BSBs, no splitting = sum of the blocks, optimal PWS below it', async () => {
  const { page, errors } = await openPage(site, '#ex=pws-fig2');
  const native = await nativeFor(page);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  // Figure 2b: three if-elses (one nested), each with its branch serialization block.
  assert.equal(await page.locator('#cfg-svg g.node.role-bsb').count(), 3);
  // §2: without splitting every block runs in turn, so E_WF is the sum of the block costs.
  const sum = native.cfg.nodes.reduce((s, n) => s + n.cost, 0);
  assert.equal(native.details.pws.e_wf.no_split, sum);
  assert.ok(native.details.pws.e_wf.dws >= native.details.pws.e_wf.no_split);
  assert.ok(native.details.pws.splits.optimal.length > 0);
  assert.ok(native.details.pws.e_wf.pws < native.details.pws.e_wf.no_split);
  await page.click('[data-view="summary"]');
  const cells = await page.locator('#pws-table2 tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(cells.slice(1, 4), [native.details.pws.e_wf.no_split, native.details.pws.e_wf.dws, native.details.pws.e_wf.pws].map(String));
  // The simulator runs Figure 2b on A = {17, 29, 52, 80}: each work-item sums the numbers of
  // the blocks it passes (17: 6+7+9, 29: 2+4+5+7+9, 52: 2+4+5+7+8, 80: 2+3+5+7+8).
  assert.deepEqual(native.simulation.memory.find((a) => a.name === 'out').words, [22, 27, 26, 25]);
  assert.equal(native.simulation.bound.cycles, native.details.pws.e_wf.no_split);
  assert.ok(native.simulation.cycles <= native.details.pws.e_wf.no_split);
  assert.match(await page.textContent('#observed-vs-bound'), /E_WF without splitting/);
  assert.match(await page.textContent('#sim-memory'), /22 27 26 25/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('simulator: a PTX kernel reconverges at the post-dominator', async () => {
  const { page, errors } = await openPage(site, '#ex=sim-ptx-divergence');
  const native = await nativeFor(page);
  await waitText(page, '#observed-cycles', native.simulation.cycles);
  assert.deepEqual(native.simulation.memory.find((a) => a.name === 'out').words, [1, 104, 7, 110, 13, 116, 19, 122]);
  await page.click('[data-view="stepper"]');
  assert.ok((await page.locator('#stepper').textContent()).length > 0);
  // The first divergent step: its stack shows where each path reconverges (the branch's
  // immediate post-dominator), the waiting entry at the exit.
  const steps = native.simulation.stepper.steps;
  const k = steps.findIndex((x) => x.stack.length > 1);
  assert.ok(k > 0);
  await page.focus('#stepper');
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#stepper-pos'), `step ${k + 1} / ${steps.length}`);
  assert.match(await page.textContent('#stepper-stack thead'), /reconverges at/);
  const cells = await page.locator('#stepper-stack tbody tr td:nth-child(3)').allTextContents();
  assert.equal(cells.length, steps[k].stack.length);
  assert.equal(cells[cells.length - 1], 'exit');
  assert.ok(steps[k].stack.slice(1).every((e) => e.reconverges_at !== undefined));
  assert.deepEqual(errors, []);
  await page.close();
});

test('round-robin model: §4.4.4 addresses and Fig. 24 latencies in the page', async () => {
  const { page, errors } = await openPage(site, '#ex=rr-4-4-4');
  const native = await nativeFor(page);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  const rows = await page.locator('#rr-accesses tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  );
  assert.equal(rows.length, native.details.rr.accesses.length);
  // §4.4.4: each warp of block y = 0 loads [0, 128, 256, 384]; each of y = 1 stores
  // [2048, 2176, 2304, 2432] (threads x = 0…15, 32 bytes apart, the same in both warps).
  for (const a of native.details.rr.accesses) {
    assert.deepEqual(a.segments, a.kind === 'L' ? [0, 128, 256, 384] : [2048, 2176, 2304, 2432]);
  }
  assert.deepEqual(native.details.rr.accesses.map((a) => `${a.block_index[1]}${a.kind}`), ['0L', '0L', '1S', '1S']);
  assert.deepEqual(rows.map((r) => r[6]), native.details.rr.accesses.map((a) => a.segments.join(', ')));
  await page.click('[data-view="schedule"]');
  assert.equal(await page.locator('#gantt-svg text.gantt-lane').count(), native.schedule.lanes.length);
  await page.screenshot({ path: join(ARTIFACTS, 'rr-schedule.png') });

  await page.evaluate(() => (location.hash = '#ex=rr-fig24'));
  const fig24 = await nativeFor(page);
  await waitText(page, '#stat-wcet', fig24.wcet.cycles);
  await page.click('[data-view="summary"]');
  const seg = await page.locator('#rr-segments tbody tr', { hasText: 'ld.global.f32' }).locator('td').allTextContents();
  assert.deepEqual(seg.slice(3, 5), ['56', '480']);
  assert.match(await page.textContent('#wcet'), /not a safe bound/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('makespan of a PTX kernel: reduced to L/C along its straight-line path, mapping shown', async () => {
  const { page, errors } = await openPage(site, '#ex=rr-4-4-4');
  const rr = await nativeFor(page);
  await waitText(page, '#stat-wcet', rr.wcet.cycles);
  await page.selectOption('#mode', 'makespan');
  await page.waitForFunction(() => window.playground.report()?.details?.makespan);
  const native = await nativeFor(page);
  assert.equal(native.dialect, 'ptx');
  // §4.4.4's kernel: its ld.param/ld.global/st.global become L, the rest C (the mapping has
  // one row per instruction of the path), then the sigma transformation of Fermi cc 2.0.
  assert.equal(native.details.makespan.original, 'LCCCCCCCLCC');
  assert.equal(native.details.makespan.mapping.length, native.details.makespan.original.length);
  assert.equal(native.wcet.cycles, native.details.makespan.exact);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  assert.match(await page.textContent('#wcet'), /PTX → L\/C \(straight-line path\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset the mode picks for the dialect shows in the form, and edits compare with it', async () => {
  // GCN3 kernels simulate on the `gcn3` machine unless the request names another preset.
  const { page, errors } = await openPage(site, '#ex=pws-fig2');
  await page.selectOption('#mode', 'simulate');
  await page.waitForFunction(() => window.playground.report()?.mode === 'simulate');
  const native = await nativeFor(page);
  assert.equal(native.preset, 'gcn3');
  const used = Object.fromEntries(native.params.map((p) => [p.name, p]));
  assert.deepEqual([used.warp_size.value, used.warp_size.source], [64, 'preset']);
  // No preset is chosen in the form, yet each field shows the value the analysis used and
  // where it came from.
  assert.equal(await page.inputValue('#preset'), '');
  assert.equal(await page.inputValue('#param-warp_size'), '64');
  assert.equal(await page.textContent('#param-from-warp_size'), 'preset');
  assert.equal(await page.getAttribute('#param-from-warp_size', 'title'), 'from the preset gcn3');
  assert.equal(await page.textContent('#param-from-max_cycles'), 'default');
  // 32 is the catalogue's default but not the value used: setting it is an override.
  await page.click('details:has(#param-warp_size) > summary');
  await page.fill('#param-warp_size', '32');
  await page.dispatchEvent('#param-warp_size', 'change');
  await page.waitForFunction(() => document.querySelector('#param-from-warp_size').textContent === 'set');
  assert.equal(await page.evaluate(() => window.playground.request().params.warp_size), 32);
  assert.equal((await nativeFor(page)).params.find((p) => p.name === 'warp_size').value, 32);
  assert.deepEqual(errors, []);
  await page.close();
});

test('simulator: observed vs bound on Fig. 1, the stepper, and a vector add', async () => {
  const { page, errors } = await openPage(site, '#ex=fig1-if-then-else');
  await waitText(page, '#stat-wcet', 10);
  // Unit cost, one warp: the observed execution takes exactly the bound (the divergent path
  // is the worst case and the warp takes it).
  await page.click('[data-view="summary"]');
  assert.match(await page.textContent('#observed-vs-bound'), /observed 10 cycles ≤ bound 10/);
  // The stepper: 10 steps; after the branch, the stack holds the pending group.
  await page.click('[data-view="stepper"]');
  assert.equal(await page.textContent('#stepper-pos'), 'step 1 / 10');
  await page.focus('#stepper');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#stepper-pos'), 'step 5 / 10');
  assert.ok((await page.locator('#stepper-stack tbody tr').count()) >= 2);
  assert.equal(await page.locator('#stepper .lanes').first().locator('.lane.on').count(), 16);
  await page.keyboard.press('End');
  assert.equal(await page.textContent('#stepper-pos'), 'step 10 / 10');
  await page.screenshot({ path: join(ARTIFACTS, 'stepper.png') });

  await page.evaluate(() => (location.hash = '#ex=sim-vector-add'));
  const native = await nativeFor(page);
  await page.waitForFunction((c) => window.playground.report()?.simulation?.cycles === c, native.simulation.cycles);
  await page.click('[data-view="summary"]');
  const words = native.simulation.memory.find((a) => a.name === 'c').words;
  assert.deepEqual(words.slice(0, 3), [100, 103, 106]);
  assert.match(await page.textContent('#sim-memory'), /100 103 106/);
  await page.click('[data-view="schedule"]');
  assert.ok((await page.locator('#gantt-svg rect.gantt-item').count()) > 0);
  // Without the trace: the same cycles and memory, nothing recorded, and the page still works.
  await page.uncheck('#param-trace');
  await page.waitForFunction(() => window.playground.report()?.simulation?.transactions?.length === 0);
  const bare = await page.evaluate(() => window.playground.report().simulation);
  assert.equal(bare.cycles, native.simulation.cycles);
  assert.deepEqual(bare.memory.find((a) => a.name === 'c').words, words);
  await page.click('[data-view="summary"]');
  assert.match(await page.textContent('#sim-memory'), /100 103 106/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('independent thread scheduling: the stepper shows thread groups and barriers, and its switches back to the stack', async () => {
  const { page, errors } = await openPage(site, '#ex=its-sm86-interleaved');
  const native = await nativeFor(page);
  const steps = native.simulation.stepper.steps;
  await page.waitForFunction((c) => window.playground.report()?.simulation?.cycles === c, native.simulation.cycles);
  assert.equal(await page.textContent('#stepper-pos'), `step 1 / ${steps.length}`);
  // The first step where the warp is split: one row per group, the issuing one marked, and
  // the barrier registers that hold threads.
  const k = steps.findIndex((s) => s.groups.groups.length > 1);
  assert.ok(k > 0);
  await page.focus('#stepper');
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#stepper-pos'), `step ${k + 1} / ${steps.length}`);
  assert.equal(await page.locator('#stepper-groups tbody tr').count(), steps[k].groups.groups.length);
  assert.equal(await page.locator('#stepper-groups tbody tr.executing').count(), 1);
  assert.match(await page.textContent('#stepper-groups tbody tr.executing'), /issues/);
  assert.equal(await page.locator('#stepper-barriers tbody tr').count(), steps[k].groups.barriers.length);
  assert.equal(await page.locator('#stepper-stack').count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'stepper-its.png') });
  // Observed within the bound, in the Summary.
  await page.click('[data-view="summary"]');
  assert.match(await page.textContent('#observed-vs-bound'), new RegExp(`observed ${native.simulation.cycles} cycles ≤ bound`));
  // The switch: its empty is the stack order, whose stepper shows the activation stack.
  await page.fill('#param-its', '');
  await page.dispatchEvent('#param-its', 'change');
  await page.waitForFunction(() => window.playground.report()?.simulation?.stepper?.steps?.[0]?.groups === undefined);
  await page.click('[data-view="stepper"]');
  assert.equal(await page.locator('#stepper-stack').count(), 1);
  assert.equal(await page.locator('#stepper-groups').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A `#v2.` link of `request`, opening on `tab`. */
function v2Link(request, tab) {
  const json = JSON.stringify({ request: { schema_version: 1, ...request }, view: { tab } });
  return '#v2.' + deflateRawSync(Buffer.from(json)).toString('base64url');
}

test('automatic launch and observed loop bounds: buffers shown, counts become the bound with one click', async () => {
  // `for (r = 0; r < tid; r += popc(tid))`: a step the loop-bound inference does not know
  // (it bounds `r++ < tid` by the launch itself), 16 iterations for lane 16 (popc 1), above
  // the default bound of 10: the bound takes the run's 16 and says so (716e673).
  const loop = [
    'code for sm_86',
    '/*0000*/ S2R R0, SR_TID.X ;',
    '/*0010*/ MOV R1, RZ ;',
    '/*0018*/ POPC R5, R0 ;',
    '/*0020*/ BSSY B0, 0x70 ;',
    '/*0030*/ IADD3 R1, R1, R5, RZ ;',
    '/*0040*/ ISETP.GE.U32.AND P0, PT, R1, R0, PT ;',
    '/*0050*/ @!P0 BRA 0x30 ;',
    '/*0060*/ BSYNC B0 ;',
    '/*0070*/ EXIT ;',
    '',
  ].join('\n');
  const { page, errors } = await openPage(
    site,
    v2Link({ source: loop, dialect: 'sass', mode: 'warp-cfg', params: { simulate: true } }, 'summary'),
  );
  await page.waitForFunction(() => window.playground.report()?.simulation?.loop_iterations?.length === 1);
  assert.match(await page.textContent('#observed-vs-bound'), /observed 65 cycles ≤ bound 69/);
  assert.match(await page.textContent('#diagnostics li.warning'), /the simulated run made 16 iterations in one entry, more than default_loop_bound 10: the run's 16 is used/);
  assert.deepEqual(await page.locator('#loop-iterations tbody td').allTextContents(), ['0x30', '6', '16']);
  // The counts made the request's own bounds: the same bound, now asked for.
  await page.click('#use-observed-bounds');
  await page.waitForFunction(() => window.playground.request().params.loop_bounds === 'observed');
  await page.waitForFunction(() => window.playground.report()?.diagnostics?.some((d) => d.message.startsWith('loop_bounds=observed')));
  assert.equal(await page.evaluate(() => window.playground.report().wcet.cycles), 69);
  assert.equal(await page.locator('#diagnostics li.warning', { hasText: 'the run\'s 16 is used' }).count(), 0);
  assert.match(await page.textContent('#observed-vs-bound'), /observed 65 cycles ≤ bound 69/);
  // A kernel that reads parameters, pasted without params or memory: the inferred arguments
  // and the buffers, grown to the run's last access (word 31 000 → 32 768 words).
  const gather = [
    'code for sm_86',
    '/*0000*/ S2R R0, SR_TID.X ;',
    '/*0010*/ IMAD R0, R0, 0x3e8, RZ ;',
    '/*0020*/ IMAD.MOV.U32 R3, RZ, RZ, 0x4 ;',
    '/*0030*/ IMAD.WIDE R4, R0, R3, c[0x0][0x160] ;',
    '/*0040*/ LDG.E R8, [R4.64] ;',
    '/*0050*/ IMAD.WIDE R6, R0, R3, c[0x0][0x168] ;',
    '/*0060*/ STG.E [R6.64], R8 ;',
    '/*0070*/ EXIT ;',
    '',
  ].join('\n');
  await page.evaluate((h) => (location.hash = h), v2Link({ source: gather, dialect: 'sass', mode: 'simulate' }, 'summary'));
  await page.waitForFunction(() => window.playground.report()?.arguments?.memory);
  assert.equal(await page.locator('#arguments tbody tr').count(), 2);
  assert.match(await page.textContent('#arguments-memory'), /p0x160@0x100000 31001 hash 1 64; p0x168@0x200000 31001 hash 1 64; \* hash 1 64/);
  // The note about the automatic launch comes from the simulation step, and says so.
  const stages = await page.locator('#diagnostics .diag .stage').allTextContents();
  assert.ok(stages.includes('simulation'), stages.join(','));
  await page.click('#edit-memory');
  await page.waitForFunction(() => window.playground.request().params.memory?.includes('31001'));
  // A texture fetch (tests/kernels tex_fetch, sm_86 form): the handle parameter is a texture
  // object, bound by the automatic launch as 64 × 64 texels, shown and copied to `textures`.
  const tex = [
    'code for sm_86',
    '/*0000*/ S2R R0, SR_TID.X ;',
    '/*0010*/ I2F R4, R0 ;',
    '/*0020*/ MOV R5, RZ ;',
    '/*0030*/ MOV R6, RZ ;',
    '/*0040*/ TEX.SCR.LL RZ, R7, R4, R6, 0x0, 0x5a, 2D, 0x1 ;',
    '/*0050*/ IMAD.MOV.U32 R3, RZ, RZ, 0x4 ;',
    '/*0060*/ IMAD.WIDE R8, R0, R3, c[0x0][0x160] ;',
    '/*0070*/ STG.E [R8.64], R7 ;',
    '/*0080*/ EXIT ;',
    '',
  ].join('\n');
  await page.evaluate((h) => (location.hash = h), v2Link({ source: tex, dialect: 'sass', mode: 'simulate' }, 'summary'));
  await page.waitForFunction(() => window.playground.report()?.arguments?.textures);
  assert.equal(await page.textContent('#arguments-textures'), '0x200000 64x64');
  assert.ok((await page.locator('#arguments tbody').textContent()).includes('texture object'));
  await page.click('#edit-memory');
  await page.waitForFunction(() => window.playground.request().params.textures === '0x200000 64x64');
  assert.deepEqual(errors, []);
  await page.close();
});

test('block: the response-time bound, its runs, the warps slider, one Gantt lane per warp and the growth plot', async () => {
  const { page, errors } = await openPage(site, '#ex=block-overlap');
  const native = await nativeFor(page);
  const b = native.details.block;
  assert.equal(b.warps, 4);
  assert.equal(b.bound.rule, 'response_time');
  assert.equal(b.wcet, b.warp_wcet + 3 * b.warp_issues);
  await waitText(page, '#stat-wcet', native.wcet.cycles);
  await page.click('[data-view="summary"]');
  assert.match(await page.textContent('#block-formula'), /C \+ \(W − 1\) · I/);
  assert.ok((await page.textContent('#block-formula')).includes(b.wcet.toLocaleString('en-US')));
  assert.equal(await page.locator('#block-runs tbody tr').count(), b.runs.length);
  assert.deepEqual(b.runs.map((r) => r.scheduler), ["lrr", "gto", "random-1", "random-2"]);
  // The slider reads the report's growth table: 8 warps.
  await page.evaluate(() => {
    const s = document.getElementById('block-growth');
    s.value = '8';
    s.dispatchEvent(new Event('input'));
  });
  const eight = b.growth.find((g) => g.warps === 8);
  assert.ok((await page.textContent('#block-growth-value')).includes(eight.bound.toLocaleString('en-US')));
  await page.click('[data-view="schedule"]');
  const lanes = await page.locator('#gantt-svg text.gantt-lane').allTextContents();
  assert.deepEqual(lanes, ['warp 0', 'warp 1', 'warp 2', 'warp 3', 'bound']);
  await page.screenshot({ path: join(ARTIFACTS, 'block-schedule.png') });
  await page.click('[data-view="plots"]');
  assert.ok((await page.locator('svg.plot text.plot-title').allTextContents()).includes('Block bound by number of warps'));
  // A barrier outside every branch and loop: the bound per barrier phase, with its terms.
  const phased = [
    'code for sm_61',
    '/*0008*/ S2R R0, SR_TID.X ;',
    '/*0010*/ MOV R2, c[0x0][0x140] ;',
    '/*0018*/ MOV R3, c[0x0][0x144] ;',
    '/*0020*/ LDG.E R4, [R2] ;',
    '/*0028*/ BAR.SYNC 0x0 ;',
    '/*0030*/ IADD R5, R4, R0 ;',
    '/*0038*/ STG.E [R2], R5 ;',
    '/*0040*/ EXIT ;',
    '',
  ].join('\n');
  await page.evaluate(
    (h) => (location.hash = h),
    v2Link({ source: phased, dialect: 'sass', mode: 'block', preset: 'pascal-gp102' }, 'summary'),
  );
  await page.waitForFunction(() => window.playground.report()?.details?.block?.bound?.rule === 'barrier_phases');
  const pb = await page.evaluate(() => window.playground.report().details.block);
  assert.ok(pb.wcet < pb.bound.serialised);
  const text = await page.textContent('#block-formula');
  assert.match(text, /per barrier phase/);
  assert.ok(text.includes(pb.wcet.toLocaleString('en-US')));
  assert.deepEqual(errors, []);
  await page.close();
});
