//! Gantt charts (`report.schedule`): lanes × cycles, one builder per kind of schedule a mode
//! produces — a makespan witness, simulated warp timelines, the round-robin T_ij schedule,
//! the PWS dispatch timeline and Sim-D's two-slot phase schedule.

use crate::report::{ScheduleItem, ScheduleView};
use isa::lc::LcOp;
use isa::Kernel;

/// Warps drawn as lanes (the rest are in the report's data, not on the chart).
const MAX_LANES: usize = 64;

/// The witness schedule of an exact makespan: σ_L load/store lanes, then σ_C core lanes.
pub fn makespan(t: &makespan::Transformed, s: &makespan::Schedule) -> ScheduleView {
    let mut lanes = Vec::new();
    for k in 0..t.sigma_l {
        lanes.push(format!("L{k}"));
    }
    for k in 0..t.sigma_c {
        lanes.push(format!("C{k}"));
    }
    let items = s
        .slots
        .iter()
        .map(|slot| {
            let (lane, unit) = match slot.unit {
                LcOp::L => (slot.lane as usize, "L"),
                LcOp::C => (t.sigma_l as usize + slot.lane as usize, "C"),
            };
            // Slots count cycles from 1 (the paper's t = 1..T); boxes start at cycle - 1.
            ScheduleItem {
                lane,
                start: slot.cycle.saturating_sub(1),
                length: 1,
                group: slot.warp,
                label: format!(
                    "instruction {} ({unit}) in cycle {}",
                    slot.instr, slot.cycle
                ),
            }
        })
        .collect();
    ScheduleView {
        cycles: s.makespan,
        lanes,
        items,
        group_name: "warp".into(),
        group_labels: Vec::new(),
    }
}

/// A simulated run of a SASS kernel: one lane per warp, one box per issued instruction from
/// issue to completion, labelled by address, line and text.
pub fn simulated(kernel: &Kernel, s: &sim::Simulation) -> ScheduleView {
    simulated_by(s, &|i: &sim::Issue| {
        kernel.instructions.get(i.index as usize).map_or_else(
            || format!("line {}", i.line),
            |ins| format!("{:#06x} line {}: {}", ins.address, i.line, ins.text),
        )
    })
}

/// A simulated run of a kernel the simulator read from its text (PTX, GCN3, L/C), labelled
/// by source line.
pub fn simulated_text(source: &str, s: &sim::Simulation) -> ScheduleView {
    let lines: Vec<&str> = source.lines().collect();
    simulated_by(s, &|i: &sim::Issue| {
        let text = lines
            .get((i.line as usize).saturating_sub(1))
            .map_or("", |l| l.trim());
        format!("line {}: {text}", i.line)
    })
}

fn simulated_by(s: &sim::Simulation, label: &dyn Fn(&sim::Issue) -> String) -> ScheduleView {
    let warps: Vec<_> = s.warps.iter().take(MAX_LANES).collect();
    let items = warps
        .iter()
        .enumerate()
        .flat_map(|(lane, w)| {
            w.issues.iter().map(move |i| ScheduleItem {
                lane,
                start: i.issue,
                length: i.complete.saturating_sub(i.issue).max(1),
                group: w.warp,
                label: label(i),
            })
        })
        .collect();
    ScheduleView {
        cycles: s.cycles,
        lanes: warps.iter().map(|w| format!("warp {}", w.warp)).collect(),
        items,
        group_name: "warp".into(),
        group_labels: Vec::new(),
    }
}

/// The round-robin model's T_ij schedule: one lane per warp, one box per code-segment
/// instance.
pub fn round_robin(r: &roundrobin::RrResult) -> ScheduleView {
    let rows: Vec<_> = r.gantt.iter().take(MAX_LANES).collect();
    let lanes = rows
        .iter()
        .map(|g| format!("b{} w{}", g.block, g.warp))
        .collect();
    let items = rows
        .iter()
        .enumerate()
        .flat_map(|(lane, g)| {
            g.intervals.iter().map(move |iv| ScheduleItem {
                lane,
                start: iv.start,
                length: iv.end.saturating_sub(iv.start),
                group: u32::try_from(iv.segment).unwrap_or(u32::MAX),
                label: format!(
                    "segment {}: T = {}, issued until {}, done at {}",
                    iv.segment, iv.start, iv.issue_end, iv.end
                ),
            })
        })
        .collect();
    ScheduleView {
        cycles: r.gantt.iter().map(|g| g.end).max().unwrap_or(0),
        lanes,
        items,
        group_name: "segment".into(),
        group_labels: r
            .segments
            .iter()
            .map(|s| format!("segment {}: {}", s.id, s.opcode))
            .collect(),
    }
}

/// A PWS dispatch timeline (Fig. 9b), boxes coloured by activity.
pub fn dispatch(t: &pws::Timeline) -> ScheduleView {
    const KINDS: [&str; 5] = [
        "initialisation d",
        "wavefront",
        "split wavefront",
        "serialised (DWS)",
        "split + merge",
    ];
    let items = t
        .intervals
        .iter()
        .map(|iv| ScheduleItem {
            lane: iv.lane,
            start: iv.start,
            length: iv.end.saturating_sub(iv.start),
            group: match iv.kind {
                pws::IntervalKind::Init => 0,
                pws::IntervalKind::Wavefront => 1,
                pws::IntervalKind::SplitWavefront => 2,
                pws::IntervalKind::Serialized => 3,
                pws::IntervalKind::SplitMerge => 4,
            },
            label: iv.label.clone(),
        })
        .collect();
    ScheduleView {
        cycles: t.end,
        lanes: t.lanes.clone(),
        items,
        group_name: "activity".into(),
        group_labels: KINDS.iter().map(|s| s.to_string()).collect(),
    }
}

/// Sim-D's worst-case schedule of two work-group slots, coloured by work-group.
pub fn phases(s: &phases::Schedule) -> ScheduleView {
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
