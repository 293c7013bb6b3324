//! The ILP of Fig. 3 as a CPLEX LP file, so that a user can hand the paper's exact model to
//! the solver the paper used (CPLEX, §6) or to any other MILP solver (HiGHS, Gurobi, CBC,
//! SCIP all read this format), and so that our tests can check the model against a
//! maintained solver (`tests/oracle/`).
//!
//! Variables carry the paper's names: `LS_w{w}_i{i}_t{t}` and `CC_w{w}_i{i}_t{t}` (Eq. 8–10,
//! 0-based warp and instruction, 1-based cycle), `E_t{t}` and `G_t{t}` (Eq. 30, 35). The
//! rows are exactly [`crate::build_ilp`]'s, in its order, named `r1`, `r2`, …

use std::fmt::Write;

use ipet::branch_and_bound::Relation;

use crate::ilp::IlpModel;
use isa::lc::LcOp;

/// Terms per output line: the LP format limits line length, and a row may span lines.
const TERMS_PER_LINE: usize = 8;

impl IlpModel {
    /// The paper's name of variable `v` (see the module docs).
    pub fn variable_name(&self, v: usize) -> String {
        let n_x = self.warps as usize * self.instrs * self.span;
        if v < n_x {
            let per_warp = self.instrs * self.span;
            let (w, rest) = (v / per_warp, v % per_warp);
            let (i, k) = (rest / self.span, rest % self.span);
            let t = self.window(i).0 + k as u64;
            let kind = match self.units.get(i) {
                Some(LcOp::L) => "LS",
                _ => "CC",
            };
            return format!("{kind}_w{w}_i{i}_t{t}");
        }
        for (base, name) in [(self.e_base, "E"), (self.g_base, "G")] {
            if let Some(b) = base {
                if (b..b + self.horizon as usize).contains(&v) {
                    return format!("{name}_t{}", v - b + 1);
                }
            }
        }
        format!("v{v}")
    }

    /// The model in CPLEX LP format: `Maximize` Eq. 13, `Subject To` every row,
    /// `Binary` every variable.
    pub fn lp_text(&self) -> String {
        let names: Vec<String> = (0..self.program.objective.len())
            .map(|v| self.variable_name(v))
            .collect();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\\ Berezovskyi, Bletsas, Andersson (ECRTS 2012), Fig. 3: {} warps, {} instructions, horizon {}",
            self.warps, self.instrs, self.horizon
        );
        out.push_str("Maximize\n obj:");
        let objective: Vec<(usize, f64)> = self
            .program
            .objective
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0.0)
            .map(|(v, c)| (v, *c))
            .collect();
        write_terms(&mut out, &objective, &names);
        out.push_str("\nSubject To\n");
        for (k, row) in self.program.constraints.iter().enumerate() {
            let _ = write!(out, " r{}:", k + 1);
            write_terms(&mut out, &row.terms, &names);
            let rel = match row.relation {
                Relation::Le => "<=",
                Relation::Ge => ">=",
                Relation::Eq => "=",
            };
            let _ = writeln!(out, " {rel} {}", number(row.rhs));
        }
        out.push_str("Binary\n");
        for chunk in names.chunks(TERMS_PER_LINE) {
            let _ = writeln!(out, " {}", chunk.join(" "));
        }
        out.push_str("End\n");
        out
    }
}

/// Writes ` + 3 x + 1 y − 2 z …`, breaking the line every few terms; an empty sum is `0 x`
/// of the first variable, which LP readers accept.
fn write_terms(out: &mut String, terms: &[(usize, f64)], names: &[String]) {
    if terms.is_empty() {
        if let Some(first) = names.first() {
            let _ = write!(out, " 0 {first}");
        }
        return;
    }
    for (k, &(v, c)) in terms.iter().enumerate() {
        if k > 0 && k % TERMS_PER_LINE == 0 {
            out.push_str("\n   ");
        }
        let sign = if c < 0.0 { '-' } else { '+' };
        let name = names.get(v).map(String::as_str).unwrap_or("?");
        let _ = write!(out, " {sign} {} {name}", number(c.abs()));
    }
}

/// Integers without a decimal point (every coefficient of Fig. 3 is an integer).
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}
