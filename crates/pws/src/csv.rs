//! The CSV graph format of the public split-point solver that accompanies the PWS paper
//! (repository `caesr-uwaterloo/pws-solver`, files `data/fig2.csv`, `rodinia/*.csv`,
//! `synthetic/*.csv`), so graphs move between that tool and this one.
//!
//! The format, as worked out from `fig2.csv` and the 77 corpus files and confirmed by the
//! solver's reader and writer:
//!
//! * a header line, exactly `wcet,is_bsb_node,is_reconv_node,successors`;
//! * then one row per basic block; the **row number, 0-based, is the node id** (the first
//!   data row is node 0, the entry); the solver numbers blocks topologically, so every
//!   successor id is larger than its row's id;
//! * `wcet`: the block's worst-case execution time, a non-negative integer (gem5 ticks in
//!   the corpus, abstract units in `fig2.csv`);
//! * `is_bsb_node`, `is_reconv_node`: Python booleans `True`/`False` (we also accept
//!   `true`/`false`/`1`/`0`);
//! * `successors`: node ids separated by `;`, ascending, empty for an exit block.
//!
//! Nothing else is stored: which non-BSB nodes are divergent branches is implied (the
//! solver treats every non-BSB node with two or more successors as a branch), there are
//! no labels (we name nodes `n0`, `n1`, ...), and a uniform (scalar) branch exported from
//! GCN input becomes indistinguishable from a divergent one — the only loss on export.

use isa::Span;

use crate::error::{Error, ErrorKind};
use crate::graph::{Node, NodeKind, WavefrontCfg};

/// The header line of the format.
pub const HEADER: &str = "wcet,is_bsb_node,is_reconv_node,successors";

/// Reads a graph in the solver's CSV format. Node 0 is the entry.
///
/// Kinds: `is_bsb_node` → [`NodeKind::Bsb`]; otherwise two or more successors →
/// [`NodeKind::Branch`] (the solver's rule); otherwise `is_reconv_node` →
/// [`NodeKind::Reconv`]; otherwise [`NodeKind::Plain`]. The reconvergence flag is kept in
/// [`Node::reconv`] whatever the kind.
///
/// # Errors
/// A located [`Error`] for a missing or wrong header, a wrong field count, a malformed
/// number or boolean, a successor id out of range, more than `max_nodes` rows, or no rows.
pub fn read_csv(text: &str, max_nodes: usize) -> Result<WavefrontCfg, Error> {
    let mut lines = text.lines().enumerate();
    let header = loop {
        match lines.next() {
            Some((_, l)) if l.trim().is_empty() => continue,
            Some((i, l)) => break (i, l),
            None => {
                return Err(Error::global(
                    ErrorKind::Input,
                    format!("empty CSV: expected the header `{HEADER}`"),
                ))
            }
        }
    };
    let (hi, hl) = header;
    let cols: Vec<String> = hl
        .trim()
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    if cols != ["wcet", "is_bsb_node", "is_reconv_node", "successors"] {
        return Err(Error::at(
            ErrorKind::Input,
            span(hi, hl, 0, hl.len()),
            format!("expected the header `{HEADER}`"),
        ));
    }
    // (line index, line, byte range of the successors field)
    let mut rows: Vec<(usize, &str, (usize, usize))> = Vec::new();
    let mut nodes = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        if nodes.len() >= max_nodes {
            return Err(Error::budget(
                "max_unrolled_nodes",
                max_nodes,
                "the CSV has more rows",
            ));
        }
        let fields = field_ranges(line);
        if fields.len() != 4 {
            return Err(Error::at(
                ErrorKind::Input,
                span(i, line, 0, line.len()),
                format!(
                    "expected 4 comma-separated fields (wcet,is_bsb_node,is_reconv_node,successors), found {}",
                    fields.len()
                ),
            ));
        }
        let f = |k: usize| &line[fields[k].0..fields[k].1];
        let wcet_text = f(0).trim();
        let cost: u64 = wcet_text.parse().map_err(|_| {
            Error::at(
                ErrorKind::Input,
                span(i, line, fields[0].0, fields[0].1),
                format!("`{wcet_text}` is not a non-negative integer WCET"),
            )
        })?;
        let bsb = boolean(f(1)).ok_or_else(|| {
            Error::at(
                ErrorKind::Input,
                span(i, line, fields[1].0, fields[1].1),
                format!("`{}` is not a boolean (True/False)", f(1).trim()),
            )
        })?;
        let reconv = boolean(f(2)).ok_or_else(|| {
            Error::at(
                ErrorKind::Input,
                span(i, line, fields[2].0, fields[2].1),
                format!("`{}` is not a boolean (True/False)", f(2).trim()),
            )
        })?;
        let mut node = Node::new(format!("n{}", nodes.len()), cost, NodeKind::Plain);
        node.reconv = reconv;
        if bsb {
            node.kind = NodeKind::Bsb;
        }
        nodes.push(node);
        rows.push((i, line, fields[3]));
    }
    if nodes.is_empty() {
        return Err(Error::global(
            ErrorKind::Input,
            "the CSV has a header but no rows",
        ));
    }
    let n = nodes.len();
    for (id, (i, line, (s0, s1))) in rows.into_iter().enumerate() {
        let raw = &line[s0..s1];
        let inner = raw.trim().trim_matches('"');
        let mut succ = Vec::new();
        for part in inner.split(';') {
            let t = part.trim();
            if t.is_empty() {
                continue;
            }
            let v: usize = t.parse().map_err(|_| {
                Error::at(
                    ErrorKind::Input,
                    span(i, line, s0, s1),
                    format!("successor `{t}` is not a node id"),
                )
            })?;
            if v >= n {
                return Err(Error::at(
                    ErrorKind::Input,
                    span(i, line, s0, s1),
                    format!(
                        "successor {v} is out of range: the file has {n} rows (ids are 0-based)"
                    ),
                ));
            }
            if !succ.contains(&v) {
                succ.push(v);
            }
        }
        let node = &mut nodes[id];
        if node.kind != NodeKind::Bsb {
            node.kind = if succ.len() >= 2 {
                NodeKind::Branch
            } else if node.reconv {
                NodeKind::Reconv
            } else {
                NodeKind::Plain
            };
        }
        node.successors = succ;
    }
    Ok(WavefrontCfg { nodes, entry: 0 })
}

/// Writes `cfg` in the solver's CSV format. Node ids are the indices of `cfg.nodes`, so
/// `cfg.entry` should be 0 for the solver to start at the right node; successors are
/// written in ascending order, as the solver writes them.
pub fn write_csv(cfg: &WavefrontCfg) -> String {
    let mut out = String::with_capacity(32 * (cfg.nodes.len() + 1));
    out.push_str(HEADER);
    out.push('\n');
    for n in &cfg.nodes {
        let mut succ = n.successors.clone();
        succ.sort_unstable();
        succ.dedup();
        let list: Vec<String> = succ.iter().map(usize::to_string).collect();
        out.push_str(&format!(
            "{},{},{},{}\n",
            n.cost,
            py_bool(n.kind == NodeKind::Bsb),
            py_bool(n.reconv),
            list.join(";")
        ));
    }
    out
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn boolean(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// Byte ranges of the comma-separated fields of `line` (quotes protect commas).
fn field_ranges(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, line.trim_end_matches('\r').len().max(start)));
    out
}

fn span(line_index: usize, line: &str, start: usize, end: usize) -> Span {
    Span::in_line(
        u32::try_from(line_index + 1).unwrap_or(u32::MAX),
        line,
        start,
        end,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_every_field() {
        let text = "wcet,is_bsb_node,is_reconv_node,successors\n1,False,False,1;2\n3,False,False,2\n0,True,True,\n";
        let g = read_csv(text, 100).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.nodes[0].kind, NodeKind::Branch);
        assert_eq!(g.nodes[2].kind, NodeKind::Bsb);
        assert!(g.nodes[2].reconv);
        assert_eq!(write_csv(&g), text);
    }

    #[test]
    fn errors_point_at_the_field() {
        let text = "wcet,is_bsb_node,is_reconv_node,successors\n1,False,False,1;7\n";
        let e = read_csv(text, 100).err().map(|e| e.diagnostic);
        let d = e.unwrap_or_else(|| panic!("expected an error"));
        assert_eq!((d.line, d.column), (2, 15));
        let e = read_csv("wcet,x\n", 100).err().map(|e| e.diagnostic.line);
        assert_eq!(e, Some(1));
        let e = read_csv(
            "wcet,is_bsb_node,is_reconv_node,successors\n-1,False,False,\n",
            100,
        )
        .err()
        .map(|e| (e.diagnostic.line, e.diagnostic.column));
        assert_eq!(e, Some((2, 1)));
    }
}
