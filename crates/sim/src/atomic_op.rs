//! The read-modify-write of one atomic memory operation, shared by the PTX (`atom`, `red`)
//! and GCN3 (`flat_atomic_*`, `global_atomic_*`, `ds_*` atomics) front ends: both ISAs
//! define the same operations on the old value and the operands.

/// An atomic operation (PTX ISA, "Parallel Synchronization and Communication Instructions: atom"; AMD GCN3 ISA,
/// chapter 12 "Instructions", the FLAT and DS
/// opcodes: `ADD`, `SUB`, `SWAP`, `CMPSWAP`, `SMIN`/`UMIN`, `SMAX`/`UMAX`, `AND`, `OR`,
/// `XOR`, `INC`, `DEC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomOp {
    And,
    Or,
    Xor,
    /// Exchange (GCN3 `swap`).
    Exch,
    /// `old == b ? c : old` (PTX `cas`; GCN3 `cmpswap` with `b` the compared value).
    Cas,
    Add,
    Sub,
    /// `old >= b ? 0 : old + 1`.
    Inc,
    /// `old == 0 || old > b ? b : old − 1`.
    Dec,
    Min,
    Max,
}

/// How the operands of `min`, `max` and `add` are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Unsigned,
    Signed,
    Float,
}

/// The new memory value of `op` on the old value `old` with operands `b` (and `c` for
/// `cas`), each the low `bits` bits of its word. The ISA's definitions: `inc`:
/// `old >= b ? 0 : old + 1`; `dec`: `old == 0 || old > b ? b : old − 1`; `cas`:
/// `old == b ? c : old`; `min`/`max` signed for `.s32`/`.s64`; `add.f32`/`.f64` in IEEE
/// arithmetic (round to nearest).
pub(crate) fn apply(op: AtomOp, bits: u32, kind: Kind, old: u64, b: u64, c: u64) -> u64 {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let signed = |v: u64| -> i64 {
        if bits >= 64 {
            v as i64
        } else {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    let r = match op {
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if old & mask == b & mask {
                c
            } else {
                old
            }
        }
        AtomOp::Add => match (kind, bits) {
            (Kind::Float, 32) => {
                let s = f32::from_bits(old as u32) + f32::from_bits(b as u32);
                u64::from(crate::canonical_nan::f32_bits(s))
            }
            (Kind::Float, _) => {
                crate::canonical_nan::f64_bits(f64::from_bits(old) + f64::from_bits(b))
            }
            _ => old.wrapping_add(b),
        },
        AtomOp::Sub => old.wrapping_sub(b),
        AtomOp::Inc => {
            if old & mask >= b & mask {
                0
            } else {
                old.wrapping_add(1)
            }
        }
        AtomOp::Dec => {
            if old & mask == 0 || old & mask > b & mask {
                b
            } else {
                old.wrapping_sub(1)
            }
        }
        AtomOp::Min | AtomOp::Max => {
            let less = if kind == Kind::Signed {
                signed(old) < signed(b)
            } else {
                old & mask < b & mask
            };
            if less == (op == AtomOp::Min) {
                old
            } else {
                b
            }
        }
    };
    r & mask
}
