//! The wire form of the stepper's warp (`report.simulation.stepper`, the `sim` crate's
//! [`sim::Stepper`]): the state before each instruction it issued — lanes, activation stack
//! or thread groups, register values — for the page to step through forwards and back.
//!
//! Consecutive steps share their stack (and thread groups) while it does not change, as the
//! run recorded them, so a long stepper costs memory per change, not per step.

use super::sim_parts::Lanes;
use serde::Serialize;
use std::sync::Arc;
use ts_rs::TS;

/// The steps of one warp; forward and back are indices into `steps`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct StepperView {
    pub warp: u32,
    pub steps: Vec<StepView>,
    /// The warp issued more than `max_stepper_steps` instructions: `steps` holds the first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl From<sim::Stepper> for StepperView {
    fn from(s: sim::Stepper) -> Self {
        let mut stacks = LastConverted::default();
        let mut groups = LastConverted::default();
        let steps = s
            .steps
            .into_iter()
            .map(|step| StepView {
                cycle: step.cycle,
                index: step.index,
                address: step.address,
                line: step.line,
                active: step.active.into(),
                executed: step.executed.into(),
                stack: stacks.get(&step.stack, |s| {
                    s.iter().map(StackEntryView::from).collect()
                }),
                groups: step
                    .groups
                    .as_ref()
                    .map(|g| groups.get(g, |g| Arc::new(ThreadGroupsView::from(g)))),
                registers: step.registers.into_iter().map(RegisterView::from).collect(),
                text: step.text,
            })
            .collect();
        StepperView {
            warp: s.warp,
            steps,
            truncated: s.truncated,
        }
    }
}

/// The last shared value converted and what it became: consecutive steps that share one
/// stack (or thread groups) in the run share one converted value in the view.
struct LastConverted<S: ?Sized, T: ?Sized> {
    last: Option<(Arc<S>, Arc<T>)>,
}

impl<S: ?Sized, T: ?Sized> Default for LastConverted<S, T> {
    fn default() -> Self {
        LastConverted { last: None }
    }
}

impl<S: ?Sized, T: ?Sized> LastConverted<S, T> {
    fn get(&mut self, from: &Arc<S>, convert: impl FnOnce(&S) -> Arc<T>) -> Arc<T> {
        match &self.last {
            Some((seen, to)) if Arc::ptr_eq(seen, from) => to.clone(),
            _ => {
                let to = convert(from);
                self.last = Some((from.clone(), to.clone()));
                to
            }
        }
    }
}

/// The warp before one instruction executes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct StepView {
    pub cycle: u64,
    /// The instruction: its index, address, source line and text.
    pub index: usize,
    pub address: u64,
    pub line: u32,
    #[ts(as = "String")]
    pub text: Arc<str>,
    /// Each lane's active bit (the executing entry's mask), and the active lanes whose
    /// guard holds.
    pub active: Lanes,
    pub executed: Lanes,
    /// The activation stack, bottom first; the last entry executes. Empty under
    /// independent thread scheduling, which has `groups` instead.
    #[ts(as = "Vec<StackEntryView>")]
    pub stack: Arc<[StackEntryView]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<ThreadGroupsView>")]
    pub groups: Option<Arc<ThreadGroupsView>>,
    /// SASS, the first steps of a run: each lane's value of the registers the instruction
    /// reads (before it) and writes (after it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registers: Vec<RegisterView>,
}

/// One entry of the activation stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct StackEntryView {
    pub tag: TagView,
    /// Its next instruction: index and address (0 past the end of the kernel).
    pub pc: usize,
    pub address: u64,
    /// PTX: where the entry is popped (its immediate post-dominator), unless that is the exit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconverges_at: Option<u64>,
    pub mask: Lanes,
}

impl From<&sim::StackView> for StackEntryView {
    fn from(e: &sim::StackView) -> Self {
        StackEntryView {
            tag: e.tag.into(),
            pc: e.pc,
            address: e.address,
            reconverges_at: e.reconverges_at,
            mask: e.mask.into(),
        }
    }
}

/// What pushed a stack entry (`"sync"`, `{"barrier": 0}`, `{"ipdom": {"arrived": true}}`),
/// grouped by the stack that has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TagView {
    /// PTX's post-dominator stack: a divergent path waiting to run, the warp waiting at an
    /// immediate post-dominator (`arrived` once some lanes reached it), and where the
    /// running path reconverges.
    Path,
    Ipdom {
        arrived: bool,
    },
    Rpc,
    /// The SASS reconvergence stack up to Pascal: what `SSY`, `PBK`, `PCNT` and `CAL` push,
    /// and its bottom.
    Sync,
    Brk,
    Cont,
    Call,
    Nil,
    /// Volta and later: a convergence barrier `Bn`, and the whole warp saved for a
    /// full-warp `WARPSYNC`.
    Barrier(u8),
    WarpSync,
    /// An unknown rest of the stack (the acyclic-stack ablation only).
    Any,
}

impl From<cfg::Tag> for TagView {
    fn from(t: cfg::Tag) -> Self {
        use cfg::Tag as T;
        match t {
            T::Nil => Self::Nil,
            T::Sync => Self::Sync,
            T::Brk => Self::Brk,
            T::Cont => Self::Cont,
            T::Call => Self::Call,
            T::Barrier(b) => Self::Barrier(b),
            T::WarpSync => Self::WarpSync,
            T::Path => Self::Path,
            T::Ipdom { arrived } => Self::Ipdom { arrived },
            T::Rpc => Self::Rpc,
            T::Any => Self::Any,
        }
    }
}

/// Under independent thread scheduling: the thread groups that issue independently (oldest
/// first, exactly one `issuing`) and the convergence-barrier registers that record threads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ThreadGroupsView {
    pub groups: Vec<ThreadGroupView>,
    pub barriers: Vec<BarrierRegisterView>,
}

impl From<&sim::GroupsView> for ThreadGroupsView {
    fn from(g: &sim::GroupsView) -> Self {
        ThreadGroupsView {
            groups: g
                .groups
                .iter()
                .map(|t| ThreadGroupView {
                    mask: t.mask.into(),
                    pc: t.pc,
                    address: t.address,
                    waiting: t.waiting.clone(),
                    issuing: t.issuing,
                })
                .collect(),
            barriers: g
                .barriers
                .iter()
                .map(|b| BarrierRegisterView {
                    barrier: b.barrier,
                    mask: b.mask.into(),
                })
                .collect(),
        }
    }
}

/// One thread group: its threads, its next instruction (or the one it waits at) and what
/// it waits for (`BSYNC B0`, `WARPSYNC`; absent when it can run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ThreadGroupView {
    pub mask: Lanes,
    pub pc: usize,
    pub address: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// The scheduler chose it for this step.
    pub issuing: bool,
}

/// A convergence-barrier register `Bn` and the threads it records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct BarrierRegisterView {
    pub barrier: u8,
    pub mask: Lanes,
}

/// One register in every lane of the stepper's warp: as the listing names it (`R4`, `P0`,
/// `UR6`, `CC`), its value after the instruction when `written`, else before; lane 0 first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RegisterView {
    pub name: String,
    pub written: bool,
    pub values: Vec<u32>,
}

impl From<sim::RegisterValues> for RegisterView {
    fn from(r: sim::RegisterValues) -> Self {
        let written = r.written;
        RegisterView {
            written,
            name: r.name,
            values: r.values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_their_report_names() {
        let names = [
            (cfg::Tag::Sync, serde_json::json!("sync")),
            (cfg::Tag::WarpSync, serde_json::json!("warp_sync")),
            (cfg::Tag::Barrier(2), serde_json::json!({"barrier": 2})),
            (
                cfg::Tag::Ipdom { arrived: true },
                serde_json::json!({"ipdom": {"arrived": true}}),
            ),
        ];
        for (tag, want) in names {
            let got = serde_json::to_value(TagView::from(tag)).unwrap_or_default();
            assert_eq!(got, want, "{tag:?}");
        }
    }
}
