//! The control state of one warp under independent thread scheduling (ITS): its groups of
//! threads, the convergence-barrier registers `B0..B15`, the exited threads, and the rules
//! by which one group's instruction changes them. The rules, with their sources, are in the
//! [`crate::interleaving`] module doc; they live here, apart from any data, so that two
//! executors share them: [`crate::interleaving`] (the analysis's oracle, on the executors'
//! model of values) and the simulator's SASS front end (real values and timing, issue #23
//! item 5), which makes the simulated warp follow the same interleavings.
//!
//! A step is: [`ThreadGroups::choose`] a runnable group, let the executor issue the group's
//! instruction on its threads (data effects, and the guard it evaluates), then
//! [`ThreadGroups::step`] with the threads whose guard held applies the control effect.

use crate::barriers::on_convergence;
use crate::concrete::mix;
use isa::{ControlKind, Kernel};

/// Which runnable group issues the next instruction. Every choice is one the hardware may
/// make under ITS ([`crate::interleaving`] module doc), so a property that holds for one must hold for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduler {
    /// The most recently created or released group, a deterministic depth-first order close to
    /// [`crate::concrete`]'s stack order: at a divergent forward branch the taken group is the
    /// newer, at a divergent backward branch the one that leaves the loop (as
    /// [`crate::activation_stack::Rules::leaving_first`]).
    Newest,
    /// One instruction of each runnable group in turn, oldest first: the finest interleaving.
    RoundRobin,
    /// Any runnable group, chosen pseudo-randomly at every instruction from the seed.
    Random(u64),
}

/// What a group waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// At a `BSYNC Bn`, for the other threads of `Bn`.
    Bsync(u8),
    /// At a full-warp `WARPSYNC`, for every thread of the warp.
    WarpSync,
}

/// A group of threads of the warp that issue together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub mask: u64,
    /// The next instruction (index), or the waiting instruction while `waiting` is set.
    pub pc: usize,
    /// Return points (instruction indices), innermost last.
    pub calls: Vec<usize>,
    pub waiting: Option<Wait>,
    /// When the group was created or released, for [`Scheduler::Newest`] and
    /// [`Scheduler::RoundRobin`].
    born: u64,
}

/// An event after which a schedule may issue other (instruction, mask) pairs than the stack
/// order of [`crate::concrete`] ([`crate::interleaving`] module doc, "Where the orders differ"). A run without any
/// issues the same pairs as the stack order (checked by `tests/interleaving.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Departure {
    /// A release whose waiters went on as several groups, at these instructions (or with
    /// different call stacks): full-warp `WARPSYNC`s at different instructions match each
    /// other, so paths the stack order rejoins at one of them go on apart.
    ScatteredRelease { wait: Wait, pcs: Vec<usize> },
    /// A `BSSY Bn` at `pc` added its group to `Bn` while `Bn` still recorded other live
    /// threads: two groups that diverged without reconverging share one region instance, and
    /// its `BSYNC` may merge them (the stack order gives each group its own barrier entry).
    SharedBarrier { barrier: u8, pc: usize },
    /// `BRA.DIV`/`BRA.CONV` at `pc` evaluated while another group could still run, or after
    /// some threads exited: whether the warp is diverged there depends on how far the other
    /// groups got — has a group that exits exited yet? The stack order may run it before or
    /// after the test (e.g. callers of a predicated call test while the others wait in the
    /// stack order, and after the others exited under ITS).
    ConvergenceTest { pc: usize },
    /// A full-warp `WARPSYNC` at `pc` released as one group threads that arrived in several
    /// groups. The stack order rejoins paths there only when they diverged with no region open
    /// ([`crate::barriers`], "Full-warp WARPSYNC"); otherwise it runs each on alone, which
    /// issues more.
    WarpSyncJoin { pc: usize },
}

/// Groups, barrier registers and exited threads of one warp (module doc).
#[derive(Debug, Clone)]
pub struct ThreadGroups {
    groups: Vec<Group>,
    barriers: [u64; 16],
    exited: u64,
    full: u64,
    clock: u64,
    scheduler: Scheduler,
    rng: u64,
    last: u64,
    departures: Vec<Departure>,
}

impl ThreadGroups {
    /// A warp whose threads `full` all start at instruction 0, as one group.
    pub fn new(full: u64, scheduler: Scheduler) -> ThreadGroups {
        let mut s = ThreadGroups {
            groups: Vec::new(),
            barriers: [0; 16],
            exited: 0,
            full,
            clock: 0,
            scheduler,
            rng: match scheduler {
                Scheduler::Random(r) => r,
                _ => 0,
            },
            last: 0,
            departures: Vec::new(),
        };
        if full != 0 {
            s.spawn(full, 0, Vec::new());
        }
        s
    }

    /// The threads that have not exited.
    pub fn live(&self) -> u64 {
        self.full & !self.exited
    }

    /// Every thread exited.
    pub fn finished(&self) -> bool {
        self.live() == 0
    }

    /// Some group remains and every one waits: nothing can release them.
    pub fn deadlocked(&self) -> bool {
        !self.finished() && self.groups.iter().all(|g| g.waiting.is_some())
    }

    /// The groups, in creation order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The barrier registers `B0..B15` (thread masks).
    pub fn barriers(&self) -> &[u64; 16] {
        &self.barriers
    }

    /// The departures from the stack order's assumptions so far, in order.
    pub fn departures(&self) -> &[Departure] {
        &self.departures
    }

    /// Takes the departures out (at the end of a run).
    pub fn take_departures(&mut self) -> Vec<Departure> {
        std::mem::take(&mut self.departures)
    }

    /// No single group holds every thread that has not exited (what `BRA.DIV` tests).
    pub fn diverged(&self) -> bool {
        let live = self.live();
        !self.groups.iter().any(|g| g.mask == live)
    }

    /// Chooses the group that issues next among the runnable ones, by the scheduler; `None`
    /// when none can run (finished or deadlocked).
    pub fn choose(&mut self) -> Option<usize> {
        if self.groups.iter().all(|g| g.waiting.is_some()) {
            return None;
        }
        let scheduler = self.scheduler;
        let runnable: Vec<usize> = (0..self.groups.len())
            .filter(|&i| self.groups[i].waiting.is_none())
            .collect();
        let pick = match scheduler {
            Scheduler::Newest => *runnable.iter().max_by_key(|&&i| self.groups[i].born)?,
            Scheduler::RoundRobin => {
                let after = runnable
                    .iter()
                    .filter(|&&i| self.groups[i].born > self.last)
                    .min_by_key(|&&i| self.groups[i].born);
                *after.or_else(|| runnable.iter().min_by_key(|&&i| self.groups[i].born))?
            }
            Scheduler::Random(_) => {
                self.rng = mix(self.rng);
                runnable[(self.rng % runnable.len() as u64) as usize]
            }
        };
        self.last = self.groups[pick].born;
        Some(pick)
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn spawn(&mut self, mask: u64, pc: usize, calls: Vec<usize>) {
        let born = self.tick();
        self.groups.push(Group {
            mask,
            pc,
            calls,
            waiting: None,
            born,
        });
    }

    fn waiting_mask(&self, w: Wait) -> u64 {
        self.groups
            .iter()
            .filter(|g| g.waiting == Some(w))
            .fold(0, |m, g| m | g.mask)
    }

    /// Releases the waiters of `w` if nobody they wait for is missing; whether it did.
    fn try_release(&mut self, w: Wait) -> bool {
        let waiting = self.waiting_mask(w);
        if waiting == 0 {
            return false;
        }
        let needed = match w {
            Wait::Bsync(b) => self.barriers[b as usize],
            Wait::WarpSync => self.full,
        } & self.live();
        if needed & !waiting != 0 {
            return false;
        }
        if let Wait::Bsync(b) = w {
            self.barriers[b as usize] = 0;
        }
        // The waiters at one instruction with one call stack leave as one group.
        let mut released: Vec<Group> = Vec::new();
        let mut k = 0;
        while k < self.groups.len() {
            if self.groups[k].waiting == Some(w) {
                let g = self.groups.remove(k);
                match released
                    .iter_mut()
                    .find(|r| r.pc == g.pc + 1 && r.calls == g.calls)
                {
                    Some(r) => {
                        r.mask |= g.mask;
                        if w == Wait::WarpSync {
                            self.departures.push(Departure::WarpSyncJoin { pc: g.pc });
                        }
                    }
                    None => released.push(Group {
                        pc: g.pc + 1,
                        waiting: None,
                        ..g
                    }),
                }
            } else {
                k += 1;
            }
        }
        if released.len() > 1 {
            let pcs = released.iter().map(|r| r.pc - 1).collect();
            self.departures
                .push(Departure::ScatteredRelease { wait: w, pcs });
        }
        for mut r in released {
            r.born = self.tick();
            self.groups.push(r);
        }
        true
    }

    fn release_all(&mut self) {
        for b in 0..16u8 {
            self.try_release(Wait::Bsync(b));
        }
        self.try_release(Wait::WarpSync);
    }

    /// Applies the control effect of the instruction of group `gi` (at its `pc`), which the
    /// executor just issued for the group's threads; `guarded`: those of them whose guard
    /// held (the executor evaluated it). The rules are the [`crate::interleaving`] module
    /// doc's.
    ///
    /// # Errors
    /// What the rules do not model, as "WHY at PC": an unresolved branch or call target, a
    /// `RET` outside a call, an indirect branch, a Fermi–Pascal stack instruction, or no
    /// instruction at the group's `pc`.
    pub fn step(&mut self, kernel: &Kernel, gi: usize, guarded: u64) -> Result<(), String> {
        let Some(Group {
            mask, pc, calls, ..
        }) = self.groups.get(gi).cloned()
        else {
            return Err(format!("no group {gi}"));
        };
        let Some(ins) = kernel.instructions.get(pc) else {
            return Err(format!("fell off the end at {pc}"));
        };
        let guarded = guarded & mask;
        let next = pc + 1;
        let resolve = |t: Option<u64>| t.and_then(|a| kernel.index_of(a));
        let unsupported = |why: String| Err(format!("{why} at {pc}"));
        match ins.control {
            ControlKind::Fallthrough | ControlKind::Barrier | ControlKind::Call(None) => {
                self.groups[gi].pc = next;
            }
            ControlKind::Bssy { barrier, .. } => {
                let b = barrier & 15;
                if self.barriers[b as usize] & self.live() & !mask != 0 {
                    self.departures
                        .push(Departure::SharedBarrier { barrier: b, pc });
                }
                self.barriers[b as usize] |= mask;
                self.groups[gi].pc = next;
            }
            ControlKind::Branch(t) => {
                let Some(t) = resolve(t) else {
                    return unsupported("unresolved target".into());
                };
                let mut taken = guarded;
                if ins.guard.is_none() && on_convergence(ins) {
                    let others_run = self
                        .groups
                        .iter()
                        .enumerate()
                        .any(|(i, g)| i != gi && g.waiting.is_none());
                    if others_run || self.exited != 0 {
                        self.departures.push(Departure::ConvergenceTest { pc });
                    }
                    if self.diverged() != ins.opcode.has_modifier("DIV") {
                        taken = 0;
                    }
                }
                if taken != mask && ins.opcode.has_modifier("U") {
                    taken = 0;
                }
                if taken == mask {
                    self.groups[gi].pc = t;
                } else if taken == 0 {
                    self.groups[gi].pc = next;
                } else if t <= pc {
                    // Backward: the looping group waits, the leaving one is the newer.
                    self.groups[gi].mask = taken;
                    self.groups[gi].pc = t;
                    self.spawn(mask & !taken, next, calls);
                } else {
                    self.groups[gi].mask = mask & !taken;
                    self.groups[gi].pc = next;
                    self.spawn(taken, t, calls);
                }
            }
            ControlKind::Bsync { barrier } => {
                let b = barrier & 15;
                if guarded != mask {
                    self.groups[gi].mask = mask & !guarded;
                    self.groups[gi].pc = next;
                    if guarded != 0 {
                        self.spawn(guarded, pc, calls);
                        let last = self.groups.len() - 1;
                        self.groups[last].waiting = Some(Wait::Bsync(b));
                    }
                } else {
                    self.groups[gi].waiting = Some(Wait::Bsync(b));
                }
                self.try_release(Wait::Bsync(b));
            }
            ControlKind::Break { barrier } => {
                let b = barrier & 15;
                self.barriers[b as usize] &= !guarded;
                self.groups[gi].pc = next;
                self.try_release(Wait::Bsync(b));
            }
            ControlKind::WarpSync => {
                self.groups[gi].waiting = Some(Wait::WarpSync);
                self.try_release(Wait::WarpSync);
            }
            ControlKind::Exit => {
                self.exited |= guarded;
                if guarded == mask {
                    self.groups.remove(gi);
                } else {
                    self.groups[gi].mask = mask & !guarded;
                    self.groups[gi].pc = next;
                }
                self.release_all();
            }
            ControlKind::Call(Some(t)) => {
                let Some(t) = resolve(Some(t)) else {
                    return unsupported("unresolved target".into());
                };
                if guarded == 0 {
                    self.groups[gi].pc = next;
                } else {
                    if guarded != mask {
                        self.spawn(mask & !guarded, next, calls);
                    }
                    // The callers are the newer group, as in the stack order.
                    let born = self.tick();
                    let g = &mut self.groups[gi];
                    g.mask = guarded;
                    g.pc = t;
                    g.calls.push(next);
                    g.born = born;
                }
            }
            ControlKind::Ret => {
                if guarded == 0 {
                    self.groups[gi].pc = next;
                } else {
                    let mut back = calls.clone();
                    let Some(r) = back.pop() else {
                        return unsupported("RET outside a call".into());
                    };
                    if guarded != mask {
                        self.groups[gi].mask = mask & !guarded;
                        self.groups[gi].pc = next;
                        self.spawn(guarded, r, back);
                    } else {
                        self.groups[gi].pc = r;
                        self.groups[gi].calls = back;
                    }
                }
            }
            ControlKind::Indirect => {
                return unsupported(format!("indirect branch `{}`", ins.opcode.name));
            }
            ControlKind::Ssy(_)
            | ControlKind::Pbk(_)
            | ControlKind::Pcnt(_)
            | ControlKind::Pret(_)
            | ControlKind::Sync
            | ControlKind::Brk
            | ControlKind::Cont => {
                return unsupported(format!(
                    "Fermi–Pascal stack instruction `{}`",
                    ins.opcode.name
                ));
            }
        }
        Ok(())
    }
}
