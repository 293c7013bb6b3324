//! What a GCN3 kernel does with the words of its kernarg segment, read from its listing: an
//! automatic launch needs to know which 8-byte slots are pointers when neither the code
//! object's metadata nor the mangled name says (an `extern "C"` kernel, a struct passed by
//! value with pointers inside) and which words are floats.
//!
//! The facts (a flow-insensitive taint analysis over the function's instructions):
//! - a scalar load from the kernarg segment pointer (`s_load_dword{,x2,…} sD, s[k:k+1],
//!   off`, the pair the ABI puts the pointer in, `sim::gcn::GcnAbi`) gives `sD + i` the
//!   kernarg word at `off + 4i`;
//! - any other instruction passes the words its sources carry to the registers it writes
//!   (`exec`, `vcc`, `scc` and `m0` excluded: masks, carries and conditions mix lanes'
//!   control, not values); a memory load's destination carries nothing (its value comes
//!   from memory, not from the address);
//! - a **pointer**: an 8-byte aligned slot `o` whose word `o` reaches the low register and
//!   word `o + 4` the high register of an address — the VGPR pair of a `flat_*`/`global_*`
//!   access, the `saddr` pair of a `global_*` access, or the base pair of a scalar load that
//!   is not the kernarg pointer. A pointer plus an index computed from other arguments
//!   still qualifies (the index's words come along, but only the pointer's high word
//!   reaches the high register by anything but a carry); two 32-bit integers at `o` and
//!   `o + 4` that both reach a 64-bit index could be mistaken for one — the price of not
//!   having types.
//! - a **float**: a word that reaches, through moves only (`s_mov_b32`, `v_mov_b32`,
//!   `v_readfirstlane_b32`), a source of a single-precision operation other than a
//!   conversion from an integer (`v_cvt_f32_i32`, …).

use isa::gcn::{GcnFunction, GcnOperandKind, GcnReg};
use std::collections::{BTreeMap, BTreeSet};

/// What the listing shows of each kernarg word (byte offsets).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernargUses {
    /// Every word a scalar load reads from the segment.
    pub loaded: BTreeSet<u64>,
    /// 8-byte slots used as addresses.
    pub pointers: BTreeSet<u64>,
    /// Words used as single-precision floats.
    pub floats: BTreeSet<u64>,
}

type Taint = BTreeMap<GcnReg, BTreeSet<u64>>;

/// Registers whose values are not data (see the module doc).
fn is_control(r: &GcnReg) -> bool {
    matches!(r, GcnReg::Exec | GcnReg::Vcc | GcnReg::Scc | GcnReg::M0)
}

fn is_memory_load(op: &str) -> bool {
    op.starts_with("s_load")
        || op.starts_with("s_buffer_load")
        || op.starts_with("flat_load")
        || op.starts_with("global_load")
        || op.starts_with("buffer_load")
        || op.starts_with("scratch_load")
        || op.starts_with("ds_read")
        || (op.contains("_atomic_") && !op.starts_with("s_"))
}

/// The register pair of operand `i` of `ins`, if it is one.
fn pair(ins: &isa::gcn::GcnInstruction, i: usize) -> Option<(GcnReg, GcnReg)> {
    match ins.operands.get(i)?.kind {
        GcnOperandKind::Sgpr { first, count } if count >= 2 => {
            Some((GcnReg::Sgpr(first), GcnReg::Sgpr(first + 1)))
        }
        GcnOperandKind::Vgpr { first, count } if count >= 2 => {
            Some((GcnReg::Vgpr(first), GcnReg::Vgpr(first + 1)))
        }
        _ => None,
    }
}

/// The address pairs of a memory instruction (see the module doc).
fn address_pairs(ins: &isa::gcn::GcnInstruction) -> Vec<(GcnReg, GcnReg)> {
    let op = ins.opcode.as_str();
    let mut out = Vec::new();
    if op.starts_with("flat_") || op.starts_with("global_") {
        let returning = ins.modifiers.iter().any(|m| m.name == "glc");
        let index = if op.contains("_store") || (op.contains("_atomic_") && !returning) {
            0
        } else {
            1
        };
        out.extend(pair(ins, index));
        if op.starts_with("global_") {
            out.extend(pair(ins, index + 2));
        }
    } else if op.starts_with("s_load") || op.starts_with("s_buffer_load") {
        out.extend(pair(ins, 1));
    }
    out
}

/// The uses of the kernarg words of `f`, whose kernarg pointer is in `s[k:k+1]`.
pub fn uses(f: &GcnFunction, kernarg_pointer: u32) -> KernargUses {
    let mut out = KernargUses::default();
    let mut taint: Taint = BTreeMap::new();
    let mut moved: Taint = BTreeMap::new();
    let kp = (
        GcnReg::Sgpr(kernarg_pointer),
        GcnReg::Sgpr(kernarg_pointer + 1),
    );
    // The loads from the segment: their destinations' words.
    for ins in &f.instructions {
        if !ins.opcode.starts_with("s_load_dword") || pair(ins, 1) != Some(kp.clone()) {
            continue;
        }
        let (Some(dst), Some(off)) = (ins.operands.first(), ins.operands.get(2)) else {
            continue;
        };
        let (GcnOperandKind::Sgpr { first, count }, GcnOperandKind::Int { value }) =
            (&dst.kind, &off.kind)
        else {
            continue;
        };
        let Ok(off) = u64::try_from(*value) else {
            continue;
        };
        for i in 0..*count {
            let word = off + 4 * u64::from(i);
            out.loaded.insert(word);
            taint
                .entry(GcnReg::Sgpr(first + i))
                .or_default()
                .insert(word);
            moved
                .entry(GcnReg::Sgpr(first + i))
                .or_default()
                .insert(word);
        }
    }
    // Propagation to a fixed point (bounded: every pass adds words or stops).
    for _ in 0..64 {
        let mut changed = false;
        for ins in &f.instructions {
            let op = ins.opcode.as_str();
            if is_memory_load(op) {
                continue;
            }
            let is_move = op.starts_with("s_mov_b32")
                || op.starts_with("v_mov_b32")
                || op.starts_with("v_readfirstlane_b32");
            let mut carried = BTreeSet::new();
            let mut carried_moved = BTreeSet::new();
            for r in ins.reads.iter().filter(|r| !is_control(r)) {
                carried.extend(taint.get(r).into_iter().flatten().copied());
                if is_move {
                    carried_moved.extend(moved.get(r).into_iter().flatten().copied());
                }
            }
            for w in ins.writes.iter().filter(|w| !is_control(w)) {
                for (map, words) in [(&mut taint, &carried), (&mut moved, &carried_moved)] {
                    if words.is_empty() {
                        continue;
                    }
                    let set = map.entry(w.clone()).or_default();
                    let before = set.len();
                    set.extend(words.iter().copied());
                    changed |= set.len() != before;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let empty = BTreeSet::new();
    let of = |m: &Taint, r: &GcnReg| m.get(r).unwrap_or(&empty).clone();
    for ins in &f.instructions {
        for (lo, hi) in address_pairs(ins) {
            if (lo.clone(), hi.clone()) == kp {
                continue;
            }
            let (l, h) = (of(&taint, &lo), of(&taint, &hi));
            out.pointers
                .extend(l.iter().filter(|&&o| o % 8 == 0 && h.contains(&(o + 4))));
        }
        let op = ins.opcode.as_str();
        let float = op.contains("_f32") && !op.starts_with("v_cvt_f32_") && !op.starts_with("s_");
        if float {
            for r in ins.reads.iter().filter(|r| !is_control(r)) {
                out.floats.extend(of(&moved, r));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written kernel: `k(float *a, int n, float x)` laid out as a at 0, n at 8, x
    /// at 12 (kernarg pointer s[4:5]): a is an address (plus an index from n), x a float,
    /// n neither.
    #[test]
    fn pointer_int_and_float_by_hand() {
        let src = "k:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_load_dword s2, s[4:5], 0x8
  s_load_dword s3, s[4:5], 0xc
  s_waitcnt lgkmcnt(0)
  v_mul_lo_u32 v1, s2, v0
  v_ashrrev_i32_e32 v2, 31, v1
  v_lshlrev_b64 v[1:2], 2, v[1:2]
  v_mov_b32_e32 v3, s1
  v_add_u32_e32 v1, vcc, s0, v1
  v_addc_u32_e32 v2, vcc, v3, v2, vcc
  flat_load_dword v4, v[1:2]
  v_mov_b32_e32 v5, s3
  s_waitcnt vmcnt(0)
  v_mul_f32_e32 v4, v5, v4
  flat_store_dword v[1:2], v4
  s_endpgm
";
        let program = isa::gcn::parse(src, &isa::Limits::default());
        let f = program.function(None).expect("k");
        let u = uses(f, 4);
        assert_eq!(u.loaded, BTreeSet::from([0, 4, 8, 12]));
        assert_eq!(u.pointers, BTreeSet::from([0]));
        assert_eq!(u.floats, BTreeSet::from([12]));
    }
}
