//! Analysis switches (the ablations of §4.2) and budgets.

/// What the abstract interpretation tracks. The default is the full analysis; each switch
/// removes one component, reproducing the study of Jeanmougin et al. §4.2. Every ablation
/// over-approximates the full analysis, so its CFG has at least the same edges and its WCET
/// is never lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Agreement domain (§3.3). Off: every guarded instruction may diverge.
    pub agreement: bool,
    /// Agreement also for pending groups. Off: "agreement tracking only for `active`" —
    /// a group that waits on the stack forgets what it agreed on.
    pub pending_agreement: bool,
    /// Thread-group relations (§3.2). Off: no relation between groups is known, so every
    /// filtered stack entry may or may not become empty and pending groups only get weak
    /// updates.
    pub groups: bool,
    /// Cyclic stack graphs (§3.1). Off ("limitation to acyclic graphs"): an activation point
    /// may not repeat in a stack; when it would, the stack below it is abstracted to "any
    /// stack", whose pops may resume at any activation point pushed so far.
    pub cyclic_stacks: bool,
    /// Most abstract states (warp-CFG nodes) explored.
    pub max_states: usize,
    /// Deepest activation stack followed.
    pub max_stack_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            agreement: true,
            pending_agreement: true,
            groups: true,
            cyclic_stacks: true,
            max_states: 20_000,
            max_stack_depth: 48,
        }
    }
}
