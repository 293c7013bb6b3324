//! Abstract execution of one basic block: the data effects of its instructions on the
//! agreement domain and the successor states of its last instruction (Algorithm 1 and
//! "Processing unconditional instructions", §3.4).

use crate::barriers;
use crate::groups::{Fate, Groups};
use crate::options::Options;
use crate::regset::RegSet;
use crate::state::{Entry, Point, State, Tag, NOT_ARRIVED};
use crate::warp_cfg::WarpEdgeKind;
use isa::{BlockGraph, ControlKind, Diagnostic, Instruction, Kernel};
use std::collections::BTreeSet;

/// Where a transition leads.
#[derive(Debug, Clone)]
pub enum Target {
    State(State),
    /// All threads of the warp have finished.
    Exit,
}

#[derive(Debug, Clone)]
pub struct Transition {
    pub kind: WarpEdgeKind,
    pub target: Target,
    /// `Some(pc)` when the transition resumes a pending divergent path (a `NIL` entry, or
    /// any entry of an unknown "any" stack) at instruction `pc`: a group of threads that
    /// waited starts running ([`crate::WarpCfg::resumptions`]).
    pub resumed: Option<usize>,
}

/// Read-only context of one analysis run.
pub struct Ctx<'a> {
    pub kernel: &'a Kernel,
    pub blocks: &'a BlockGraph,
    /// Block starting at instruction index i, if any.
    pub block_at: Vec<Option<usize>>,
    pub options: &'a Options,
    /// Activation points pushed anywhere so far (for pops from an "any" stack).
    pub pushed: &'a BTreeSet<(usize, Tag)>,
    /// The kernel uses convergence barriers (Volta and later): divergent backward branches
    /// run their leaving group first ([`crate::barriers`]).
    pub barriers: bool,
    /// The kernel has a full-warp `WARPSYNC`: a divergence outside any region first saves
    /// the whole warp in a [`Tag::WarpSync`] entry ([`crate::barriers`]).
    pub warp_syncs: bool,
    /// Per instruction, its guard's value while no other group runs ([`crate::spin`]).
    pub known_guards: &'a [Option<bool>],
}

/// A problem the analysis cannot represent, located at an instruction.
pub type Unsupported = Diagnostic;

impl Ctx<'_> {
    fn instr(&self, i: usize) -> &Instruction {
        &self.kernel.instructions[i]
    }
}

/// Opcodes whose result differs between threads even when their inputs agree.
fn result_varies(ins: &Instruction) -> bool {
    matches!(
        ins.opcode.name.as_str(),
        "ATOM" | "ATOMS" | "ATOMG" | "SHFL" | "LDL" | "CS2R" | "RED" | "SUATOM" | "MATCH"
    )
}

/// Opcodes whose result is the same for all active threads whatever their inputs.
fn result_uniform(ins: &Instruction) -> bool {
    ins.opcode.name == "VOTE"
}

/// Whether a group agreeing on `agree` computes agreed results with `ins` (§3.3: "if the
/// threads agree on the arguments, they gain or preserve the agreement on the result").
/// Loads are included: memory is shared, so agreed addresses give agreed values.
fn inputs_agree(ins: &Instruction, agree: &RegSet) -> bool {
    if result_uniform(ins) {
        return true;
    }
    !result_varies(ins) && ins.reads.iter().all(|r| agree.agrees(r))
}

/// Data effect of `ins` on every group (strong / weak / no update, §3.3), on agreement and
/// on known constants ([`crate::consts`]).
pub fn update_agreement(ins: &Instruction, groups: &mut Groups, options: &Options) {
    if ins.writes.is_empty() {
        return;
    }
    let guard = ins.guard.as_ref().filter(|g| !g.is_always_true());
    // The values the executing threads write, from what the active group is known to hold
    // (every executing thread is active), and whether they all execute (`Some(true)`), none
    // does (`Some(false)`) or it is unknown.
    let folded = {
        let c = groups.consts(0);
        crate::consts::fold(ins, &|r| c.get(r))
    };
    let executes: Option<bool> = match guard {
        None => Some(true),
        Some(g) => groups.consts(0).get(&g.reg).map(|v| (v == 1) != g.negated),
    };
    for slot in 0..groups.len() {
        let executes_whole = slot == 0 || groups.subset(slot, 0);
        if !executes_whole && groups.disjoint(slot, 0) {
            continue; // the group does not execute the instruction
        }
        let before = *groups.agree(slot);
        let ok = executes_whole
            && inputs_agree(ins, &before)
            && guard.is_none_or(|g| before.agrees(&g.reg));
        let agree = groups.agree_mut(slot);
        for w in &ins.writes {
            // Guarded: joined outcome of "all execute" and "none execute".
            let keep = ok && (guard.is_none() || before.agrees(w));
            if keep {
                agree.insert(w);
            } else {
                agree.remove(w);
            }
        }
        if executes == Some(false) {
            continue;
        }
        let strong = executes_whole && executes == Some(true);
        let consts = groups.consts_mut(slot);
        for (k, w) in ins.writes.iter().enumerate() {
            let new = folded.as_ref().map(|v| v[k]);
            // A weak update (some threads of the group may not write) keeps a value only
            // if the written one is the same.
            let value = if strong {
                new
            } else {
                new.filter(|&v| consts.get(w) == Some(v))
            };
            match value {
                Some(v) => consts.set(w, v),
                None => consts.remove(w),
            }
        }
        let known = groups.consts(slot).agreed();
        let agree = groups.agree_mut(slot);
        *agree = agree.union(&known);
    }
    sanitize(groups, options);
}

/// Applies the ablations to the agreement of every group.
pub fn sanitize(groups: &mut Groups, options: &Options) {
    for slot in 0..groups.len() {
        if !options.agreement || (slot > 0 && !options.pending_agreement) {
            *groups.agree_mut(slot) = RegSet::EMPTY;
            groups.forget_consts(slot);
        }
    }
}

/// Pushes an activation point copying the active mask (SSY, PBK, PCNT, CAL, PRET, §2).
fn push_copy(state: &mut State, pc: usize, tag: Tag, ctx: &Ctx) {
    push_entry(state, pc, tag, ctx, |g| g.add_copy_of(0));
}

pub(crate) fn push_entry(
    state: &mut State,
    pc: usize,
    tag: Tag,
    ctx: &Ctx,
    make_group: impl FnOnce(&mut Groups) -> usize,
) {
    let earlier = state.stack.iter().rposition(|e| e.contains(pc, tag));
    if !ctx.options.cyclic_stacks && earlier.is_some() {
        // Acyclic stack graphs cannot repeat an activation point: abstract the whole stack
        // to "any stack" (the new point included, since it is in `pushed`).
        collapse_to_any(state);
        return;
    }
    let slot = make_group(&mut state.groups);
    debug_assert_eq!(slot, state.stack.len() + 1);
    state.stack.push(Entry::single(pc, tag));
    if let Some(j) = earlier {
        // The point is already pending: in the stack graph this closes a cycle through
        // every entry from `j` up. Fold them into one strongly connected entry whose group
        // is the union of theirs (§3.1, §3.2 "an upper bound on it when in a cycle").
        while state.stack.len() > j + 1 {
            let top = state.stack.len() - 1;
            let e = state.stack.pop().unwrap_or_else(|| Entry::single(pc, tag));
            state.stack[j].absorb(&e);
            state
                .groups
                .merge_union(State::slot_of(j), State::slot_of(top));
        }
        state.stack[j].repeated = true;
    }
    sanitize(&mut state.groups, ctx.options);
}

fn collapse_to_any(state: &mut State) {
    // Keep what the active group agrees on; the rest of the stack becomes one unknown group
    // with no known relation and no agreement.
    let active = *state.groups.agree(0);
    state.groups = Groups::new(active, state.groups.is_blind());
    state.groups.add_unrelated(RegSet::EMPTY);
    state.stack = vec![Entry::any()];
}

/// Runs block `state.block` from `state`; returns its successors.
pub fn run_block(state: &State, ctx: &Ctx) -> Result<Vec<Transition>, Unsupported> {
    let block = &ctx.blocks.blocks[state.block];
    let mut st = state.clone();
    for i in block.first..=block.last {
        let ins = ctx.instr(i);
        update_agreement(ins, &mut st.groups, ctx.options);
        push_if_preparation(ins, &mut st, ctx)?;
        // A `BREAK` takes effect with the branch after it (crate::barriers::fused_break).
        if matches!(ins.control, ControlKind::Break { .. })
            && barriers::fused_break(ctx, i).is_none()
        {
            return Err(barriers::unfused_break(ins));
        }
    }
    control(block.last, st, ctx)
}

fn target_index(ctx: &Ctx, ins: &Instruction, addr: Option<u64>) -> Result<usize, Unsupported> {
    addr.and_then(|a| ctx.kernel.index_of(a)).ok_or_else(|| {
        Diagnostic::error(
            ins.opcode.span,
            format!("`{}` has no resolved target", ins.opcode.name),
        )
    })
}

fn push_if_preparation(ins: &Instruction, st: &mut State, ctx: &Ctx) -> Result<(), Unsupported> {
    let Some((tag, t)) = Tag::pushed_by(ins.control) else {
        return Ok(());
    };
    if ins.guard.as_ref().is_some_and(|g| !g.is_always_true()) {
        return Err(Diagnostic::error(
            ins.span,
            format!("predicated `{}` is not supported", ins.opcode.name),
        ));
    }
    let pc = target_index(ctx, ins, t)?;
    push_copy(st, pc, tag, ctx);
    check_depth(st, ins, ctx)
}

pub(crate) fn check_depth(st: &State, ins: &Instruction, ctx: &Ctx) -> Result<(), Unsupported> {
    if st.stack.len() > ctx.options.max_stack_depth {
        return Err(Diagnostic::error(
            ins.span,
            format!(
                "activation stack deeper than {} entries (raise max_stack_depth)",
                ctx.options.max_stack_depth
            ),
        ));
    }
    Ok(())
}

pub(crate) fn goto(mut st: State, index: usize, ctx: &Ctx) -> Result<State, Unsupported> {
    st.block = ctx.block_at.get(index).copied().flatten().ok_or_else(|| {
        Diagnostic::error(
            ctx.instr(index.min(ctx.kernel.instructions.len() - 1)).span,
            "control reaches an instruction that does not start a block",
        )
    })?;
    Ok(st)
}

pub(crate) fn next_index(i: usize, ctx: &Ctx) -> Result<usize, Unsupported> {
    if i + 1 < ctx.kernel.instructions.len() {
        Ok(i + 1)
    } else {
        Err(Diagnostic::error(
            ctx.instr(i).span,
            "control falls off the end of the function",
        ))
    }
}

fn is_conditional(ins: &Instruction) -> bool {
    ins.guard.as_ref().is_some_and(|g| !g.is_always_true())
        || ins.tests_condition_code()
        || ins.branch_predicates().next().is_some()
}

/// The guard may evaluate differently in different active threads (Alg. 1 line 10). A
/// condition-code test (`BRA CC.NEU`) is per thread too: the CC flags are not tracked by
/// the agreement analysis, so such an instruction may always split the warp.
fn may_disagree(ins: &Instruction, st: &State) -> bool {
    ins.tests_condition_code()
        || ins
            .guard
            .as_ref()
            .is_some_and(|g| !st.groups.agree(0).agrees(&g.reg))
        || ins
            .branch_predicates()
            .any(|(reg, _)| !st.groups.agree(0).agrees(reg))
}

/// After a uniform outcome of a guard, all active threads agree on the guard register —
/// unless the instruction also tests the condition code: then the outcome is that of the
/// guard and the test together, which says nothing about the guard alone.
fn learn_guard(mut st: State, ins: &Instruction, ctx: &Ctx) -> State {
    if ins.tests_condition_code() || ins.branch_predicates().next().is_some() {
        // `BRA P1, t` not taken: the guard or `P1` failed, which says nothing about either.
        return st;
    }
    if let Some(g) = &ins.guard {
        st.groups.agree_mut(0).insert(&g.reg);
        sanitize(&mut st.groups, ctx.options);
    }
    st
}

/// After a branch taken by every active thread, they agree on its guard and on every
/// predicate it tests besides (all held in every thread).
fn learn_taken(mut st: State, ins: &Instruction, ctx: &Ctx) -> State {
    if ins.tests_condition_code() {
        return st;
    }
    for (reg, _) in ins.branch_predicates() {
        st.groups.agree_mut(0).insert(reg);
    }
    if let Some(g) = &ins.guard {
        st.groups.agree_mut(0).insert(&g.reg);
    }
    sanitize(&mut st.groups, ctx.options);
    st
}

/// Splits `active` into itself (the threads executing `ins`) and a new `skip` group, both
/// agreeing on the guard; returns the skip slot (Alg. 1 line 11).
fn split(st: &mut State, ins: &Instruction, ctx: &Ctx) -> usize {
    let skip = st.groups.add_subset_of(0);
    // The executing part: a fresh subset of active, then made slot 0.
    let part = st.groups.add_subset_of(0);
    st.groups.make_disjoint(skip, part);
    if let Some(g) = ins.guard.as_ref().filter(|_| !ins.tests_condition_code()) {
        // With `BRA P1, t` the skipping threads failed the guard *or* `P1`: they need not
        // agree on either; the branching ones held both.
        if ins.branch_predicates().next().is_none() {
            st.groups.agree_mut(skip).insert(&g.reg);
        }
        st.groups.agree_mut(part).insert(&g.reg);
    }
    if !ins.tests_condition_code() {
        for (reg, _) in ins.branch_predicates() {
            st.groups.agree_mut(part).insert(reg);
        }
    }
    st.groups.remove_slot(0);
    let part = part - 1;
    st.groups.move_slot(part, 0);
    sanitize(&mut st.groups, ctx.options);
    // skip slot index is unchanged by removing slot 0 then inserting at 0.
    skip
}

fn control(i: usize, st: State, ctx: &Ctx) -> Result<Vec<Transition>, Unsupported> {
    let ins = ctx.instr(i);
    let mut out = Vec::new();
    let cond = is_conditional(ins);
    match ins.control {
        ControlKind::Fallthrough
        | ControlKind::Barrier
        | ControlKind::Call(None)
        | ControlKind::Ssy(_)
        | ControlKind::Pbk(_)
        | ControlKind::Pcnt(_)
        | ControlKind::Pret(_)
        | ControlKind::Bssy { .. }
        | ControlKind::Break { .. } => {
            let n = next_index(i, ctx)?;
            out.push(Transition {
                kind: WarpEdgeKind::Fallthrough,
                target: Target::State(goto(st, n, ctx)?),
                resumed: None,
            });
        }
        ControlKind::Branch(t) => {
            let t = target_index(ctx, ins, t)?;
            if !cond && barriers::on_convergence(ins) {
                // `BRA.DIV` / `BRA.CONV`: the whole warp branches or not, on whether it is
                // converged: both ways, no divergence, nothing learnt.
                let n = next_index(i, ctx)?;
                out.push(Transition {
                    kind: WarpEdgeKind::Taken,
                    target: Target::State(goto(st.clone(), t, ctx)?),
                    resumed: None,
                });
                out.push(Transition {
                    kind: WarpEdgeKind::Fallthrough,
                    target: Target::State(goto(st, n, ctx)?),
                    resumed: None,
                });
            } else if !cond {
                out.push(Transition {
                    kind: WarpEdgeKind::Taken,
                    target: Target::State(goto(st, t, ctx)?),
                    resumed: None,
                });
            } else if let Some(taken) = known_outcome(ins, i, &st, ctx) {
                // An active-mask test no other group can change (crate::spin): one way only.
                let (kind, to) = if taken {
                    (WarpEdgeKind::Taken, t)
                } else {
                    (WarpEdgeKind::Fallthrough, next_index(i, ctx)?)
                };
                out.push(Transition {
                    kind,
                    target: Target::State(goto(st, to, ctx)?),
                    resumed: None,
                });
            } else {
                let n = next_index(i, ctx)?;
                // `@P BREAK Bb; @P BRA t`: the threads that branch are the ones that broke.
                let brk = barriers::break_before(ctx, i);
                let leaving = |s: State, group: usize| match brk {
                    Some(b) => barriers::leave(s, group, b),
                    None => vec![s],
                };
                for s in leaving(learn_taken(st.clone(), ins, ctx), 0) {
                    out.push(Transition {
                        kind: WarpEdgeKind::Taken,
                        target: Target::State(goto(s, t, ctx)?),
                        resumed: None,
                    });
                }
                if ins.opcode.has_modifier("U") {
                    // `BRA.U`: "unanimous condition, taken only if all active threads agree on
                    // taking the branch" (SASS opcode reference): never diverges. Falling
                    // through says nothing about the guard.
                    out.push(Transition {
                        kind: WarpEdgeKind::Fallthrough,
                        target: Target::State(goto(st, n, ctx)?),
                        resumed: None,
                    });
                } else {
                    out.push(Transition {
                        kind: WarpEdgeKind::Fallthrough,
                        target: Target::State(goto(learn_guard(st.clone(), ins, ctx), n, ctx)?),
                        resumed: None,
                    });
                    if may_disagree(ins, &st) && t == n {
                        // Alg. 1 line 16: both parts continue at PC+8, disagreeing on the guard.
                        out.push(Transition {
                            kind: WarpEdgeKind::Fallthrough,
                            target: Target::State(goto(st.clone(), n, ctx)?),
                            resumed: None,
                        });
                    }
                    if may_disagree(ins, &st) && t != n {
                        diverge(st, ins, i, t, n, ctx, &leaving, &mut out)?;
                    }
                }
            }
        }
        ControlKind::WarpSync => {
            let n = next_index(i, ctx)?;
            match barriers::warp_sync_point(&st, n) {
                Some(arrived) => {
                    let mut s = st;
                    s.stack[0] = Entry::single(arrived, Tag::WarpSync);
                    halt_all(s, Some(Tag::WarpSync), ctx, &mut out)?;
                }
                None => {
                    let mut s = st;
                    if let Some(pc) = barriers::mismatched_warp_sync(&s, n) {
                        // The first arrivals are released apart: a pending path now, without
                        // the threads running here.
                        s.stack[0] = Entry::single(pc, Tag::Nil);
                        s.groups.remove_threads(State::slot_of(0), 0);
                        s.groups.clear_arrivals(State::slot_of(0));
                    }
                    out.push(Transition {
                        kind: WarpEdgeKind::Fallthrough,
                        target: Target::State(goto(s, n, ctx)?),
                        resumed: None,
                    });
                }
            }
        }
        ControlKind::Bsync { barrier } if !barriers::is_open(&st, barrier) => {
            // No thread is recorded in the barrier any more (all broke): nothing to wait for.
            let n = next_index(i, ctx)?;
            out.push(Transition {
                kind: WarpEdgeKind::Fallthrough,
                target: Target::State(goto(st, n, ctx)?),
                resumed: None,
            });
        }
        ControlKind::Sync
        | ControlKind::Brk
        | ControlKind::Cont
        | ControlKind::Ret
        | ControlKind::Exit
        | ControlKind::Bsync { .. } => {
            let tag = Tag::unwound_by(ins.control);
            if !cond {
                halt_all(st, tag, ctx, &mut out)?;
            } else {
                let n = next_index(i, ctx)?;
                halt_all(learn_guard(st.clone(), ins, ctx), tag, ctx, &mut out)?;
                out.push(Transition {
                    kind: WarpEdgeKind::Fallthrough,
                    target: Target::State(goto(learn_guard(st.clone(), ins, ctx), n, ctx)?),
                    resumed: None,
                });
                if may_disagree(ins, &st) {
                    halt_part(st, ins, tag, n, ctx, &mut out)?;
                }
            }
        }
        ControlKind::Call(Some(t)) => {
            let t = target_index(ctx, ins, Some(t))?;
            let n = next_index(i, ctx)?;
            // The calling group pushes its return point (our extension of §2, as `CAL`).
            let call = |mut s: State| -> Result<Transition, Unsupported> {
                push_copy(&mut s, n, Tag::Call, ctx);
                check_depth(&s, ins, ctx)?;
                Ok(Transition {
                    kind: WarpEdgeKind::Call,
                    target: Target::State(goto(s, t, ctx)?),
                    resumed: None,
                })
            };
            if !cond {
                out.push(call(st)?);
            } else {
                // A predicated call (`@P1 CALL.REL.NOINC`, a slow path): every thread calls,
                // none does, or the callers go first while the others wait at the return
                // point, as after a divergent branch (Alg. 1 line 18).
                out.push(call(learn_guard(st.clone(), ins, ctx))?);
                out.push(Transition {
                    kind: WarpEdgeKind::Fallthrough,
                    target: Target::State(goto(learn_guard(st.clone(), ins, ctx), n, ctx)?),
                    resumed: None,
                });
                if may_disagree(ins, &st) {
                    let mut s = st;
                    let skip = split(&mut s, ins, ctx);
                    let last = s.groups.len() - 1;
                    if skip != last {
                        s.groups.move_slot(skip, last);
                    }
                    push_entry(&mut s, n, Tag::Nil, ctx, |g| g.len() - 1);
                    check_depth(&s, ins, ctx)?;
                    out.push(call(s)?);
                }
            }
        }
        ControlKind::Indirect if !ins.indirect_targets.is_empty() => {
            out = crate::indirect::multi_way(i, st, ctx)?;
        }
        ControlKind::Indirect => {
            let what = if ins.opcode.name == "CALL" {
                "an indirect call (a function pointer or virtual call): the callee address is \
                 in a register"
            } else {
                "an indirect branch (a `switch` jump table or a computed return): the target is \
                 in a register"
            };
            return Err(Diagnostic::error(
                ins.opcode.span,
                format!(
                    "`{}` is {what}, so the listing does not say where control goes; the \
                     warp-level CFG cannot be built without its candidate targets",
                    ins.text.trim()
                ),
            ));
        }
    }
    Ok(out)
}

/// Whether the guarded branch at `i` is taken, when its guard is an active-mask test
/// ([`crate::spin`]) and no pending divergent path (nor an unknown "any" stack) could run
/// meanwhile.
fn known_outcome(ins: &Instruction, i: usize, st: &State, ctx: &Ctx) -> Option<bool> {
    let value = ctx.known_guards.get(i).copied().flatten()?;
    let alone = st.stack.iter().all(|e| !e.is_any() && !e.has_tag(Tag::Nil));
    let g = ins.guard.as_ref()?;
    alone.then_some(value != g.negated)
}

/// Alg. 1 line 18: a divergent branch at instruction `i` to `t` (fall-through `n`). The skip
/// group waits at `n` and the others branch; under convergence barriers a divergent back edge
/// (`t <= i`) runs the leaving group first and the looping part waits at `t`
/// (crate::barriers, "Loops whose exit diverges"). `leaving` applies a fused `BREAK` to the
/// branching group.
#[allow(clippy::too_many_arguments)]
fn diverge(
    st: State,
    ins: &Instruction,
    i: usize,
    t: usize,
    n: usize,
    ctx: &Ctx,
    leaving: &dyn Fn(State, usize) -> Vec<State>,
    out: &mut Vec<Transition>,
) -> Result<(), Unsupported> {
    let mut s = st;
    if ctx.warp_syncs && s.stack.is_empty() {
        // The warp leaves its converged state: save it for the `WARPSYNC` that rejoins it.
        push_copy(&mut s, NOT_ARRIVED, Tag::WarpSync, ctx);
    }
    let skip = split(&mut s, ins, ctx);
    // Put the skip group's slot where a pushed entry's slot must be.
    let last = s.groups.len() - 1;
    if skip != last {
        s.groups.move_slot(skip, last);
    }
    let (wait_at, run_at) = if ctx.barriers && t <= i {
        // Swap the roles: the skip group becomes active, the branching part is pushed.
        s.groups.move_slot(last, 0);
        s.groups.move_slot(1, last);
        (t, n)
    } else {
        (n, t)
    };
    push_entry(&mut s, wait_at, Tag::Nil, ctx, |g| g.len() - 1);
    check_depth(&s, ins, ctx)?;
    let branching = if run_at == t {
        0
    } else {
        State::slot_of(s.stack.len() - 1)
    };
    for s in leaving(s, branching) {
        out.push(Transition {
            kind: WarpEdgeKind::Divergence,
            target: Target::State(goto(s, run_at, ctx)?),
            resumed: None,
        });
    }
    Ok(())
}

/// `filter♯` (§3.1): removes the threads of group `halted` from the entries above the entry
/// tagged `tag` (all entries for `None`); entries that can become empty fork the state.
/// A cyclic entry that contains a `tag` point may or may not hold the matching entry: both
/// are followed (stop inside it, or filter it whole and go on below).
fn filter(st: State, halted: usize, tag: Option<Tag>) -> Vec<State> {
    let mut done = Vec::new();
    // (state, index of the next entry to examine from the top, exclusive bound)
    let top = st.stack.len();
    let mut work = vec![(st, top)];
    while let Some((s, k)) = work.pop() {
        if k == 0 {
            done.push(s);
            continue;
        }
        let i = k - 1;
        let e = &s.stack[i];
        if e.is_any() {
            // The rest of the stack is unknown: it stays "any". The halting threads may stop
            // in any entry of it or below it, unrecorded.
            let mut s = s;
            for j in 0..=i {
                s.groups.forget_arrivals(State::slot_of(j));
            }
            done.push(s);
            continue;
        }
        let matches = tag.is_some_and(|t| e.has_tag(t));
        if matches && e.is_single() {
            // The matching entry: stop below nothing more; the halting threads wait in it.
            let mut s = s;
            s.groups.record_arrival(State::slot_of(i), halted);
            done.push(s);
            continue;
        }
        if matches {
            // Stop inside the cycle: the entries above the match inside it lose threads.
            let mut inside = s.clone();
            inside.groups.remove_threads(State::slot_of(i), halted);
            inside.groups.forget_arrivals(State::slot_of(i));
            done.push(inside);
        }
        let slot = State::slot_of(i);
        match s.groups.fate(slot, halted) {
            Fate::Keep => work.push((s, i)),
            Fate::Drop => work.push((drop_entry(s, i), i)),
            Fate::Any => {
                work.push((drop_entry(s.clone(), i), i));
                let mut kept = s;
                kept.groups.remove_threads(slot, halted);
                work.push((kept, i));
            }
        }
    }
    done
}

pub(crate) fn drop_entry(mut s: State, k: usize) -> State {
    s.stack.remove(k);
    s.groups.remove_slot(State::slot_of(k));
    s
}

fn resume_kind(tag: Tag) -> WarpEdgeKind {
    match tag {
        Tag::Nil => WarpEdgeKind::Divergence,
        Tag::Sync | Tag::Brk | Tag::Cont | Tag::Barrier(_) | Tag::WarpSync => {
            WarpEdgeKind::Reconvergence
        }
        Tag::Call => WarpEdgeKind::Return,
        Tag::Any | Tag::Path => WarpEdgeKind::Divergence,
        Tag::Ipdom { .. } | Tag::Rpc => WarpEdgeKind::Reconvergence,
    }
}

/// Whether resuming an entry of type `tag` starts a group that was waiting on a divergent
/// path (rather than rejoining threads at a reconvergence or return point).
fn resumes(tag: Tag) -> bool {
    matches!(tag, Tag::Nil | Tag::Any | Tag::Path)
}

/// All active threads halt (SYNC, BRK, CONT, RET, EXIT): filter, then `pop♯`.
fn halt_all(
    st: State,
    tag: Option<Tag>,
    ctx: &Ctx,
    out: &mut Vec<Transition>,
) -> Result<(), Unsupported> {
    for s in filter(st, 0, tag) {
        pop(s, ctx, out)?;
    }
    Ok(())
}

/// `pop♯` after the active group emptied: resume the topmost entry (§3.1 "Popping").
fn pop(s: State, ctx: &Ctx, out: &mut Vec<Transition>) -> Result<(), Unsupported> {
    let Some(top) = s.stack.last().cloned() else {
        out.push(Transition {
            kind: WarpEdgeKind::Exit,
            target: Target::Exit,
            resumed: None,
        });
        return Ok(());
    };
    let k = s.stack.len() - 1;
    let slot = State::slot_of(k);
    let any = top.is_any();
    if !any && top.points.iter().all(|p| p.tag == Tag::Call) && !s.groups.has_arrivals(slot) {
        // A return point no `RET` halted into (beyond the paper): its threads can only have
        // left it — exited, e.g. a predicated `CALL` into a tail that ends in `EXIT`, which
        // nvcc writes for sm_86 loops — so its mask is empty and it is popped unexecuted.
        return pop(drop_entry(s, k), ctx, out);
    }
    if any {
        // The stack may also be empty.
        out.push(Transition {
            kind: WarpEdgeKind::Exit,
            target: Target::Exit,
            resumed: None,
        });
    }
    // Points that may be on top: all of a cycle's, or every point pushed for "any".
    let points: Vec<Point> = if any {
        ctx.pushed
            .iter()
            .map(|&(pc, tag)| Point { pc, tag })
            .collect()
    } else {
        top.points.clone()
    };
    for p in points {
        if p.pc == NOT_ARRIVED {
            // A saved warp whose threads all ended without reaching a `WARPSYNC`.
            out.push(Transition {
                kind: WarpEdgeKind::Exit,
                target: Target::Exit,
                resumed: None,
            });
            continue;
        }
        if top.repeated {
            // One entry of the cycle resumes and others remain below it.
            let mut r = s.clone();
            let copy = r.groups.add_subset_of(slot);
            r.groups.copy_arrivals(slot, copy);
            r.groups.remove_threads(slot, copy);
            r.groups.remove_slot(0);
            r.groups.move_slot(copy - 1, 0);
            resume(r, p, ctx, out)?;
        }
        // The last entry resumes: it leaves the stack and its group becomes active.
        let mut r = s.clone();
        r.stack.pop();
        r.groups.remove_slot(0);
        r.groups.move_slot(slot - 1, 0);
        resume(r, p, ctx, out)?;
    }
    Ok(())
}

/// The resumed entry, now the active group of `r`, continues at `p`: its arrivals start
/// running ([`resume_arrivals`]), the groups are sanitised and the warp jumps to `p.pc` by an
/// edge of the kind `p`'s tag gives (§3.1 "Popping"). One entry of a cycle resuming and the
/// last entry resuming end alike.
fn resume(mut r: State, p: Point, ctx: &Ctx, out: &mut Vec<Transition>) -> Result<(), Unsupported> {
    resume_arrivals(&mut r, p.tag);
    sanitize(&mut r.groups, ctx.options);
    out.push(Transition {
        kind: resume_kind(p.tag),
        target: Target::State(goto(r, p.pc, ctx)?),
        resumed: resumes(p.tag).then_some(p.pc),
    });
    Ok(())
}

/// The resumed entry (now slot 0) of type `tag` starts running. A convergence barrier or a
/// saved warp (Volta and later, [`crate::barriers`]) resumes with threads that all halted into
/// it, so it holds what all of them held ([`Groups::resume_with_arrivals`], beyond the paper;
/// the Fermi–Pascal entries keep the paper's weak updates only).
fn resume_arrivals(r: &mut State, tag: Tag) {
    if matches!(tag, Tag::Barrier(_) | Tag::WarpSync) {
        r.groups.resume_with_arrivals(0);
    } else {
        r.groups.clear_arrivals(0);
    }
}

/// Alg. 1 lines 11–14: some active threads halt, the others (skip) continue at PC+8.
fn halt_part(
    st: State,
    ins: &Instruction,
    tag: Option<Tag>,
    next: usize,
    ctx: &Ctx,
    out: &mut Vec<Transition>,
) -> Result<(), Unsupported> {
    let mut s = st;
    let skip = split(&mut s, ins, ctx);
    // Slot 0 now holds the halting part; filter its threads out of the stack.
    let skip_last = s.groups.len() - 1;
    if skip != skip_last {
        s.groups.move_slot(skip, skip_last);
    }
    // The skip group sits after the stack slots, so filtering (which walks stack slots
    // only) leaves it alone.
    for mut f in filter(s, 0, tag) {
        // The halted part disappears; skip becomes active.
        f.groups.remove_slot(0);
        let last = f.groups.len() - 1;
        f.groups.move_slot(last, 0);
        out.push(Transition {
            kind: WarpEdgeKind::Divergence,
            target: Target::State(goto(f, next, ctx)?),
            resumed: None,
        });
    }
    Ok(())
}
