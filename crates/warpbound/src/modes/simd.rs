//! The `simd` mode: phase-based WCET of a Sim-D kernel (Spliet & Mullins §4–5, crate
//! `phases`), for the NDRange and work-group width of the request.
//!
//! The report carries the crate's whole result under `simd`, the better of the two
//! scheduling policies as `wcet.cycles` (§4.2: the compiler may pick either), the basic-block
//! CFG with its stack-annotated edges, and that policy's two-slot schedule as the Gantt chart.

use crate::catalog::{ParamInfo, PresetInfo};
use crate::params::Params;
use crate::report::{
    CfgEdge, CfgNode, InstructionView, KernelView, Report, ScheduleItem, ScheduleView, Wcet,
};
use crate::views::draw;
use isa::simd::Program;
use isa::{Limits, ResourceClass};
use std::collections::BTreeMap;

/// Parameters of the mode (defaults: the reference implementation's configuration).
pub fn params() -> Vec<ParamInfo> {
    let c = phases::Config::reference();
    let b = phases::Budget::default();
    let budget = |name: &str, meaning: &str, unit: &str, default: u64| {
        ParamInfo::number(name, meaning, unit, 1.0, 1e12, default as f64).in_group("budgets")
    };
    vec![
        ParamInfo::text(
            "ndrange",
            "NDRange X,Y in work-items (launch.tsv's -d)",
            "1024,32",
        ),
        ParamInfo::number(
            "wg_width",
            "work-group width N (a power of two, 32–1024); a work-group holds 1024 work-items, height 1024/N",
            "work-items",
            32.0,
            1024.0,
            32.0,
        ),
        ParamInfo::choice(
            "dram",
            "DRAM configuration (Sim-D Table 1)",
            &phases::DramPreset::ALL.map(|d| d.name()),
            c.dram.name(),
        ),
        ParamInfo::number(
            "decode_stages",
            "instruction decode stages: 1 (reference implementation) or 3 (paper, §3.1)",
            "stages",
            1.0,
            3.0,
            f64::from(c.pipeline.decode_stages),
        ),
        ParamInfo::number(
            "execute_stages",
            "execute stages: 3 (reference implementation) or 5 (paper, §3.1)",
            "stages",
            3.0,
            64.0,
            f64::from(c.pipeline.execute_stages),
        ),
        ParamInfo::number(
            "sp_bus_words",
            "scratchpad bus width (Table 3: 4–32; the reference build uses 4)",
            "32-bit words/cycle",
            1.0,
            1024.0,
            c.sp_bus_words as f64,
        ),
        ParamInfo::number(
            "schedule_work_groups",
            "work-groups drawn in the schedule, from the start of the kernel",
            "work-groups",
            1.0,
            1e4,
            c.schedule_work_groups as f64,
        ),
        budget(
            "max_dag_nodes",
            "most DAG nodes created while unrolling loops (§5.4)",
            "nodes",
            b.max_dag_nodes,
        ),
        budget(
            "max_pipeline_cycles",
            "most simulated pipeline cycles (§5.3)",
            "cycles",
            b.max_pipeline_cycles,
        ),
        budget(
            "max_stride_periods",
            "most periods of one DRAM stride request examined (§3.2.1)",
            "periods",
            b.max_stride_periods,
        ),
        budget(
            "max_sp_stride_words",
            "most words walked for one scratchpad stride request (§3.3)",
            "words",
            b.max_sp_stride_words,
        ),
        budget(
            "max_schedule_intervals",
            "most intervals in the schedule (Gantt) data",
            "intervals",
            b.max_schedule_intervals,
        ),
        budget(
            "max_dram_sim_steps",
            "most DRAM controller steps simulated for the 2D tile requests (every start offset, as the reference tool does)",
            "steps",
            c.max_dram_sim_steps,
        ),
        ParamInfo::flag(
            "simulate",
            "run the simulator next to the bound — not available for Sim-D (the simulator runs SASS, PTX, GCN3 and L/C); the report says so",
            false,
        ),
    ]
}

/// The crate's named configurations, as parameter values.
pub fn presets() -> Vec<PresetInfo> {
    phases::Config::presets()
        .into_iter()
        .map(|(name, source, c)| PresetInfo {
            name: name.into(),
            source: source.into(),
            values: BTreeMap::from([
                ("dram".to_string(), serde_json::json!(c.dram.name())),
                (
                    "decode_stages".to_string(),
                    serde_json::json!(c.pipeline.decode_stages),
                ),
                (
                    "execute_stages".to_string(),
                    serde_json::json!(c.pipeline.execute_stages),
                ),
                (
                    "sp_bus_words".to_string(),
                    serde_json::json!(c.sp_bus_words),
                ),
            ]),
        })
        .collect()
}

fn config(p: &Params) -> phases::Config {
    let mut c = phases::Config::reference();
    if let Some(d) = phases::DramPreset::from_name(p.choice("dram")) {
        c.dram = d;
    }
    c.pipeline.decode_stages = u32::try_from(p.get_usize("decode_stages")).unwrap_or(u32::MAX);
    c.pipeline.execute_stages = u32::try_from(p.get_usize("execute_stages")).unwrap_or(u32::MAX);
    c.sp_bus_words = p.get_usize("sp_bus_words") as u64;
    c.schedule_work_groups = p.get_usize("schedule_work_groups") as u64;
    c.budget = phases::Budget {
        max_dag_nodes: p.get_usize("max_dag_nodes") as u64,
        max_pipeline_cycles: p.get_usize("max_pipeline_cycles") as u64,
        max_stride_periods: p.get_usize("max_stride_periods") as u64,
        max_sp_stride_words: p.get_usize("max_sp_stride_words") as u64,
        max_schedule_intervals: p.get_usize("max_schedule_intervals") as u64,
    };
    c.max_dram_sim_steps = p.get_usize("max_dram_sim_steps") as u64;
    c
}

/// The instruction table of a Sim-D program.
pub(crate) fn kernel_view(program: &Program) -> KernelView {
    let instructions = program
        .instructions
        .iter()
        .map(|ins| {
            let op = match &ins.subop_text {
                Some(s) => format!("{}.{s}", ins.mnemonic),
                None => ins.mnemonic.clone(),
            };
            InstructionView {
                index: ins.index,
                address: ins.index as u64,
                line: ins.span.line,
                column: ins.span.column,
                text: ins.text.clone(),
                guard: None,
                operands: ins
                    .text
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.split(',').map(|o| o.trim().to_string()).collect())
                    .unwrap_or_default(),
                opcode: op,
                reads: Vec::new(),
                writes: Vec::new(),
                control: ins
                    .category()
                    .map_or("unknown".into(), |c| format!("{c:?}").to_lowercase()),
                target: None,
                class: ResourceClass::Alu,
                block: None,
            }
        })
        .collect();
    KernelView {
        function: "kernel".into(),
        functions: vec!["kernel".into()],
        arch: Some("sim-d".into()),
        instructions,
    }
}

/// Runs the mode: parse, analyse, fill the report.
pub fn run(source: &str, limits: &Limits, p: &Params, report: &mut Report) {
    let parsed = isa::simd::parse(source, limits);
    let failed = parsed.has_errors();
    report.diagnostics.extend(parsed.diagnostics);
    let Some(program) = parsed.program else {
        return;
    };
    let mut view = kernel_view(&program);
    if p.flag("simulate") {
        report.diagnostics.push(isa::Diagnostic::global(
            isa::Severity::Warning,
            "simulate: there is no Sim-D simulator here (the simulator runs SASS, PTX, GCN3 and L/C kernels); the bound is shown alone",
        ));
    }
    if failed {
        report.kernel = Some(view);
        return;
    }
    let nd = match p.numbers("ndrange", 2, 2) {
        Ok(v) => v,
        Err(d) => {
            report.diagnostics.push(d);
            report.kernel = Some(view);
            return;
        }
    };
    let launch = phases::Launch::new(nd[0], nd[1], p.get_usize("wg_width") as u64);
    let result = match phases::analyze(&program, &launch, &config(p)) {
        Ok(r) => r,
        Err(e) => {
            report.diagnostics.extend(e.diagnostics);
            report.kernel = Some(view);
            return;
        }
    };
    for b in &result.blocks {
        for ins in view
            .instructions
            .iter_mut()
            .skip(b.first_instruction)
            .take(b.instruction_count)
        {
            ins.block = Some(b.id);
        }
    }
    report
        .diagnostics
        .extend(result.diagnostics.iter().cloned());
    let best = if result.sp_as_compute.wcet < result.sp_as_access.wcet {
        &result.sp_as_compute
    } else {
        &result.sp_as_access
    };
    report.wcet = Some(Wcet {
        cycles: best.wcet,
        cost_model: format!(
            "compute cycles at {} MHz, {}",
            result.config.compute_clock_mhz,
            match best.policy {
                phases::Policy::SpAsAccess => "scratchpad as access",
                phases::Policy::SpAsCompute => "scratchpad as compute",
            }
        ),
    });
    report.cfg = Some(cfg_view(&result));
    report.schedule = Some(schedule_view(&best.schedule));
    report.kernel = Some(view);
    report.simd = Some(result);
}

/// The report's name of a Sim-D edge class (§5.2): an injected `cpop` is where the work-items
/// of a control-stack entry reconverge.
pub(crate) fn edge_kind_name(kind: phases::EdgeKind) -> &'static str {
    match kind {
        phases::EdgeKind::Fallthrough => "fallthrough",
        phases::EdgeKind::Jump => "taken",
        phases::EdgeKind::CpopInjected => "reconvergence",
    }
}

fn cfg_view(r: &phases::SimdResult) -> crate::report::CfgView {
    let nodes: Vec<CfgNode> = r
        .blocks
        .iter()
        .map(|b| {
            let mut label = vec![match &b.label {
                Some(l) => format!("B{} {l}", b.id),
                None => format!("B{}", b.id),
            }];
            label.push(format!(
                "{} instr · cold {} / warm {}",
                b.instruction_count,
                b.cold_cycles,
                b.warm_cycles.map_or("–".into(), |w| w.to_string())
            ));
            if let Some(a) = &b.access {
                label.push(format!("{:?} request: {} cycles", a.resource, a.cycles).to_lowercase());
            }
            let last = b.first_instruction + b.instruction_count.saturating_sub(1);
            CfgNode {
                id: b.id,
                kind: "block".into(),
                block: Some(b.id),
                context: String::new(),
                cost: Some(b.cold_cycles),
                count: None,
                start: b.first_instruction as u64,
                end: last as u64,
                instructions: b.instruction_count,
                first: b.first_instruction,
                last,
                line_start: b.first_line,
                line_end: b.last_line,
                reachable: true,
                label,
                role: String::new(),
            }
        })
        .collect();
    let edges = r
        .edges
        .iter()
        .map(|e| CfgEdge {
            from: e.from,
            to: e.to,
            kind: edge_kind_name(e.kind).into(),
            count: None,
        })
        .collect();
    draw("simd", nodes, edges)
}

fn schedule_view(s: &phases::Schedule) -> ScheduleView {
    let items = s
        .intervals
        .iter()
        .map(|iv| ScheduleItem {
            lane: s.lanes.iter().position(|l| *l == iv.lane).unwrap_or(0),
            start: iv.start,
            length: iv.end.saturating_sub(iv.start),
            group: u32::try_from(iv.work_group).unwrap_or(u32::MAX),
            label: iv.label.clone(),
        })
        .collect();
    ScheduleView {
        cycles: s.makespan,
        lanes: s.lanes.clone(),
        items,
        group_name: "work-group".into(),
        group_labels: Vec::new(),
    }
}
