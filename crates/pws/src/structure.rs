//! The branch structure of an acyclic wavefront CFG: the helper functions Reconv(),
//! SuccBB(), BSB() and Parent() of PWS §4.2 (Def. 4.1), and the branch tree that Select,
//! the resource model and the optimal split selection walk.
//!
//! Reading of the paper used here (§4.2, Fig. 7–8):
//! * a divergent branch node `u` has two successors: `SuccBB(u)`, the first block of the
//!   first path, and `BSB(u)`, the branch serialisation block that starts the second path
//!   (the edge `u → BSB(u)` skips the first path when no work-item takes it);
//! * the BSB has two successors: `SuccBB(BSB(u))`, the first block of the second path, and
//!   `Reconv(u)`, the reconvergence node (the edge `BSB(u) → Reconv(u)` skips the second
//!   path);
//! * an `if` without `else` has no BSB: `u`'s second successor is `Reconv(u)` itself;
//! * `Parent(u)` is the innermost branch *or BSB* `v` whose region (between `v` and
//!   `Reconv(v)`) contains `u` (Def. 4.1), so branches in the two paths of one branch have
//!   different parents, and branches in sequence on one path share one.
//!
//! We compute `Reconv(u)` as the immediate post-dominator of `u` (the first node every path
//! from `u` reaches), which is the paper's join point on every graph the compiler produces
//! and is well defined on any acyclic graph. A branch whose shape does not match one of the
//! two patterns above cannot be split; it is still analysed exactly (as a choice between
//! its successors, which for `C_BSB` means the serialised worst case).

use std::collections::BTreeMap;

use crate::budget::Budget;
use crate::error::{Error, ErrorKind};
use crate::graph::{NodeKind, WavefrontCfg};

/// The nodes around a splittable divergent branch (PWS §4.2 helper functions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchShape {
    /// The branch node `u`.
    pub branch: usize,
    /// `SuccBB(u)`: first block of the first path.
    pub succ_bb: usize,
    /// `BSB(u)`, absent for an `if` without `else`.
    pub bsb: Option<usize>,
    /// `SuccBB(BSB(u))`: first block of the second path.
    pub bsb_succ: Option<usize>,
    /// `Reconv(u)` (= `Reconv(BSB(u))`).
    pub reconv: usize,
}

/// One element of a path in the branch tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A block with one successor (or none).
    Node { node: usize },
    /// A block with several successors that cannot be split: the wavefront (or SWF)
    /// takes one of the arms; each arm ends where the arms rejoin.
    Choice { node: usize, arms: Vec<Vec<Item>> },
    /// A splittable divergent branch with its two paths ([`Split`]).
    Split(Split),
}

/// A splittable divergent branch of the branch tree with its two paths (the second is empty
/// for an `if` without `else`); the BSB, if any, belongs to it. One struct, so that the walks
/// over the tree (contexts, Select's costs, dispatch timelines) take it as one value. In JSON
/// its fields stand next to `kind`, as a variant's would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub branch: usize,
    pub bsb: Option<usize>,
    pub path1: Vec<Item>,
    pub path2: Vec<Item>,
}

impl Split {
    /// The blocks the split itself runs before its paths: the branch, then the BSB if any.
    pub fn blocks(&self) -> impl Iterator<Item = usize> {
        std::iter::once(self.branch).chain(self.bsb)
    }
}

/// The structural facts about an acyclic wavefront CFG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structure {
    /// Reachable nodes in topological order.
    pub topo: Vec<usize>,
    /// Position of each node in `topo` (`usize::MAX` when unreachable).
    pub position: Vec<usize>,
    /// Immediate post-dominator of each node; `None` for the virtual exit (the node's
    /// paths only meet at the end of the program) and for unreachable nodes.
    pub ipdom: Vec<Option<usize>>,
    /// Every divergent branch that can be split, by node.
    pub shapes: BTreeMap<usize, BranchShape>,
    /// `Parent(u)` (Def. 4.1) of every splittable branch; `None` is the paper's `0`
    /// (no enclosing branch).
    pub parent: BTreeMap<usize, Option<usize>>,
    /// Divergent branch nodes whose shape matches no split pattern.
    pub unsplittable: Vec<usize>,
    /// The whole graph as a path of items from the entry.
    pub tree: Vec<Item>,
}

impl Structure {
    /// Analyses `cfg`, which must be acyclic.
    ///
    /// # Errors
    /// A cycle, or the `max_tree_items` / `max_nesting` budgets.
    pub fn of(cfg: &WavefrontCfg, budget: &Budget) -> Result<Structure, Error> {
        let topo = cfg.topological_order()?;
        let n = cfg.nodes.len();
        let mut position = vec![usize::MAX; n];
        for (i, &u) in topo.iter().enumerate() {
            position[u] = i;
        }
        let ipdom = post_dominators(cfg, &topo);
        let mut shapes = BTreeMap::new();
        let mut unsplittable = Vec::new();
        for &u in &topo {
            if cfg.nodes[u].kind != NodeKind::Branch {
                continue;
            }
            match shape(cfg, &ipdom, u) {
                Some(s) => {
                    shapes.insert(u, s);
                }
                None => unsplittable.push(u),
            }
        }
        let mut builder = TreeBuilder {
            cfg,
            ipdom: &ipdom,
            shapes: &shapes,
            parent: BTreeMap::new(),
            items: 0,
            budget,
        };
        let tree = builder.seq(cfg.entry, None, None, 0)?;
        let parent = builder.parent;
        Ok(Structure {
            topo,
            position,
            ipdom,
            shapes,
            parent,
            unsplittable,
            tree,
        })
    }

    /// `Reconv(u)` for a splittable branch or its BSB.
    pub fn reconv(&self, u: usize) -> Option<usize> {
        if let Some(s) = self.shapes.get(&u) {
            return Some(s.reconv);
        }
        self.shapes
            .values()
            .find(|s| s.bsb == Some(u))
            .map(|s| s.reconv)
    }

    /// The splittable branch whose BSB is `b`.
    pub fn owner_of_bsb(&self, b: usize) -> Option<usize> {
        self.shapes
            .values()
            .find(|s| s.bsb == Some(b))
            .map(|s| s.branch)
    }
}

/// Immediate post-dominators on a DAG, by one pass in reverse topological order: the
/// post-dominator of a node is the nearest common post-dominator of its successors.
fn post_dominators(cfg: &WavefrontCfg, topo: &[usize]) -> Vec<Option<usize>> {
    let n = cfg.nodes.len();
    let virt = n;
    let mut ipdom = vec![virt; n + 1];
    let mut depth = vec![0usize; n + 1];
    for &x in topo.iter().rev() {
        let succ = &cfg.nodes[x].successors;
        let mut cur = match succ.first() {
            Some(&s) => s,
            None => virt,
        };
        for &s in succ.iter().skip(1) {
            let (mut a, mut b) = (cur, s);
            while a != b {
                if depth[a] >= depth[b] {
                    a = ipdom[a];
                } else {
                    b = ipdom[b];
                }
            }
            cur = a;
        }
        ipdom[x] = cur;
        depth[x] = depth[cur] + 1;
    }
    let reach = cfg.reachable();
    (0..n)
        .map(|x| (reach[x] && ipdom[x] != virt).then_some(ipdom[x]))
        .collect()
}

/// Matches `u` against the two split patterns of the module docs.
fn shape(cfg: &WavefrontCfg, ipdom: &[Option<usize>], u: usize) -> Option<BranchShape> {
    let succ = &cfg.nodes[u].successors;
    if succ.len() != 2 {
        return None;
    }
    let p = ipdom[u]?;
    // if-then-else: the join of u is its BSB successor.
    if cfg.nodes[p].kind == NodeKind::Bsb && succ.contains(&p) {
        let a = *succ.iter().find(|&&s| s != p)?;
        let bs = &cfg.nodes[p].successors;
        let r = ipdom[p]?;
        if bs.len() == 2 && bs.contains(&r) {
            let c = *bs.iter().find(|&&s| s != r)?;
            return Some(BranchShape {
                branch: u,
                succ_bb: a,
                bsb: Some(p),
                bsb_succ: Some(c),
                reconv: r,
            });
        }
        return None;
    }
    // if-then: one successor is the join itself.
    if succ.contains(&p) {
        let a = *succ.iter().find(|&&s| s != p)?;
        return Some(BranchShape {
            branch: u,
            succ_bb: a,
            bsb: None,
            bsb_succ: None,
            reconv: p,
        });
    }
    None
}

struct TreeBuilder<'a> {
    cfg: &'a WavefrontCfg,
    ipdom: &'a [Option<usize>],
    shapes: &'a BTreeMap<usize, BranchShape>,
    parent: BTreeMap<usize, Option<usize>>,
    items: usize,
    budget: &'a Budget,
}

impl TreeBuilder<'_> {
    /// The path from `start` up to (excluding) `end` (`None`: to the end of the program),
    /// following the post-dominator chain; `owner` is the innermost enclosing branch or
    /// BSB (Def. 4.1).
    fn seq(
        &mut self,
        start: usize,
        end: Option<usize>,
        owner: Option<usize>,
        depth: usize,
    ) -> Result<Vec<Item>, Error> {
        if depth > self.budget.max_nesting {
            return Err(Error::budget(
                "max_nesting",
                self.budget.max_nesting,
                format!("branches nest deeper at node {start}"),
            ));
        }
        let mut out = Vec::new();
        let mut x = Some(start);
        while let Some(u) = x {
            if Some(u) == end {
                break;
            }
            self.items += 1;
            if self.items > self.budget.max_tree_items {
                return Err(Error::budget(
                    "max_tree_items",
                    self.budget.max_tree_items,
                    "the branch tree of this unstructured graph is larger",
                ));
            }
            let node = &self.cfg.nodes[u];
            if let Some(s) = self.shapes.get(&u).copied() {
                self.parent.insert(u, owner);
                let path1 = self.seq(
                    s.succ_bb,
                    Some(s.bsb.unwrap_or(s.reconv)),
                    Some(u),
                    depth + 1,
                )?;
                let path2 = match s.bsb_succ {
                    Some(c) => self.seq(c, Some(s.reconv), s.bsb, depth + 1)?,
                    None => Vec::new(),
                };
                out.push(Item::Split(Split {
                    branch: u,
                    bsb: s.bsb,
                    path1,
                    path2,
                }));
                x = Some(s.reconv);
            } else if node.successors.len() >= 2 {
                let join = self.ipdom[u];
                let arm_owner = match node.kind {
                    NodeKind::Branch | NodeKind::Bsb => Some(u),
                    _ => owner,
                };
                let mut arms = Vec::with_capacity(node.successors.len());
                for &s in &node.successors {
                    arms.push(self.seq(s, join, arm_owner, depth + 1)?);
                }
                out.push(Item::Choice { node: u, arms });
                x = join;
            } else {
                out.push(Item::Node { node: u });
                x = node.successors.first().copied();
            }
        }
        if x.is_none() && end.is_some() {
            return Err(Error::global(
                ErrorKind::Graph,
                format!("internal: the path from node {start} ends before its join"),
            ));
        }
        Ok(out)
    }
}

/// The most splits one execution of `items` can make when at most `s` SWF contexts are
/// live at once — the number of `e_s + e_m` charges a DWS bound must allow (§5.1).
///
/// The paper's DWS bound charges `S` splits (Eq. 3 with `|SB| = S`, Lemma 5.6: "the GPU
/// may select any S branches"). But a context is freed at every merge, so DWS hardware
/// splits again at the next divergent branch: two if-elses in sequence split twice with
/// `S = 1` (the simulator observes it, `crates/sim/tests/gcn_soundness.rs`). The count
/// follows the resource rule of [`contexts_needed`]: a path's items run one after the
/// other, each with all `s` contexts; a split uses one context and shares the other
/// `s − 1` between its two concurrent paths; an unsplit branch runs both paths in turn; a
/// choice is charged for all of its arms (a divergent one runs them all).
pub fn max_splits(items: &[Item], s: u32) -> u64 {
    splits_by_contexts(items, s as usize)
        .last()
        .copied()
        .unwrap_or(0)
}

/// `out[k]`: the most splits with `k` contexts, for `k = 0..=s`.
fn splits_by_contexts(items: &[Item], s: usize) -> Vec<u64> {
    let mut total = vec![0u64; s + 1];
    for it in items {
        let here: Vec<u64> = match it {
            Item::Node { .. } => vec![0; s + 1],
            Item::Choice { arms, .. } => {
                let mut sum = vec![0u64; s + 1];
                for arm in arms {
                    let a = splits_by_contexts(arm, s);
                    for (x, y) in sum.iter_mut().zip(a) {
                        *x = x.saturating_add(y);
                    }
                }
                sum
            }
            Item::Split(split) => {
                let (a, b) = (
                    splits_by_contexts(&split.path1, s),
                    splits_by_contexts(&split.path2, s),
                );
                (0..=s)
                    .map(|k| {
                        let serial = a[k].saturating_add(b[k]);
                        let split = (0..k)
                            .map(|j| 1u64.saturating_add(a[j]).saturating_add(b[k - 1 - j]))
                            .max()
                            .unwrap_or(0);
                        serial.max(split)
                    })
                    .collect()
            }
        };
        for (x, y) in total.iter_mut().zip(here) {
            *x = x.saturating_add(y);
        }
    }
    total
}

/// SWF contexts a split set needs at once (the resource constraint of the issue, read
/// from PWS §4.1: a split holds one SWF context from split to merge; splits in sequence
/// reuse a context freed at a merge; splits that may be active together — nested ones and
/// ones on the two concurrently running paths of a split — each need their own):
/// a path needs the maximum over its items; an unsplit branch or choice the maximum over
/// its arms (they run one after the other); a split `1 +` the sum over its two paths.
pub fn contexts_needed(items: &[Item], splits: &dyn Fn(usize) -> bool) -> u32 {
    items
        .iter()
        .map(|it| match it {
            Item::Node { .. } => 0,
            Item::Choice { arms, .. } => arms
                .iter()
                .map(|a| contexts_needed(a, splits))
                .max()
                .unwrap_or(0),
            Item::Split(split) => {
                let (a, b) = (
                    contexts_needed(&split.path1, splits),
                    contexts_needed(&split.path2, splits),
                );
                if splits(split.branch) {
                    1 + a + b
                } else {
                    a.max(b)
                }
            }
        })
        .max()
        .unwrap_or(0)
}
