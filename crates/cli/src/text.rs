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
                .map(|e| format!("B{} ({})", e.to, e.kind.name()))
                .collect();
            let _ = writeln!(
                out,
                "  B{:<3} {:#06x}..{:#06x} {:>4} instr{} -> {}",
                n.id,
                n.start,
                n.end,
                n.instructions,
                if n.reachable { "" } else { " (unreachable)" },
                if succ.is_empty() {
                    "-".to_string()
                } else {
                    succ.join(", ")
                }
            );
        }
    }
    let _ = write!(
        out,
        "time: {:.3} ms",
        report.timings_ms.get("total").copied().unwrap_or(0.0)
    );
    out
}
