// What happens to the warp at one step of the stepper compared with the step before, as the
// label above its lanes says it: the lanes diverge, reconverge — or, under independent thread
// scheduling (steps with `groups`), the scheduler switches from one thread group to another,
// which is neither. Read from the report's steps only; nothing is computed beyond counting
// the set bits of the masks the report wrote.

/** Lane bits of a mask as booleans, lane 0 first (the report writes masks as "1010…"). */
export function laneBits(mask) {
  if (!mask) return [];
  if (typeof mask === 'string') return [...mask].map((c) => c === '1');
  if (typeof mask.bits === 'string') return [...mask.bits].map((c) => c === '1');
  const out = [];
  for (let i = 0; i < mask.lanes; i++) out.push(Math.floor(mask.bits / 2 ** i) % 2 === 1);
  return out;
}

/** The number of set bits of a lane mask. */
export const activeLanes = (mask) => laneBits(mask).filter(Boolean).length;

const bitsText = (mask) => laneBits(mask).map((b) => (b ? '1' : '0')).join('');

/** Whether every lane of `inner` is a lane of `outer`. */
function within(inner, outer) {
  const [a, b] = [laneBits(inner), laneBits(outer)];
  return a.every((on, i) => !on || b[i]);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Thread groups of two consecutive ITS steps: a group split in two (diverges), groups
 * merged into one (reconverges, at a BSYNC or WARPSYNC), a group gone (its threads exited),
 * or the same groups with another one issuing (a switch: no lane changed its state).
 */
function groupEvent(before, now) {
  const [was, is] = [before.groups, now.groups];
  const k = is.findIndex((g) => g.issuing);
  const issuing = is[k];
  const who = issuing ? `G${k} issues with ${plural(activeLanes(issuing.mask), 'lane')}` : 'no group issues';
  if (is.length > was.length) {
    return { kind: 'diverges', text: `diverges: ${was.length} → ${plural(is.length, 'thread group')}; ${who}` };
  }
  if (is.length < was.length) {
    const merged = is.some((g) => was.filter((x) => within(x.mask, g.mask)).length > 1);
    if (merged) {
      return { kind: 'reconverges', text: `reconverges: ${was.length} → ${plural(is.length, 'thread group')}; ${who}` };
    }
    return { kind: 'exits', text: `a thread group finished: ${was.length} → ${plural(is.length, 'thread group')}; ${who}` };
  }
  const prev = was.find((g) => g.issuing);
  if (issuing && (!prev || bitsText(prev.mask) !== bitsText(issuing.mask))) {
    const others = is
      .map((g, j) => (j === k ? null : `G${j} ${g.waiting ? `waits at ${g.waiting}` : 'ready'}`))
      .filter(Boolean);
    return {
      kind: 'switches',
      text: `switches thread group: ${who}${others.length ? ` (${others.join(', ')})` : ''}`,
    };
  }
  return null;
}

/**
 * What happens to the warp at step `i` compared with the step before: `{kind, text}` with
 * kind `diverges` (fewer active lanes: the others wait on the stack or in another thread
 * group), `reconverges` (more lanes active again), and under independent thread scheduling
 * also `switches` and `exits`; `null` when nothing changed.
 */
export function laneEvent(steps, i) {
  if (i <= 0 || i >= steps.length) return null;
  const [a, b] = [steps[i - 1], steps[i]];
  if (a.groups && b.groups) return groupEvent(a.groups, b.groups);
  const [before, now] = [activeLanes(a.active), activeLanes(b.active)];
  if (now < before) return { kind: 'diverges', text: `diverges: ${before} → ${now} active lanes (the others wait)` };
  if (now > before) return { kind: 'reconverges', text: `reconverges: ${before} → ${now} active lanes` };
  return null;
}
