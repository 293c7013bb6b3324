//! Maxwell and Pascal multiply: `XMAD` multiplies 16-bit halves, and nvcc writes a 32-bit
//! `a · b + c` as a fixed sequence of them — rebuilt here as one product, so that a counter
//! stepped by `blockDim.x · gridDim.x` or a start `blockIdx.x · blockDim.x + threadIdx.x` is
//! a polynomial like on Volta and later (`IMAD`).
//!
//! `XMAD d, a, b, c` is `a.lo16 · b.lo16 + c`; `.H1` on an operand takes its high half;
//! `.PSL` shifts the product left by 16; `.MRG` puts `b`'s low half into the result's high
//! half; `.CBCC` adds `b << 16`. The two idioms (NVIDIA's own expansion of `IMAD`; the
//! identities follow from `a · b = a.lo · b.lo + ((a.hi · b.lo + a.lo · b.hi) << 16)` modulo
//! 2^32):
//!
//! - `XMAD.MRG t, a, b.H1, RZ` · `XMAD u, a, b, c` · `XMAD.PSL.CBCC d, a.H1, t.H1, u`:
//!   `d = a · b + c` (`u` holds `a.lo · b.lo + c`, the last instruction adds the two cross
//!   products shifted left by 16);
//! - `XMAD u, a, k, c` · `XMAD.PSL d, a.H1, k, u` with an immediate `k < 2^16`:
//!   `d = a · k + c`.
//!
//! Taken only when nothing is guarded and `a` (and `b`) keep their values up to the last
//! instruction; the intermediate results `t`, `u` stay unknown.

use super::ops::{self, int};
use super::{is_zero, Lowering};
use crate::ir::{Op, Term, Var};
use isa::{BlockGraph, Instruction, Kernel, Operand, Register};
use std::collections::HashMap;

/// The idioms of a kernel: at the instruction computing `u`, the product is taken into a
/// temporary (`start`); the final instruction writes it to `d` (`end`).
#[derive(Default)]
pub(crate) struct Products {
    start: HashMap<usize, usize>,
    end: HashMap<usize, usize>,
    temps: HashMap<usize, Var>,
}

fn plain_reg(o: &Operand) -> Option<&Register> {
    let r = o.register()?;
    let ok = o.suffixes.iter().all(|s| s == "reuse") && !o.negated && !o.inverted;
    (ok && matches!(r, Register::Gpr(_))).then_some(r)
}

fn high_reg(o: &Operand) -> Option<&Register> {
    let r = o.register()?;
    let h1 = o.suffixes.iter().any(|s| s == "H1");
    let ok = o.suffixes.iter().all(|s| s == "reuse" || s == "H1") && !o.negated && !o.inverted;
    (ok && h1 && matches!(r, Register::Gpr(_))).then_some(r)
}

fn mods(ins: &Instruction) -> Vec<&str> {
    ins.opcode.modifiers.iter().map(String::as_str).collect()
}

/// Operand `o` without `.H1`/`.reuse`: the same register or constant word.
fn same_source(o: &Operand, p: &Operand) -> bool {
    o.kind == p.kind && !o.negated && !p.negated && !o.inverted && !p.inverted
}

/// The last instruction before `j` (from `first`) that writes `r`.
fn writer(ins: &[Instruction], first: usize, j: usize, r: &Register) -> Option<usize> {
    (first..j).rev().find(|&k| ops::writes(&ins[k]).contains(r))
}

/// Whether nothing in `from..to` writes any of `regs`.
fn untouched(ins: &[Instruction], from: usize, to: usize, regs: &[&Register]) -> bool {
    (from..to).all(|k| ops::writes(&ins[k]).iter().all(|w| !regs.contains(&w)))
}

pub(crate) fn find(kernel: &Kernel, graph: &BlockGraph) -> Products {
    let ins = &kernel.instructions;
    let mut p = Products::default();
    for b in &graph.blocks {
        for j in b.first..=b.last {
            let x = &ins[j];
            if x.opcode.name != "XMAD" || x.guard.is_some() || x.operands.len() != 4 {
                continue;
            }
            let m = mods(x);
            let o = &x.operands;
            let (Some(a), Some(u)) = (high_reg(&o[1]), plain_reg(&o[3])) else {
                continue;
            };
            if m == ["PSL", "CBCC"] {
                let Some(t) = high_reg(&o[2]) else { continue };
                let (Some(iu), Some(it)) = (writer(ins, b.first, j, u), writer(ins, b.first, j, t))
                else {
                    continue;
                };
                let (xu, xt) = (&ins[iu], &ins[it]);
                let ok_u = xu.opcode.name == "XMAD"
                    && mods(xu).is_empty()
                    && xu.guard.is_none()
                    && xu.operands.len() == 4
                    && plain_reg(&xu.operands[1]) == Some(a)
                    && xu.operands[2].suffixes.iter().all(|s| s == "reuse");
                if !ok_u {
                    continue;
                }
                let ok_t = xt.opcode.name == "XMAD"
                    && mods(xt) == ["MRG"]
                    && xt.guard.is_none()
                    && xt.operands.len() == 4
                    && plain_reg(&xt.operands[1]) == Some(a)
                    && xt.operands[2].suffixes.iter().any(|s| s == "H1")
                    && same_source(&xt.operands[2], &xu.operands[2])
                    && is_zero(&xt.operands[3]);
                if !ok_t {
                    continue;
                }
                let start = iu.min(it);
                let mut keep: Vec<&Register> = vec![a];
                let b_reg = xu.operands[2].registers();
                keep.extend(b_reg.iter());
                if untouched(ins, start + 1, j, &keep) && !keep.contains(&u) && !keep.contains(&t) {
                    p.start.insert(iu, j);
                    p.end.insert(j, iu);
                }
            } else if m == ["PSL"] {
                let Some(k) = ops::constant(&o[2]).filter(|k| (0..1 << 16).contains(k)) else {
                    continue;
                };
                let Some(iu) = writer(ins, b.first, j, u) else {
                    continue;
                };
                let xu = &ins[iu];
                let ok = xu.opcode.name == "XMAD"
                    && mods(xu).is_empty()
                    && xu.guard.is_none()
                    && xu.operands.len() == 4
                    && plain_reg(&xu.operands[1]) == Some(a)
                    && ops::constant(&xu.operands[2]) == Some(k);
                if ok && untouched(ins, iu + 1, j, &[a]) && u != a {
                    p.start.insert(iu, j);
                    p.end.insert(j, iu);
                }
            }
        }
    }
    p
}

impl Products {
    /// Lowers instruction `x`, the `i`-th, when it starts or ends an idiom; whether it did.
    /// Both ends read `x` alone: what the idiom spans is in `self`.
    pub(crate) fn lower(
        &mut self,
        l: &mut Lowering,
        i: usize,
        x: &Instruction,
        out: &mut Vec<Op>,
    ) -> bool {
        if self.start.contains_key(&i) {
            let product = Term::add(
                Term::mul(int(l, &x.operands[1]), int(l, &x.operands[2])),
                int(l, &x.operands[3]),
            );
            let t = l.temp(format!("product@{:#x}", x.address), 32);
            out.push(Op {
                dst: t,
                value: product,
                guard: None,
            });
            self.temps.insert(i, t);
            ops::emit(l, x, None, Vec::new(), out);
            return true;
        }
        if let Some(start) = self.end.get(&i) {
            let Some(&t) = self.temps.get(start) else {
                return false;
            };
            let modelled = x.operands[0]
                .register()
                .map(|d| vec![(d.clone(), Term::Var(t))])
                .unwrap_or_default();
            ops::emit(l, x, None, modelled, out);
            return true;
        }
        false
    }
}
