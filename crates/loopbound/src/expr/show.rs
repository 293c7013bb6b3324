//! Values as short texts: what reasons print (`R7 + 1 < 1000`).

use super::{Atom, AtomId, Bool, Store, Value, ValueId};
use crate::ir::FuncOp;

impl Store {
    /// A short text for `v` (reasons and tests), naming atoms with `name`.
    pub fn show(&self, v: ValueId, name: &dyn Fn(&Atom) -> String) -> String {
        self.show_depth(v, name, 0)
    }

    fn show_depth(&self, v: ValueId, name: &dyn Fn(&Atom) -> String, depth: usize) -> String {
        if depth > 8 {
            return "…".into();
        }
        let atom = |a: AtomId| -> String {
            match self.get_atom(a) {
                Atom::Func { op, args, .. } => {
                    let args: Vec<String> = args
                        .iter()
                        .map(|&x| self.show_depth(x, name, depth + 1))
                        .collect();
                    show_func(*op, &args)
                }
                other => name(other),
            }
        };
        match self.get(v) {
            Value::Int { terms, .. } => {
                if terms.is_empty() {
                    return "0".into();
                }
                let mut s = String::new();
                for (i, (m, c)) in terms.iter().rev().enumerate() {
                    let mono: Vec<String> = m.iter().map(|&a| atom(a)).collect();
                    let mono = mono.join("·");
                    let (neg, mag) = (*c < 0, c.unsigned_abs());
                    if i > 0 {
                        s.push_str(if neg { " − " } else { " + " });
                    } else if neg {
                        s.push('−');
                    }
                    if mono.is_empty() {
                        s.push_str(&mag.to_string());
                    } else if mag == 1 {
                        s.push_str(&mono);
                    } else {
                        s.push_str(&format!("{mag}·{mono}"));
                    }
                }
                s
            }
            Value::Bool(b) => match *b {
                Bool::Const(k) => k.to_string(),
                Bool::Atom(a) => atom(a),
                Bool::Cmp { op, a, b, .. } => format!(
                    "{} {} {}",
                    self.show_depth(a, name, depth + 1),
                    op.symbol(),
                    self.show_depth(b, name, depth + 1)
                ),
                Bool::Not(a) => format!("¬({})", self.show_depth(a, name, depth + 1)),
                Bool::And(a, b) => format!(
                    "({}) ∧ ({})",
                    self.show_depth(a, name, depth + 1),
                    self.show_depth(b, name, depth + 1)
                ),
                Bool::Or(a, b) => format!(
                    "({}) ∨ ({})",
                    self.show_depth(a, name, depth + 1),
                    self.show_depth(b, name, depth + 1)
                ),
            },
        }
    }
}

fn show_func(op: FuncOp, args: &[String]) -> String {
    let a = |i: usize| args.get(i).cloned().unwrap_or_default();
    match op {
        FuncOp::ShrU | FuncOp::ShrS => format!("({} >> {})", a(0), a(1)),
        FuncOp::Low => format!("low({})", a(0)),
        FuncOp::And => format!("({} & {})", a(0), a(1)),
        FuncOp::Or => format!("({} | {})", a(0), a(1)),
        FuncOp::Xor => format!("({} ^ {})", a(0), a(1)),
        FuncOp::Not => format!("~{}", a(0)),
        FuncOp::MinS | FuncOp::MinU => format!("min({}, {})", a(0), a(1)),
        FuncOp::MaxS | FuncOp::MaxU => format!("max({}, {})", a(0), a(1)),
        FuncOp::DivU | FuncOp::DivS => format!("({} / {})", a(0), a(1)),
        FuncOp::RemU | FuncOp::RemS => format!("({} % {})", a(0), a(1)),
        FuncOp::AbsS => format!("|{}|", a(0)),
        FuncOp::Zext | FuncOp::Sext => a(0),
        FuncOp::Concat => format!("{}:{}", a(0), a(1)),
        FuncOp::Hi => format!("hi({})", a(0)),
        FuncOp::Select => format!("({} ? {} : {})", a(0), a(1), a(2)),
        FuncOp::Add => format!("({} + {})", a(0), a(1)),
        FuncOp::Mul => format!("({} · {})", a(0), a(1)),
    }
}
