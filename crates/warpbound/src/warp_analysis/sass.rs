//! A SASS kernel as the warp-level analysis reads it ([`ParsedSass`]: indirect targets
//! annotated), its warp-level CFG by abstract interpretation of the activation stack (crate
//! `cfg`, Jeanmougin et al. §3) and the IPET bound of that CFG under a cost model ([`bound`],
//! [`bound_with_extras`]): the `warp-cfg` mode's bound on SASS, and the `block` mode's warp
//! bound and issue count.

use super::ipet_bound::{self, BoundRequest, Listing};
use super::parameters::{Cost, WarpCfgParams};
use super::{indirect, shared_loops};
use crate::kernel_text::{self, Sass};
use crate::mode::{ModeInput, ModeOutput};
use crate::params::LoopBounds;
use crate::report::CfgNode;
use crate::views::graph::block_node;
use cfg::Tag;
use isa::{BlockGraph, Kernel, Span};
use std::collections::BTreeMap;

/// A SASS kernel as the analysis reads it (indirect targets annotated), the names of its
/// functions, and the kernel as listed when the annotation changed it (what the simulator
/// runs: it does not take the annotation's word for where an indirect branch goes).
pub(crate) struct ParsedSass {
    pub sass: Sass,
    pub functions: Vec<String>,
    pub listed: Option<Kernel>,
}

impl ParsedSass {
    /// The kernel the simulator runs.
    pub(crate) fn runnable(&self) -> &Kernel {
        self.listed.as_ref().unwrap_or(&self.sass.kernel)
    }
}

/// Parses the request's SASS for the analysis ([`ParsedSass`]).
pub(crate) fn parse_sass(
    input: &ModeInput,
    p: &WarpCfgParams,
    out: &mut ModeOutput,
) -> Option<ParsedSass> {
    let mut functions = Vec::new();
    let mut listed = None;
    let sass = kernel_text::sass_with(input, out, |k, names, d| {
        functions = names.to_vec();
        if !p.indirect.is_empty() {
            listed = Some(k.clone());
        }
        indirect::annotate(k, &p.indirect, names, true, d);
    })?;
    Some(ParsedSass {
        sass,
        functions,
        listed,
    })
}

fn context(kernel: &Kernel, stack: &[cfg::Entry]) -> String {
    stack
        .iter()
        .rev()
        .map(|e| {
            if e.is_any() {
                return "…any".to_string();
            }
            let points: Vec<String> = e
                .points
                .iter()
                .map(|p| {
                    let tag = match p.tag {
                        Tag::Nil => "NIL".to_string(),
                        Tag::Sync => "SYNC".to_string(),
                        Tag::Brk => "BRK".to_string(),
                        Tag::Cont => "CONT".to_string(),
                        Tag::Call => "CALL".to_string(),
                        Tag::Barrier(b) => format!("B{b}"),
                        Tag::WarpSync => "WARP".to_string(),
                        Tag::Any => "ANY".to_string(),
                        Tag::Path => "PATH".to_string(),
                        Tag::Ipdom { .. } => "IPDOM".to_string(),
                        Tag::Rpc => "RPC".to_string(),
                    };
                    let addr = kernel.instructions.get(p.pc).map_or(0, |i| i.address);
                    format!("{tag}@{addr:#06x}")
                })
                .collect();
            let body = if points.len() > 1 {
                format!("({})", points.join("|"))
            } else {
                points.concat()
            };
            format!("{body}{}", if e.repeated { "+" } else { "" })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cost of one execution of block `b` under `cost`, whatever ran before it. Under
/// `cost=control` that is the block entered with every scoreboard barrier pending for the
/// table's largest latency (where the path is known, [`SassListing::node_costs`] carries
/// the actual state instead); an instruction without control bits costs its unit cycle
/// (the bound that needs the bits reports their absence).
pub(super) fn block_cost(kernel: &Kernel, graph: &BlockGraph, b: usize, cost: &Cost) -> u64 {
    let block = &graph.blocks[b];
    let instrs = kernel
        .instructions
        .get(block.first..=block.last)
        .unwrap_or(&[]);
    match cost {
        Cost::Latency(t) => cfg::latency::block_cycles(instrs, t),
        Cost::Control(t) => {
            let worst = cfg::TimingClass::ALL
                .iter()
                .map(|&c| t.latency_of(c))
                .max()
                .unwrap_or(1);
            let entry = cfg::control::Scoreboard {
                remaining: [worst; cfg::control::BARRIERS],
            };
            cfg::control::run(instrs, block.first, entry, t)
                .map_or_else(|_| cfg::latency::unit_cycles(instrs), |(c, _)| c)
        }
        Cost::Unit => cfg::latency::unit_cycles(instrs),
        Cost::Units { load_store, core } => instrs
            .iter()
            .map(|i| if is_memory(i) { *load_store } else { *core })
            .sum(),
    }
}

/// Whether `i` runs on the load/store units in the makespan model (the `L` of the L/C
/// reduction: global, shared, local, constant and texture accesses).
pub(crate) fn is_memory(i: &isa::Instruction) -> bool {
    use isa::ResourceClass as R;
    matches!(
        i.class,
        R::LoadStoreGlobal | R::LoadStoreShared | R::LoadStoreLocal | R::Constant | R::Texture
    )
}

/// A SASS kernel's blocks as the IPET bound sees them.
struct SassListing<'a> {
    sass: &'a Sass,
    cost: &'a Cost,
    /// Cost of a block beyond its instructions: the candidates of the indirect call it ends
    /// with (`indirect`).
    extra: BTreeMap<usize, u64>,
}

impl Listing for SassListing<'_> {
    fn cost(&self, b: usize) -> u64 {
        block_cost(&self.sass.kernel, &self.sass.graph, b, self.cost)
            .saturating_add(self.extra.get(&b).copied().unwrap_or(0))
    }

    fn node(&self, id: usize, b: usize, stack: &[cfg::Entry]) -> CfgNode {
        let kernel = &self.sass.kernel;
        block_node(kernel, &self.sass.graph, id, b, context(kernel, stack))
    }

    fn address(&self, b: usize) -> u64 {
        self.sass.kernel.instructions[self.sass.graph.blocks[b].first].address
    }

    fn span(&self, b: usize) -> Span {
        self.sass.kernel.instructions[self.sass.graph.blocks[b].first].span
    }

    fn labels(&self, _: usize) -> Vec<String> {
        Vec::new()
    }

    fn accepts_labels(&self) -> bool {
        false
    }

    fn node_costs(&self, warp: &cfg::WarpCfg) -> Result<Vec<u64>, isa::Diagnostic> {
        let Cost::Control(table) = self.cost else {
            return Ok(warp
                .nodes
                .iter()
                .map(|n| n.block.map_or(0, |b| self.cost(b)))
                .collect());
        };
        let (kernel, graph) = (&self.sass.kernel, &self.sass.graph);
        let mut costs = cfg::control::node_costs(kernel, graph, warp, table).map_err(|m| {
            let ins = &kernel.instructions[m.index];
            isa::Diagnostic::error(
                ins.span,
                format!(
                    "cost=control reads the scheduling control bits of each instruction, \
                         and `{}` at {:#06x} has none: give the listing with its encodings \
                         (`cuobjdump -sass` or `nvdisasm` of an sm_50 to sm_90 cubin print them \
                         as /* 0x… */ words), or use cost=latency",
                    ins.opcode.name, ins.address
                ),
            )
        })?;
        for (node, c) in warp.nodes.iter().zip(costs.iter_mut()) {
            if let Some(extra) = node.block.and_then(|b| self.extra.get(&b)) {
                *c = c.saturating_add(*extra);
            }
        }
        Ok(costs)
    }
}

/// Builds the SASS warp-level CFG by abstract interpretation (§3) and bounds it.
pub(crate) fn bound(
    sass: &Sass,
    p: &WarpCfgParams,
    input: &ModeInput,
    functions: &[String],
    out: &mut ModeOutput,
) {
    bound_with_extras(sass, p, input, functions, &[], out);
}

/// [`bound`] under `p.cost`, and the IPET bound of the same warp-level CFG under each cost
/// model of `extra` (the `block` mode's issue count and per-unit work). `None` when there is
/// no bound (see the diagnostics).
pub(crate) fn bound_with_extras(
    sass: &Sass,
    p: &WarpCfgParams,
    input: &ModeInput,
    functions: &[String],
    extras: &[Cost],
    out: &mut ModeOutput,
) -> Option<(u64, Vec<u64>)> {
    let extra = indirect::extra_costs(sass, p, input, functions, out)?;
    let warp = match cfg::build_observed(&sass.kernel, &sass.graph, &p.analysis, input.progress) {
        Ok(w) => w,
        Err(d) => {
            out.diagnostics.push(d);
            return None;
        }
    };
    let a = &p.analysis;
    let components = BTreeMap::from([
        ("agreement".to_string(), a.agreement),
        ("pending_agreement".to_string(), a.pending_agreement),
        ("groups".to_string(), a.groups),
        ("cyclic_stacks".to_string(), a.cyclic_stacks),
    ]);
    let shared = sass_shared_bounds(sass, &warp, &p.loop_bounds);
    let request = |cost: &Cost| BoundRequest {
        loop_bounds: &p.loop_bounds,
        budget: &p.budget,
        cost_model: cost.name(),
        components: components.clone(),
        progress: input.progress,
        shared: shared.clone(),
    };
    let listing = SassListing {
        sass,
        cost: &p.cost,
        extra: extra.clone(),
    };
    ipet_bound::bound(&warp, &listing, &request(&p.cost), out);
    let main = out.wcet.as_ref()?.cycles;
    let mut values = Vec::with_capacity(extras.len());
    for cost in extras {
        // The indirect candidates' extra stays in the main cost model's cycles: at least
        // their instructions, so still a bound on what is counted here.
        let listing = SassListing {
            sass,
            cost,
            extra: extra.clone(),
        };
        let mut scratch = ModeOutput::default();
        ipet_bound::bound(&warp, &listing, &request(cost), &mut scratch);
        values.push(scratch.wcet?.cycles);
    }
    Some((main, values))
}

/// The shared loop bounds ([`shared_loops`]) of a SASS warp-level CFG: loops of the
/// thread-level block graph, bounds by header address.
fn sass_shared_bounds(sass: &Sass, warp: &cfg::WarpCfg, lb: &LoopBounds) -> Vec<ipet::SharedBound> {
    let g = &sass.graph;
    let thread = ipet::Cfg {
        costs: vec![0; g.blocks.len()],
        edges: g
            .edges()
            .iter()
            .filter(|e| !matches!(e.2, isa::EdgeKind::Call | isa::EdgeKind::Return))
            .map(|&(from, to, _)| (from, to))
            .collect(),
        entry: 0,
        exits: Vec::new(),
    };
    let halts_into = |l: &ipet::Loop| {
        let inside = |b: usize| l.body.binary_search(&b).is_ok();
        g.edges().iter().any(|&(from, to, kind)| {
            !matches!(kind, isa::EdgeKind::Fallthrough | isa::EdgeKind::Taken)
                && !inside(from)
                && inside(to)
        })
    };
    shared_loops::shared_bounds(
        &thread,
        warp,
        |h| {
            let address = sass.kernel.instructions[g.blocks[h].first].address;
            lb.per_address.get(&address).copied().or(lb.default)
        },
        halts_into,
    )
}
