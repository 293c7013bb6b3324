// The makespan two ways: the paper's binary ILP (Fig. 3), short and long work-conserving
// constraints, solved by a maintained MILP solver (HiGHS, the npm `highs` package: HiGHS
// compiled to WebAssembly), against the exact state search — two independent methods that
// must agree on every instance.
//
// The CLI writes the model as a CPLEX LP file (`--set ilp_export=short|long`), HiGHS solves
// it, and its optimum must equal the report's `makespan.exact`; both must respect the safe
// bound, and Eq. 5–7 when σ = 1. Our own LP branch and bound (`ipet::branch_and_bound`) solves
// the same model in the Rust tests, but only for the smallest instances: even HiGHS needs
// 10–60 s for many 4-warp, 6-instruction instances.
//
// By default the sweep covers every string over {L, C} of transformed length ≤ 6 with W ≤ 2,
// length ≤ 4 with W = 3 and length ≤ 3 with W = 4, for σ_L, σ_C ∈ {1, 2}, both variants.
// `WARPBOUND_ORACLE=full` sweeps the whole range on which the README says the ILP equals the
// search, W ≤ 4 and length ≤ 6 (hours).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const loadHighs = require('highs');

function cli() {
  if (process.env.WARPBOUND_CLI) return process.env.WARPBOUND_CLI;
  const release = resolve(ROOT, 'target/release/warpbound');
  return existsSync(release) ? release : resolve(ROOT, 'target/debug/warpbound');
}

/// Every string over {L, C} of length `len`.
function strings(len) {
  const out = [];
  for (let mask = 0; mask < 1 << len; mask++) {
    let s = '';
    for (let i = 0; i < len; i++) s += (mask >> i) & 1 ? 'C' : 'L';
    out.push(s);
  }
  return out;
}

/// (max length) per warp count.
const RANGE = process.env.WARPBOUND_ORACLE === 'full' ? [6, 6, 6, 6] : [6, 6, 4, 3];
const SIGMAS = [
  [1, 1],
  [2, 1],
  [1, 2],
  [2, 2],
];

/// One instance through the CLI: warp size 1 makes σ the unit counts and keeps the string.
function report(s, w, sl, sc, variant) {
  const args = ['analyze', '-', '--dialect', 'lc', '--mode', 'makespan'];
  for (const [k, v] of [
    ['warps', w],
    ['ls_units', sl],
    ['cores', sc],
    ['warp_size', 1],
    ['ilp_export', variant],
  ]) {
    args.push('--set', `${k}=${v}`);
  }
  return JSON.parse(execFileSync(cli(), args, { input: s }).toString());
}

test('the ILP of Fig. 3 solved by HiGHS equals the state search', { timeout: 6 * 3600 * 1000 }, async () => {
  let highs = await loadHighs();
  let solved = 0;
  let slowest = { ms: 0, what: '' };
  for (let w = 1; w <= RANGE.length; w++) {
    for (let len = 1; len <= RANGE[w - 1]; len++) {
      for (const s of strings(len)) {
        for (const [sl, sc] of SIGMAS) {
          for (const variant of ['short', 'long']) {
            const what = `${s} W=${w} σL=${sl} σC=${sc} ${variant}`;
            const r = report(s, w, sl, sc, variant);
            const ms = r.details.makespan;
            assert.equal(ms.transformed, s, what);
            assert.equal(ms.sigma_l, sl, what);
            assert.equal(ms.sigma_c, sc, what);
            assert.ok(ms.exact !== null, `${what}: no exact value`);
            assert.ok(ms.ilp, `${what}: no ILP export`);
            const t0 = Date.now();
            const out = highs.solve(ms.ilp.lp, { threads: 1, output_flag: false, mip_rel_gap: 0 });
            const dt = Date.now() - t0;
            if (dt > slowest.ms) slowest = { ms: dt, what };
            assert.equal(out.Status, 'Optimal', `${what}: HiGHS says ${out.Status}`);
            assert.equal(Math.round(out.ObjectiveValue), ms.exact, `${what}: ILP vs search`);
            assert.ok(ms.exact <= ms.safe_bound, `${what}: above the safe bound`);
            if (sl === 1 && sc === 1) assert.ok(ms.exact <= ms.pessimistic, `${what}: above Eq. 5–7`);
            solved++;
            // A fresh solver now and then: one WebAssembly heap for thousands of models grows.
            if (solved % 500 === 0) highs = await loadHighs();
          }
        }
      }
    }
  }
  console.log(`${solved} ILPs solved by HiGHS, all equal to the search; slowest ${slowest.ms} ms (${slowest.what})`);
});
