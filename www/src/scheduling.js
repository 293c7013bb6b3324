// The scheduling control bits of a SASS instruction (issue #42), as the instruction table and
// the stepper show them: the compact field (`B--2---:R-:W2:-:S04`), and what each part asks
// of the warp in words. The numbers are the listing's, decoded by the engine
// (`isa::control_bits`); nothing here computes a timing.

const BARRIERS = 6;

function bitsOf(mask, n) {
  return [...Array(n).keys()].filter((k) => (mask >> k) & 1);
}

function barrierName(b) {
  return b === null || b === undefined ? null : `SB${b}`;
}

/** The compact field: reuse flags, wait mask, read and write barrier, yield, stall. */
export function schedulingText(c) {
  if (!c) return '';
  const flags = (mask, n, on) => [...Array(n).keys()].map((k) => ((mask >> k) & 1 ? on(k) : '-')).join('');
  const barrier = (b) => (b === null || b === undefined ? '-' : String(b));
  const reuse = c.reuse ? flags(c.reuse, 4, () => 'R') + ':' : '';
  const wait = flags(c.wait_mask, BARRIERS, (b) => String(b));
  const stall = String(c.stall).padStart(2, '0');
  return `${reuse}B${wait}:R${barrier(c.read_barrier)}:W${barrier(c.write_barrier)}:${c.yield_hint ? 'Y' : '-'}:S${stall}`;
}

/** What the bits ask of the warp, one clause per field that asks something. */
export function schedulingClauses(c) {
  if (!c) return [];
  const out = [];
  const waits = bitsOf(c.wait_mask, BARRIERS).map((b) => `SB${b}`);
  if (waits.length) out.push(`waits until ${waits.join(', ')} ${waits.length > 1 ? 'are' : 'is'} clear`);
  const w = barrierName(c.write_barrier);
  if (w) out.push(`sets ${w} until its result is written`);
  const r = barrierName(c.read_barrier);
  if (r) out.push(`sets ${r} until its source registers are read`);
  out.push(`stalls ${Math.max(c.stall, 1)} cycle${Math.max(c.stall, 1) === 1 ? '' : 's'} before the warp's next instruction`);
  if (c.yield_hint) out.push('yield hint: the scheduler may switch to another warp');
  const reuse = bitsOf(c.reuse, 4).map((k) => `operand ${k}`);
  if (reuse.length) out.push(`keeps ${reuse.join(', ')} in the reuse cache`);
  return out;
}

/** The hover text of the table's scheduling cell: the field's layout, then its meaning. */
export function schedulingExplanation(c) {
  if (!c) return undefined;
  return [
    'B: wait mask (barriers 0–5) · R: read barrier · W: write barrier · Y: yield · S: stall cycles',
    ...schedulingClauses(c).map((t) => `• ${t}`),
    'cost=control times the kernel by these bits (a barrier clears the latency preset after its setter issues).',
  ].join('\n');
}
