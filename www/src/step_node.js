// Which node of a warp-level graph a stepper step is at. A block of the kernel can stand in
// several nodes — one per pending stack the warp may reach it with (the node's `context`,
// e.g. "NIL@0x0020 SYNC@0x0040": the entries under the running one, top first) — so the
// block alone does not decide: the step's own activation stack does. Both are the report's;
// this only reads the context text the Rust side wrote (`modes/warp_cfg.rs`, `context`).

/** A stack entry's tag as a context writes it (`nil` → `NIL`, `{barrier: 0}` → `B0`). */
function tagName(tag) {
  if (typeof tag === 'string') {
    return { nil: 'NIL', sync: 'SYNC', brk: 'BRK', cont: 'CONT', call: 'CALL', warp_sync: 'WARP', any: 'ANY', path: 'PATH', rpc: 'RPC' }[tag] || tag.toUpperCase();
  }
  if (tag && typeof tag === 'object') {
    if (typeof tag.barrier === 'number') return `B${tag.barrier}`;
    if (tag.ipdom) return 'IPDOM';
  }
  return String(tag);
}

const hex4 = (n) => '0x' + Number(n).toString(16).padStart(4, '0');

/** The pending entries of a step's stack (all but the running top), top first, as context tokens. */
export function pendingTokens(stack) {
  return stack
    .slice(0, -1)
    .reverse()
    .map((e) => `${tagName(e.tag)}@${hex4(e.address)}`);
}

/**
 * A context as patterns, top first: each `{alts, repeated}` — `alts` the points it may be
 * (`(A|B)` is either), `repeated` for a trailing `+` (one or more such entries); `…any`
 * stands for any entries from there down.
 */
function parseContext(text) {
  return text
    .split(' ')
    .filter(Boolean)
    .map((token) => {
      if (token.startsWith('…any')) return { any: true };
      const repeated = token.endsWith('+');
      const body = repeated ? token.slice(0, -1) : token;
      const alts = body.startsWith('(') ? body.slice(1, -1).split('|') : [body];
      return { alts, repeated };
    });
}

/** Whether the concrete `tokens` (top first) are one of the stacks `patterns` stands for. */
function matches(patterns, tokens) {
  const go = (p, t) => {
    if (p === patterns.length) return t === tokens.length;
    const pat = patterns[p];
    if (pat.any) return true;
    if (t >= tokens.length || !pat.alts.includes(tokens[t])) return false;
    if (pat.repeated && go(p, t + 1)) return true;
    return go(p + 1, t + 1);
  };
  return go(0, 0);
}

/**
 * The node of `cfg` that step `i` of `steps` is at: among the nodes of the block holding its
 * instruction, the one whose context is the pending stack the warp entered that block with
 * (the stack of the step at the block's first instruction: a context is the stack at block
 * entry, and an `SSY` inside the block pushes more); with none or several matching (a
 * thread-level graph has no contexts; abstract contexts may merge), the first such node.
 */
export function nodeOfStep(cfg, steps, i) {
  const step = steps[i];
  if (!step) return null;
  const holding = cfg.nodes.filter((n) => n.kind === 'block' && n.first <= step.index && step.index <= n.last);
  if (holding.length < 2) return holding[0] || null;
  const first = holding[0].first;
  let entry = i;
  while (entry > 0 && step.index > first && steps[entry - 1].index === steps[entry].index - 1 && steps[entry - 1].index >= first) {
    entry -= 1;
  }
  const stack = steps[entry].stack;
  if (!stack || !stack.length) return holding[0];
  const tokens = pendingTokens(stack);
  return holding.find((n) => matches(parseContext(n.context || ''), tokens)) || holding[0];
}
