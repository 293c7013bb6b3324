//! The wire form of the Sim-D kernel's code as the `phases` crate analysed it (Spliet &
//! Mullins §5.1–5.3): the basic blocks with their worst-case costs and requests, the
//! control-stack-annotated edges and the loops the graph view draws. Part of
//! `details.simd` ([`super::simd_parts`]).

use super::wire_view::wire_view;
use serde::Serialize;
use ts_rs::TS;

wire_view! {
    /// A basic block (§5.1) for the graph view: its instructions and source lines, its cold and
    /// warm pipeline costs (§5.3) and the request ending it.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
    pub struct SimdBlockView from phases::BlockInfo as b {
        id: usize,
        first_instruction: usize,
        instruction_count: usize,
        /// Source lines of the first and last instruction (1-based).
        first_line: u32,
        last_line: u32,
        /// The label naming the block, if any.
        label: Option<String>,
        /// Cold-pipeline cost in compute cycles (§5.3).
        cold_cycles: u64,
        /// Warm-pipeline cost (`null` for the last block).
        warm_cycles: Option<u64>,
        /// The DRAM or scratchpad request ending the block.
        access: Option<SimdAccessView> = b.access.as_ref().map(Into::into),
    }
}

/// The worst-case cost of one request (§5.3): which bound was applied, with its inputs, and
/// the longest issue delay (LID) it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdAccessView {
    /// Instruction index of the request.
    pub instruction: usize,
    /// The request's op, its mnemonic's parts joined by underscores: `ldg_lin`, `stg_lin`,
    /// `ldg_c_idx`, `stg_c_idx`, `ldg2_sp_tile`, `stg2_sp_tile`, `sldg`, `ldg_b_idx`,
    /// `stg_b_idx`, `ldg_idx_it`, `stg_idx_it`, `ldsp_b_idx`, `stsp_b_idx`, `sldsp`,
    /// `ldsp_lin`, `stsp_lin` (the only ops that end a block with a request).
    pub op: &'static str,
    pub resource: SimdResource,
    pub model: SimdAccessModel,
    /// LID in DRAM clock cycles (the scratchpad runs at the DRAM clock).
    pub dram_cycles: u64,
    /// The same in compute cycles (rounded up): the phase cost.
    pub cycles: u64,
}

impl From<&phases::AccessCost> for SimdAccessView {
    fn from(a: &phases::AccessCost) -> Self {
        SimdAccessView {
            instruction: a.instruction,
            op: request_op(a.op),
            resource: a.resource.into(),
            model: (&a.model).into(),
            dram_cycles: a.dram_cycles,
            cycles: a.cycles,
        }
    }
}

/// The wire name of a request op (schema version 3's spelling); any other op (none reaches
/// here: `phases::access` refuses them) by its mnemonic.
fn request_op(op: isa::simd::Op) -> &'static str {
    use isa::simd::Op;
    match op {
        Op::LdgLin => "ldg_lin",
        Op::StgLin => "stg_lin",
        Op::LdgCIdx => "ldg_c_idx",
        Op::StgCIdx => "stg_c_idx",
        Op::Ldg2SpTile => "ldg2_sp_tile",
        Op::Stg2SpTile => "stg2_sp_tile",
        Op::Sldg => "sldg",
        Op::LdgBIdx => "ldg_b_idx",
        Op::StgBIdx => "stg_b_idx",
        Op::LdgIdxIt => "ldg_idx_it",
        Op::StgIdxIt => "stg_idx_it",
        Op::LdspBIdx => "ldsp_b_idx",
        Op::StspBIdx => "stsp_b_idx",
        Op::Sldsp => "sldsp",
        Op::LdspLin => "ldsp_lin",
        Op::StspLin => "stsp_lin",
        other => other.name(),
    }
}

/// The resource a phase occupies (§4.1: COMPUTE, DRAM, SP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SimdResource {
    Compute,
    Dram,
    Scratchpad,
}

impl From<phases::Resource> for SimdResource {
    fn from(r: phases::Resource) -> Self {
        match r {
            phases::Resource::Compute => SimdResource::Compute,
            phases::Resource::Dram => SimdResource::Dram,
            phases::Resource::Scratchpad => SimdResource::Scratchpad,
        }
    }
}

/// Which bound of §5.3 priced a request, with its inputs (tagged by `model`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum SimdAccessModel {
    /// A tile request (§3.2.1): the controller simulation over every start offset;
    /// `bursts`/`worst_offset` the most bursts over word alignments (for Eq. 15
    /// comparisons), `simulated` the simulation's result (its `lid` is the cost).
    Tiled {
        stride: SimdStrideView,
        bursts: u64,
        worst_offset: u64,
        write: bool,
        simulated: SimdSimulatedLidView,
    },
    /// The controller simulation at the buffer's own address (`sldg`).
    Single {
        stride: SimdStrideView,
        bursts: u64,
        simulated: SimdSimulatedLidView,
    },
    /// Eq. 15 over the whole buffer, unaligned (`ldgbidx`/`stgbidx`).
    BlockIndexed {
        buffer_words: u64,
        bursts: u64,
        write: bool,
    },
    /// Eq. 16, one burst per work-item (`ldgidxit`/`stgidxit`).
    IndexIterative {
        buffer_words: u64,
        rows: u64,
        write: bool,
    },
    /// Scratchpad (§3.3): `lines` bus transfers plus one front-end cycle.
    Scratchpad { words: u64, lines: u64 },
}

impl From<&phases::AccessModel> for SimdAccessModel {
    fn from(m: &phases::AccessModel) -> Self {
        use phases::AccessModel as M;
        match *m {
            M::Tiled {
                stride,
                bursts,
                worst_offset,
                write,
                simulated,
            } => SimdAccessModel::Tiled {
                stride: stride.into(),
                bursts,
                worst_offset,
                write,
                simulated: (&simulated).into(),
            },
            M::Single {
                stride,
                bursts,
                simulated,
            } => SimdAccessModel::Single {
                stride: stride.into(),
                bursts,
                simulated: (&simulated).into(),
            },
            M::BlockIndexed {
                buffer_words,
                bursts,
                write,
            } => SimdAccessModel::BlockIndexed {
                buffer_words,
                bursts,
                write,
            },
            M::IndexIterative {
                buffer_words,
                rows,
                write,
            } => SimdAccessModel::IndexIterative {
                buffer_words,
                rows,
                write,
            },
            M::Scratchpad { words, lines } => SimdAccessModel::Scratchpad { words, lines },
        }
    }
}

/// A stride descriptor (§3.2.1): `period_count` periods of `words` consecutive 32-bit words,
/// each period starting `period` words after the previous one, from byte address `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdStrideView {
    pub addr: u64,
    pub words: u64,
    pub period: u64,
    pub period_count: u64,
}

impl From<phases::stride::Stride> for SimdStrideView {
    fn from(s: phases::stride::Stride) -> Self {
        SimdStrideView {
            addr: s.addr,
            words: s.words,
            period: s.period,
            period_count: s.period_count,
        }
    }
}

wire_view! {
    /// The DRAM controller simulation of one request over its start offsets (the reference
    /// tool's, §5.3).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
    pub struct SimdSimulatedLidView from phases::controller::SimulatedLid as s {
        /// The largest LID in DRAM cycles (includes the front-end delay).
        lid: u64,
        /// Byte address of a start that attains it.
        worst_addr: u64,
        /// Burst requests issued at that start.
        bursts: u64,
        /// Start offsets simulated and how many distinct command streams they produced.
        offsets: u64,
        distinct_streams: u64,
        /// Work charged to the `max_dram_sim_steps` budget.
        steps: u64,
    }
}

/// A CFG edge (§5.2) for the graph view, with its stack annotation and its transition
/// penalty (§5.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdEdgeView {
    pub from: usize,
    pub to: usize,
    pub kind: SimdEdgeKind,
    /// CSTACK entries popped on this edge.
    pub cpops: u32,
    /// Stack annotation (bottom first), §5.2.
    pub stack: Vec<SimdStackEntryView>,
    /// Transition penalty in compute cycles (§5.3).
    pub cycles: u64,
}

impl From<&phases::EdgeInfo> for SimdEdgeView {
    fn from(e: &phases::EdgeInfo) -> Self {
        SimdEdgeView {
            from: e.from,
            to: e.to,
            kind: match e.kind {
                phases::EdgeKind::Fallthrough => SimdEdgeKind::Fallthrough,
                phases::EdgeKind::Jump => SimdEdgeKind::Jump,
                phases::EdgeKind::CpopInjected => SimdEdgeKind::CpopInjected,
            },
            cpops: e.cpops,
            stack: e
                .stack
                .iter()
                .map(|s| SimdStackEntryView {
                    target: s.target,
                    kind: match s.kind {
                        phases::StackKind::Run => SimdStackKind::Run,
                        phases::StackKind::Break => SimdStackKind::Break,
                        phases::StackKind::Return => SimdStackKind::Return,
                    },
                })
                .collect(),
            cycles: e.cycles,
        }
    }
}

/// Edge classes, which §5.3 prices differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SimdEdgeKind {
    /// Falls through to the next block: the warm-minus-cold pipeline penalty.
    Fallthrough,
    /// A taken branch: a pipeline flush.
    Jump,
    /// A decoder-injected `cpop`: one `cpop` execution per popped entry.
    CpopInjected,
}

/// One entry of an edge's stack annotation (§5.2): the block it returns to and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct SimdStackEntryView {
    pub target: usize,
    pub kind: SimdStackKind,
}

/// Type of a CSTACK entry (the `cpush` sub-operation, §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SimdStackKind {
    /// `cpush.if`, `bra`: restore the run mask at the end of an if/else block.
    Run,
    /// `cpush.brk`: loop break point.
    Break,
    /// `cpush.jc`, `call`: return point.
    Return,
}

/// A loop (§5.4): blocks `start..=end`, entered at `start`, repeated by a back edge from
/// `end`; `parent` and `children` are indices into `loops`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct SimdLoopView {
    pub start: usize,
    pub end: usize,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

impl From<&phases::loops::Loop> for SimdLoopView {
    fn from(l: &phases::loops::Loop) -> Self {
        SimdLoopView {
            start: l.start,
            end: l.end,
            parent: l.parent,
            children: l.children.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::request_op;
    use isa::simd::Op;

    /// Every op's wire name is its mnemonic with the parts separated: no op is misnamed.
    #[test]
    fn request_op_names_spell_the_mnemonic() {
        for &op in Op::ALL {
            assert_eq!(request_op(op).replace('_', ""), op.name(), "{op:?}");
        }
        assert_eq!(request_op(Op::Ldg2SpTile), "ldg2_sp_tile");
        assert_eq!(request_op(Op::LdgCIdx), "ldg_c_idx");
    }
}
