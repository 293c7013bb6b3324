//! The human-readable rendering of a report (`--format text`).

use std::fmt::Write;
use warpbound::Report;

/// Diagnostics in `file:line:col: severity: message` form, then a summary of the kernel and
/// its control-flow graph.
pub fn render(report: &Report, file: &str) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        if d.line == 0 {
            let _ = writeln!(out, "{file}: {d}");
        } else {
            let _ = writeln!(out, "{file}:{d}");
        }
    }
    if let Some(k) = &report.kernel {
        let _ = writeln!(
            out,
            "function {} ({} instructions{})",
            k.function,
            k.instructions.len(),
            k.arch
                .as_deref()
                .map(|a| format!(", {a}"))
                .unwrap_or_default()
        );
        if let Some(r) = &k.resources {
            let mut parts = vec![if r.entry {
                "kernel entry"
            } else {
                "device function"
            }
            .to_string()];
            let mut add = |n: Option<u64>, what: &str| {
                if let Some(n) = n {
                    parts.push(format!("{n} {what}"));
                }
            };
            add(r.registers.map(u64::from), "registers");
            add(r.shared_bytes, "bytes static shared");
            add(r.constant0_bytes, "bytes constant bank 0");
            add(r.stack_bytes, "bytes stack");
            let _ = writeln!(out, "  declared: {}", parts.join(", "));
        }
    }
    if let Some(cfg) = &report.cfg {
        let _ = writeln!(
            out,
            "{} CFG: {} blocks, {} edges",
            cfg.kind,
            cfg.nodes.len(),
            cfg.edges.len()
        );
        for n in &cfg.nodes {
            let succ: Vec<String> = cfg
                .edges
                .iter()
                .filter(|e| e.from == n.id)
                .map(|e| {
                    let p = if cfg.kind == "warp" { "n" } else { "B" };
                    format!("{p}{} ({})", e.to, e.kind)
                })
                .collect();
            let _ = writeln!(
                out,
                "  {:<4} {:#06x}..{:#06x} {:>4} instr{}{}{} -> {}",
                format!("{}{}", if cfg.kind == "warp" { "n" } else { "B" }, n.id),
                n.start,
                n.end,
                n.instructions,
                if n.reachable { "" } else { " (unreachable)" },
                if n.context.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", n.context)
                },
                n.count.map(|c| format!(" x{c}")).unwrap_or_default(),
                if succ.is_empty() {
                    "-".to_string()
                } else {
                    succ.join(", ")
                }
            );
        }
    }
    if let Some(w) = &report.wcet {
        let _ = writeln!(
            out,
            "WCET bound: {} cycles ({} cost)",
            w.cycles, w.cost_model
        );
        if !w.assumed_loop_bounds.is_empty() {
            let list: Vec<String> = w
                .assumed_loop_bounds
                .iter()
                .map(|a| format!("{} = {} ({})", a.header, a.bound, a.from))
                .collect();
            let _ = writeln!(
                out,
                "  the bound rests on assumed loop bounds: {}",
                list.join(", ")
            );
        }
    }
    if !report.loop_bounds.is_empty() {
        let _ = writeln!(out, "loop bounds:");
        for l in &report.loop_bounds {
            let _ = writeln!(
                out,
                "  {} (line {}): {} ({}){}",
                l.header,
                l.line,
                l.bound.map_or("none".to_string(), |b| b.to_string()),
                l.bound_from,
                l.reason
                    .as_ref()
                    .map_or(String::new(), |r| format!(": {r}"))
            );
        }
    }
    if let Some(d) = report.warp_cfg() {
        let _ = writeln!(
            out,
            "{} states, {} divergence edges, {} loops",
            d.states,
            d.divergence_edges,
            d.loops.len()
        );
        for l in &d.loops {
            let _ = writeln!(
                out,
                "  loop at {:#06x}{} (line {}): bound {} ({}){}",
                l.address,
                l.label.as_ref().map_or(String::new(), |n| format!(" {n}")),
                l.line,
                l.bound,
                l.bound_from,
                if l.irreducible { ", irreducible" } else { "" }
            );
        }
        for b in &d.divergent_branches {
            let _ = writeln!(out, "  divergent branch at line {}: {}", b.line, b.reason);
        }
    }
    let _ = write!(
        out,
        "time: {:.3} ms",
        report.timings_ms.get("total").copied().unwrap_or(0.0)
    );
    out
}
