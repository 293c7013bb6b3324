//! The words of a bound: which variable, how it starts and steps, which comparison ends the
//! loop and where, and the count — what the report shows next to each inferred bound.

use crate::expr::{Atom, Store, ValueId};
use crate::induction::{Evolution, Fact, Iv, Shape};
use crate::ir::{CmpOp, FuncOp, Input, Program};

pub(crate) struct Names<'a> {
    pub program: &'a Program,
    pub store: &'a Store,
    pub input: &'a dyn Fn(&Input) -> String,
}

impl Names<'_> {
    fn show(&self, v: ValueId) -> String {
        let name = |a: &Atom| -> String {
            match a {
                Atom::Input(i) => (self.input)(i),
                Atom::Entry { var, .. } => self
                    .program
                    .vars
                    .get(*var as usize)
                    .map_or_else(|| "?".into(), |v| v.name.clone()),
                Atom::Opaque { .. } => "?".into(),
                Atom::Exit { var, .. } => self
                    .program
                    .vars
                    .get(*var as usize)
                    .map_or_else(|| "?".into(), |v| format!("{}′", v.name)),
                Atom::Func { .. } => "…".into(),
            }
        };
        self.store.show(v, &name)
    }

    fn list(&self, vs: &[ValueId]) -> String {
        match vs {
            [one] => self.show(*one),
            _ => format!(
                "one of {{{}}}",
                vs.iter()
                    .map(|&v| self.show(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn update(&self, iv: &Iv) -> String {
        match &iv.evolution {
            Evolution::Linear { steps } => {
                if let [one] = steps.as_slice() {
                    if let Some(c) = self.store.as_const(*one) {
                        return if c < 0 {
                            format!("{} −= {}", iv.name, c.unsigned_abs())
                        } else {
                            format!("{} += {c}", iv.name)
                        };
                    }
                }
                format!("{} += {}", iv.name, self.list(steps))
            }
            Evolution::Halving {
                op: FuncOp::DivU,
                by,
            } => format!("{} /= {by}", iv.name),
            Evolution::Halving { by, .. } => format!("{} >>= {by}", iv.name),
            Evolution::Scaling { factor } => format!("{} *= {factor}", iv.name),
        }
    }

    /// `R7 += 1 from 0, goes on only while R7 + 1 < 1000 (signed) at 0x0180 → ≤ 1000`.
    pub fn reason(&self, iv: &Iv, f: &Fact, n: u64) -> String {
        let at = self
            .program
            .blocks
            .get(f.at)
            .map_or_else(String::new, |b| b.key.clone());
        let side = match f.shape {
            Shape::Next => format!("the next {}", iv.name),
            _ => self.show(f.side),
        };
        format!(
            "{} from {}; the loop goes on only while {} {} {} ({}) at {at} → at most {n} runs of the header per entry",
            self.update(iv),
            self.list(&iv.inits),
            side,
            f.op.symbol(),
            self.show(f.limit),
            if f.signed { "signed" } else { "unsigned" },
        )
    }

    /// The count as a formula of the inputs (linear facts).
    pub fn formula(&self, _iv: &Iv, f: &Fact) -> Option<String> {
        let (Some(&d), Some(&b)) = (f.distances.first(), f.steps.first()) else {
            return None;
        };
        if f.distances.len() != 1 || f.steps.len() != 1 || !matches!(f.shape, Shape::Linear { .. })
        {
            return None;
        }
        let (d, b) = (self.show(d), self.show(b));
        Some(match f.op {
            CmpOp::Lt | CmpOp::Gt => format!("⌈({d}) / ({b})⌉ + 1"),
            CmpOp::Le | CmpOp::Ge => format!("⌊({d}) / ({b})⌋ + 2"),
            CmpOp::Ne => format!("({d}) / ({b}) + 1"),
            CmpOp::Eq => "2".into(),
        })
    }

    /// Why a loop has no bound.
    pub fn no_bound(&self, ivs: &[Iv], why_not: &[String]) -> String {
        if !why_not.is_empty() {
            let mut w = why_not.to_vec();
            w.dedup();
            return format!(
                "no bound from the code: {}",
                w.into_iter().take(3).collect::<Vec<_>>().join("; ")
            );
        }
        if ivs.is_empty() {
            "no bound from the code: no register changes by a known step on every path around \
             the loop (a loop on data, or a counter the analysis does not follow)"
                .into()
        } else {
            let names: Vec<&str> = ivs.iter().map(|v| v.name.as_str()).take(4).collect();
            format!(
                "no bound from the code: the induction variables ({}) are not compared with a \
                 limit on every iteration (the loop exits on data)",
                names.join(", ")
            )
        }
    }
}
