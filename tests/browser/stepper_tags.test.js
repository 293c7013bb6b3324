// The stepper's entry types as the report writes them (no browser needed): names, and the
// sm_70+ convergence barriers `{barrier: n}`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tagText } from '../../www/src/stepper_view.js';

test('stack entry types read as text', () => {
  assert.equal(tagText('nil'), 'nil');
  assert.equal(tagText('warp_sync'), 'warp_sync');
  assert.equal(tagText({ barrier: 0 }), 'barrier B0');
  assert.equal(tagText({ barrier: 6 }), 'barrier B6');
  assert.equal(tagText({ ipdom: { arrived: true } }), 'ipdom (arrived)');
});
