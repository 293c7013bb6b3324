//! The warp state abstract domain (§3.4): program point, pending activation stack, thread
//! groups and their agreements.
//!
//! The activation-stack graph of §3.1 is kept here as a list of entries where an entry may be
//! marked `repeated`: a self-cycle of the stack graph, standing for one or more consecutive
//! copies of the same activation point (this is how a loop whose back edge diverges — each
//! iteration leaving threads pending at the loop exit — reaches a fixpoint). The currently
//! executing entry (the paper's top, always `NIL`) is implicit: `pc` and group slot 0.

use crate::groups::Groups;

/// Entry type (§2): `NIL` is a pending divergent path; `SYNC`/`BRK` (and `CONT`) are
/// reconvergence points pushed by `SSY`/`PBK` (`PCNT`); `CALL` is a return point pushed by
/// `CAL`/`PRET` (our extension: `RET` unwinds to it as `BRK` does to `BRK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tag {
    Nil,
    Sync,
    Brk,
    Cont,
    Call,
    /// A convergence barrier `Bn` (Volta and later) opened by `BSSY Bn, target`: its threads
    /// continue together at `target` once all of them reached `BSYNC Bn` or left it with
    /// `BREAK Bn` (see [`crate::barriers`]).
    Barrier(u8),
    /// The whole warp, saved when it first diverges outside any region in a kernel that
    /// reconverges with a full-warp `WARPSYNC` (see [`crate::barriers`]). Its point is the
    /// instruction after the `WARPSYNC` where the first arrivals wait ([`NOT_ARRIVED`] before).
    WarpSync,
    /// PTX's post-dominator stack ([`crate::ptx::pdom`]): a divergent path waiting to run
    /// from its `pc`.
    Path,
    /// PTX's post-dominator stack: the warp waiting at `pc` (an immediate post-dominator;
    /// `usize::MAX`: the function's end) for the paths above it; `arrived` once some lanes
    /// reached it.
    Ipdom {
        arrived: bool,
    },
    /// PTX's post-dominator stack: where the running path reconverges (shown on top).
    Rpc,
    /// "Any stack" (only with the acyclic-stack ablation): an unknown rest of the stack,
    /// whose pops may resume at any activation point pushed so far, or find it empty.
    Any,
}

impl Tag {
    /// The entry a halting instruction unwinds to: `SYNC`→SYNC, `BRK`→BRK, `CONT`→CONT,
    /// `RET`→CALL, `BSYNC Bn`→barrier `Bn`; `None` for `EXIT`, which filters the whole stack (§2).
    pub fn unwound_by(control: isa::ControlKind) -> Option<Tag> {
        match control {
            isa::ControlKind::Sync => Some(Tag::Sync),
            isa::ControlKind::Brk => Some(Tag::Brk),
            isa::ControlKind::Cont => Some(Tag::Cont),
            isa::ControlKind::Ret => Some(Tag::Call),
            isa::ControlKind::Bsync { barrier } => Some(Tag::Barrier(barrier)),
            _ => None,
        }
    }

    /// The entry a reconvergence-preparation instruction pushes, with its target address:
    /// `SSY`→SYNC, `PBK`→BRK, `PCNT`→CONT, `PRET`→CALL, `BSSY Bn`→barrier `Bn`.
    pub fn pushed_by(control: isa::ControlKind) -> Option<(Tag, Option<u64>)> {
        match control {
            isa::ControlKind::Ssy(t) => Some((Tag::Sync, t)),
            isa::ControlKind::Pbk(t) => Some((Tag::Brk, t)),
            isa::ControlKind::Pcnt(t) => Some((Tag::Cont, t)),
            isa::ControlKind::Pret(t) => Some((Tag::Call, t)),
            isa::ControlKind::Bssy { barrier, target } => Some((Tag::Barrier(barrier), target)),
            _ => None,
        }
    }
}

/// The point of a [`Tag::WarpSync`] entry no group has reached a `WARPSYNC` for yet.
pub const NOT_ARRIVED: usize = usize::MAX - 1;

/// An activation point: resume at instruction `pc` (an index into the kernel) with type `tag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub pc: usize,
    pub tag: Tag,
}

/// One node of the stack graph as it appears in a stack: an ordinary entry (one point), a
/// self-cycle (one point, `repeated`: one or more consecutive copies), or a strongly connected
/// part of the graph (several points, `repeated`: any sequence of one or more entries drawn
/// from them). Cycles arise in loops that leave threads pending on every iteration; they are
/// how the abstract stack stays finite (§3.1, §3.2 "an upper bound on it when in a cycle").
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// Sorted, without duplicates.
    pub points: Vec<Point>,
    pub repeated: bool,
}

impl Entry {
    pub fn single(pc: usize, tag: Tag) -> Self {
        Entry {
            points: vec![Point { pc, tag }],
            repeated: false,
        }
    }

    /// The "any stack" entry of the acyclic ablation.
    pub fn any() -> Self {
        Entry {
            points: vec![Point {
                pc: usize::MAX,
                tag: Tag::Any,
            }],
            repeated: true,
        }
    }

    pub fn is_any(&self) -> bool {
        self.points.iter().any(|p| p.tag == Tag::Any)
    }

    pub fn contains(&self, pc: usize, tag: Tag) -> bool {
        self.points.contains(&Point { pc, tag })
    }

    pub fn has_tag(&self, tag: Tag) -> bool {
        self.points.iter().any(|p| p.tag == tag)
    }

    /// One point only (possibly repeated).
    pub fn is_single(&self) -> bool {
        self.points.len() == 1
    }

    /// Adds the points of `other`, making this a cycle.
    pub fn absorb(&mut self, other: &Entry) {
        self.points.extend(other.points.iter().copied());
        self.points.sort();
        self.points.dedup();
        self.repeated = true;
    }
}

/// An abstract warp state at the entry of a basic block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Block index (in the thread-level block graph).
    pub block: usize,
    /// Pending entries, bottom first. Entry `i` owns group slot `i + 1`.
    pub stack: Vec<Entry>,
    pub groups: Groups,
}

/// States with the same key are joined: same block, same stack shape.
pub type Key = (usize, Vec<Entry>);

impl State {
    pub fn key(&self) -> Key {
        (self.block, self.stack.clone())
    }

    pub fn slot_of(entry_index: usize) -> usize {
        entry_index + 1
    }
}
